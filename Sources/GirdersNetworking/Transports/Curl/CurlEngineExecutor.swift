#if canImport(CGirdersCurl)
/// The thread of a ``CurlTransport`` as a `TaskExecutor` (``CurlTransport/taskExecutor``): a task that prefers it
/// runs between libcurl's calls on the engine's thread, so a response resumes its caller where it arrived and the
/// caller's next request reaches libcurl on the same thread: no hand-over between threads on either side, one
/// thread doing what libcurl's own programs do with one.
///
/// A job enqueued after the transport was released runs on the global concurrent executor instead, so a task that
/// prefers it never waits for a thread that has ended.
final class CurlEngineExecutor: TaskExecutor {
    private let engine: CurlEngine

    init(engine: CurlEngine) {
        self.engine = engine
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !engine.enqueue(job, on: asUnownedTaskExecutor()) { Self.runElsewhere(job) }
    }

    /// Hands `job` to the global concurrent executor.
    static func runElsewhere(_ job: UnownedJob) {
        globalConcurrentExecutor.enqueue(ExecutorJob(job))
    }
}
#endif
