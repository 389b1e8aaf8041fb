import Foundation  // Glibc's explicit_bzero, Darwin's memset_s

/// Overwrites key material once it is no longer needed.
///
/// Swift gives no guarantee that a value was never copied (an array shared with another variable is copied on
/// write, and the optimiser may keep copies in registers or on the stack), so this narrows the window in which a
/// memory dump or a core file shows a key; it does not close it. The wipe itself cannot be optimised away
/// (`explicit_bzero` on Linux, `memset_s` on Apple platforms).
enum Secret {
    /// Sets every byte of `bytes` (key material, or a password's `CChar`s) to zero, in place.
    static func wipe<Element>(_ bytes: inout [Element]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            #if canImport(Glibc)
            explicit_bzero(base, buffer.count)
            #else
            _ = memset_s(base, buffer.count, 0, buffer.count)
            #endif
        }
    }
}
