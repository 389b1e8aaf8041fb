/// The nine request methods of RFC 9110 and RFC 5789.
///
/// GirdersSwift spelled the cases in upper case (`.GET`); those names remain as aliases, so
/// `HTTPMethod.GET == .get` and `case .POST:` patterns keep compiling.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `GET`: read a resource.
    case get = "GET"
    /// `HEAD`: like `GET` without a response body.
    case head = "HEAD"
    /// `POST`: submit data to be processed.
    case post = "POST"
    /// `PUT`: replace a resource.
    case put = "PUT"
    /// `DELETE`: remove a resource.
    case delete = "DELETE"
    /// `CONNECT`: open a tunnel.
    case connect = "CONNECT"
    /// `OPTIONS`: describe the communication options.
    case options = "OPTIONS"
    /// `TRACE`: loop the request back.
    case trace = "TRACE"
    /// `PATCH`: modify a resource partially.
    case patch = "PATCH"

    /// The method token as sent on the wire.
    public var description: String { rawValue }

    /// Whether RFC 9110 calls the method idempotent (safe to send twice).
    public var isIdempotent: Bool {
        switch self {
        case .post, .patch, .connect: false
        default: true
        }
    }

    /// Whether `parameters` travel in the query string (`GET`, `HEAD`) rather than in a JSON body.
    var sendsParametersInQuery: Bool { self == .get || self == .head }
}

extension HTTPMethod {
    /// GirdersSwift's name for ``get``.
    public static let GET = HTTPMethod.get
    /// GirdersSwift's name for ``head``.
    public static let HEAD = HTTPMethod.head
    /// GirdersSwift's name for ``post``.
    public static let POST = HTTPMethod.post
    /// GirdersSwift's name for ``put``.
    public static let PUT = HTTPMethod.put
    /// GirdersSwift's name for ``delete``.
    public static let DELETE = HTTPMethod.delete
    /// GirdersSwift's name for ``connect``.
    public static let CONNECT = HTTPMethod.connect
    /// GirdersSwift's name for ``options``.
    public static let OPTIONS = HTTPMethod.options
    /// GirdersSwift's name for ``trace``.
    public static let TRACE = HTTPMethod.trace
    /// GirdersSwift's name for ``patch``.
    public static let PATCH = HTTPMethod.patch
}
