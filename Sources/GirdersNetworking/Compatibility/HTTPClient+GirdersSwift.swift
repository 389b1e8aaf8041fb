#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// GirdersSwift's `HTTPClient` initialisers.
extension HTTPClient {
    /// GirdersSwift's `HTTPClient(urlSession:handlers:)`: a client on ``URLSessionTransport/init(session:)``, so
    /// with the session's configuration (see there for what is and is not shared).
    public convenience init(urlSession: URLSession, handlers: [any ResponseHandler] = []) {
        self.init(
            transport: URLSessionTransport(session: urlSession),
            responseHandlers: Self.chain(first: handlers))
    }

    /// `handlers`, then the standard chain.
    static func chain(first handlers: [any ResponseHandler]) -> ResponseHandlerChain {
        ResponseHandlerChain(handlers + ResponseHandlerChain.standard.handlers)
    }
}
