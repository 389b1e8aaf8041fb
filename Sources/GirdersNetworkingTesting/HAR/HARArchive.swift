public import Foundation
import GirdersNetworking

/// A HAR 1.2 archive (the HTTP Archive format browsers export from their network panel,
/// <http://www.softwareishard.com/blog/har-12-spec/>): what ``HARRecorder`` writes and ``HARReplayTransport``
/// reads. Every field of the 1.2 field list that is required is always present; fields Girders adds start with an
/// underscore, as the format asks of custom fields.
public struct HARArchive: Codable, Sendable, Equatable {
    /// The archive's one log.
    public var log: Log

    /// An archive of `entries`, created by Girders.
    public init(entries: [Entry]) {
        log = Log(version: "1.2", creator: Creator(name: "Girders", version: "1"), entries: entries)
    }

    /// The archive in `data`; throws ``HARError/unreadable(file:reason:)`` naming `file` when it is no HAR 1.2.
    public init(data: Data, file: String) throws(HARError) {
        do {
            self = try JSONDecoder().decode(HARArchive.self, from: data)
        } catch {
            throw .unreadable(file: file, reason: HARError.describe(error))
        }
        guard log.version == "1.2" || log.version == "1.1" else {
            throw .unreadable(file: file, reason: "log.version is \(log.version), not 1.2")
        }
    }

    /// The archive as JSON, pretty-printed with sorted keys (so that two recordings of one session differ only
    /// where the exchanges did).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The log: the format's version, the program that wrote it and its entries.
    public struct Log: Codable, Sendable, Equatable {
        /// The format's version: `1.2`.
        public var version: String
        /// The program that wrote the archive.
        public var creator: Creator
        /// The exchanges, in the order their requests started.
        public var entries: [Entry]
    }

