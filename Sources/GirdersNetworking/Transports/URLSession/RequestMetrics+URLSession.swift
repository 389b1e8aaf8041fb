import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RequestMetrics {
    /// What ``URLSessionTransport`` reads from one `URLSessionTaskTransactionMetrics`, copied field by field so the
    /// mapping below runs in the Linux tests with values of their own (FoundationNetworking never delivers task
    /// metrics, and the type cannot be made outside Foundation).
    struct Transaction: Equatable {
        var fetchStart: Date?
        var domainLookupStart: Date?
        var domainLookupEnd: Date?
        var connectStart: Date?
        var connectEnd: Date?
        var secureConnectionStart: Date?
        var secureConnectionEnd: Date?
        var requestStart: Date?
        var responseStart: Date?
        var responseEnd: Date?
        var networkProtocolName: String?
        var isReusedConnection = false
        var requestHeaderBytes: Int64 = 0
        var requestBodyBytes: Int64 = 0
        var responseHeaderBytes: Int64 = 0
        var responseBodyBytes: Int64 = 0
    }

    /// The metrics of `task`'s last transaction (the one that fetched the response: URLSession follows no
    /// redirects for Girders, so earlier ones are at most a cache lookup); `nil` when it had none.
    init?(url: URL, task metrics: URLSessionTaskMetrics) {
        guard let last = metrics.transactionMetrics.last else { return nil }
        let transaction = Transaction(
            fetchStart: last.fetchStartDate, domainLookupStart: last.domainLookupStartDate,
            domainLookupEnd: last.domainLookupEndDate, connectStart: last.connectStartDate,
            connectEnd: last.connectEndDate, secureConnectionStart: last.secureConnectionStartDate,
            secureConnectionEnd: last.secureConnectionEndDate, requestStart: last.requestStartDate,
            responseStart: last.responseStartDate, responseEnd: last.responseEndDate,
            networkProtocolName: last.networkProtocolName, isReusedConnection: last.isReusedConnection,
            requestHeaderBytes: last.countOfRequestHeaderBytesSent, requestBodyBytes: last.countOfRequestBodyBytesSent,
            responseHeaderBytes: last.countOfResponseHeaderBytesReceived,
            responseBodyBytes: last.countOfResponseBodyBytesReceived)
        self.init(url: url, transaction: transaction)
    }

    /// The metrics one URLSession transaction describes: each phase from its start and end dates (absent when
    /// either is; URLSession's connect ends after TLS, so TCP's part ends where TLS starts), the time to first byte
    /// from the fetch's start to the response's, the protocol from its ALPN name (`http/1.0`, `http/1.1`, `h2`,
    /// `h3`; another name is `nil`), and the byte counts of head and body together.
    init(url: URL, transaction t: Transaction) {
        self.init(url: url)
        func span(_ start: Date?, _ end: Date?) -> Duration? {
            guard let start, let end else { return nil }
            let seconds = max(end.timeIntervalSince(start), 0)
            return seconds.isFinite ? .nanoseconds(Int64(min(seconds, 1e9) * 1e9)) : nil
        }
        reusedConnection = t.isReusedConnection
        domainLookup = span(t.domainLookupStart, t.domainLookupEnd)
        connect = span(t.connectStart, t.secureConnectionStart ?? t.connectEnd)
        secureConnection = span(t.secureConnectionStart, t.secureConnectionEnd)
        timeToFirstByte = span(t.fetchStart, t.responseStart)
        transfer = span(t.responseStart, t.responseEnd)
        total = span(t.fetchStart, t.responseEnd)
        networkProtocol = t.networkProtocolName.flatMap { NetworkProtocol(rawValue: $0.lowercased()) }
        bytesSent = max(t.requestHeaderBytes, 0) + max(t.requestBodyBytes, 0)
        bytesReceived = max(t.responseHeaderBytes, 0) + max(t.responseBodyBytes, 0)
    }
}
