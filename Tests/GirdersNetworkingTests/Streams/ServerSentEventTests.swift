import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking

/// The event-stream parser against the WHATWG rules, fed in every possible split, and bounded.
struct ServerSentEventParserTests {
    func parser(line: Int = 1 << 10, event: Int = 1 << 10, retry: Int = 60_000) -> ServerSentEventParser {
        ServerSentEventParser(maximumLineBytes: line, maximumEventBytes: event, maximumRetry: retry)
    }

    func events(_ text: String, splitAt splits: [Int] = []) throws -> [ServerSentEvent] {
        var parser = parser()
        let bytes = Array(text.utf8)
        var start = 0
        var found: [ServerSentEvent] = []
        for end in splits + [bytes.count] where end >= start {
            parser.append(Data(bytes[start..<end]))
            while let event = try parser.nextEvent() { found.append(event) }
            start = end
        }
        return found
    }

    @Test func fieldsCommentsMultiLineDataAndEveryLineEndAreReadAsTheSpecificationSays() throws {
        let stream =
            "\u{FEFF}: hello\r\nretry: 1500\nid: 7\revent: update\ndata: first\r\ndata:second\ndata\n\n"
            + "data: plain\n\nid\ndata: after an empty id\n\n: only a comment\n\nevent: nothing\n\ndata: unfinished"
        let found = try events(stream)
        #expect(
            found == [
                ServerSentEvent(type: "update", data: "first\nsecond\n", id: "7"),
                ServerSentEvent(type: "message", data: "plain", id: "7"),
                ServerSentEvent(type: "message", data: "after an empty id", id: nil),
            ])
        var parser = parser()
        parser.append(Data(stream.utf8))
        #expect(parser.retry == 1500)
    }

    @Test func everySplitOfTheStreamGivesTheSameEvents() throws {
        let stream = "\u{FEFF}id: 1\r\ndata: a\r\n\r\nid: 2\rdata: b\r\rdata: c\n\n"
        let whole = try events(stream)
        #expect(whole.map(\.data) == ["a", "b", "c"])
        for split in 0...stream.utf8.count {
            #expect(try events(stream, splitAt: [split]) == whole, "split at \(split)")
        }
        for first in stride(from: 0, to: stream.utf8.count, by: 3) {
            #expect(try events(stream, splitAt: [first, first + 1, first + 2]) == whole)
        }
    }

    @Test func anIDWithAControlCharacterIsIgnoredAndARetryIsDigitsOnlyAndClamped() throws {
        var parser = parser(retry: 60_000)
        parser.append(Data("id: good\ndata: 1\n\nid: bad\u{0}id\ndata: 2\n\nid: esc\u{1B}\ndata: 3\n\n".utf8))
        #expect(try parser.nextEvent()?.id == "good")
        #expect(try parser.nextEvent()?.id == "good")
        #expect(try parser.nextEvent()?.id == "good")
        parser.append(Data("retry: 12a\n\nretry: -5\n\n".utf8))
        #expect(parser.retry == nil)
        parser.append(Data("retry: 99999999999999999999999999\n\n".utf8))
        #expect(parser.retry == 60_000)
    }

    @Test func aLineOrAnEventBeyondItsLimitIsAnError() throws {
        var lines = parser(line: 16)
        lines.append(Data(("data: " + String(repeating: "x", count: 20) + "\n").utf8))
        #expect(throws: ServerSentEventParser.Failure.lineTooLong(16)) { try lines.nextEvent() }
        var events = parser(line: 100, event: 32)
        for _ in 0..<10 { events.append(Data("data: 0123456789\n".utf8)) }
        #expect(throws: ServerSentEventParser.Failure.eventTooLarge(32)) { try events.nextEvent() }
    }

    /// Found by the `sse-parser` fuzz target (twice): an event completed before an over-long line in the same piece
    /// was lost when the piece came whole, and delivered when it came byte by byte. The failure now comes after the
    /// events before it, from `nextEvent()`, so a reader that stops at the first error still gets them.
    @Test func eventsBeforeAnOverlongLineArriveHoweverThePiecesFall() throws {
        let stream = Array(("data: kept\n\n" + String(repeating: "x", count: 300) + "\n").utf8)
        for pieces in [[stream[...]], stream.indices.map { stream[$0...$0] }] {
            var parser = parser(line: 256)
            var found: [String] = []
            var failure: ServerSentEventParser.Failure?
            do {
                for piece in pieces {
                    parser.append(Data(piece))
                    while let event = try parser.nextEvent() { found.append(event.data) }
                }
            } catch {
                failure = error
            }
            #expect(found == ["kept"])
            #expect(failure == .lineTooLong(256))
        }
    }

    /// WHATWG: `id:` fills the last event ID buffer; only a dispatch (a blank line, with or without data) makes it
    /// the last event ID. An event cut off after its `id:` line is asked for again.
    @Test func theLastEventIDIsTheLastDispatchedEventsNotTheLastIDLineRead() throws {
        var parser = parser()
        parser.append(Data("id: e3\ndata: three\n\nid: e4\nevent: tick\n".utf8))
        #expect(try parser.nextEvent() == ServerSentEvent(data: "three", id: "e3"))
        #expect(try parser.nextEvent() == nil)
        #expect(parser.lastEventID == "e3")
        parser.reconnected()
        #expect(parser.lastEventID == "e3")
        parser.append(Data("data: after\n\nid: e9\n\n".utf8))
        #expect(try parser.nextEvent() == ServerSentEvent(data: "after", id: "e3"))
        #expect(parser.lastEventID == "e9")  // a blank line dispatches the buffer even without data
    }

    @Test func aReconnectDropsTheHalfReadEventAndKeepsTheLastEventID() throws {
        var parser = parser()
        parser.append(Data("id: 5\ndata: whole\n\ndata: half".utf8))
        #expect(try parser.nextEvent()?.data == "whole")
        parser.reconnected()
        parser.append(Data("\n\ndata: next\n\n".utf8))
        #expect(try parser.nextEvent() == ServerSentEvent(data: "next", id: "5"))
        #expect(parser.lastEventID == "5")
    }
}

