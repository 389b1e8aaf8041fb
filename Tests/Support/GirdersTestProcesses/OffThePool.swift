#if os(macOS) || os(Linux)
import Foundation

/// Runs `work` on a thread of its own and returns what it returned or threw.
///
/// For a blocking wait in a test (a child process, a pipe read to its end, a semaphore): Swift's cooperative threads
/// are as many as the cores (two on CI), every test in flight runs on them, and two tests blocking them at once
/// stall the whole run. One such stall of 30 s (a Python oracle waited for on both threads) made three unrelated
/// tests' waits time out.
public func offThePool<Value: Sendable, Failure: Error>(
    _ work: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
        let thread = Thread {
            do throws(Failure) {
                continuation.resume(returning: .success(try work()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        thread.start()
    }
    return try result.get()
}
#endif
