public import Foundation

/// What the transport measured for one exchange: one request sent and its response (each redirect hop and each
/// retry is an exchange of its own), delivered to ``EventMonitor/requestDidCollectMetrics(_:attempt:metrics:)``
/// when the exchange ends, successfully or not.
///
/// Every field is optional: a transport fills in what it measured and leaves the rest `nil`.
/// - **CurlTransport** measures every field from libcurl's `CURLINFO_*` facts. A reused connection has no lookup,
///   connect or TLS phase (those are `nil`); whether it was reused is inferred from `CURLINFO_NUM_CONNECTS` (no new
///   connection: reused), which libcurl 7.88 reports for a finished transfer.
/// - **URLSessionTransport** maps `URLSessionTaskMetrics` (the last transaction of the task) on Apple platforms.
///   FoundationNetworking on Linux collects no task metrics, so there this transport reports none at all.
/// - `StubTransport` and ``CoalescingTransport`` (whose callers share one exchange) report none;
///   `CachingTransport` passes on what its transport measured.
///
/// The phases follow each other: ``domainLookup``, ``connect`` (TCP), ``secureConnection`` (TLS), then
/// ``timeToFirstByte`` (from the start of the exchange to the first byte of the response) and ``transfer`` (from
/// that byte to the last); ``total`` is the whole exchange.
///
/// ```swift
/// struct Timings: EventMonitor {
///     func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {
///         print(metrics.url, metrics.timeToFirstByte ?? .zero, metrics.reusedConnection ?? false)
///     }
/// }
/// ```
public struct RequestMetrics: Sendable, Equatable {
    /// The protocol a response came over.
    public enum NetworkProtocol: String, Sendable, Equatable {
        case http1_0 = "http/1.0"
        case http1_1 = "http/1.1"
        case http2 = "h2"
        case http3 = "h3"
    }

    /// The URL of this exchange (after redirects, the hop's own).
    public var url: URL
    /// Resolving the host name.
    public var domainLookup: Duration?
    /// Opening the TCP connection, after the lookup.
    public var connect: Duration?
    /// The TLS handshake, after the TCP connection; `nil` for plain http and on a reused connection.
    public var secureConnection: Duration?
    /// From the start of the exchange to the first byte of the response.
    public var timeToFirstByte: Duration?
    /// From the first byte of the response to the last.
    public var transfer: Duration?
    /// The whole exchange.
    public var total: Duration?
    /// The protocol the response came over.
    public var networkProtocol: NetworkProtocol?
    /// Whether the exchange went over a connection an earlier one opened.
    public var reusedConnection: Bool?
    /// The bytes of the request sent: its head and body as they went out.
    public var bytesSent: Int64?
    /// The bytes of the response received: its head and body as they came in (before content decoding).
    public var bytesReceived: Int64?
    /// How a `CachingTransport` answered: `.stored` for a response from the store (nothing else measured: no
    /// exchange took place), `.revalidated` for a `304` (the exchange's own figures beside it); `nil` without one.
    public var cacheUse: CacheUse?

    /// Metrics of an exchange with `url` with nothing measured yet.
    public init(url: URL) {
        self.url = url
    }
}

extension RequestMetrics {
    /// libcurl's facts of one finished transfer: times in microseconds since the transfer started
    /// (`CURLINFO_*_TIME_T`; `0` for a phase that did not happen), the protocol as `CURLINFO_HTTP_VERSION`
    /// (`CURL_HTTP_VERSION_*`), the connections it opened and the byte counts.
    struct CurlFacts: Equatable {
        var nameLookup: Int64 = 0
        var connect: Int64 = 0
        var appConnect: Int64 = 0
        var preTransfer: Int64 = 0
        var startTransfer: Int64 = 0
        var total: Int64 = 0
        var httpVersion: Int = 0
        var newConnections: Int = 0
        var requestHeadBytes: Int = 0
        var uploadedBytes: Int64 = 0
        var responseHeadBytes: Int = 0
        var downloadedBytes: Int64 = 0
    }

    /// The metrics libcurl's `facts` describe. Each time is cumulative from the start, so a phase is the difference
    /// to the one before. Whether the connection was reused is known only once the request was about to go out
    /// (`preTransfer`): then no new connection means a reused one, which had no lookup, connect or TLS phase. A
    /// transfer that never connected (refused, a lookup that failed) has only the phases it went through.
    init(url: URL, curl facts: CurlFacts) {
        self.init(url: url)
        func duration(_ microseconds: Int64) -> Duration { .microseconds(max(microseconds, 0)) }
        if facts.preTransfer > 0 || facts.startTransfer > 0 { reusedConnection = facts.newConnections == 0 }
        if reusedConnection != true {
            if facts.nameLookup > 0 { domainLookup = duration(facts.nameLookup) }
            if facts.connect > 0 { connect = duration(facts.connect - facts.nameLookup) }
            if facts.appConnect > 0 { secureConnection = duration(facts.appConnect - facts.connect) }
        }
        if facts.startTransfer > 0 {
            timeToFirstByte = duration(facts.startTransfer)
            transfer = duration(facts.total - facts.startTransfer)
        }
        total = duration(facts.total)
        networkProtocol =
            switch facts.httpVersion {
            case 1: .http1_0
            case 2: .http1_1
            case 3: .http2
            case 30: .http3
            default: nil
            }
        bytesSent = Int64(max(facts.requestHeadBytes, 0)) + max(facts.uploadedBytes, 0)
        bytesReceived = Int64(max(facts.responseHeadBytes, 0)) + max(facts.downloadedBytes, 0)
    }
}
