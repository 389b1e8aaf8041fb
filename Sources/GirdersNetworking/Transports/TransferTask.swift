import Foundation
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed transfer of ``URLSessionTransport``: collects the response from the session delegate's callbacks,
/// writes a download to its temporary file, reports progress, and resumes the waiting caller exactly once.
final class TransferTask: Sendable {
    private struct State {
        var response: HTTPURLResponse?
        var body = Data()
        var download: DownloadFile?
        var received: Int64 = 0
        var failure: ResponseError?
        var continuation: CheckedContinuation<HTTPResponse, any Error>?
        var outcome: Result<HTTPResponse, any Error>?
        var control: TaskControl?
    }

    let request: Request
    private let options: TransferOptions
    private let uploadLength: Int64?
    private let state = LockedState(State())

    init(request: Request, options: TransferOptions, uploadLength: Int64?) {
        self.request = request
        self.options = options
        self.uploadLength = uploadLength
    }

    /// The task's control, told of every piece of progress (for the timeout).
    func attach(_ control: TaskControl) {
        state.withLock { $0.control = control }
    }

    private func touch() {
        state.withLock { $0.control }?.touch()
    }

    /// Waits for the outcome (which may already be there).
    func wait(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        let outcome = state.withLock { state in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    /// The head of the response; a 2xx download opens its temporary file. Returns `false` to cancel the task: the
    /// head exceeds a limit (URLSession merges repeated fields, so they count as one here), its `Content-Length`
    /// exceeds the body's, or the download file cannot be opened.
    func receive(_ response: HTTPURLResponse) -> Bool {
        touch()
        let destination = (200..<300).contains(response.statusCode) ? options.downloadDestination : nil
        let limits = request.effectiveLimits
        let fields = response.allHeaderFields
        let headBytes = fields.reduce(32) { $0 + "\($1.key.base)".utf8.count + "\($1.value)".utf8.count + 4 }
        // FoundationNetworking joins repeated fields with commas: "10, 5" for two Content-Length fields.
        let lengths = response.value(forHTTPHeaderField: "Content-Length").map { [$0] } ?? []
        if let problem = ResponseFraming.lengthProblem(lengths) {
            state.withLock { $0.failure = .malformedResponse(url: request.fullURL, reason: problem) }
            return false
        }
        var exceeded = limits.headViolation(fields: fields.count, bytes: headBytes)
        if exceeded == nil, let length = Self.expectedLength(response, request) {
            exceeded = limits.bodyViolation(length, toFile: destination != nil)
        }
        return state.withLock { state in
            state.response = response
            if let exceeded {
                state.failure = .limitExceeded(url: request.fullURL, limit: exceeded.limit, maximum: exceeded.maximum)
                return false
            }
            guard let destination else { return true }
            do throws(ResponseError) {
                state.download = try DownloadFile(beside: destination)
                return true
            } catch {
                state.failure = error
                return false
            }
        }
    }

    /// A piece of the body. Returns `false` to cancel the task: the body exceeds its limit, or the download file
    /// cannot be written. Nothing more is kept once the transfer has failed.
    func receive(_ data: Data) -> Bool {
        touch()
        let limits = request.effectiveLimits
        let step: (Bool, TransferProgress?) = state.withLock { state in
            guard state.failure == nil else { return (false, nil) }
            do throws(ResponseError) {
                let total = state.received + Int64(data.count)
                if let exceeded = limits.bodyViolation(total, toFile: state.download != nil) {
                    throw .limitExceeded(url: request.fullURL, limit: exceeded.limit, maximum: exceeded.maximum)
                }
                if let download = state.download {
                    try download.append(data)
                } else {
                    state.body.append(data)
                }
                state.received = total
            } catch {
                state.failure = error
                return (false, nil)
            }
            let total = state.response.map(\.expectedContentLength).flatMap { $0 >= 0 ? $0 : nil }
            return (true, TransferProgress(direction: .download, completedBytes: state.received, totalBytes: total))
        }
        if let progress = step.1 { options.progress?(progress) }
        return step.0
    }

    /// Upload progress.
    func sent(_ bytes: Int64, of expected: Int64) {
        touch()
        let total = expected > 0 ? expected : uploadLength
        options.progress?(TransferProgress(direction: .upload, completedBytes: bytes, totalBytes: total))
    }

    /// The end of the task: builds the outcome and resumes the caller.
    func complete(error: (any Error)?, info: SessionDelegate.TaskInfo) {
        let (continuation, outcome) = state.withLock { state in
            let outcome = Self.outcome(of: &state, request: request, error: error, info: info)
            state.outcome = outcome
            return (state.continuation.take(), outcome)
        }
        continuation?.resume(with: outcome)
    }

    private static func outcome(
        of state: inout State, request: Request, error: (any Error)?, info: SessionDelegate.TaskInfo
    ) -> Result<HTTPResponse, any Error> {
        var failure = state.failure
        if failure == nil, let error {
            let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
            if state.response != nil, code != URLError.cancelled.rawValue, code != URLError.timedOut.rawValue {
                failure = .interrupted(
                    url: request.fullURL, receivedBytes: state.received, expectedBytes: expectedLength(state, request),
                    reason: error.localizedDescription)
            } else if case .failure(let mapped) = URLSessionTransport.outcome(
                request: request, data: nil, response: nil, error: error, taskInfo: info)
            {
                failure = mapped as? ResponseError ?? .transport(url: request.fullURL, code: code, reason: "\(mapped)")
            }
        }
        if failure == nil, let expected = expectedLength(state, request), state.received < expected {
            failure = .interrupted(
                url: request.fullURL, receivedBytes: state.received, expectedBytes: expected,
                reason: "the connection closed before the whole body arrived")
        }
        if failure == nil, state.response == nil, info.challengeResponse == nil {
            failure = .transport(url: request.fullURL, code: 0, reason: "the response is not HTTP")
        }
        if let download = state.download {
            do throws(ResponseError) {
                // Failed or cancelled: the partial file goes. Complete: made durable (or deleted if that fails).
                if failure == nil { try download.finish() } else { download.discard() }
            } catch {
                failure = error
            }
        }
        if let failure { return .failure(failure) }
        guard let http = state.response ?? info.challengeResponse else {
            return .failure(ResponseError.transport(url: request.fullURL, code: 0, reason: "no response"))
        }
        let response = URLSessionTransport.response(http, data: state.body, request: request)
        return .success(state.download.map { response.replacingBody(with: $0.url) } ?? response)
    }

    /// `Content-Length` when the received bytes can be checked against it (no content coding, a body expected).
    private static func expectedLength(_ state: State, _ request: Request) -> Int64? {
        state.response.flatMap { expectedLength($0, request) }
    }

    /// `Content-Length` when a body of that length follows: no content coding, not a `HEAD`, `204` or `304`.
    private static func expectedLength(_ response: HTTPURLResponse, _ request: Request) -> Int64? {
        guard request.method != .head, response.expectedContentLength >= 0,
            response.value(forHTTPHeaderField: "Content-Encoding") == nil,
            response.value(forHTTPHeaderField: "Transfer-Encoding") == nil,  // the transfer coding framed it
            ![204, 304].contains(response.statusCode)
        else { return nil }
        return response.expectedContentLength
    }
}
