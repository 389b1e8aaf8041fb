import Foundation

/// GirdersSwift's `parameters: Any?` and `queryParameters: Any?`, read at run time: what GirdersSwift accepted,
/// plus `Encodable`, and anything else a failure naming the property (never silently nothing).
///
/// | value | `parameters`, `GET`/`HEAD` | `parameters`, other methods | `queryParameters` |
/// |---|---|---|---|
/// | `nil` | nothing | nothing | nothing |
/// | a dictionary (`[String: Any]`, `[String: AnyObject]`, ...) | query | JSON body | query |
/// | `[URLQueryItem]` | query | form body | query |
/// | another array | failure | JSON body | failure |
/// | `String` | failure | UTF-8 text body | failure |
/// | `Data` | failure | raw body | failure |
/// | `Encodable` | query (flat fields) | JSON body | query (flat fields) |
/// | anything else | failure | failure | failure |
enum EndpointParameters {
    static func apply(parameters: Any?, queryParameters: Any?, owner: String, to request: inout MutableRequest) {
        if let parameters {
            if request.method.sendsParametersInQuery {
                addQuery(parameters, property: "parameters", owner: owner, to: &request)
            } else {
                addBody(parameters, owner: owner, to: &request)
            }
        }
        if let queryParameters { addQuery(queryParameters, property: "queryParameters", owner: owner, to: &request) }
    }

    private static func addQuery(_ value: Any, property: String, owner: String, to request: inout MutableRequest) {
        let noQueryForm =
            "the \(property) of \(owner) are a \(type(of: value)), which has no query form: use a dictionary, "
            + "[URLQueryItem] or an Encodable value with named fields"
            + (property == "parameters" ? " (a \(request.method.rawValue) request has no body)" : "")
        switch value {
        case let items as [URLQueryItem]: request.queryItems += items
        case let dictionary as [String: Any]: request.queryItems += QueryEncoding.items(from: dictionary)
        case is String, is Data, is [Any]: request.fail(noQueryForm)
        case let encodable as any Encodable:
            switch EncodableFields.items(of: encodable, encoder: .girders()) {
            case .success(let items): request.queryItems += items
            case .failure(let error): request.fail("the \(property) of \(owner): \(error.message)")
            }
        default: request.fail(noQueryForm)
        }
    }

    private static func addBody(_ value: Any, owner: String, to request: inout MutableRequest) {
        switch value {
        case let dictionary as [String: Any]: request = request |> withJSONBody(dictionary: dictionary)
        case let items as [URLQueryItem]: request = request |> withFormBody(items)
        case let array as [Any]: request = request |> withJSONBody(array: array)
        case let text as String: request = request |> withTextBody(text)
        case let data as Data: request = request |> withBody(data)
        case let encodable as any Encodable: request = request |> withJSONBody(encodable)
        default:
            request.fail(
                "the parameters of \(owner) are a \(type(of: value)), which Girders cannot send: use a dictionary, "
                    + "an array, [URLQueryItem], String, Data or an Encodable value")
        }
    }
}