#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
/// Server-Sent Events against a server that drops the connection mid-event, on both transports.
struct ServerSentEventTests {
    let server: LoopbackServer

    init() throws {
        server = try LoopbackServer.get()
    }

    /// Options whose reconnects record their waits instead of sleeping through them.
    func recording(_ waits: LockedList<Double>, random: Double? = nil) -> ServerSentEvents.Options {
        var options = ServerSentEvents.Options()
        options.sleep = { waits.append($0) }
        if let random { options.random = { random } }
        return options
    }

    func log(_ name: String) async throws -> [[String?]] {
        let response = try await makeClient().perform(Request(URL: server.url("/sse-log?name=\(name)"), method: .get))
        return try JSONDecoder().decode([[String?]].self, from: response.body)
    }

    @Test(arguments: TransportKind.allCases)
    func aDroppedStreamResumesAfterTheLastEventIDUntilTheServerSays204(_ kind: TransportKind) async throws {
        let name = "resume-\(kind.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        let url = server.url("/sse?name=\(name)&total=9&drop=4")
        var found: [ServerSentEvent] = []
        let waits = LockedList<Double>()
        for try await event in kind.client().events(Request(URL: url, method: .get), options: recording(waits)) {
            found.append(event)
        }
        #expect(waits.values == [1, 1, 1])
        #expect(
            found == (0..<9).map { ServerSentEvent(type: "tick", data: "\($0)\nsecond line", id: "\($0)") })
        #expect(try await log(name).map { $0[0] } == [nil, "3", "7", "8"])
    }

    @Test(arguments: TransportKind.allCases)
    func everyReconnectGoesThroughTheInterceptorsWithTheRefreshedToken(_ kind: TransportKind) async throws {
        let name = "token-\(kind.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        let refreshes = LockedList<String>()
        let client = HTTPClient(
            transport: kind.transport(),
            interceptors: [
                AuthenticationInterceptor(
                    CountingAuthenticator(refreshes: refreshes) { _ in "fresh" }, credential: "stale")
            ])
        let url = server.url("/sse?name=\(name)&total=5&drop=2&token=fresh")
        var count = 0
        for try await _ in client.events(Request(URL: url, method: .get), options: recording(LockedList())) {
            count += 1
        }
        #expect(count == 5)
        #expect(refreshes.values == ["stale"])
        let connections = try await log(name)
        #expect(connections.first == [nil, "Bearer stale"])
        #expect(connections.dropFirst().map { $0[1] } == Array(repeating: "Bearer fresh", count: connections.count - 1))
        #expect(connections.dropFirst().map { $0[0] } == [nil, "1", "3", "4"])
    }

    @Test(arguments: TransportKind.allCases)
    func cancellingTheReaderEndsTheStream(_ kind: TransportKind) async throws {
        let url = server.url("/sse?name=cancel-\(kind.rawValue)&total=1000000&drop=1000000")
        let client = kind.client()
        let reader = Task { () -> (Int, ResponseError?) in
            var count = 0
            let error = await responseError {
                for try await _ in client.events(Request(URL: url, method: .get)) {
                    count += 1
                    if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            return (count, error)
        }
        let (count, error) = await reader.value
        #expect(count >= 3)
        #expect(error?.isCancellation == true)
    }

    @Test(arguments: TransportKind.allCases)
    func anEventCutOffAfterItsIDLineIsAskedForAgain(_ kind: TransportKind) async throws {
        let name = "cut-\(kind.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        let url = server.url("/sse?name=\(name)&total=6&drop=3&cut=id")
        let waits = LockedList<Double>()
        var found: [String?] = []
        for try await event in kind.client().events(Request(URL: url, method: .get), options: recording(waits)) {
            found.append(event.id)
        }
        #expect(found == ["0", "1", "2", "3", "4", "5"])
        #expect(try await log(name).map { $0[0] } == [nil, "2", "5"])
        #expect(waits.values == [1, 1])  // the server's retry: 50 ms, raised to the one-second floor
    }

    /// A server that says `retry: 0` and closes at once, with no event: reconnects wait at least a second, double
    /// (with jitter) while nothing comes, and stop after the bound, on every transport.
    @Test(arguments: TransportKind.allCases)
    func aServerThatClosesAtOnceIsReconnectedToWithBackOffAndABound(_ kind: TransportKind) async throws {
        let name = "flood-\(kind.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        let waits = LockedList<Double>()
        let error = await responseError {
            for try await _ in kind.client().events(
                Request(URL: server.url("/sse-flood?name=\(name)"), method: .get),
                options: recording(waits, random: 0.5))
            {}
        }
        #expect(error?.kind == .cannotConnect, "\(String(describing: error))")
        #expect(error?.description.contains("11 times without an event") == true, "\(String(describing: error))")
        #expect(try await server.count("sse-flood-\(name)") == 11)
        #expect(waits.values == [1, 1.5, 3, 6, 12, 24, 45, 45, 45, 45])
    }

    @Test func aHostThatRefusesIsReconnectedToWithTheSameBackOffAndBound() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(try LoopbackServer.refusedPort())/events"))
        let waits = LockedList<Double>()
        var options = recording(waits)
        options.maximumReconnects = 4
        let error = await responseError {
            for try await _ in makeClient().events(Request(URL: url, method: .get), options: options) {}
        }
        #expect(error?.kind == .cannotConnect)
        let values = waits.values
        #expect(values.count == 4)
        #expect(values.first == 3)  // no retry from a server: the reconnect delay
        for (index, wait) in values.enumerated().dropFirst() {
            let doubled = min(3 * pow(2, Double(index)), 60)
            #expect(wait >= doubled / 2 && wait <= doubled, "wait \(index + 1): \(wait)")
        }
    }

    @Test(arguments: [(-5.0, 0.0), (.nan, 0.0), (.infinity, 0.9), (1e300, 0.3)])
    func reconnectWaitsStayFiniteAndWithinTheirBoundsWhateverTheNumbers(retry: Double, random: Double) {
        let options = ServerSentEvents.Options()
        for attempt in [1, 2, 10, 1_000, .max] {
            let wait = options.reconnectWait(attempt: attempt, retry: retry, random: random)
            #expect(wait.isFinite && wait >= 1 && wait <= 60, "attempt \(attempt): \(wait)")
        }
        var zeroFloor = ServerSentEvents.Options(reconnectDelay: .nan, minimumReconnectDelay: -1)
        zeroFloor.maximumReconnectDelay = .infinity
        #expect(zeroFloor.reconnectWait(attempt: 3, retry: nil, random: random).isFinite)
    }

    @Test func aStreamThatIsNotAnEventStreamFails() async throws {
        let error = await responseError {
            for try await _ in makeClient().events(Request(URL: server.url("/small"), method: .get)) {}
        }
        #expect(error?.kind == .unacceptableContentType)
    }
}
#endif
