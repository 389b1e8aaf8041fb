import Foundation
public import GirdersConfig
import GirdersSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Generator functions for authentication and session cookies.

/// Basic authentication with `auth.username` and `auth.password` from ``NetworkingDefaults/configuration``,
/// as GirdersSwift read them from its shared configuration.
///
/// When no configuration is installed or a key is missing, the request records the reason (naming the key and
/// the files searched) and fails with ``ResponseError/invalidRequest(reason:)`` instead of sending no header.
public func withBasicAuth(_ request: consuming MutableRequest) -> MutableRequest {
    guard let configuration = NetworkingDefaults.configuration else {
        request.fail(
            "withBasicAuth reads auth.username and auth.password, but NetworkingDefaults.configuration is not set")
        return request
    }
    return request |> withBasicAuth(from: configuration)
}

/// Basic authentication with `auth.username` and `auth.password` (or other keys) read from `configuration`.
public func withBasicAuth(
    from configuration: any ConfigurationReading, usernameKey: String = "auth.username",
    passwordKey: String = "auth.password"
) -> RequestTransform {
    do {
        let username = try configuration.requiredValue(forKey: usernameKey, as: String.self)
        let password = try configuration.requiredValue(forKey: passwordKey, as: String.self)
        return withBasicAuth(username: username, password: password)
    } catch {
        let reason = "withBasicAuth: \(error)"
        return { (request: consuming MutableRequest) in
            request.fail(reason)
            return request
        }
    }
}

/// Basic authentication with an explicit credential: `Authorization: Basic base64(username:password)`.
///
/// RFC 7617 allows no control character (CR, LF, NUL, ...) in either part and no colon in the user name: such a
/// credential fails the request with ``ResponseError/invalidRequest(reason:)`` naming the part and byte offset
/// (never the value), instead of being encoded where base64 would hide it.
public func withBasicAuth(username: String, password: String) -> RequestTransform {
    if let problem = basicAuthProblem(username, part: "user name", colonAllowed: false)
        ?? basicAuthProblem(password, part: "password", colonAllowed: true)
    {
        return { (request: consuming MutableRequest) in
            request.fail("withBasicAuth: " + problem)
            return request
        }
    }
    let token = Data("\(username):\(password)".utf8).base64EncodedString()
    return withHeader("Authorization", "Basic \(token)")
}

/// Why `value` cannot be this `part` of a Basic credential (RFC 7617, section 2), or `nil`.
private func basicAuthProblem(_ value: String, part: String, colonAllowed: Bool) -> String? {
    for (offset, byte) in value.utf8.enumerated() {
        if HTTPCharacters.isControl(byte) {
            return "the \(part) holds the control character 0x\(String(byte, radix: 16, uppercase: true)) at byte "
                + "\(offset); RFC 7617 forbids control characters in a Basic credential"
        }
        if byte == UInt8(ascii: ":"), !colonAllowed {
            return "the \(part) holds a colon at byte \(offset); RFC 7617 forbids it in a Basic user name"
        }
    }
    return nil
}

/// Bearer authentication: `Authorization: Bearer <token>`.
public func withBearerToken(_ token: String) -> RequestTransform {
    withHeader("Authorization", "Bearer \(token)")
}

/// GirdersSwift's session cookie support: when the request is sent, the `XSRF-TOKEN` cookie the client's
/// ``HTTPClient/cookieJar`` holds for its URL becomes an `X-XSRF-TOKEN` header and `JSESSIONID` is added to the
/// `Cookie` header (read again for each redirect's URL). A request sent with no jar (`cookieJar: nil`, or straight
/// through a transport) gets neither.
///
/// Unlike GirdersSwift, a missing or empty cookie adds no header, an existing `Cookie` header is extended rather
/// than replaced, and the jar is the client's, not always the process's shared one.
public func withSessionCookie(_ request: consuming MutableRequest) -> MutableRequest {
    request.readsSessionCookie = true
    return request
}

/// Session headers from explicit values: `X-XSRF-TOKEN` and `JSESSIONID` in `Cookie`; `nil` or empty values add
/// nothing.
public func withSessionCookie(xsrfToken: String?, sessionID: String?) -> RequestTransform {
    { (request: consuming MutableRequest) in
        if let problem = request.headers.addSessionHeaders(xsrfToken: xsrfToken, sessionID: sessionID) {
            request.fail(problem)
        }
        return request
    }
}

extension HTTPHeaders {
    /// Adds `X-XSRF-TOKEN` and `JSESSIONID` (to `Cookie`, replacing an earlier one) for the values that are not
    /// `nil` or empty; returns why a session id cannot be a cookie value, adding nothing then.
    mutating func addSessionHeaders(xsrfToken: String?, sessionID: String?) -> String? {
        // RFC 6265 cookie-octets only: a `;` or `,` would add cookies, a space or quote would end the value.
        let isCookieOctet: (UInt8) -> Bool = { byte in
            byte >= 0x21 && byte <= 0x7E && !"\",;\\".utf8.contains(byte)
        }
        if let sessionID, !sessionID.utf8.allSatisfy(isCookieOctet) {
            return "the session id cannot be a cookie value: it holds a space, a control character or one of \" , ; \\ "
                + "(RFC 6265)"
        }
        if let xsrfToken, !xsrfToken.isEmpty {
            self["X-XSRF-TOKEN"] = xsrfToken
        }
        guard let sessionID, !sessionID.isEmpty else { return nil }
        let pair = "JSESSIONID=\(sessionID)"
        let others = (self["Cookie"] ?? "").split(atScalar: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("JSESSIONID=") }
        self["Cookie"] = (others + [pair]).joined(separator: "; ")
        return nil
    }
}
