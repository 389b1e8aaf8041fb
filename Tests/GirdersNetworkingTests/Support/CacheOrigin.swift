#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
@testable import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Server/cache_origin.py`: an origin whose answers each test scripts, and that logs what it was asked. Started
/// once for the test run; every test uses names of its own.
struct CacheOrigin: Sendable {
    let port: Int
    private let stdin: FileHandle

    /// One answer of the origin.
    struct Answer: Encodable {
        var status = 200
        var headers: [[String]] = []
        var body = ""
        var drop = false

        init(_ status: Int = 200, _ headers: [(String, String)] = [], body: String = "") {
            self.status = status
            self.headers = headers.map { [$0.0, $0.1] }
            self.body = body
        }

        /// Closes the connection without an answer.
        static let drop: Answer = {
            var answer = Answer()
            answer.drop = true
            return answer
        }()
    }

    /// A request the origin received.
    struct Logged: Decodable {
        let method: String
        let path: String
        let headers: [String: String]
    }

    static let shared: Result<CacheOrigin, any Error> = Result { try CacheOrigin() }

    static func get() throws -> CacheOrigin { try shared.get() }

    private init() throws {
        let started = try PythonServer.start("cache_origin")
        port = started.port
        stdin = started.stdin
    }

    /// The URL of the scripted resource `name` (with `suffix`, a further path or query).
    func url(_ name: String, _ suffix: String = "") -> URL {
        address("/o/\(name)\(suffix)")
    }

    private func address(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/invalid-test-url")
    }

    /// Makes `answers` the origin's answers for `name`, in order (the last repeats).
    func script(_ name: String, _ answers: [Answer]) async throws {
        let request = Request(
            MutableRequest(method: .post, url: address("/_script/\(name)"))
                |> withBody(try JSONEncoder().encode(answers), contentType: "application/json"))
        _ = try await HTTPClient(transport: URLSessionTransport(configuration: .ephemeral)).perform(request)
    }

    /// Settings of the downloadable file `/f/<name>` (see cache_origin.py).
    struct FileSettings: Encodable {
        var size: Int
        var version = "v1"
        var cuts: [Int] = []
        var drip_ms = 0
        var hold_after: Int? = nil
        var chunked = false
        var ignore_if_range = false
        var shift = 0
        var no_validator = false
        var date_only = false
    }

    /// Serves `settings` as `/f/<name>`.
    func file(_ name: String, _ settings: FileSettings) async throws {
        let request = Request(
            MutableRequest(method: .post, url: address("/_file/\(name)"))
                |> withBody(try JSONEncoder().encode(settings), contentType: "application/json"))
        _ = try await HTTPClient(transport: URLSessionTransport(configuration: .ephemeral)).perform(request)
    }

    /// The URL of the downloadable file `name`.
    func fileURL(_ name: String, _ query: String = "") -> URL {
        address("/f/\(name)\(query)")
    }

    /// What the origin was asked for `name`, in order.
    func log(_ name: String) async throws -> [Logged] {
        let request = Request(URL: address("/_log/\(name)"), method: .get)
        let response = try await HTTPClient(transport: URLSessionTransport(configuration: .ephemeral)).perform(request)
        return try JSONDecoder().decode([Logged].self, from: response.body)
    }
}

/// A clock a test moves by hand, for ``CachingTransport``'s ages.
final class TestClock: Sendable {
    private let now = LockedList<Date>()

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        now.append(start)
    }

    var date: Date { now.values.last ?? Date() }

    /// Moves the clock `seconds` on.
    func advance(_ seconds: Double) {
        now.append(date.addingTimeInterval(seconds))
    }

    /// `date` as an HTTP date, `offset` seconds from now.
    func httpDate(_ offset: Double = 0) -> String {
        HTTPDate.string(from: date.addingTimeInterval(offset))
    }
}
#endif
