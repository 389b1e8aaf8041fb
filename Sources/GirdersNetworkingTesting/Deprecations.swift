public import Foundation
public import GirdersNetworking

// Every removed or deprecated declaration of GirdersNetworkingTesting, in one place, each message saying what
// replaces it.

/// The replay's cookie jar, now the client's.
extension HARReplayTransport {
    /// Removed: the jar is the client's, so the replayed cookies go where every other cookie of that client goes.
    @available(
        *, unavailable,
        message: "the cookie jar is the client's: HTTPClient(transport: replay, cookieJar: RFC6265CookieJar())"
    )
    public convenience init(
        contentsOf file: URL, redaction: Redaction = .standard, cookieJar: (any CookieJar)?,
        maximumBodyBytes: Int = 1 << 20
    ) throws(HARError) {
        try self.init(contentsOf: file, redaction: redaction, maximumBodyBytes: maximumBodyBytes)
    }

    /// Removed: the jar is the client's, so the replayed cookies go where every other cookie of that client goes.
    @available(
        *, unavailable,
        message: "the cookie jar is the client's: HTTPClient(transport: replay, cookieJar: RFC6265CookieJar())"
    )
    public convenience init(
        _ archive: HARArchive, name: String = "the HAR archive", redaction: Redaction = .standard,
        cookieJar: (any CookieJar)?, maximumBodyBytes: Int = 1 << 20
    ) {
        self.init(archive, name: name, redaction: redaction, maximumBodyBytes: maximumBodyBytes)
    }
}
