public import Foundation

/// GirdersSwift's `MutableRequest` members, kept so its generator functions compile; each says what to write now.
extension MutableRequest {
    /// GirdersSwift's `httpMethod()`.
    @available(*, deprecated, renamed: "method", message: "read the method property")
    public func httpMethod() -> HTTPMethod {
        method
    }

    /// GirdersSwift's labelled header update: sets or replaces each field.
    @available(*, deprecated, renamed: "updateHTTPHeaderFields(_:)", message: "drop the headerFields: label")
    public mutating func updateHTTPHeaderFields(headerFields: [String: String]) {
        updateHTTPHeaderFields(headerFields)
    }

    /// GirdersSwift's `updateParameters(parameters:)`: the value is applied as an endpoint's `parameters` are (see
    /// ``ServiceEndpoint/parameters``): query items for `GET` and `HEAD`, a body otherwise. As in GirdersSwift, a
    /// dictionary is merged into the dictionary parameters given before (later keys win); any other value replaces
    /// them. A value Girders cannot send fails the request naming it.
    @available(
        *, deprecated,
        message: "pipe withJSONBody(dictionary:), withQueryParameters(_:) or withJSONBody(_:) for an Encodable value"
    )
    public mutating func updateParameters(parameters: Any?) {
        guard var parameters else { return }
        if let added = parameters as? [String: Any] {
            if method.sendsParametersInQuery {
                queryItems.removeAll { added[$0.name] != nil }
            } else if headers["Content-Type"] == "application/json", let body,
                var merged = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
            {
                merged.merge(added) { _, new in new }
                parameters = merged
            }
        }
        EndpointParameters.apply(
            parameters: parameters, queryParameters: nil, owner: "updateParameters(parameters:)", to: &self)
    }

    /// GirdersSwift's `updateQueryParameters(parameters:)`: replaces the query with a dictionary's or
    /// `[URLQueryItem]`'s items (or an `Encodable` value's fields); `nil` clears it. GirdersSwift also cleared the
    /// query for a value it could not read; here that fails the request naming it.
    @available(*, deprecated, message: "pipe withQueryParameters(_:), withQueryItems(_:) or withQuery(_:)")
    public mutating func updateQueryParameters(parameters: Any?) {
        queryItems = []
        EndpointParameters.apply(
            parameters: nil, queryParameters: parameters, owner: "updateQueryParameters(parameters:)", to: &self)
    }
}

extension Request {
    /// A request with extra header fields on top of the default generator's (`Accept: application/json`).
    @available(
        *, deprecated,
        message: "use Request(URL:method:parameters:requestGenerator:) with a generator that adds the headers"
    )
    public init(
        URL url: URL, method: HTTPMethod = .get, parameters: [String: Any] = [:],
        additionalHeaders: [String: String]
    ) {
        var request = DefaultRequestGenerator().generateRequest(withMethod: method)
        request.url = url
        Self.apply(parameters: parameters.isEmpty ? nil : parameters, queryParameters: nil, to: &request)
        request.updateHTTPHeaderFields(additionalHeaders)
        self.init(request)
    }
}
