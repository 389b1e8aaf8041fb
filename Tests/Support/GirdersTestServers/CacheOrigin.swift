#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
public import Foundation
import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Server/cache_origin.py`: an origin whose answers each test scripts, and that logs what it was asked. Started
/// once for the test run; every test uses names of its own.
public struct CacheOrigin: Sendable {
    public let port: Int
    private let stdin: FileHandle

    /// One answer of the origin.
    public struct Answer: Encodable, Sendable {
        public var status = 200
        public var headers: [[String]] = []
        public var body = ""
        public var drop = false

        public init(_ status: Int = 200, _ headers: [(String, String)] = [], body: String = "") {
            self.status = status
            self.headers = headers.map { [$0.0, $0.1] }
            self.body = body
        }

        /// Closes the connection without an answer.
        public static let drop: Answer = {
            var answer = Answer()
            answer.drop = true
            return answer
        }()
    }

    /// A request the origin received.
    public struct Logged: Decodable {
        public let method: String
        public let path: String
        public let headers: [String: String]
    }

    public static let shared: Result<CacheOrigin, any Error> = Result { try CacheOrigin() }

    public static func get() throws -> CacheOrigin { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("cache_origin")
        port = started.port
        stdin = started.stdin
    }

    /// The URL of the scripted resource `name` (with `suffix`, a further path or query).
    public func url(_ name: String, _ suffix: String = "") -> URL {
        address("/o/\(name)\(suffix)")
    }

    private func address(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid-test-url")
    }

    /// Makes `answers` the origin's answers for `name`, in order (the last repeats).
    public func script(_ name: String, _ answers: [Answer]) async throws {
        let request = Request(
            MutableRequest(method: .post, url: address("/_script/\(name)"))
                |> withBody(try JSONEncoder().encode(answers), contentType: "application/json"))
        _ = try await HTTPClient(transport: URLSessionTransport(configuration: .default)).perform(request)
    }

    /// Settings of the downloadable file `/f/<name>` (see cache_origin.py).
    public struct FileSettings: Encodable, Sendable {
        public var size: Int
        public var version = "v1"
        public var cuts: [Int] = []
        public var drip_ms = 0
        public var hold_after: Int? = nil
        public var chunked = false
        public var ignore_if_range = false
        public var shift = 0
        public var no_validator = false
        public var date_only = false

        public init(
            size: Int, version: String = "v1", cuts: [Int] = [], drip_ms: Int = 0, hold_after: Int? = nil,
            chunked: Bool = false, ignore_if_range: Bool = false, shift: Int = 0, no_validator: Bool = false,
            date_only: Bool = false
        ) {
            self.size = size
            self.version = version
            self.cuts = cuts
            self.drip_ms = drip_ms
            self.hold_after = hold_after
            self.chunked = chunked
            self.ignore_if_range = ignore_if_range
            self.shift = shift
            self.no_validator = no_validator
            self.date_only = date_only
        }
    }

    /// Serves `settings` as `/f/<name>`.
    public func file(_ name: String, _ settings: FileSettings) async throws {
        let request = Request(
            MutableRequest(method: .post, url: address("/_file/\(name)"))
                |> withBody(try JSONEncoder().encode(settings), contentType: "application/json"))
        _ = try await HTTPClient(transport: URLSessionTransport(configuration: .default)).perform(request)
    }

    /// The URL of the downloadable file `name`.
    public func fileURL(_ name: String, _ query: String = "") -> URL {
        address("/f/\(name)\(query)")
    }

    /// What the origin was asked for `name`, in order.
    public func log(_ name: String) async throws -> [Logged] {
        let request = Request(URL: address("/_log/\(name)"), method: .get)
        let response = try await HTTPClient(transport: URLSessionTransport(configuration: .default)).perform(request)
        return try JSONDecoder().decode([Logged].self, from: response.body)
    }
}

/// A clock a test moves by hand, for ``CachingTransport``'s ages.
public final class TestClock: Sendable {
    private let now = LockedList<Date>()

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        now.append(start)
    }

    public var date: Date { now.values.last ?? Date() }

    /// Moves the clock `seconds` on.
    public func advance(_ seconds: Double) {
        now.append(date.addingTimeInterval(seconds))
    }

    /// `date` as an HTTP date, `offset` seconds from now.
    public func httpDate(_ offset: Double = 0) -> String {
        HTTPDate.string(from: date.addingTimeInterval(offset))
    }
}
#endif
