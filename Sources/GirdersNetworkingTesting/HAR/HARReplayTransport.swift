public import Foundation
public import GirdersNetworking
import GirdersSupport

/// A transport that answers from a HAR archive (one ``HARRecorder`` wrote, or a browser exported) instead of the
/// network: a recorded session replayed in a test with no server.
///
/// A request is answered by an entry with the same method, URL and body, compared after the ``redaction`` the
/// recorder applied (so a hidden query value or JSON key still matches). Entries that match alike answer in the
/// order they were recorded (a `503` then a `200` replays a retry); once all were used, the last one answers
/// again. A request no entry holds fails loudly, with
/// ``ResponseError/transport(url:code:reason:)`` naming the archive, the method and the URL, and is listed in
/// ``unmatchedRequests``; a recorded failure fails the same way again (``ResponseErrorKind`` as recorded).
///
/// ```swift
/// let replay = try HARReplayTransport(contentsOf: URL(fileURLWithPath: "session.har"))
/// let client = HTTPClient(transport: replay, cookieJar: RFC6265CookieJar())
/// ```
public final class HARReplayTransport: HTTPTransport {
    /// The archive requests are answered from.
    public let archive: HARArchive
    /// The rules the recorder hid values by; requests are compared after them.
    public let redaction: Redaction
    private let name: String
    private let maximumBodyBytes: Int

    private struct State {
        var used: Set<Int> = []
        var unmatched: [String] = []
    }

    private let state = LockedState(State())

    /// Answers from the HAR file at `file`; throws ``HARError/unreadable(file:reason:)`` when it is none.
    public convenience init(
        contentsOf file: URL, redaction: Redaction = .standard, maximumBodyBytes: Int = 1 << 20
    ) throws(HARError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadable(file: file.path, reason: error.localizedDescription)
        }
        self.init(
            try HARArchive(data: data, file: file.path), name: file.path, redaction: redaction,
            maximumBodyBytes: maximumBodyBytes)
    }

    /// Answers from `archive`, called `name` in errors; `maximumBodyBytes` is the recorder's, beyond which a body
    /// is compared by its first bytes only. The replayed `Set-Cookie` fields go to the client's jar: give the
    /// replaying client a jar of its own (`HTTPClient(transport: replay, cookieJar: RFC6265CookieJar())`), so
    /// cookies from elsewhere in the process do not change the requests it compares.
    public init(
        _ archive: HARArchive, name: String = "the HAR archive", redaction: Redaction = .standard,
        maximumBodyBytes: Int = 1 << 20
    ) {
        self.archive = archive
        self.name = name
        self.redaction = redaction
        self.maximumBodyBytes = max(0, maximumBodyBytes)
    }

    /// The requests no entry answered, as `METHOD URL` (hidden values hidden).
    public var unmatchedRequests: [String] { state.withLock { $0.unmatched } }

    /// The entries no request has used yet.
    public var unusedEntries: [HARArchive.Entry] {
        let used = state.withLock { $0.used }
        return archive.log.entries.indices.filter { !used.contains($0) }.map { archive.log.entries[$0] }
    }

    /// Answers `request` from the archive (see the type's description).
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        let url = redaction.redacting(request.url).absoluteString
        let sent = try await HARBodyMatch.read(request, upTo: maximumBodyBytes, redaction: redaction)
        if let length = sent.length { sink.sent(length, of: length) }
        let entries = archive.log.entries
        let candidates = entries.indices.filter {
            entries[$0].request.method == request.method && entries[$0].request.url == url
        }
        let matching = candidates.filter { sent.matches(entries[$0].request.postData) }
        let chosen = state.withLock { state -> Int? in
            guard let index = matching.first(where: { !state.used.contains($0) }) ?? matching.last else {
                state.unmatched.append("\(request.method) \(url)")
                return nil
            }
            state.used.insert(index)
            return index
        }
        guard let chosen else {
            let which = candidates.isEmpty ? "" : " with this body (its \(candidates.count) for them hold other bodies)"
            throw .transport(
                url: request.url, code: 0, reason: "\(name) holds no entry for \(request.method) \(url)\(which)")
        }
        if Task.isCancelled { throw .cancelled(url: request.url) }
        let entry = entries[chosen]
        if let failure = entry._error { throw Self.error(failure, url: request.url) }
        let response = entry.response
        let body = response.content.data ?? Data()
        // The recorded body may differ from what the server's Content-Length counted (hidden values, a body cut
        // at the recorder's limit): the length announced is the body's own.
        let headers = HTTPHeaders(
            response.headers.map { field in
                field.name.lowercased() == "content-length" && !Self.isContentCoded(response.headers)
                    ? HTTPHeader(name: field.name, value: String(body.count))
                    : HTTPHeader(name: field.name, value: field.value)
            })
        try sink.deliver(
            HTTPResponse(
                statusCode: response.status, headers: headers, body: body, url: request.url, request: request.request))
        if sink.collectsMetrics { sink.record(Self.metrics(entry, url: request.url)) }
    }

    /// Whether a content coding applies (the recorded body is decoded, the recorded length counts coded bytes).
    static func isContentCoded(_ headers: [HARArchive.Header]) -> Bool {
        headers.contains { $0.name.lowercased() == "content-encoding" && $0.value.lowercased() != "identity" }
    }

    /// The recorded failure as the error a transport would throw.
    static func error(_ failure: HARArchive.Failure, url: URL) -> ResponseError {
        switch ResponseErrorKind(rawValue: failure.kind) {
        case .timedOut: .timedOut(url: url)
        case .cancelled: .cancelled(url: url)
        case .cannotConnect: .cannotConnect(url: url, reason: failure.reason)
        case .cannotFindHost: .cannotFindHost(url: url, reason: failure.reason)
        case .interrupted: .interrupted(url: url, receivedBytes: nil, expectedBytes: nil, reason: failure.reason)
        case .malformedResponse: .malformedResponse(url: url, reason: failure.reason)
        default: .transport(url: url, code: 0, reason: failure.reason)
        }
    }

    /// The recorded timings as ``RequestMetrics``.
    static func metrics(_ entry: HARArchive.Entry, url: URL) -> RequestMetrics {
        func duration(_ milliseconds: Double) -> Duration? {
            milliseconds >= 0 && milliseconds.isFinite ? .microseconds(Int64(milliseconds * 1_000)) : nil
        }
        let timings = entry.timings
        var metrics = RequestMetrics(url: url)
        metrics.domainLookup = duration(timings.dns)
        metrics.secureConnection = duration(timings.ssl)
        metrics.connect = duration(timings.connect >= 0 ? timings.connect - max(0, timings.ssl) : -1)
        let beforeFirstByte = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait]
        metrics.timeToFirstByte = duration(beforeFirstByte.filter { $0 >= 0 }.reduce(0, +))
        metrics.transfer = duration(timings.receive)
        metrics.total = duration(entry.time)
        return metrics
    }
}
