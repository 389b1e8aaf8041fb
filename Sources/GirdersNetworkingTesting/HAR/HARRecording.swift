import Foundation
import GirdersNetworking

/// A lowered request as a HAR request: its URL, headers and cookies with hidden values replaced, and its body read
/// from its own reader (a file and a multipart form can be opened twice, a stream cannot and is not read).
enum HARRequestRecording {
    static func record(
        _ request: WireRequest, redaction: Redaction, maximumBodyBytes: Int
    ) async -> HARArchive.Request {
        let url = redaction.redacting(request.url)
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return HARArchive.Request(
            method: request.method, url: url.absoluteString, httpVersion: "HTTP/1.1",
            cookies: cookies(inCookieFields: request.headers.values(for: "Cookie"), redaction: redaction),
            headers: headers(request.headers, redaction: redaction),
            queryString: query.map { HARArchive.Header(name: $0.name, value: $0.value ?? "") },
            postData: await postData(request, redaction: redaction, maximumBodyBytes: maximumBodyBytes),
            headersSize: -1, bodySize: request.body.length ?? -1)
    }

    static func postData(
        _ request: WireRequest, redaction: Redaction, maximumBodyBytes: Int
    ) async -> HARArchive.PostData? {
        let mimeType = request.headers["Content-Type"] ?? ""
        switch request.body {
        case .none:
            return nil
        case .stream:
            return HARArchive.PostData(mimeType: mimeType, text: "", _notRecorded: true)
        case .data, .source:
            guard let (bytes, truncated) = await read(request, upTo: maximumBodyBytes) else {
                return HARArchive.PostData(mimeType: mimeType, text: "", _notRecorded: true)
            }
            guard let kept = HARText.redacted(bytes, truncated: truncated, redaction: redaction) else {
                return HARArchive.PostData(mimeType: mimeType, text: "", _truncated: true, _notRecorded: true)
            }
            let (text, encoding) = HARText.encode(kept)
            return HARArchive.PostData(
                mimeType: mimeType, text: text, _encoding: encoding, _truncated: truncated ? true : nil)
        }
    }

    /// The first `limit` bytes of the request's body and whether there were more; `nil` when it cannot be read.
    static func read(_ request: WireRequest, upTo limit: Int) async -> (Data, truncated: Bool)? {
        if let data = request.body.data { return (data.prefix(limit), data.count > limit) }
        guard let reader = try? request.openBody() else { return nil }
        defer { reader.close() }
        var bytes = Data()
        do {
            while let piece = try await reader.next() {
                bytes.append(piece)
                if bytes.count > limit { return (bytes.prefix(limit), true) }
            }
        } catch {
            return nil
        }
        return (bytes, false)
    }

    /// Header fields with hidden values replaced; a cookie field keeps its cookies' names (and a `Set-Cookie`
    /// field its attributes), so that a replay stores and sends the same cookies.
    static func headers(_ headers: HTTPHeaders, redaction: Redaction) -> [HARArchive.Header] {
        headers.fields.map { field in
            guard redaction.hidesHeader(field.name) else {
                return HARArchive.Header(name: field.name, value: field.value)
            }
            let value: String
            switch field.name.lowercased() {
            case "cookie":
                value = cookiePairs(field.value).map { "\($0.name)=\(Redaction.placeholder)" }.joined(separator: "; ")
            case "set-cookie":
                var parts = field.value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                let name = parts.first.map { cookiePairs($0).first?.name ?? "" } ?? ""
                if parts.isEmpty { parts = [""] }
                parts[0] = "\(name)=\(Redaction.placeholder)"
                value = parts.joined(separator: ";")
            default:
                value = Redaction.placeholder
            }
            return HARArchive.Header(name: field.name, value: value)
        }
    }

    /// The cookies of `Cookie` field values, their values hidden when the field is.
    static func cookies(inCookieFields values: [String], redaction: Redaction) -> [HARArchive.Cookie] {
        let hidden = redaction.hidesHeader("Cookie")
        return values.flatMap(cookiePairs).map {
            HARArchive.Cookie(name: $0.name, value: hidden ? Redaction.placeholder : $0.value)
        }
    }

    /// The `name=value` pairs of a `Cookie` field value (or the first of a `Set-Cookie` value).
    static func cookiePairs(_ value: String) -> [(name: String, value: String)] {
        value.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
    }
}

