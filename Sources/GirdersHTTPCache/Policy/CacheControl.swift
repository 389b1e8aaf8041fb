public import GirdersNetworking

/// The directives of `Cache-Control` fields, parsed by RFC 9111, section 5.2, on requests and responses alike.
///
/// Every field line is read as one comma-separated list (RFC 9110, section 5.6.1): empty elements are skipped,
/// names are case-insensitive, an argument is a token or a quoted string (its quoted pairs undone). A directive
/// the grammar does not allow (a name that is not a token, an argument cut off inside its quotes, text after the
/// argument) is ignored, as section 5.2 says, and the parser resumes at the next comma outside quotes.
///
/// A time directive (`max-age`, `s-maxage`, `max-stale`, `min-fresh`, `stale-while-revalidate`, `stale-if-error`)
/// holds delta-seconds (section 1.2.2): digits only, quoted or not; a value past 2^31 counts as 2^31. On a
/// response, a `max-age` or `s-maxage` that is not delta-seconds, or that appears twice with different values,
/// makes the response stale (section 4.2.1 allows it): ``maxAge`` is then 0.
///
/// ```swift
/// let directives = CacheControl(response.headers)
/// if directives.noStore { ... }
/// let lifetime = directives.maxAge  // seconds, or nil when the field says nothing of it
/// ```
public struct CacheControl: Sendable, Equatable {
    /// One directive as it appeared: the lower-cased name and its argument (without quotes), if any.
    public struct Directive: Sendable, Equatable {
        /// The name, lower-cased.
        public let name: String
        /// The argument, unquoted; `nil` when the directive has none.
        public let argument: String?
    }

    /// Every well-formed directive, in order, duplicates included.
    public let directives: [Directive]

    /// The largest delta-seconds value kept (RFC 9111, section 1.2.2).
    public static let greatestDeltaSeconds = 2_147_483_648

    /// The directives of every `Cache-Control` field in `headers`.
    public init(_ headers: HTTPHeaders) {
        self.init(fields: headers.values(for: "Cache-Control"))
    }

    /// The directives of the given field values, read as one list.
    public init(fields: [String]) {
        var parsed: [Directive] = []
        for field in fields { Self.parse(Array(field.utf8), into: &parsed) }
        directives = parsed
    }

    /// Whether a directive named `name` (any case) is present, with or without an argument.
    public func contains(_ name: String) -> Bool {
        let name = name.lowercased()
        return directives.contains { $0.name == name }
    }

    /// `no-store`.
    public var noStore: Bool { contains("no-store") }
    /// `no-cache`; a response's qualified form (`no-cache="Set-Cookie"`) counts as the whole response's.
    public var noCache: Bool { contains("no-cache") }
    /// `must-revalidate` (`proxy-revalidate` is for shared caches and not counted).
    public var mustRevalidate: Bool { contains("must-revalidate") }
    /// `only-if-cached` (requests).
    public var onlyIfCached: Bool { contains("only-if-cached") }
    /// `immutable` (RFC 8246).
    public var immutable: Bool { contains("immutable") }
    /// `public`.
    public var isPublic: Bool { contains("public") }
    /// `private`: allowed in this private cache.
    public var isPrivate: Bool { contains("private") }

    /// `max-age` in seconds: 0 when a response's value is malformed or given twice differently; `nil` when absent.
    public var maxAge: Int? { freshnessSeconds("max-age") }
    /// `s-maxage` (for shared caches; read for completeness, never used by this private cache).
    public var sharedMaxAge: Int? { freshnessSeconds("s-maxage") }
    /// `min-fresh` in seconds (requests); `nil` when absent or malformed.
    public var minFresh: Int? { seconds("min-fresh") }
    /// `stale-while-revalidate` in seconds (RFC 5861); `nil` when absent or malformed.
    public var staleWhileRevalidate: Int? { seconds("stale-while-revalidate") }
    /// `stale-if-error` in seconds (RFC 5861); `nil` when absent or malformed.
    public var staleIfError: Int? { seconds("stale-if-error") }

    /// `max-stale` (requests): `.some(nil)` without an argument (any staleness), `.some(seconds)` with one, `nil`
    /// when absent. A malformed argument counts as none accepted (0).
    public var maxStale: Int?? {
        guard let directive = directives.first(where: { $0.name == "max-stale" }) else { return nil }
        guard let argument = directive.argument else { return .some(nil) }
        return .some(Self.deltaSeconds(argument) ?? 0)
    }

    /// The first well-formed value of `name`, or `nil`.
    private func seconds(_ name: String) -> Int? {
        for directive in directives where directive.name == name {
            if let argument = directive.argument, let value = Self.deltaSeconds(argument) { return value }
        }
        return nil
    }

    /// A freshness directive: malformed or conflicting values mean stale (0).
    private func freshnessSeconds(_ name: String) -> Int? {
        var found: Int?
        for directive in directives where directive.name == name {
            guard let argument = directive.argument, let value = Self.deltaSeconds(argument) else { return 0 }
            if let earlier = found, earlier != value { return 0 }
            found = value
        }
        return found
    }

    /// delta-seconds: one or more digits, capped at 2^31; `nil` for anything else.
    static func deltaSeconds(_ text: String) -> Int? {
        guard !text.isEmpty else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = min(value * 10 + Int(byte - 0x30), greatestDeltaSeconds)
        }
        return value
    }
}
