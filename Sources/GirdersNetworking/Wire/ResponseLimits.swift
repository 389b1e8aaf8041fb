/// How much of a response a request may hold: the bounds that keep a hostile or broken server from exhausting the
/// app's memory or disk.
///
/// Every transport enforces them while the response arrives: the transfer stops as soon as one is exceeded and
/// fails with ``ResponseError/limitExceeded(url:limit:maximum:)``, which names the limit; a partial download file
/// is deleted. (On Linux, FoundationNetworking queues body pieces for ``URLSessionTransport`` without
/// back-pressure, so that transport may hold more than the limit before it stops; ``CurlTransport``, the default
/// there, holds the limit and about half a MiB.) Memory for a body is reserved from `Content-Length` only when a body follows (never for `HEAD`,
/// `204` or `304`) and never beyond ``bodyBytes``; a `Content-Length` above the limit fails before any of the
/// body is read.
///
/// Set them for a client (``HTTPClient/responseLimits``)
/// or for one request (``withResponseLimits(_:)``, which wins):
///
/// ```swift
/// var limits = ResponseLimits()
/// limits.bodyBytes = 256 << 20  // this API returns large JSON documents
/// let client = HTTPClient(responseLimits: limits)
/// let export = Request(MutableRequest(url: exportURL) |> withResponseLimits(ResponseLimits(downloadBytes: 4 << 30)))
/// ```
///
/// The defaults and why:
/// - ``bodyBytes`` 32 MiB: bodies are kept in memory and then decoded, which takes several times their size;
///   sixteen requests in flight at the limit still fit an iPhone app's memory. A larger body belongs in a
///   download (``HTTP/download(_:to:progress:)``), which writes to a file instead.
/// - ``downloadBytes`` none: a download goes to disk, and its caller knows what it asked for.
/// - ``headerFields`` 256 and ``headerBytes`` 256 KiB: far beyond what real servers send (a few dozen fields,
///   a few KiB), below libcurl's own 300 KB, whose error reads as a cut-off.
/// - ``decompressionRatio`` 1,000: real JSON and HTML compress 5-20:1, very repetitive data a few hundred to
///   one; deflate tops out near 1,030:1 (a run of zeros), and layered codings (`gzip, gzip`) multiply, which is
///   how a 1,827-byte response becomes 1 GiB. A body that grows more than 1,000-fold past its first MiB is
///   treated as a bomb; set `nil` (or more) for an API known to send such bodies.
public struct ResponseLimits: Sendable, Hashable {
    /// One of the limits, as ``ResponseError/limitExceeded(url:limit:maximum:)`` names it.
    public enum Limit: String, Sendable, Hashable, CustomStringConvertible {
        /// ``ResponseLimits/bodyBytes``: the body kept in memory, after content decoding.
        case bodyBytes
        /// ``ResponseLimits/downloadBytes``: the body written to a download file, after content decoding.
        case downloadBytes
        /// ``ResponseLimits/headerFields``.
        case headerFields
        /// ``ResponseLimits/headerBytes``.
        case headerBytes
        /// ``ResponseLimits/decompressionRatio``.
        case decompressionRatio

        /// The limit's name as errors say it.
        public var description: String {
            switch self {
            case .bodyBytes: "the in-memory body limit (ResponseLimits.bodyBytes)"
            case .downloadBytes: "the download size limit (ResponseLimits.downloadBytes)"
            case .headerFields: "the header field count limit (ResponseLimits.headerFields)"
            case .headerBytes: "the header size limit (ResponseLimits.headerBytes)"
            case .decompressionRatio: "the decompression ratio limit (ResponseLimits.decompressionRatio)"
            }
        }
    }

    /// The most bytes of a body kept in memory, counted after content decoding (so a compressed "bomb" stops at
    /// this size, whatever its compressed size).
    public var bodyBytes: Int64
    /// The most bytes written to a download file, after content decoding; `nil` for no limit.
    public var downloadBytes: Int64?
    /// The most field lines in a response's heads (any `1xx` heads and the final one together).
    public var headerFields: Int
    /// The most bytes of a response's heads (any `1xx` heads and the final one together), status lines and line
    /// endings included.
    public var headerBytes: Int
    /// The most decoded bytes per byte received for a body with a `Content-Encoding`, checked once the decoded body
    /// passes 1 MiB (so small, highly compressible bodies never trip it); `nil` for no limit. It stops a
    /// decompression bomb early, also on its way to a download file, where ``downloadBytes`` is unbounded by
    /// default. Enforced by ``CurlTransport``, which sees the bytes before decoding; URLSession hands over only
    /// decoded bytes, so ``URLSessionTransport`` enforces ``bodyBytes`` and ``downloadBytes`` alone.
    public var decompressionRatio: Int64?

    /// Limits; each has a default (see above).
    public init(
        bodyBytes: Int64 = 32 << 20, downloadBytes: Int64? = nil, headerFields: Int = 256, headerBytes: Int = 256 << 10,
        decompressionRatio: Int64? = 1_000
    ) {
        self.bodyBytes = bodyBytes
        self.downloadBytes = downloadBytes
        self.headerFields = headerFields
        self.headerBytes = headerBytes
        self.decompressionRatio = decompressionRatio
    }

    /// The defaults.
    public static let standard = ResponseLimits()

    /// The limit a body of `bytes` exceeds, or `nil`: ``bodyBytes`` for a body kept in memory, ``downloadBytes``
    /// for one written to a file.
    func bodyViolation(_ bytes: Int64, toFile: Bool) -> (limit: Limit, maximum: Int64)? {
        if toFile {
            guard let downloadBytes, bytes > downloadBytes else { return nil }
            return (.downloadBytes, downloadBytes)
        }
        return bytes > bodyBytes ? (.bodyBytes, bodyBytes) : nil
    }

    /// The limit a head of `fields` field lines and `bytes` bytes exceeds, or `nil`.
    func headViolation(fields: Int, bytes: Int) -> (limit: Limit, maximum: Int64)? {
        if fields > headerFields { return (.headerFields, Int64(headerFields)) }
        if bytes > headerBytes { return (.headerBytes, Int64(headerBytes)) }
        return nil
    }

    /// The ratio to check once a decoded body has `decodedBytes`, or `nil` when none applies yet.
    func ratioToCheck(decodedBytes: Int64) -> Int64? {
        guard let decompressionRatio, decodedBytes > 1 << 20 else { return nil }
        return decompressionRatio
    }

    /// Why a limit cannot be used, or `nil`.
    var problem: String? {
        if bodyBytes < 0 { return "ResponseLimits.bodyBytes must not be negative, not \(bodyBytes)" }
        if let downloadBytes, downloadBytes < 0 {
            return "ResponseLimits.downloadBytes must not be negative, not \(downloadBytes)"
        }
        if headerFields < 1 { return "ResponseLimits.headerFields must be at least 1, not \(headerFields)" }
        if headerBytes < 16 { return "ResponseLimits.headerBytes must be at least 16, not \(headerBytes)" }
        if let decompressionRatio, decompressionRatio < 1 {
            return "ResponseLimits.decompressionRatio must be at least 1, not \(decompressionRatio)"
        }
        return nil
    }
}
