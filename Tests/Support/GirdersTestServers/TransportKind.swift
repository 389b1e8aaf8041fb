#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
public import GirdersNetworking
public import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transports a behaviour must hold on: every one this platform has.
public enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    #if os(Linux)
    case curl
    #endif

    public var testDescription: String { rawValue }

    /// A client on this transport, with cookies of its own (`jar`, or a fresh in-memory one).
    public func client(cookies jar: (any CookieJar)? = nil) -> HTTPClient {
        client(over: transport(), cookies: jar)
    }

    /// A client over `decorator` (which wraps a transport of this kind), with cookies of its own (`jar`, or a
    /// fresh in-memory ``RFC6265CookieJar``).
    public func client(over decorator: any HTTPTransport, cookies jar: (any CookieJar)? = nil) -> HTTPClient {
        HTTPClient(transport: decorator, cookieJar: jar ?? RFC6265CookieJar())
    }

    /// A new transport of this kind, sharing nothing with other tests' transports.
    public func transport() -> any HTTPTransport {
        switch self {
        case .urlSession: return URLSessionTransport(configuration: .default)
        #if os(Linux)
        case .curl: return CurlTransport()
        #endif
        }
    }

    /// The transport the shared behaviour tests run on: the one `GIRDERS_TEST_TRANSPORT` names (`urlSession`,
    /// `curl`), else the platform's default (`.ci/run` runs the networking tests once with each).
    public static var underTest: TransportKind {
        if let name = ProcessInfo.processInfo.environment["GIRDERS_TEST_TRANSPORT"],
            let kind = TransportKind(rawValue: name)
        {
            return kind
        }
        #if os(Linux)
        return .curl
        #else
        return .urlSession
        #endif
    }
}
#endif