    /// The program that wrote an archive.
    public struct Creator: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The format's version: `1.2`.
        public var version: String
    }

    /// One exchange: one request sent and its response (a redirect hop and a retry are entries of their own).
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, RFC 3339 with milliseconds.
        public var startedDateTime: String
        /// The whole exchange in milliseconds: the sum of ``timings``' phases.
        public var time: Double
        /// The request as sent.
        public var request: Request
        /// The response as received.
        public var response: Response
        /// Always empty: a transport sees no cache.
        public var cache: Cache
        /// The exchange's phases in milliseconds.
        public var timings: Timings
        /// Why the exchange failed, when it did (the response is then status 0, as browsers record it).
        public var _error: Failure?
    }

    /// A request as it was sent.
    public struct Request: Codable, Sendable, Equatable {
        /// The method, as sent.
        public var method: String
        /// The absolute URL, hidden query values replaced.
        public var url: String
        /// `HTTP/1.1`, `HTTP/2`, ... as the transport measured it (`HTTP/1.1` when it did not say).
        public var httpVersion: String
        /// The cookies sent, or set by the response.
        public var cookies: [Cookie]
        /// The header fields in order, hidden values replaced.
        public var headers: [Header]
        /// The URL's query items.
        public var queryString: [Header]
        /// The body, when there is one.
        public var postData: PostData?
        /// The head's size in bytes; -1: not measured.
        public var headersSize: Int64
        /// The body's size in bytes as sent or received; -1: not known (a coded or streamed body).
        public var bodySize: Int64
    }

    /// A response as it was received.
    public struct Response: Codable, Sendable, Equatable {
        /// The status code; 0 for an exchange that failed without one.
        public var status: Int
        /// The reason phrase of RFC 9110 for common codes, else empty.
        public var statusText: String
        /// `HTTP/1.1`, `HTTP/2`, ... as the transport measured it (`HTTP/1.1` when it did not say).
        public var httpVersion: String
        /// The cookies sent, or set by the response.
        public var cookies: [Cookie]
        /// The header fields in order, hidden values replaced.
        public var headers: [Header]
        /// The body, after content decoding.
        public var content: Content
        /// The `Location` of a redirect, resolved against the request's URL; empty otherwise.
        public var redirectURL: String
        /// The head's size in bytes; -1: not measured.
        public var headersSize: Int64
        /// The body's size in bytes as sent or received; -1: not known (a coded or streamed body).
        public var bodySize: Int64
    }

    /// A header field or a query item.
    public struct Header: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value (hidden values replaced).
        public var value: String

        /// A pair of `name` and `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A cookie sent or set: its name and value, as the recorder keeps them.
    public typealias Cookie = Header

    /// A request's body. `text` holds it as UTF-8, or as base64 when `_encoding` is `base64`; `_truncated` when
    /// only the first ``HARRecorder``'s `maximumBodyBytes` were kept, `_notRecorded` when the body was a stream
    /// the recorder could not read without taking it from the transport.
    public struct PostData: Codable, Sendable, Equatable {
        /// The `Content-Type`, or empty.
        public var mimeType: String
        /// The body as UTF-8, or base64 (`_encoding`).
        public var text: String
        /// `base64` when `text` is base64.
        public var _encoding: String?
        /// `true` when only the recorder's first `maximumBodyBytes` were kept.
        public var _truncated: Bool?
        /// `true` when the body was not read (a stream) or cut while JSON keys were hidden.
        public var _notRecorded: Bool?
    }

    /// A response's body, after content decoding: `text` as UTF-8 or base64 (`encoding`), `size` its length in
    /// bytes; `_truncated` when only the first `maximumBodyBytes` were kept.
    public struct Content: Codable, Sendable, Equatable {
        /// The body's length in bytes, after decoding.
        public var size: Int64
        /// The `Content-Type`, or empty.
        public var mimeType: String
        /// The body as UTF-8, or base64 (`encoding`).
        public var text: String?
        /// `base64` when `text` is base64.
        public var encoding: String?
        /// `true` when only the recorder's first `maximumBodyBytes` were kept.
        public var _truncated: Bool?
    }

    /// What a cache did: always empty, since a transport sees no cache.
    public struct Cache: Codable, Sendable, Equatable {}

    /// The phases in milliseconds; -1 for a phase that did not happen (or was not measured).
    public struct Timings: Codable, Sendable, Equatable {
        /// Waiting for a connection: -1 (not measured).
        public var blocked: Double
        /// Resolving the host name.
        public var dns: Double
        /// Opening the connection, TLS included.
        public var connect: Double
        /// The TLS handshake (within `connect`).
        public var ssl: Double
        /// Sending the request: 0 (not measured apart).
        public var send: Double
        /// Waiting for the first byte of the response.
        public var wait: Double
        /// Receiving the response's body.
        public var receive: Double
    }

    /// A failed exchange: ``ResponseErrorKind``'s name and the error's reason.
    public struct Failure: Codable, Sendable, Equatable {
        /// The ``ResponseErrorKind`` raw value.
        public var kind: String
        /// The error's reason.
        public var reason: String
    }
}

extension HARArchive.Content {
    /// The body's bytes, decoded from `text`.
    public var data: Data? { HARText.decode(text, encoding: encoding) }
}

extension HARArchive.PostData {
    /// The body's bytes, decoded from `text`; `nil` when the body was not recorded.
    public var data: Data? { _notRecorded == true ? nil : HARText.decode(text, encoding: _encoding) }
}

/// Bytes as HAR text: UTF-8 when they are, base64 otherwise.
enum HARText {
    static func encode(_ data: Data) -> (text: String, encoding: String?) {
        if let text = String(data: data, encoding: .utf8) { return (text, nil) }
        return (data.base64EncodedString(), "base64")
    }

    /// The bytes to keep of a body: with hidden JSON keys applied; `nil` (keep nothing) when the body was cut at
    /// the recorder's limit while JSON keys are hidden, since a cut JSON text cannot be searched for them.
    static func redacted(_ data: Data, truncated: Bool, redaction: Redaction) -> Data? {
        guard truncated else { return redaction.redacting(body: data) }
        return redaction.jsonKeys.isEmpty ? data : nil
    }

    static func decode(_ text: String?, encoding: String?) -> Data? {
        guard let text else { return nil }
        return encoding == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
    }
}
