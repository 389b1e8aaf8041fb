public import Foundation

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
