/// How long a resolved instance lives.
public enum Lifetime: Sendable, Hashable {
    /// Built once, on first resolve (exactly once, even when many threads resolve it at the same time), then
    /// shared. Re-registering discards it.
    case singleton
    /// Built anew on every resolve. GirdersSwift's `addPerRequest`.
    case perRequest
    /// Shared while someone holds a strong reference to it; built anew after it was released. Class instances
    /// only.
    case weak
    /// One instance within one top-level resolve: every dependency in that graph that asks for it gets the same
    /// one. Together with `completed` hooks this wires property-injected cycles.
    case graph
}
