import Foundation
public import GirdersNetworking

/// What every `HTTPTransport` owes `HTTPClient`, as cases run against a ``TestHTTPServer`` in the test's process:
/// the request arrives as lowered (method, target, every field, each kind of body), the response comes back as
/// sent (status, fields, body, a redirect unfollowed, no body for `HEAD` and `204`), the sink's limits stop a
/// body, and failures are the errors every transport gives (a timeout, a refused connection, a body cut short, a
/// cancellation). Girders' own transports pass it; run it against yours:
///
/// ```swift
/// @Test func myTransportConforms() async throws {
///     let failures = await TransportConformance { MyTransport() }.run()
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
///
/// Each case gets a transport of its own from the closure, so state left by one cannot hide another's failure.
public struct TransportConformance: Sendable {
    /// One thing a transport must do.
    public struct Case: Sendable {
        /// What it checks, as a sentence.
        public let name: String
        let check: @Sendable (Context) async throws -> Void
    }

    /// A case a transport failed, and how.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The case's name.
        public let name: String
        /// What was wrong.
        public let reason: String

        /// The case and the reason.
        public var description: String { "\(name): \(reason)" }
    }

    /// What a case works with.
    struct Context: Sendable {
        let server: TestHTTPServer
        let transport: any HTTPTransport
        let folder: URL
        /// Whether the transport hands connections over after a `101` (``HTTPTransport`` makes it optional).
        let switchesProtocols: Bool

        var client: HTTPClient { HTTPClient(transport: transport, redirects: .doNotFollow) }
    }

    private let makeTransport: @Sendable () -> any HTTPTransport
    private let switchesProtocols: Bool

    /// A suite for the transports `makeTransport` makes (one per case). With `switchesProtocols` the transport must
    /// answer a request to switch protocols with the `101` and the connection (``ResponseSink/upgraded(to:)``), as
    /// GirdersWebSocket needs; without, it must say ``ResponseError/unsupported(feature:)``.
    public init(switchesProtocols: Bool = true, _ makeTransport: @escaping @Sendable () -> any HTTPTransport) {
        self.makeTransport = makeTransport
        self.switchesProtocols = switchesProtocols
    }

    /// The names of every case, in the order they run.
    public static var caseNames: [String] { cases.map(\.name) }

    /// Runs every case (or those in `only`), one after another, each on a fresh transport, against one server;
    /// returns the failures (none when the transport conforms).
    public func run(only: Set<String>? = nil) async -> [Failure] {
        let server: TestHTTPServer
        do {
            server = try TestHTTPServer(handler: Self.route)
        } catch {
            return [Failure(name: "the test server starts", reason: "\(error)")]
        }
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "girders-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return [Failure(name: "a temporary folder is made", reason: "\(error)")]
        }
        var failures: [Failure] = []
        for item in Self.cases where only?.contains(item.name) ?? true {
            do {
                try await item.check(
                    Context(
                        server: server, transport: makeTransport(), folder: folder,
                        switchesProtocols: switchesProtocols))
            } catch let failure as Failure {
                failures.append(Failure(name: item.name, reason: failure.reason))
            } catch {
                failures.append(Failure(name: item.name, reason: "threw \(error)"))
            }
        }
        return failures
    }

    /// Fails the running case with `reason` unless `condition` holds.
    static func expect(_ condition: Bool, _ reason: @autoclosure () -> String) throws {
        if !condition { throw Failure(name: "", reason: reason()) }
    }
}
