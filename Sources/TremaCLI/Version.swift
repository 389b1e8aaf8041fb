/// The version of Girders, in one place: `trema --version` prints it, and `CHANGELOG.md` names it as its latest
/// release (a test checks that the two agree).
enum GirdersVersion {
    static let current = "0.1.0"
}
