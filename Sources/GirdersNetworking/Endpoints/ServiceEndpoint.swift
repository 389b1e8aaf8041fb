public import Foundation

/// A backend call described as data, usually an `enum` with one case per call and the parameters as associated
/// values (in the style of Moya). Only ``path`` is required.
///
/// ```swift
/// enum AccountEndpoint: ServiceEndpoint {
///     case login(String, String)
///     var baseURL: URL { URL(string: "https://api.example.com")! }
///     var path: String { "/login" }
///     var method: HTTPMethod { .post }
///     var parameters: Any? {
///         switch self { case .login(let user, let password): ["user": user, "password": password] }
///     }
///     var requestGenerator: RequestGenerator { SecureRequestGenerator() }
/// }
/// let request = Request(endpoint: AccountEndpoint.login("ada", "secret"))
/// ```
public protocol ServiceEndpoint {
    /// The server's base URL. The default reads `baseUrl` (then `baseURL`) from
    /// ``NetworkingDefaults/configuration`` and throws ``ResponseError/invalidRequest(reason:)`` naming the keys
    /// when neither holds a URL; GirdersSwift crashed there. A non-throwing `var baseURL: URL` satisfies it.
    var baseURL: URL { get throws }
    /// The path appended to ``baseURL``, for example `/accounts/42`; it may carry a percent-encoded query. A `.`
    /// or `..` segment (also as `%2E`) makes the request ``ResponseError/invalidRequest(reason:)``, so a path can
    /// never climb above the base URL; put caller-supplied values in with ``pathSegment(_:)``.
    var path: String { get }
    /// The method; `GET` by default.
    var method: HTTPMethod { get }
    /// Parameters, typed `Any?` as in GirdersSwift: a dictionary (also `[String: AnyObject]`) or an `Encodable`
    /// value goes in the query for `GET` and `HEAD` and is the JSON body otherwise; `[URLQueryItem]` is the query
    /// or a form body; an array is a JSON body, a `String` a text body, `Data` a raw body. `nil` (the default)
    /// sends nothing; any other value makes the request ``ResponseError/invalidRequest(reason:)`` naming the
    /// endpoint and the property.
    ///
    /// Declare it with exactly this type, `Any?`: a property of another type (`[String: Any]`,
    /// `[String: AnyObject]?`) is not this requirement but a new property the protocol never reads, and the
    /// default (`nil`) is used instead. The compiler warns ("nearly matches defaulted requirement") only when the
    /// property is in the extension that declares the conformance.
    var parameters: Any? { get }
    /// Query parameters for every method, typed `Any?` as in GirdersSwift: a dictionary, `[URLQueryItem]` or an
    /// `Encodable` value; `nil` by default; anything else is ``ResponseError/invalidRequest(reason:)``.
    var queryParameters: Any? { get }
    /// Extra header fields, applied after the generator's; none by default.
    var headers: [String: String] { get }
    /// The generator the request starts from; ``DefaultRequestGenerator`` by default.
    var requestGenerator: any RequestGenerator { get }
}

extension ServiceEndpoint {
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

    /// `GET`.
    public var method: HTTPMethod { .get }
    /// `nil`: no parameters.
    public var parameters: Any? { nil }
    /// `nil`: no query parameters.
    public var queryParameters: Any? { nil }
    /// No extra header fields.
    public var headers: [String: String] { [:] }
    /// ``DefaultRequestGenerator``.
    public var requestGenerator: any RequestGenerator { DefaultRequestGenerator() }
}

extension Request {
    /// The request an endpoint describes. A missing or invalid base URL or path does not crash: the request
    /// records it in ``failureReason`` and executing it fails with ``ResponseError/invalidRequest(reason:)``.
    public init(endpoint: some ServiceEndpoint) {
        var request = endpoint.requestGenerator.generateRequest(withMethod: endpoint.method)
        request.method = endpoint.method
        do {
            let base = try endpoint.baseURL
            if let segment = Self.dotSegment(in: endpoint.path) {
                request.fail(
                    "the path \(endpoint.path.debugDescription) of \(type(of: endpoint)) holds the dot segment "
                        + "'\(segment)', which could leave \(base.path.isEmpty ? "/" : base.path); use pathSegment(_:) "
                        + "for values")
            } else if let url = Self.join(base, endpoint.path) {
                request.url = url
            } else {
                request.fail("cannot append the path '\(endpoint.path)' of \(type(of: endpoint)) to \(base)")
            }
        } catch let error as ResponseError {
            request.fail(error.reason)
        } catch {
            request.fail("the baseURL of \(type(of: endpoint)) failed: \(error)")
        }
        EndpointParameters.apply(
            parameters: endpoint.parameters, queryParameters: endpoint.queryParameters,
            owner: "\(type(of: endpoint))", to: &request)
        request.updateHTTPHeaderFields(endpoint.headers)
        self.init(request)
    }

    /// The request an endpoint describes, or the reason it cannot be built.
    public init(validating endpoint: some ServiceEndpoint) throws(ResponseError) {
        self = try Request(endpoint: endpoint).validated()
    }

    /// The first `.` or `..` segment of `path` (also percent-encoded, as `%2E%2E`) before any query or fragment.
    static func dotSegment(in path: String) -> String? {
        let pathPart = path.prefix { $0 != "?" && $0 != "#" }
        for segment in pathPart.split(separator: "/", omittingEmptySubsequences: false) {
            let decoded = segment.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
            if decoded == "." || decoded == ".." { return String(segment) }
        }
        return nil
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
