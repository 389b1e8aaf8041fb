/// Watches requests without changing them: for logging and metrics. Kept apart from interceptors, so watching
/// can never alter a request or its outcome.
public protocol EventMonitor: Sendable {
    /// An attempt of `request` (after adapters) is about to be sent.
    func requestWillStart(_ request: Request, attempt: Int)

    /// The attempt finished with a validated response or an error, after `seconds`.
    func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double)
}

extension EventMonitor {
    /// Nothing.
    public func requestWillStart(_ request: Request, attempt: Int) {}

    /// Nothing.
    public func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {}
}
