public import Foundation

/// The completion-handler forms of the async calls, in the shapes GirdersSwift's (`executeRequest(request:completion:)`)
/// and danielbyon/Requests' (`send(_:queue:completion:)`) users call: each runs the async form in a task through one
/// adapter (``RequestHandle``) and calls `completion` exactly once, on `queue`.
extension HTTP {
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
    /// `send(_:)` of a `TypedRequest` with a completion handler (danielbyon/Requests' `addRequest(_:completion:)`):
    /// `completion` runs exactly once, on `queue`, with the value or the error. Cancelling the returned handle
    /// cancels the transfer; the completion then receives ``ResponseError/cancelled(url:)``.
    @discardableResult
    public func send<Typed: TypedRequest>(
        _ typed: Typed, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Typed.Success, ResponseError>) -> Void
    ) -> RequestHandle {
        RequestHandle(queue: queue, completion: completion) { () async throws(ResponseError) in
            try await self.send(typed)
        }
    }

    /// `send(_:)` of a `NoContentRequest` with a completion handler that runs exactly once, on `queue`.
    @discardableResult
    public func send<NoContent: NoContentRequest>(
        _ typed: NoContent, queue: DispatchQueue = .main,
        completion: @escaping @Sendable (Result<Void, ResponseError>) -> Void
    ) -> RequestHandle {
        RequestHandle(queue: queue, completion: completion) { () async throws(ResponseError) in
            try await self.send(typed)
        }
    }
}

/// GirdersSwift's completion-handler call, kept with its label.
extension HTTP {
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
