public import Foundation
import GirdersNetworking

/// A HAR 1.2 archive (the HTTP Archive format browsers export from their network panel,
/// <http://www.softwareishard.com/blog/har-12-spec/>): what ``HARRecorder`` writes and ``HARReplayTransport``
/// reads. Every field of the 1.2 field list that is required is always present; fields Girders adds start with an
/// underscore, as the format asks of custom fields.
public struct HARArchive: Codable, Sendable, Equatable {
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

    public struct Log: Codable, Sendable, Equatable {
        public var version: String
        public var creator: Creator
        public var entries: [Entry]
    }

    public struct Creator: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
    }

    /// One exchange: one request sent and its response (a redirect hop and a retry are entries of their own).
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, RFC 3339 with milliseconds.
        public var startedDateTime: String
        /// The whole exchange in milliseconds: the sum of ``timings``' phases.
        public var time: Double
        public var request: Request
        public var response: Response
        /// Always empty: a transport sees no cache.
        public var cache: Cache
        public var timings: Timings
        /// Why the exchange failed, when it did (the response is then status 0, as browsers record it).
        public var _error: Failure?
    }

    public struct Request: Codable, Sendable, Equatable {
        public var method: String
        public var url: String
        public var httpVersion: String
        public var cookies: [Cookie]
        public var headers: [Header]
        public var queryString: [Header]
        public var postData: PostData?
        public var headersSize: Int64
        public var bodySize: Int64
    }

    public struct Response: Codable, Sendable, Equatable {
        public var status: Int
        public var statusText: String
        public var httpVersion: String
        public var cookies: [Cookie]
        public var headers: [Header]
        public var content: Content
        /// The `Location` of a redirect, resolved against the request's URL; empty otherwise.
        public var redirectURL: String
        public var headersSize: Int64
        public var bodySize: Int64
    }

    /// A header field or a query item.
    public struct Header: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Cookie: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// A request's body. `text` holds it as UTF-8, or as base64 when `_encoding` is `base64`; `_truncated` when
    /// only the first ``HARRecorder``'s `maximumBodyBytes` were kept, `_notRecorded` when the body was a stream
    /// the recorder could not read without taking it from the transport.
    public struct PostData: Codable, Sendable, Equatable {
        public var mimeType: String
        public var text: String
        public var _encoding: String?
        public var _truncated: Bool?
        public var _notRecorded: Bool?
    }

    /// A response's body, after content decoding: `text` as UTF-8 or base64 (`encoding`), `size` its length in
    /// bytes; `_truncated` when only the first `maximumBodyBytes` were kept.
    public struct Content: Codable, Sendable, Equatable {
        public var size: Int64
        public var mimeType: String
        public var text: String?
        public var encoding: String?
        public var _truncated: Bool?
    }

    public struct Cache: Codable, Sendable, Equatable {}

    /// The phases in milliseconds; -1 for a phase that did not happen (or was not measured).
    public struct Timings: Codable, Sendable, Equatable {
        public var blocked: Double
        public var dns: Double
        public var connect: Double
        public var ssl: Double
        public var send: Double
        public var wait: Double
        public var receive: Double
    }

    /// A failed exchange: ``ResponseErrorKind``'s name and the error's reason.
    public struct Failure: Codable, Sendable, Equatable {
        public var kind: String
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
