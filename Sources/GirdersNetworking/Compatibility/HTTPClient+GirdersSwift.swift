#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// GirdersSwift's `HTTPClient` initialisers.
extension HTTPClient {
    /// GirdersSwift's `HTTPClient(urlSession:handlers:)`: a client on ``URLSessionTransport/init(session:)``, so
    /// with the session's configuration (see there for what is and is not shared), and the cookie jar its cookie
    /// settings describe (``CookieJars/jar(for:)``), as GirdersSwift's session kept its cookies.
    public convenience init(urlSession: URLSession, handlers: [any ResponseHandler] = []) {
        self.init(
            transport: URLSessionTransport(configuration: urlSession.configuration, delegateQueue: nil),
            responseHandlers: Self.chain(first: handlers), cookieJar: CookieJars.jar(for: urlSession.configuration))
    }

    /// `handlers`, then the standard chain.
    static func chain(first handlers: [any ResponseHandler]) -> ResponseHandlerChain {
        ResponseHandlerChain(handlers + ResponseHandlerChain.standard.handlers)
    }
}
