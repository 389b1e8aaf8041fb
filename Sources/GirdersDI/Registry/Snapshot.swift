/// An immutable view of a container's registrations, shared by every thread until the next change.
///
/// Unnamed registrations (the common case) also sit in an open-addressing table keyed by the type's identity, so
/// a lookup hashes no names and touches no reference count (an array would retain its buffer on every read,
/// about a fifth of a resolve). Two unsafe constructs, each with its invariant:
/// - `slots` is raw memory of `mask + 1` entries, allocated and initialised in `init`, freed in `deinit`, never
///   written in between; every index is masked, so no read leaves it.
/// - each slot's registration is `Unmanaged`: `registrations`, a `let` of the same snapshot, owns every one.
@usableFromInline
final class Snapshot: @unchecked Sendable {
    @usableFromInline struct Slot {
        @usableFromInline var identity: UInt = 0
        @usableFromInline var registration: Unmanaged<Registration>?
    }

    @usableFromInline let registrations: [RegistrationKey: Registration]
    @usableFromInline let slots: UnsafeMutablePointer<Slot>
    @usableFromInline let mask: Int

    init(registrations: [RegistrationKey: Registration]) {
        self.registrations = registrations
        var capacity = 8
        while capacity < registrations.count * 2 { capacity *= 2 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(), count: capacity)
        mask = capacity - 1
        for (key, registration) in registrations where key.name == nil {
            var index = Self.slot(for: UInt(bitPattern: key.type), mask: mask)
            while slots[index].identity != 0 { index = (index + 1) & mask }
            slots[index] = Slot(identity: UInt(bitPattern: key.type), registration: .passUnretained(registration))
        }
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    @inlinable
    static func slot(for bits: UInt, mask: Int) -> Int {
        Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 29) & mask
    }

    @inlinable
    func registration(for type: ObjectIdentifier, name: String?) -> Registration? {
        guard let name else { return unnamed(type)?.takeUnretainedValue() }
        return registrations[RegistrationKey(type: type, name: name)]
    }

    /// At most half the slots are used, so the probe always reaches an empty slot.
    @inlinable
    func unnamed(_ type: ObjectIdentifier) -> Unmanaged<Registration>? {
        Self.unnamed(type, slots: slots, mask: mask)
    }

    /// The lookup over a snapshot's `slots` and `mask` (see ``ThreadLocalState``).
    @inlinable
    static func unnamed(
        _ type: ObjectIdentifier, slots: UnsafeMutablePointer<Slot>, mask: Int
    ) -> Unmanaged<Registration>? {
        let bits = UInt(bitPattern: type)
        var index = slot(for: bits, mask: mask)
        while true {
            let slot = slots[index]
            if slot.identity == bits { return slot.registration }
            if slot.identity == 0 { return nil }
            index = (index + 1) & mask
        }
    }
}
