#if canImport(Glibc)
import Glibc

/// The process's heap allocations so far, as counted by Benchmarks/Tools/malloc-count.c when Scripts/bench-http.sh
/// loads it (LD_PRELOAD); `nil` without it.
public enum AllocationCounter {
    private typealias Count = @convention(c) () -> UInt
    /// `bench_malloc_count`, looked up in the process's global scope (`RTLD_DEFAULT`, a null handle).
    private static let count: Count? = dlsym(nil, "bench_malloc_count").map { unsafeBitCast($0, to: Count.self) }

    /// The allocations made so far, or `nil` when the shim is not loaded.
    public static func allocations() -> UInt? {
        count?()
    }
}
#else
/// The process's heap allocations so far: counted only on Linux (Benchmarks/Tools/malloc-count.c).
public enum AllocationCounter {
    /// Always `nil` here.
    public static func allocations() -> UInt? { nil }
}
#endif
