public import Foundation

/// GirdersSwift's way of building a request: URL, method and parameters, with a generator.
extension Request {
    /// GirdersSwift's initialiser: the generator's request for `method`, the URL, and `parameters` (in the query
    /// for `GET` and `HEAD`, otherwise as a JSON body with `Content-Type: application/json`), plus
    /// `queryParameters` in the query for every method.
    ///
    /// Unlike GirdersSwift, the query is never dropped for non-`GET` methods and no empty `{}` body is sent when
    /// `parameters` is `nil`.
    public init(
        URL url: URL,
        method: HTTPMethod = .get,
        parameters: [String: Any]? = nil,
        queryParameters: [String: Any]? = nil,
        requestGenerator: any RequestGenerator = DefaultRequestGenerator()
    ) {
        var request = requestGenerator.generateRequest(withMethod: method)
        request.method = method
        request.url = url
        Self.apply(parameters: parameters, queryParameters: queryParameters, to: &request)
        self.init(request)
    }

    static func apply(parameters: [String: Any]?, queryParameters: [String: Any]?, to request: inout MutableRequest) {
        if let parameters {
            if request.method.sendsParametersInQuery {
                request.queryItems += QueryEncoding.items(from: parameters)
            } else {
                request = request |> withJSONBody(dictionary: parameters)
            }
        }
        if let queryParameters {
            request.queryItems += QueryEncoding.items(from: queryParameters)
        }
    }
}
