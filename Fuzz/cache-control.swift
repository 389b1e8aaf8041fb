import Foundation
import GirdersSupport

/// libFuzzer entry: any bytes as `Cache-Control` field lines (split at NUL) and as the other fields a stored
/// response is aged by. Every directive is a lower-cased token; writing the directives out and parsing them again
/// gives the same directives; every time value is within 0...2^31; age and freshness lifetime are finite and never
/// negative.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheControl(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    let parsed = CacheControl(fields: fields)
    for directive in parsed.directives {
        guard !directive.name.isEmpty, directive.name == directive.name.lowercased(),
            directive.name.utf8.allSatisfy(HTTPCharacters.isTokenByte)
        else { fatalError("a directive name that is no lower-cased token: \(directive.name.debugDescription)") }
    }
    let written = parsed.directives.map { directive -> String in
        guard let argument = directive.argument else { return directive.name }
        // Escaped scalar by scalar: a backslash followed by a combining mark is one Character, which a
        // Character-level replacement would not find.
        var escaped = String.UnicodeScalarView()
        for scalar in argument.unicodeScalars {
            if scalar == "\\" || scalar == "\"" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return "\(directive.name)=\"\(String(escaped))\""
    }.joined(separator: ", ")
    if CacheControl(fields: [written]) != parsed {
        fatalError("the directives do not read back: \(fields.debugDescription) → \(written.debugDescription)")
    }
    let range = 0...CacheControl.greatestDeltaSeconds
    for value in [
        parsed.maxAge, parsed.minFresh, parsed.staleIfError, parsed.staleWhileRevalidate, parsed.maxStale ?? nil,
    ] {
        if let value, !range.contains(value) { fatalError("a time value out of range: \(value)") }
    }
    var headers = HTTPHeaders()
    for (name, value) in zip(["Cache-Control", "Age", "Date", "Expires", "Last-Modified", "Vary"], fields) {
        headers.add(name: name, value: value)
    }
    let stored = CachedResponse(
        statusCode: 200, headers: headers, body: Data(), url: URL(fileURLWithPath: "/"),
        requestTime: Date(timeIntervalSince1970: 1_800_000_000),
        responseTime: Date(timeIntervalSince1970: 1_800_000_001),
        varying: [:])
    let freshness = CacheFreshness(stored, now: Date(timeIntervalSince1970: 1_800_000_100))
    guard freshness.age.isFinite, freshness.age >= 0, freshness.lifetime.isFinite, freshness.lifetime >= 0 else {
        fatalError("age \(freshness.age), lifetime \(freshness.lifetime) for \(fields.debugDescription)")
    }
    _ = CacheStorability.varyingNames(headers)
    return 0
}
