public import Foundation
import GirdersSupport

/// A backend call described as data, usually an `enum` with one case per call and the parameters as associated
/// values (in the style of Moya). Only ``path`` is required.
///
/// ```swift
/// enum AccountEndpoint: ServiceEndpoint {
///     case login(String, String)
///     var baseURL: URL { URL(string: "https://api.example.com")! }
///     var path: String { "/login" }
///     var method: HTTPMethod { .post }
///     var parameters: [String: String] {
///         switch self { case .login(let user, let password): ["user": user, "password": password] }
///     }
///     var requestGenerator: SecureRequestGenerator { SecureRequestGenerator() }
/// }
/// let request = Request(endpoint: AccountEndpoint.login("ada", "secret"))
/// ```
///
/// Every member but ``path`` may be declared with the type that reads naturally: each requirement's type is an
/// associated type inferred from the conformer's own declaration (`var parameters: [String: AnyObject]`,
/// `var baseURL: NSURL`, `var requestGenerator: SecureRequestGenerator`), and what it declares is read when the
/// request is built; a value that cannot be used makes the request ``ResponseError/invalidRequest(reason:)`` naming
/// the endpoint and the member. Nothing declared is ever silently ignored. Because of the associated types, code
/// that uses the protocol as a type writes `any ServiceEndpoint` (the compiler offers the fix).
public protocol ServiceEndpoint {
    /// The type ``baseURL`` is declared with: `URL` by default; `URL?`, `NSURL` and `String` are read too.
    associatedtype BaseURL = URL
    /// The type ``method`` is declared with: ``HTTPMethod`` by default; a `String` is read too.
    associatedtype Method = HTTPMethod
    /// The type ``parameters`` is declared with: `Any?` by default (GirdersSwift's); any type
    /// the request builder reads (dictionaries of any value type, `[URLQueryItem]`, `Encodable`, ...).
    associatedtype Parameters = Any?
    /// The type ``queryParameters`` is declared with: `Any?` by default.
    associatedtype QueryParameters = Any?
    /// The type ``headers`` is declared with: `[String: String]` by default; optional too.
    associatedtype Headers = [String: String]
    /// The type ``requestGenerator`` is declared with: `any RequestGenerator` by default, or a concrete generator.
    associatedtype Generator = any RequestGenerator

    /// The server's base URL. The default reads `baseUrl` (then `baseURL`) from
    /// ``NetworkingDefaults/configuration`` and throws ``ResponseError/invalidRequest(reason:)`` naming the keys
    /// when neither holds a URL; GirdersSwift crashed there. A non-throwing declaration satisfies it.
    var baseURL: BaseURL { get throws }
    /// The path appended to ``baseURL``, for example `/accounts/42`; it may carry a percent-encoded query. A `.`
    /// or `..` segment (also as `%2E`) makes the request ``ResponseError/invalidRequest(reason:)``, so a path can
    /// never climb above the base URL; put caller-supplied values in with ``pathSegment(_:)``.
    var path: String { get }
    /// The method; `GET` by default.
    var method: Method { get }
    /// Parameters: a dictionary (`[String: Any]`, `[String: AnyObject]`, `[String: String]`, optional or not) or
    /// an `Encodable` value goes in the query for `GET` and `HEAD` and is the JSON body otherwise; `[URLQueryItem]`
    /// is the query or a form body; an array is a JSON body, a `String` a text body, `Data` a raw body. `nil` (the
    /// default) sends nothing; any other value makes the request ``ResponseError/invalidRequest(reason:)`` naming
    /// the endpoint and the member.
    var parameters: Parameters { get }
    /// Query parameters for every method: a dictionary, `[URLQueryItem]` or an `Encodable` value; `nil` by
    /// default; anything else is ``ResponseError/invalidRequest(reason:)``.
    var queryParameters: QueryParameters { get }
    /// Extra header fields, applied after the generator's; none by default.
    var headers: Headers { get }
    /// The generator the request starts from; ``DefaultRequestGenerator`` by default.
    var requestGenerator: Generator { get }
}

extension ServiceEndpoint where BaseURL == URL {
    /// `baseUrl` or `baseURL` from ``NetworkingDefaults/configuration``.
    public var baseURL: URL {
        get throws {
            guard let configuration = NetworkingDefaults.configuration else {
                throw ResponseError.invalidRequest(
                    reason: "\(Self.self) has no baseURL and NetworkingDefaults.configuration is not set")
            }
            for key in NetworkingDefaults.baseURLKeys {
                if let url = configuration.value(forKey: key, as: URL.self) { return url }
            }
            let keys = NetworkingDefaults.baseURLKeys.joined(separator: " or ")
            throw ResponseError.invalidRequest(
                reason: "\(Self.self) has no baseURL: no URL at \(keys) in \(configuration.layerNames)")
        }
    }
}