/// What passed through a sink, as a HAR response with its timings.
struct HARResponseRecording {
    let request: WireRequest
    let sink: ResponseSink
    let body: BodyTap.Taken
    let failure: ResponseError?
    let redaction: Redaction
    let elapsed: Duration

    func entry(started: Date, request recorded: HARArchive.Request) -> HARArchive.Entry {
        let metrics = sink.metrics
        var recorded = recorded
        let version = Self.httpVersion(metrics?.networkProtocol)
        recorded.httpVersion = version
        let timings = self.timings(metrics)
        let time = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
            .filter { $0 >= 0 }.reduce(0, +)
        return HARArchive.Entry(
            startedDateTime: RFC3339Date.string(from: started, includingMilliseconds: true), time: time,
            request: recorded, response: response(version: version), cache: HARArchive.Cache(), timings: timings,
            _error: failure.map { HARArchive.Failure(kind: $0.kind.rawValue, reason: $0.reason) })
    }

    func response(version: String) -> HARArchive.Response {
        guard let status = sink.status else {
            return HARArchive.Response(
                status: 0, statusText: "", httpVersion: "", cookies: [], headers: [],
                content: HARArchive.Content(size: 0, mimeType: ""), redirectURL: "", headersSize: -1, bodySize: -1)
        }
        let headers = sink.headers
        let hidden = redaction.hidesHeader("Set-Cookie")
        let cookies = sink.setCookieFields.compactMap { HARRequestRecording.cookiePairs($0).first }.map {
            HARArchive.Cookie(name: $0.name, value: hidden ? Redaction.placeholder : $0.value)
        }
        let truncated = body.size > Int64(body.data.count)
        let kept = HARText.redacted(body.data, truncated: truncated, redaction: redaction)
        let (text, encoding) = kept.map(HARText.encode) ?? ("", nil)
        var redirect = ""
        if (300..<400).contains(status), let location = headers["Location"],
            let target = URL(string: location, relativeTo: request.url)
        {
            redirect = redaction.redacting(target.absoluteURL).absoluteString
        }
        let coded = headers["Content-Encoding"].map { $0.lowercased() != "identity" } ?? false
        return HARArchive.Response(
            status: status, statusText: Self.reasonPhrase(status), httpVersion: version, cookies: cookies,
            headers: HARRequestRecording.headers(headers, redaction: redaction),
            content: HARArchive.Content(
                size: body.size, mimeType: headers["Content-Type"] ?? "", text: text, encoding: encoding,
                _truncated: truncated ? true : nil),
            redirectURL: redirect, headersSize: -1, bodySize: coded ? -1 : body.size)
    }

    /// The phases from the transport's ``RequestMetrics`` where it measured them, else from the recorder's clock
    /// (the time to the first byte of the body as waiting, the rest as receiving).
    func timings(_ metrics: RequestMetrics?) -> HARArchive.Timings {
        func ms(_ duration: Duration?) -> Double {
            guard let duration else { return -1 }
            let (seconds, attoseconds) = duration.components
            return (Double(seconds) * 1_000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
        }
        let total = ms(elapsed)
        guard let metrics, let firstByte = metrics.timeToFirstByte else {
            let wait = body.firstByte.map { min(ms($0), total) } ?? total
            return HARArchive.Timings(
                blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: wait, receive: max(0, total - wait))
        }
        let dns = ms(metrics.domainLookup)
        let ssl = ms(metrics.secureConnection)
        let connect = metrics.connect == nil ? -1 : ms(metrics.connect) + max(0, ssl)
        let wait = max(0, ms(firstByte) - max(0, dns) - max(0, connect))
        return HARArchive.Timings(
            blocked: -1, dns: dns, connect: connect, ssl: ssl, send: 0, wait: wait,
            receive: max(0, ms(metrics.transfer ?? .zero)))
    }

    static func httpVersion(_ networkProtocol: RequestMetrics.NetworkProtocol?) -> String {
        switch networkProtocol {
        case .http1_0: "HTTP/1.0"
        case .http2: "HTTP/2"
        case .http3: "HTTP/3"
        case .http1_1, nil: "HTTP/1.1"
        }
    }

    /// RFC 9110's reason phrase for the common codes (a network panel shows it); empty for others.
    static func reasonPhrase(_ status: Int) -> String {
        let phrases = [
            200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
            301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
            308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 412: "Precondition Failed",
            413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
            429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? ""
    }
}

extension Double {
    fileprivate func rounded(toPlaces places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (self * scale).rounded() / scale
    }
}
