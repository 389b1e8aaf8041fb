import GirdersSupport
import Testing

/// ``StringProtocol/split(atScalar:maxSplits:omittingEmptySubsequences:)`` and its siblings find a separator that a
/// combining mark follows, which `String`'s Character-level functions do not.
struct ScalarTextTests {
    @Test func aCombiningMarkAfterTheSeparatorHidesItFromCharactersButNotFromScalars() {
        let path = "a/\u{301}b"
        #expect(path.split(separator: "/").count == 1)  // what the Character-level split sees
        #expect(path.split(atScalar: "/") == ["a", "\u{301}b"])
    }

    @Test func splittingKeepsOrOmitsEmptyPartsAndStopsAfterMaxSplits() {
        #expect("/a//b/".split(atScalar: "/") == ["a", "b"])
        #expect("/a//b/".split(atScalar: "/", omittingEmptySubsequences: false) == ["", "a", "", "b", ""])
        #expect("k=v=w".split(atScalar: "=", maxSplits: 1) == ["k", "v=w"])
        #expect("".split(atScalar: "/", omittingEmptySubsequences: false) == [""])
        #expect("".split(atScalar: "/").isEmpty)
    }

    @Test func aSubstringIsSplitWithinItsOwnBounds() {
        let text = "x;a;\u{301}b;y"
        let inner = text.dropFirst(2).dropLast(2)
        #expect(inner.split(atScalar: ";") == ["a", "\u{301}b"])
    }

    @Test func containsAndFirstIndexFindTheScalars() {
        #expect("*/\u{301}".containsScalars("*/"))
        #expect(!"*/\u{301}".contains("*/"))  // what the Character-level search sees
        #expect(!"* /".containsScalars("*/"))
        #expect("abc".containsScalars(""))
        #expect("aab".containsScalars("ab"))
        let text = "n=\u{301}v"
        #expect(text.firstIndex(ofScalar: "=").map { text.unicodeScalars.distance(from: text.startIndex, to: $0) } == 1)
        #expect(text.firstIndex(ofScalar: ";") == nil)
    }

    @Test func replacingFindsEveryRunLeftToRight() {
        #expect("it'\u{301}s".replacingScalars("'", with: "'\\''") == "it'\\''\u{301}s")
        #expect("---".replacingScalars("--", with: "- -") == "- --")
        #expect("".replacingScalars("a", with: "b") == "")
        #expect("abc".replacingScalars("x", with: "y") == "abc")
    }

    @Test(arguments: [
        ("/data/app/\u{301}store.json", "/data/app", "\u{301}store.json"), ("/store.json", "/", "store.json"),
        ("store.json", ".", "store.json"),
    ])
    func anAtomicFilesFolderIsFoundAtTheLastSlashScalar(path: String, folder: String, name: String) {
        let split = AtomicFile.split(path)
        #expect(split.folder == folder)
        #expect(split.name == name)
    }
}
