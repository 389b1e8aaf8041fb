import Foundation

/// A streamed body between the transport's thread and the caller's reader: at most about ``highWater`` bytes wait
/// here; past that a transport that can pause is paused (libcurl's `CURL_WRITEFUNC_PAUSE`, a suspended
/// `URLSessionTask`) and resumed once the reader brought the buffer down to ``lowWater``.
struct StreamBuffer {
    /// Above this many unread bytes, the transport is paused.
    static let highWater = 1 << 20
    /// At or below this many unread bytes, a paused transport is resumed.
    static let lowWater = 256 << 10

    private var chunks: [Data] = []
    private var first = 0
    private(set) var buffered = 0
    private var paused = false
    private var pause: (@Sendable () -> Void)?
    private var resume: (@Sendable () -> Void)?
    private var headReady = false
    private var ended = false
    private var failure: ResponseError?
    /// The limit unread bytes passed on a transport that cannot pause, if they did.
    private(set) var overflow: Int64?
    private var reader: CheckedContinuation<Data?, any Error>?
    private var headWaiter: CheckedContinuation<Void, any Error>?
    /// Cancels the transfer feeding the buffer (set by ``HTTPClient`` for a streamed response).
    var cancelTransfer: (@Sendable () -> Void)?

    /// The continuations to resume once the sink's lock is released, with what they get.
    struct Waiters {
        var reader: (CheckedContinuation<Data?, any Error>, Result<Data?, any Error>)?
        var head: (CheckedContinuation<Void, any Error>, Result<Void, any Error>)?
        /// The transport's resume call, when the reader brought a paused transport's buffer down.
        var transport: (@Sendable () -> Void)?

        func resume() {
            if let (continuation, result) = head { continuation.resume(with: result) }
            if let (continuation, result) = reader { continuation.resume(with: result) }
            transport?()
        }
    }

    mutating func register(pause: (@Sendable () -> Void)?, resume: @escaping @Sendable () -> Void) {
        self.pause = pause
        self.resume = resume
    }

    mutating func headArrived() {
        headReady = true
    }

    /// Whether a transport that can hold bytes back may hand over `count` more now; if not, it is paused.
    mutating func accepts(more count: Int) -> Bool {
        if buffered > 0, buffered + count > Self.highWater {
            paused = true
            return false
        }
        return true
    }

    /// Buffers `data` (or hands it straight to a waiting reader).
    mutating func append(_ data: Data) {
        guard !data.isEmpty else { return }
        chunks.append(data)
        buffered += data.count
    }

    /// Buffers `data` from a transport that has already taken it; returns the transport's pause call when the
    /// buffer passed its high-water mark. Without one, more than `limit` unread bytes is an ``overflow``.
    mutating func append(_ data: Data, limit: Int64) -> (@Sendable () -> Void)? {
        append(data)
        guard buffered > Self.highWater, !paused else { return nil }
        guard let pause else {
            if Int64(buffered) > limit { overflow = limit }
            return nil
        }
        paused = true
        return pause
    }

    mutating func end(_ failure: ResponseError?) {
        guard !ended else { return }
        ended = true
        self.failure = failure
    }

    /// The waiters that can be answered now.
    mutating func takeWaiters() -> Waiters {
        var waiters = Waiters()
        if let headWaiter, headReady || ended {
            self.headWaiter = nil
            // A head that arrived is the caller's even when the body failed meanwhile: the chunks before the failure,
            // then the failure, come through the body, whether or not the caller was already waiting.
            waiters.head = (headWaiter, headReady ? .success(()) : failure.map { .failure($0) } ?? .success(()))
        }
        if let reader {
            if let chunk = takeChunk() {
                self.reader = nil
                waiters.reader = (reader, .success(chunk))
                if paused, buffered <= Self.lowWater {
                    paused = false
                    waiters.transport = resume
                }
            } else if ended {
                self.reader = nil
                waiters.reader = (reader, failure.map { .failure($0) } ?? .success(nil))
            }
        }
        return waiters
    }

    private mutating func takeChunk() -> Data? {
        guard first < chunks.count else { return nil }
        let chunk = chunks[first]
        first += 1
        buffered -= chunk.count
        if first == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            first = 0
        } else if first >= 64 {
            chunks.removeFirst(first)
            first = 0
        }
        return chunk
    }

    /// The next chunk, the end (`nil`), or the failure, if one is there now; and the transport's resume call when
    /// taking it brought a paused transport's buffer down to the low-water mark.
    mutating func next() -> (Result<Data?, ResponseError>?, (@Sendable () -> Void)?) {
        if let chunk = takeChunk() {
            guard paused, buffered <= Self.lowWater else { return (.success(chunk), nil) }
            paused = false
            return (.success(chunk), resume)
        }
        if ended { return (failure.map { .failure($0) } ?? .success(nil), nil) }
        return (nil, nil)
    }

    mutating func wait(_ continuation: CheckedContinuation<Data?, any Error>) -> Waiters {
        reader = continuation
        return takeWaiters()
    }

    mutating func waitForHead(_ continuation: CheckedContinuation<Void, any Error>) -> Waiters {
        headWaiter = continuation
        return takeWaiters()
    }
}

extension ResponseSink {
    /// Registers a transport that can stop reading: the sink calls `pause` when a streamed body's reader lags a
    /// mebibyte behind and `resume` once it caught up. A transport that cannot pause registers nothing: its
    /// stream is then held to ``ResponseLimits/bodyBytes`` of unread bytes.
    public func onBackPressure(pause: (@Sendable () -> Void)?, resume: @escaping @Sendable () -> Void) {
        state.withLock { $0.body.stream.register(pause: pause, resume: resume) }
    }

    /// Waits for the head of a streamed response, or for the end of any other (its body kept in memory).
    func awaitHead() async throws(ResponseError) {
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    state.withLock { $0.body.stream.waitForHead(continuation) }.resume()
                }
            } onCancel: {
                cancelStream()
            }
        } catch {
            throw error as? ResponseError ?? .cancelled(url: request.url)
        }
    }

    /// Whether the response's body is being streamed (a `2xx` for a streamed request).
    var isStreaming: Bool { state.withLock { $0.body.streaming } }

    /// The next piece of a streamed body, or `nil` at its end; throws the exchange's failure. Cancelling the
    /// calling task cancels the transfer.
    func nextChunk() async throws(ResponseError) -> Data? {
        if Task.isCancelled {
            cancelStream()
            throw .cancelled(url: request.url)
        }
        let (ready, resume) = state.withLock { $0.body.stream.next() }
        resume?()
        if let ready { return try ready.get() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                    state.withLock { $0.body.stream.wait(continuation) }.resume()
                }
            } onCancel: {
                cancelStream()
            }
        } catch {
            throw error as? ResponseError ?? .cancelled(url: request.url)
        }
    }

    /// Sets what cancels the transfer feeding a stream.
    func onCancel(_ cancel: @escaping @Sendable () -> Void) {
        state.withLock { $0.body.stream.cancelTransfer = cancel }
    }

    /// The reader gave up: the transfer is cancelled and any waiter gets ``ResponseError/cancelled(url:)``.
    func cancelStream() {
        let cancel = state.withLock { $0.body.stream.cancelTransfer }
        fail(.cancelled(url: request.url))
        cancel?()
    }
}
