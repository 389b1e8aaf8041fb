import GirdersSupport

/// The mutable registrations of a container and the snapshot published from them.
///
/// The snapshot is made on the first resolve after a change, so registering n services costs O(n), not O(n²).
struct Registry {
    var registrations: [RegistrationKey: Registration] = [:]
    var generation = 0
    private var published: Snapshot?

    /// Marks the registrations changed: the next ``snapshot()`` makes a new one.
    mutating func registrationsChanged() {
        published = nil
    }

    /// The snapshot of the current registrations.
    mutating func snapshot() -> Snapshot {
        if let published { return published }
        let fresh = Snapshot(registrations: registrations)
        published = fresh
        return fresh
    }
}