extension ServiceEndpoint where Method == HTTPMethod {
    /// `GET`.
    public var method: HTTPMethod { .get }
}

extension ServiceEndpoint where Parameters == Any? {
    /// `nil`: no parameters.
    public var parameters: Any? { nil }
}

extension ServiceEndpoint where QueryParameters == Any? {
    /// `nil`: no query parameters.
    public var queryParameters: Any? { nil }
}

extension ServiceEndpoint where Headers == [String: String] {
    /// No extra header fields.
    public var headers: [String: String] { [:] }
}

extension ServiceEndpoint where Generator == any RequestGenerator {
    /// ``DefaultRequestGenerator``.
    public var requestGenerator: any RequestGenerator { DefaultRequestGenerator() }
}

extension Request {
    /// The request an endpoint describes. A missing or invalid base URL or path does not crash: the request
    /// records it in ``failureReason`` and executing it fails with ``ResponseError/invalidRequest(reason:)``.
    public init(endpoint: some ServiceEndpoint) {
        let owner = "\(type(of: endpoint))"
        let members = EndpointMembers(endpoint)
        var failure: String?
        let generator = members.generator(owner: owner, failure: &failure)
        let method = members.method(owner: owner, failure: &failure)
        var request = generator.generateRequest(withMethod: method)
        request.method = method
        do {
            let base = try members.baseURL(owner: owner)
            if let segment = Self.dotSegment(in: endpoint.path) {
                request.fail(
                    "the path \(endpoint.path.debugDescription) of \(owner) holds the dot segment '\(segment)', which "
                        + "could leave \(base.path.isEmpty ? "/" : base.path); use pathSegment(_:) for values")
            } else if let url = Self.join(base, endpoint.path) {
                request.url = url
            } else {
                request.fail("cannot append the path '\(endpoint.path)' of \(owner) to \(base)")
            }
        } catch {
            request.fail(error.reason)
        }
        if let failure { request.fail(failure) }
        EndpointParameters.apply(
            parameters: Unwrapping.unwrapped(endpoint.parameters),
            queryParameters: Unwrapping.unwrapped(endpoint.queryParameters), owner: owner, to: &request)
        switch members.headers(owner: owner) {
        case .success(let fields): request.updateHTTPHeaderFields(fields)
        case .failure(let failure): request.fail(failure.description)
        }
        self.init(request)
    }

    /// The request an endpoint describes, or the reason it cannot be built.
    public init(validating endpoint: some ServiceEndpoint) throws(ResponseError) {
        self = try Request(endpoint: endpoint).validated()
    }

    /// The first `.` or `..` segment of `path` (also percent-encoded, as `%2E%2E`) before any query or fragment.
    static func dotSegment(in path: String) -> String? {
        // By scalars: a combining mark after `/`, `?` or `#` makes one Character of the two, but a URL splits the
        // bytes.
        let end = path.unicodeScalars.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        for segment in path[..<end].split(atScalar: "/", omittingEmptySubsequences: false)
        where isDotSegment(segment) {
            return String(segment)
        }
        return nil
    }

    /// Whether `segment` is one or two dots, each perhaps written `%2E` or `%2e`: read byte by byte, without a copy,
    /// since every request built from an endpoint checks each of its segments.
    private static func isDotSegment(_ segment: Substring) -> Bool {
        var bytes = segment.utf8[...]
        var dots = 0
        while let first = bytes.first, dots < 3 {
            if first == UInt8(ascii: ".") {
                bytes = bytes.dropFirst()
            } else if bytes.starts(with: "%2".utf8), let last = bytes.dropFirst(2).first,
                last | 0x20 == UInt8(ascii: "e")
            {
                bytes = bytes.dropFirst(3)
            } else {
                return false
            }
            dots += 1
        }
        return bytes.isEmpty && (1...2).contains(dots)
    }

    /// `base` + `/` + `path` with exactly one slash between them; characters a path cannot hold are encoded.
    static func join(_ base: URL, _ path: String) -> URL? {
        guard !path.isEmpty else { return base }
        var prefix = base.absoluteString
        while prefix.hasSuffix("/") { prefix.removeLast() }
        let trimmed = path.drop { $0 == "/" }
        if let url = URL(string: prefix + "/" + trimmed) { return url }
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "%?&=")
        guard let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) else { return nil }
        return URL(string: prefix + "/" + encoded)
    }
}
