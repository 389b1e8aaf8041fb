import Foundation
import GirdersSupport

@testable import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// libFuzzer entry: any bytes as what an app puts into a request (query names and values, header names and values,
/// a bearer token, Basic credentials, a session id), through the generator functions and the client's lowering.
/// Properties: a query emits only unreserved bytes, `%XX`, `=`, `&` (and `+` in forms) and decodes back to exactly
/// the items given; every header, token, credential and cookie value either fails the request with a reason or
/// becomes exactly one field line (a token for a name, no CR, LF or NUL in a value) holding exactly what was given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBuilders(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size)).makeIterator()
    func next() -> UInt8 { bytes.next() ?? 0 }
    func text() -> String {
        let palette: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "+", "&", "=", "%", "/", "?", "#", ";", ",", ":", "\"", "\\", "\r", "\n", "\u{0}",
            "\t", "\u{7F}", "é", "\u{1F600}", "-", "_", ".", "~",
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<(Int(next()) % 10) { scalars.append(palette[Int(next()) % palette.count]) }
        return String(scalars)
    }
    checkQuery([
        URLQueryItem(name: text(), value: next() % 4 == 0 ? nil : text()), URLQueryItem(name: text(), value: text()),
    ])
    guard let url = URL(string: "https://api.example/p") else { return 0 }
    let name = text()
    let value = text()
    checkOneLine(MutableRequest(url: url) |> withHeader(name, value), name: name, value: value)
    let token = text()
    checkOneLine(MutableRequest(url: url) |> withBearerToken(token), name: "Authorization", value: "Bearer \(token)")
    let user = text()
    let password = text()
    let basic = Data("\(user):\(password)".utf8).base64EncodedString()
    checkOneLine(
        MutableRequest(url: url) |> withBasicAuth(username: user, password: password), name: "Authorization",
        value: "Basic \(basic)",
        mustFail: user.utf8.contains(UInt8(ascii: ":"))
            || "\(user)\(password)".utf8.contains { $0 < 0x20 || $0 == 0x7F })
    let session = text()
    let cookie = Request(MutableRequest(url: url) |> withSessionCookie(xsrfToken: nil, sessionID: session))
    if cookie.failureReason == nil, !session.isEmpty {
        let lines = cookie.headers.values(for: "Cookie")
        if lines != ["JSESSIONID=\(session)"] { fatalError("the session id became \(lines)") }
        if session.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F || ";,\"\\".utf8.contains($0) }) {
            fatalError("a session id that is no cookie value was sent: \(session.debugDescription)")
        }
    }
    return 0
}

/// The request either failed with a reason, or lowers to a wire request whose field `name` is one line holding
/// exactly `value` (and whose every field is a token name with a value free of CR, LF and NUL).
private func checkOneLine(_ mutable: MutableRequest, name: String, value: String, mustFail: Bool = false) {
    let request = Request(mutable)
    guard request.failureReason == nil, let wire = try? WireRequest(lowering: request) else {
        if (request.failureReason ?? "").isEmpty, !mustFail, (try? WireRequest(lowering: request)) == nil {
            fatalError("lowering failed although building did not, for \(name.debugDescription)")
        }
        return
    }
    if mustFail { fatalError("a credential that breaks RFC 7617 was accepted: \(value.debugDescription)") }
    for field in wire.headers {
        if field.name.isEmpty || !field.name.utf8.allSatisfy(HTTPCharacters.isTokenByte) {
            fatalError("the name \(field.name.debugDescription) is not a token")
        }
        if field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            fatalError("the value of \(field.name) holds a line break or NUL: \(field.value.debugDescription)")
        }
    }
    let lines = wire.headers.values(for: name)
    if lines != [value] { fatalError("\(name.debugDescription) became \(lines), not [\(value.debugDescription)]") }
}

/// Only unreserved bytes, `%XX`, `=`, `&` (and `+` in forms) go out, and the query decodes back.
private func checkQuery(_ items: [URLQueryItem]) {
    for spaceAsPlus in [false, true] {
        let query = QueryEncoding.encode(items, spaceAsPlus: spaceAsPlus)
        let allowed = Set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%=&".utf8 + (spaceAsPlus ? [43] : []))
        if let byte = query.utf8.first(where: { !allowed.contains($0) }) {
            fatalError("the query \(query.debugDescription) holds the byte \(byte)")
        }
        let decoded = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> URLQueryItem in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? {
                String(spaceAsPlus ? part.replacingOccurrences(of: "+", with: " ") : String(part))
                    .removingPercentEncoding
            }
            return URLQueryItem(name: decode(parts[0]) ?? "?", value: parts.count > 1 ? decode(parts[1]) : nil)
        }
        if decoded != items { fatalError("\(items) encoded as \(query.debugDescription) decodes to \(decoded)") }
    }
}
