import Foundation

/// A ``ServiceEndpoint``'s members read as what they hold, whatever type the conformer declared them with: each
/// is an associated type, so `var baseURL: NSURL` or `var requestGenerator: SecureRequestGenerator` is the
/// requirement itself, and here its value is turned into what a request needs, or into a reason naming the
/// endpoint and the member. Optionals (at any depth) are unwrapped; `nil` means "not given" where a default exists.
struct EndpointMembers<Endpoint: ServiceEndpoint> {
    let endpoint: Endpoint

    init(_ endpoint: Endpoint) {
        self.endpoint = endpoint
    }

    /// The base URL: a `URL`, `NSURL` or a `String` that is a URL.
    func baseURL(owner: String) throws(ResponseError) -> URL {
        let declared: Any
        do {
            declared = try endpoint.baseURL
        } catch let error as ResponseError {
            throw error
        } catch {
            throw .invalidRequest(reason: "the baseURL of \(owner) failed: \(error)")
        }
        switch Unwrapping.unwrapped(declared) {
        case let url as URL: return url
        case let url as NSURL:
            let text: String? = url.absoluteString  // optional on Apple platforms, not on Linux
            guard let text, let converted = URL(string: text) else { break }
            return converted
        case let text as String:
            guard let url = URL(string: text), url.scheme != nil else {
                throw .invalidRequest(reason: "the baseURL of \(owner), \(text.debugDescription), is not a URL")
            }
            return url
        case nil: throw .invalidRequest(reason: "the baseURL of \(owner) is nil")
        default: break
        }
        throw .invalidRequest(reason: "the baseURL of \(owner) is a \(type(of: declared)), which is not a URL")
    }

    /// The method: an ``HTTPMethod``, or a `String` naming one; `GET` after a failure (recorded in `failure`).
    func method(owner: String, failure: inout String?) -> HTTPMethod {
        let declared = endpoint.method
        switch Unwrapping.unwrapped(declared) {
        case let method as HTTPMethod: return method
        case let name as String:
            if let method = HTTPMethod(rawValue: name.uppercased()) { return method }
            failure = failure ?? "the method of \(owner), \(name.debugDescription), is not one Girders sends"
        case nil: return .get
        default: failure = failure ?? "the method of \(owner) is a \(type(of: declared)), which is not an HTTPMethod"
        }
        return .get
    }

    /// The generator: any ``RequestGenerator``; ``DefaultRequestGenerator`` when none (or after a failure).
    func generator(owner: String, failure: inout String?) -> any RequestGenerator {
        let declared = endpoint.requestGenerator
        switch Unwrapping.unwrapped(declared) {
        case let generator as any RequestGenerator: return generator
        case nil: return DefaultRequestGenerator()
        default:
            failure =
                failure
                ?? "the requestGenerator of \(owner) is a \(type(of: declared)), which is not a RequestGenerator"
            return DefaultRequestGenerator()
        }
    }

    /// The extra header fields: a dictionary of strings (or ``HTTPHeaders``); none when `nil`.
    func headers(owner: String) -> Result<[String: String], Failure> {
        let declared = endpoint.headers
        switch Unwrapping.unwrapped(declared) {
        case let fields as [String: String]: return .success(fields)
        case let fields as HTTPHeaders: return .success(fields.dictionary)
        case nil: return .success([:])
        default:
            return .failure(
                Failure("the headers of \(owner) are a \(type(of: declared)), which is not [String: String]"))
        }
    }

    /// Why a member cannot be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

/// Optionals seen through `Any`.
enum Unwrapping {
    /// `value` without its optional layers, or `nil` when one of them is empty.
    static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any OptionalValue else { return value }
        return optional.wrappedValue.flatMap(unwrapped)
    }
}

/// An `Optional` of any wrapped type, seen through `Any`.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? { map { $0 as Any } }
}
