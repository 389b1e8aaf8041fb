public import Foundation

/// GirdersSwift's HTTP client protocol: execute a ``Request`` and get a typed ``Response``, with async/await or a
/// completion handler. Both run the same core, ``perform(_:)``.
///
/// ```swift
/// let response: Response<LoginReply> = try await httpClient.executeRequest(request: request)
///
/// httpClient.executeRequest(request: request) { (result: Result<Response<LoginReply>, Error>) in
///     // runs exactly once, on the main queue unless another queue is given
/// }
/// ```
public protocol HTTP: Sendable {
    /// Sends the request (following redirects), validates the response and returns it undecoded.
    func perform(_ request: Request) async throws(ResponseError) -> HTTPResponse

    /// The handlers that decode bodies for ``executeRequest(request:)``.
    var responseHandlers: ResponseHandlerChain { get }

    /// ``perform(_:)`` with progress reports and a download destination (see ``TransferOptions``).
    func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse
}

extension HTTP {
    /// Performs the request, then reports its body as one progress step and writes a successful body to the
    /// download destination: for clients that cannot stream.
    public func perform(_ request: Request, options: TransferOptions) async throws(ResponseError) -> HTTPResponse {
        try DownloadFile.place(options.deliver(try await perform(request)), at: options.downloadDestination)
    }
}

extension HTTP {
    /// Executes the request and decodes the body as `T` with ``responseHandlers``.
    ///
    /// Cancelling the calling `Task` cancels the transfer and throws ``ResponseError/cancelled(url:)``.
    public func executeRequest<T>(
        request: Request, as type: T.Type = T.self
    ) async throws(ResponseError)
        -> sending Response<T>
    {
        let raw = try await perform(request)
        return Response(raw, bodyObject: try responseHandlers.decode(raw, as: T.self))
    }

    /// Executes the request and calls `completion` exactly once, on `queue`, with the decoded response or the
    /// error (a ``ResponseError``). Cancelling the returned handle cancels the transfer; the completion then
    /// receives ``ResponseError/cancelled(url:)``.
    @discardableResult
    public func executeRequest<T>(
        request: Request, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Response<T>, any Error>) -> Void
    ) -> RequestHandle {
        RequestHandle(queue: queue, completion: completion) { () async -> Result<Response<T>, any Error> in
            do {
                return .success(try await self.executeRequest(request: request, as: T.self))
            } catch {
                return .failure(error)
            }
        }
    }

    /// GirdersSwift's spelling of ``executeRequest(request:queue:completion:)``: the same call, with the
    /// `completionHandler:` label (the result is Swift's `Result`, `.success` / `.failure`). Disfavoured, so a
    /// trailing closure picks the `completion:` form and stays unambiguous. The handler need not be `@Sendable`,
    /// as in GirdersSwift, so existing handlers pass without a warning; it runs exactly once, on `queue`.
    @discardableResult
    @_disfavoredOverload
    public func executeRequest<T>(
        request: Request, queue: DispatchQueue = .main,
        completionHandler: @escaping (Result<Response<T>, any Error>) -> Void
    ) -> RequestHandle {
        let handler = HandlerHandover(completionHandler)
        return executeRequest(request: request, queue: queue) { handler.call($0) }
    }
}

/// A completion handler that is not `@Sendable`, carried to the queue it runs on.
///
/// `@unchecked Sendable` holds because the handler is called at most once (the `completion:` form calls it
/// exactly once, on one queue) and nothing else touches it: it is never run on two threads at once.
/// Tested by `theCompletionHandlerFormRunsOnceOnTheGivenQueue`.
private final class HandlerHandover<Value>: @unchecked Sendable {
    private let handler: (Value) -> Void

    init(_ handler: @escaping (Value) -> Void) {
        self.handler = handler
    }

    func call(_ value: Value) {
        handler(value)
    }
}

/// The handle of a request started with a completion handler.
public final class RequestHandle: Sendable {
    private let task: Task<Void, Never>

    /// Runs `operation` in a detached task and hands its result to `completion`, once, on `queue`.
    init<Value, Failure: Error>(
        queue: DispatchQueue, completion: @escaping @Sendable (Result<Value, Failure>) -> Void,
        operation: @escaping @Sendable () async -> sending Result<Value, Failure>
    ) {
        task = Task.detached {
            let outcome = await operation()
            // The value may not be Sendable (`[String: Any]`): hand it over through a lock box, once.
            let handover = LockedState<Result<Value, Failure>?>(outcome)
            queue.async {
                if let outcome = handover.withLock({ $0.take() }) { completion(outcome) }
            }
        }
    }

    /// ``init(queue:completion:operation:)`` for an operation with a typed error.
    convenience init<Value: Sendable>(
        queue: DispatchQueue, completion: @escaping @Sendable (Result<Value, ResponseError>) -> Void,
        operation: @escaping @Sendable () async throws(ResponseError) -> Value
    ) {
        self.init(queue: queue, completion: completion) { () async -> Result<Value, ResponseError> in
            do throws(ResponseError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Cancels the transfer; the completion receives ``ResponseError/cancelled(url:)`` unless it already ran.
    public func cancel() {
        task.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}
