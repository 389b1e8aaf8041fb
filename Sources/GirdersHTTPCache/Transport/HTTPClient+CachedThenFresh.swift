import Foundation
public import GirdersNetworking

extension HTTP {
    /// The stored response at once, then the server's: for a screen that shows what it has while it asks.
    ///
    /// Needs a ``CachingTransport`` in the client's transport. The first element is the stored response, whatever
    /// its age (`HTTPResponse/cacheUse` says `.stored(age:isStale:)`; asked with `CachePolicy/cacheOnly`), left
    /// out when nothing is stored; the second is the server's answer (`CachePolicy/revalidate`: a `304` comes back
    /// as the stored body with `.revalidated`), or the sequence throws its error. Without a caching transport the
    /// first request is answered by the network, and that answer is the only element.
    ///
    /// ```swift
    /// for try await response in client.cachedThenFresh(Request(URL: feedURL, method: .get)) {
    ///     show(response.body, stale: response.cacheUse != nil)
    /// }
    /// ```
    ///
    /// Ending the iteration (or cancelling its task) cancels the request in flight.
    public func cachedThenFresh(_ request: Request) -> AsyncThrowingStream<HTTPResponse, any Error> {
        cachedThenFresh(request) { response in response }
    }

    /// ``cachedThenFresh(_:)`` with each body decoded as `T` by ``responseHandlers``; a stored response that does
    /// not decode is left out.
    public func cachedThenFresh<T: Sendable>(
        _ request: Request, as type: T.Type = T.self
    )
        -> AsyncThrowingStream<Response<T>, any Error>
    {
        let handlers = responseHandlers
        return cachedThenFresh(request) { (raw) throws(ResponseError) -> Response<T> in
            Response(raw, bodyObject: try handlers.decode(raw, as: T.self))
        }
    }

    private func cachedThenFresh<Element: Sendable>(
        _ request: Request, _ transform: @escaping @Sendable (HTTPResponse) throws(ResponseError) -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, any Error>.makeStream()
        let task = Task {
            let cached = Request(MutableRequest(request) |> withCachePolicy(.cacheOnly))
            if let stored = try? await perform(cached), let element = try? transform(stored) {
                continuation.yield(element)
                // No cache in the transport: the network answered already.
                if stored.cacheUse == nil { return continuation.finish() }
            }
            do throws(ResponseError) {
                let fresh = try await perform(Request(MutableRequest(request) |> withCachePolicy(.revalidate)))
                continuation.yield(try transform(fresh))
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
