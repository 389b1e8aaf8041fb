import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide settings that several test targets change. All test targets run in one process, in parallel, so a
/// test that changes one of these holds its lock: a file lock (`flock`) in the temporary folder, which also
/// excludes other open descriptors of the same process.
public enum TestLock: String, Sendable {
    /// `Container.shared`: `removeAll` or `cleanup` in one target would pull registrations from under another
    /// target's `resolve()`, which stops the program.
    case sharedContainer = "girders-shared-container"
    /// `NetworkingDefaults.configuration`.
    case networkingDefaults = "girders-networking-defaults"

    private func openFile() -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(rawValue + ".lock").path
        return open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    }

    /// Runs synchronous `body` holding the lock; waits by blocking, which is fine for a body that needs no other
    /// thread to finish.
    public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        let descriptor = openFile()
        if descriptor >= 0 { flock(descriptor, LOCK_EX) }
        defer { if descriptor >= 0 { close(descriptor) } }
        return try body()
    }

    /// Runs async `body` holding the lock; waits by polling, so a waiting test never blocks a thread of the
    /// cooperative pool that the holder may need.
    public func withLock<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async throws -> Result {
        let descriptor = openFile()
        defer { if descriptor >= 0 { close(descriptor) } }
        while descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        return try await body()
    }
}
