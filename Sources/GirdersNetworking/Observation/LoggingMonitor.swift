public import GirdersLog

/// Logs one line per request and one per response with its timing, through GirdersLog's `LogProtocol`, with
/// credentials redacted (see ``Redaction``).
///
/// ```swift
/// let client = HTTPClient(monitors: [LoggingMonitor(logger: Log.logger)])
/// // → GET https://api.example.com/items (attempt 1)
/// // ← 200 GET https://api.example.com/items in 42 ms, 512 bytes
/// ```
public struct LoggingMonitor: EventMonitor {
    private let logger: any LogProtocol
    private let redaction: Redaction
    private let level: LogLevel

    /// A monitor logging successes at `level` (info by default) and failures at warning.
    public init(logger: any LogProtocol, level: LogLevel = .info, redaction: Redaction = .standard) {
        self.logger = logger
        self.level = level
        self.redaction = redaction
    }

    /// `→ METHOD URL (attempt n)`.
    public func requestWillStart(_ request: Request, attempt: Int) {
        guard logger.isEnabled(level) else { return }
        logger.log(
            level, "→ \(request.method.rawValue) \(redaction.url(of: request)) (attempt \(attempt))",
            metadata: headerMetadata(request.headers), fileID: #fileID, function: #function, line: #line)
    }

    /// `B bytes`, or `B bytes to PATH` for a download.
    private static func size(of response: HTTPResponse) -> String {
        guard let file = response.fileURL else { return "\(response.body.count) bytes" }
        return "\(FileIO.size(of: file) ?? 0) bytes to \(file.lastPathComponent)"
    }

    /// `← STATUS METHOD URL in N ms, B bytes`, or `✗ METHOD URL failed in N ms: reason`.
    public func requestDidFinish(
        _ request: Request, attempt: Int, result: Result<HTTPResponse, ResponseError>, seconds: Double
    ) {
        let milliseconds = Int((seconds * 1000).rounded())
        switch result {
        case .success(let response):
            guard logger.isEnabled(level) else { return }
            logger.log(
                level,
                "← \(response.statusCode) \(request.method.rawValue) \(redaction.url(of: request)) in \(milliseconds) ms, \(Self.size(of: response))\(Self.cacheNote(response.cacheUse))",
                metadata: headerMetadata(response.headers), fileID: #fileID, function: #function, line: #line)
        case .failure(let error):
            guard logger.isEnabled(.warning) else { return }
            let status = error.statusCode.map { "\($0) " } ?? ""
            let reason =
                (error.reason.isEmpty ? "HTTP \(error.statusCode ?? 0)" : error.reason)
                + Self.cacheNote(error.response?.cacheUse)
            logger.log(
                .warning,
                "✗ \(status)\(request.method.rawValue) \(redaction.url(of: request)) failed in \(milliseconds) ms: \(reason)",
                metadata: nil, fileID: #fileID, function: #function, line: #line)
        }
    }

    /// `, from the cache (age N s)`, `, from the cache, stale (age N s)`, `, revalidated (304)`, `, not in the cache`.
    static func cacheNote(_ use: CacheUse?) -> String {
        switch use {
        case .stored(let age, let isStale): ", from the cache\(isStale ? ", stale" : "") (age \(age) s)"
        case .revalidated: ", revalidated (304)"
        case .notStored: ", not in the cache"
        case nil: ""
        }
    }

    private func headerMetadata(_ headers: HTTPHeaders) -> LogMetadata? {
        guard logger.isEnabled(.debug), !headers.fields.isEmpty else { return nil }
        var metadata: LogMetadata = [:]
        for field in headers {
            metadata["header.\(field.name)"] = .string(
                redaction.hidesHeader(field.name) ? Redaction.placeholder : field.value)
        }
        return metadata
    }
}
