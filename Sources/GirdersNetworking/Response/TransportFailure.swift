public import Foundation

/// A transport's failure in the words every transport shares: each transport maps its own codes (libcurl's,
/// `URLError`'s) to a ``Kind`` here, and ``ResponseError/init(_:url:)`` turns it into the case callers switch on,
/// in one place, so the same failure is the same error on every transport (a refused connection
/// ``ResponseError/cannotConnect(url:reason:)``, a body cut short ``ResponseError/interrupted(url:receivedBytes:expectedBytes:reason:)``, an
/// untrusted server `transport(code: URLError.serverCertificateUntrusted)`).
///
/// A transport written outside Girders throws `ResponseError(TransportFailure(...), url:)` for its own failures.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as every transport names it.
    public enum Kind: Sendable, Equatable {
        /// The host name could not be resolved.
        case cannotFindHost
        /// The connection was refused, or could not be made.
        case cannotConnect
        /// No progress within the request's timeout.
        case timedOut
        /// The calling task was cancelled.
        case cancelled
        /// The connection ended before the response was complete.
        case interrupted
        /// The server's certificate (or its public key, against the pins) is not trusted.
        case untrustedServer
        /// TLS could not be set up (a handshake, a client certificate, a cipher).
        case secureConnectionFailed
        /// The URL cannot be sent (a scheme or a form the stack refuses).
        case unsupportedURL
        /// The response broke a rule of HTTP the stack enforces (a head too large, a line too long).
        case malformedResponse
        /// Anything else; ``TransportFailure/code`` holds the stack's own code.
        case other
    }

    /// What went wrong.
    public var kind: Kind
    /// The stack's own words.
    public var reason: String
    /// The stack's own code for ``Kind/other`` (libcurl's result code negated, a `URLError` code), else 0.
    public var code: Int
    /// The body's bytes received and announced, for ``Kind/interrupted``, where the transport knows them.
    public var receivedBytes: Int64?
    /// The body's length as announced, for ``Kind/interrupted``, where the transport knows it.
    public var expectedBytes: Int64?

    /// A failure of `kind`, said in `reason`.
    public init(
        _ kind: Kind, reason: String, code: Int = 0, receivedBytes: Int64? = nil, expectedBytes: Int64? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.code = code
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
    }

    /// The stack's own words.
    public var description: String { reason }
}

extension ResponseError {
    /// The case for a transport's `failure` of a request to `url`: the one mapping every transport goes through.
    public init(_ failure: TransportFailure, url: URL?) {
        let reason = failure.reason
        switch failure.kind {
        case .cannotFindHost: self = .cannotFindHost(url: url, reason: reason)
        case .cannotConnect: self = .cannotConnect(url: url, reason: reason)
        case .timedOut: self = .timedOut(url: url)
        case .cancelled: self = .cancelled(url: url)
        case .interrupted:
            self = .interrupted(
                url: url, receivedBytes: failure.receivedBytes, expectedBytes: failure.expectedBytes, reason: reason)
        case .untrustedServer:
            self = .transport(url: url, code: URLError.serverCertificateUntrusted.rawValue, reason: reason)
        case .secureConnectionFailed:
            self = .transport(url: url, code: URLError.secureConnectionFailed.rawValue, reason: reason)
        case .unsupportedURL: self = .transport(url: url, code: URLError.unsupportedURL.rawValue, reason: reason)
        case .malformedResponse: self = .malformedResponse(url: url, reason: reason)
        case .other: self = .transport(url: url, code: failure.code, reason: reason)
        }
    }
}
