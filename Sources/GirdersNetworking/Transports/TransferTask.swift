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

    /// The head of the response; a 2xx download opens its temporary file. Returns `false` to cancel the task.
    func receive(_ response: HTTPURLResponse) -> Bool {
        touch()
        let destination = (200..<300).contains(response.statusCode) ? options.downloadDestination : nil
        return state.withLock { state in
            state.response = response
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

    /// A piece of the body. Returns `false` to cancel the task (the download file cannot be written).
    func receive(_ data: Data) -> Bool {
        touch()
        let step: (Bool, TransferProgress) = state.withLock { state in
            do throws(ResponseError) {
                if let download = state.download {
                    try download.append(data)
                } else {
                    state.body.append(data)
                }
            } catch {
                state.failure = error
            }
            state.received += Int64(data.count)
            let total = state.response.map(\.expectedContentLength).flatMap { $0 >= 0 ? $0 : nil }
            return (
                state.failure == nil,
                TransferProgress(direction: .download, completedBytes: state.received, totalBytes: total)
            )
        }
        options.progress?(step.1)
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
        guard request.method != .head, let response = state.response, response.expectedContentLength >= 0,
            response.value(forHTTPHeaderField: "Content-Encoding") == nil,
            ![204, 304].contains(response.statusCode)
        else { return nil }
        return response.expectedContentLength
    }
}
