#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation
import GirdersSupport

/// A request to switch protocols over libcurl (a WebSocket's opening handshake), which libcurl cannot hand over in the versions Girders accepts (Debian 12's
/// 7.88 lists no `ws`): libcurl makes the connection (`CURLOPT_CONNECT_ONLY`: the proxy from the environment, TCP,
/// TLS offering only HTTP/1.1, with the request's credentials and pins) and Girders writes the `GET` and reads the
/// head over it (``CurlSocketChannel``). After a `101` the connection goes to the sink; any other answer's body is
/// read as its framing says (a `Content-Length`, or to the close; a chunked one is dropped) and the connection closed.
///
/// Bounded like every request: the connect by the request's timeout (libcurl's connect timeout), the head by the
/// same time and ``ResponseLimits``; cancelling the calling task stops the connect within libcurl's progress
/// interval (a second at most) and the head at once.
enum CurlUpgradeOpener {
    static func open(_ wire: WireRequest, into sink: ResponseSink) async throws(ResponseError) {
        guard wire.body.length == 0 else {
            throw .invalidRequest(reason: "a request to switch protocols has no body")
        }
        if let edited = wire.otherEdits {
            throw .unsupported(
                feature:
                    "a URLRequest edit of \(edited.names.joined(separator: ", ")) on a request to switch protocols over libcurl"
            )
        }
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int64(min(wire.timeout, RequestTime.longest) * 1000))
        let connected = try await connect(wire)
        let channel = CurlSocketChannel(easy: connected.easy, socket: connected.socket, url: wire.url)
        let outcome = await withTaskCancellationHandler { () async -> Result<Void, ResponseError> in
            do throws(ResponseError) {
                try await exchangeHead(
                    wire, over: channel, until: deadline, into: sink, started: started, measured: connected.metrics)
                return .success(())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            channel.closeNow()
        }
        if case .failure(let error) = outcome {
            channel.closeNow()
            throw Task.isCancelled ? .cancelled(url: wire.url) : error
        }
    }

    /// Writes the request's head, reads the answer's, and hands the sink the head and then the connection (`101`) or
    /// the body.
    private static func exchangeHead(
        _ wire: WireRequest, over channel: CurlSocketChannel, until deadline: ContinuousClock.Instant,
        into sink: ResponseSink, started: ContinuousClock.Instant, measured: RequestMetrics
    ) async throws(ResponseError) {
        let request = requestHead(wire)
        do {
            try await channel.write(request)
        } catch {
            throw .interrupted(url: wire.url, receivedBytes: 0, expectedBytes: nil, reason: error.description)
        }
        var bytes: [UInt8] = []
        var head: UpgradeResponseHead?
        var firstByte: ContinuousClock.Instant?
        while head == nil {
            let more: Data?
            do {
                more = try await channel.read(until: deadline)
            } catch {
                throw .timedOut(url: wire.url)
            }
            guard let more else {
                throw .interrupted(
                    url: wire.url, receivedBytes: 0, expectedBytes: nil,
                    reason: "the server closed the connection before answering the upgrade")
            }
            firstByte = firstByte ?? .now
            bytes.append(contentsOf: more)
            do {
                head = try UpgradeResponseHead.parse(bytes, limits: wire.limits)
            } catch {
                switch error {
                case .malformed(let reason): throw .malformedResponse(url: wire.url, reason: reason)
                case .limit(let limit, let maximum): throw .limitExceeded(url: wire.url, limit: limit, maximum: maximum)
                }
            }
        }
        guard let head else { return }
        if sink.collectsMetrics {
            var metrics = measured
            metrics.timeToFirstByte = firstByte.map { started.duration(to: $0) }
            metrics.total = started.duration(to: .now)
            metrics.bytesSent = Int64(request.count)
            metrics.bytesReceived = Int64(head.length)
            sink.record(metrics)
        }
        try sink.receiveHead(statusCode: head.status, headers: HTTPHeaders(head.fields))
        let rest = Data(bytes[head.length...])
        if head.status == 101 {
            channel.keep(rest)
            sink.upgraded(to: channel)
            return
        }
        try await readBody(of: head, after: rest, over: channel, until: deadline, into: sink)
        channel.closeNow()
    }

    /// A refused upgrade's body, into the sink (for the error the client reports): by its `Content-Length`, or to
    /// the close; a chunked body is not decoded here and is dropped.
    private static func readBody(
        of head: UpgradeResponseHead, after rest: Data, over channel: CurlSocketChannel,
        until deadline: ContinuousClock.Instant, into sink: ResponseSink
    ) async throws(ResponseError) {
        let headers = HTTPHeaders(head.fields)
        guard sink.request.bodyFollows(status: head.status), !headers.contains("Transfer-Encoding") else { return }
        let length = headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        var received: Int64 = 0
        var next: Data? = rest
        while let chunk = next {
            let wanted = length.map { Int(clamping: max(0, $0 - received)) } ?? chunk.count
            let taken = chunk.prefix(wanted)
            if !taken.isEmpty { try sink.receive(Data(taken)) }
            received += Int64(taken.count)
            if let length, received >= length { return }
            do {
                next = try await channel.read(until: deadline)
            } catch {
                throw .timedOut(url: sink.request.url)
            }
        }
    }

    /// `GET <target> HTTP/1.1`, `Host` (unless the request has one), the request's fields, a blank line. Field
    /// names and values were checked when the request was lowered (tokens; no CR, LF or NUL).
    static func requestHead(_ wire: WireRequest) -> Data {
        let parts = URLComponents(url: wire.url, resolvingAgainstBaseURL: false)
        let path = parts?.percentEncodedPath ?? ""
        let target = (path.isEmpty ? "/" : path) + (parts?.percentEncodedQuery.map { "?" + $0 } ?? "")
        var host = parts?.percentEncodedHost ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        if let port = parts?.port { host += ":\(port)" }
        var text = "GET \(target) HTTP/1.1\r\n"
        if !wire.headers.contains("Host") { text += "Host: \(host)\r\n" }
        for field in wire.headers { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }
}
#endif
