/// Watches requests without changing them: for logging and metrics. Kept apart from interceptors, so watching
/// can never alter a request or its outcome.
public protocol EventMonitor: Sendable {
    /// An attempt of `request` (after adapters) is about to be sent.
    func requestWillStart(_ request: Request, attempt: Int)

    /// The attempt finished with a validated response or an error, after `seconds`.
    func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double)

    /// The transport measured one exchange of attempt `attempt`: `request` is the exchange's own (a redirect hop's
    /// request after the first), called once per exchange that reached the transport and measured anything, when
    /// the exchange ends (for ``HTTPClient/stream(_:progress:)``, once the body is read or dropped), before
    /// ``requestDidFinish(_:attempt:result:seconds:)`` of the attempt for every way but streams. Which fields a
    /// transport fills in: ``RequestMetrics``.
    func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics)
}

extension EventMonitor {
    /// Nothing.
    public func requestWillStart(_ request: Request, attempt: Int) {}

    /// Nothing.
    public func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {}

    /// Nothing.
    public func requestDidCollectMetrics(_ request: Request, attempt: Int, metrics: RequestMetrics) {}
}
