import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionTransport {
    /// A WebSocket's opening handshake. On Linux FoundationNetworking's `URLSessionWebSocketTask` cannot connect
    /// (the toolchains' libcurl has no WebSocket, swift-corelibs-foundation #5431), so the connection is libcurl's
    /// own, as on ``CurlTransport``: the same framing, the same checks.
    func openWebSocket(_ request: WireRequest, into sink: ResponseSink) async throws(ResponseError) {
        #if canImport(CGirdersCurl)
        try await CurlWebSocketOpener.open(request, into: sink)
        #else
        throw .unsupported(feature: "WebSocket on URLSessionTransport on this platform")
        #endif
    }
}
