public import CoreMetrics
public import GirdersNetworking

/// An ``EventMonitor`` that records every request in swift-metrics: how many (by method and status class), how
/// long, and what the transport measured of each exchange (``RequestMetrics``).
///
/// Recorded, with `prefix` (`girders_http` by default) before each label:
/// - `_requests_total`, a counter per attempt, dimensions `method` and `status_class` (`2xx` … `5xx`, or `error`
///   when no response came back);
/// - `_request_duration`, a timer per attempt (the whole attempt, redirects and validation included), the same
///   dimensions;
/// - `_time_to_first_byte`, a timer per exchange, dimension `method`;
/// - `_bytes_sent_total` and `_bytes_received_total`, counters per exchange (heads and bodies), dimension `method`;
/// - `_connections_opened_total`, a counter per exchange that opened a new connection.
///
/// Labels and dimensions hold no URL, so their number stays bounded whatever the app requests.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())
/// let client = HTTPClient(monitors: [MetricsMonitor()])
/// ```
public struct MetricsMonitor: EventMonitor {
    private let prefix: String
    private let factory: any MetricsFactory

    /// A monitor recording through `factory` (the one `MetricsSystem` was bootstrapped with, by default).
    public init(prefix: String = "girders_http", factory: any MetricsFactory = MetricsSystem.factory) {
        self.prefix = prefix
        self.factory = factory
    }

    /// Counts the attempt and records its duration, by method and status class (a failure's status when it
    /// carries a response, else `error`).
    public func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {
        let statusCode: Int? =
            switch result {
            case .success(let response): response.statusCode
            case .failure(let error): error.statusCode
            }
        let dimensions = [("method", request.method.rawValue), ("status_class", Self.statusClass(statusCode))]
        Counter(label: prefix + "_requests_total", dimensions: dimensions, factory: factory).increment()
        let nanoseconds = seconds.isFinite ? Int64(min(max(seconds, 0), 1e9) * 1e9) : 0
        Timer(label: prefix + "_request_duration", dimensions: dimensions, factory: factory)
            .recordNanoseconds(nanoseconds)
    }

    /// Records what the transport measured of one exchange; a field it left `nil` records nothing.
    public func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {
        let dimensions = [("method", request.method.rawValue)]
        if let firstByte = metrics.timeToFirstByte {
            Timer(label: prefix + "_time_to_first_byte", dimensions: dimensions, factory: factory)
                .recordNanoseconds(Self.nanoseconds(firstByte))
        }
        if let sent = metrics.bytesSent {
            Counter(label: prefix + "_bytes_sent_total", dimensions: dimensions, factory: factory).increment(by: sent)
        }
        if let received = metrics.bytesReceived {
            Counter(label: prefix + "_bytes_received_total", dimensions: dimensions, factory: factory)
                .increment(by: received)
        }
        if metrics.reusedConnection == false {
            Counter(label: prefix + "_connections_opened_total", dimensions: dimensions, factory: factory).increment()
        }
    }

    /// `2xx` for 200-299 and so on; `error` without a status (or with one outside 100-599).
    static func statusClass(_ statusCode: Int?) -> String {
        guard let statusCode, (100..<600).contains(statusCode) else { return "error" }
        return "\(statusCode / 100)xx"
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds > 1_000_000_000 ? Int64.max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
