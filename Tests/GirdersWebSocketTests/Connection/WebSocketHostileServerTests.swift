#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket
import GirdersTestServers

/// A server that breaks the rules, over a real connection on every transport: each rule ends the connection with
/// the right close code sent to the server and an error naming the rule, never a crash or unbounded memory.
struct WebSocketHostileServerTests {
    let server: HostileWebSocketServer

    init() throws {
        server = try HostileWebSocketServer.get()
    }

    /// A route, the close code the client must send for it, and words of the rule its error must name.
    struct Rule: Sendable, CustomTestStringConvertible {
        let route: String
        let code: UInt16
        let words: String
        var testDescription: String { route }
    }

    static let rules: [Rule] = [
        Rule(route: "masked", code: 1002, words: "masked frame"),
        Rule(route: "rsv1", code: 1002, words: "RSV1"),
        Rule(route: "opcode-3", code: 1002, words: "unknown opcode 3"),
        Rule(route: "control-126", code: 1002, words: "control frame of 126 bytes"),
        Rule(route: "fragmented-ping", code: 1002, words: "fragmented control frame"),
        Rule(route: "continuation", code: 1002, words: "continuation frame without a message"),
        Rule(route: "bad-utf8", code: 1007, words: "not UTF-8"),
        Rule(route: "split-utf8", code: 1007, words: "not UTF-8"),
        Rule(route: "length-2-63", code: 1002, words: "top bit set"),
        Rule(route: "close-1005", code: 1002, words: "may not be sent"),
        Rule(route: "close-1-byte", code: 1002, words: "one-byte body"),
        Rule(route: "close-bad-reason", code: 1007, words: "close reason that is not UTF-8"),
        Rule(route: "deflate-bomb", code: 1009, words: "decompressionRatio (100 to 1)"),
        // A frame announcing 1 MiB whose first bytes are not UTF-8, and nothing more: refused at those bytes, not
        // once the MiB has come (before, the client waited for the whole frame).
        Rule(route: "utf8-early", code: 1007, words: "not UTF-8"),
        Rule(route: "utf8-early-continuation", code: 1007, words: "not UTF-8"),
    ]

    // The limit only catches a hang; a sanitized build on two cores can keep a case waiting for a turn past a minute.
    @Test(.timeLimit(.minutes(Int(sanitizerSlowdown))), arguments: rules, TransportKind.allCases)
    func aBrokenRuleClosesWithItsCodeAndNamesTheRule(_ rule: Rule, _ kind: TransportKind) async throws {
        let id = UUID().uuidString
        let socket = try await kind.client().webSocket(server.request("/f/\(rule.route)", id: id))
        let (messages, error) = await socket.readAll()
        let failure = try #require(error as? WebSocketError, "\(String(describing: error))")
        #expect(failure.closeCode.rawValue == rule.code)
        #expect(failure.description.contains(rule.words), "\(failure)")
        #expect(try await server.seenWhenDone(id).close == rule.code)
        if rule.route == "split-utf8" { #expect(messages == [.text("é")]) } else { #expect(messages.isEmpty) }
    }

    /// Two valid messages and a frame that breaks a rule, in one read: both messages reach the reader, and an app that
    /// echoes them has its echoes sent before the client's close (Autobahn 3.2 to 3.4, 4.1.3 to 4.2.5: strict).
    /// Before, the connection failed on reading the third frame and the echoes found it closing.
    @Test(arguments: TransportKind.allCases)
    func messagesBeforeABrokenRuleReachTheReaderAndItsAnswersGoOutBeforeTheClose(_ kind: TransportKind) async throws {
        let id = UUID().uuidString
        let socket = try await kind.client().webSocket(server.request("/f/then-rsv2", id: id))
        var received: [WebSocketMessage] = []
        var failure: (any Error)?
        do {
            for try await message in socket.messages {
                received.append(message)
                try await socket.send(message)
            }
        } catch {
            failure = error
        }
        #expect(received == [.text("first"), .text("second")])
        #expect((failure as? WebSocketError)?.closeCode.rawValue == 1002, "\(String(describing: failure))")
        let seen = try await server.seenWhenDone(id)
        #expect(seen.texts == ["first", "second"])
        #expect(seen.close == 1002)
    }

    /// A reader that takes one message and then stops reading does not hold the failing connection open: the close
    /// goes out after the grace (WebSocketSession.readerGrace) all the same.
    @Test func aReaderThatStopsReadingDoesNotHoldAFailingConnectionOpen() async throws {
        let id = UUID().uuidString
        let socket = try await TransportKind.underTest.client().webSocket(server.request("/f/then-rsv2", id: id))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("first"))
        #expect(try await server.seenWhenDone(id).close == 1002)
        #expect(try await iterator.next() == .text("second"), "what came before the broken rule is still there")
        await #expect(throws: WebSocketError.self) { _ = try await iterator.next() }
    }

    /// A send after the close handshake began says so, instead of "ended without a close".
    @Test func aSendAfterClosingSaysTheMessageWasNotSent() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/f/quiet", id: UUID().uuidString))
        await socket.close()
        await #expect(throws: WebSocketError.notSent(reason: "the connection has ended")) {
            try await socket.send(.text("late"))
        }
    }

    @Test
    func aTwoByteCharacterSplitBetweenFragmentsIsOneCharacter() async throws {
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/f/split-utf8-good", id: UUID().uuidString))
        #expect(try await socket.next() == .text("café"))
        await socket.close()
    }

    /// The handshake's answer, checked before a frame is read: route, and words the error must hold.
    static let handshakes: [(String, String)] = [
        ("bad-accept", "Sec-WebSocket-Accept"), ("no-upgrade", "Upgrade: websocket"),
        ("extension", "not offered"), ("protocol", "'mqtt' was not offered"),
        ("deflate-bits", "server_max_window_bits=7"), ("200", "HTTP 200"),
        ("huge-head", "header"), ("garbage", "status line"), ("hang-up", "before answering"),
    ]

    @Test(arguments: handshakes)
    func aBadHandshakeAnswerFailsTheOpeningWithItsReason(_ route: String, _ words: String) async throws {
        do {
            let socket = try await TransportKind.underTest.client().webSocket(
                server.request("/hs/\(route)", id: UUID().uuidString))
            Issue.record("opened: \(socket)")
        } catch {
            #expect("\(error)".contains(words), "\(error)")
        }
    }

    @Test
    func aServerThatNeverAnswersTheHandshakeTimesOut() async throws {
        let error = await #expect(throws: ResponseError.self) {
            _ = try await TransportKind.underTest.client().webSocket(
                server.request("/hs/silent", id: UUID().uuidString, timeout: 0.5))
        }
        #expect(error?.kind == .timedOut)
    }

    @Test
    func cancellingTheOpeningTaskStopsAHandshakeTheServerNeverAnswers() async throws {
        let client = TransportKind.underTest.client()
        let id = UUID().uuidString
        let opening = Task { try await client.webSocket(server.request("/hs/silent", id: id, timeout: 300)) }
        // The server has the request (and holds it) before the cancel, so only a cancel that stops it ends the task.
        try await waitUntil(asking: { (try? await server.seen(id)) != nil })
        opening.cancel()
        let error = await #expect(throws: ResponseError.self) { _ = try await opening.value }
        #expect(error?.kind == .cancelled)
    }

    @Test
    func theRequestsDeadlineBoundsTheHandshake() async throws {
        let error = await #expect(throws: ResponseError.self) {
            _ = try await TransportKind.underTest.client().webSocket(
                Request(
                    MutableRequest(url: server.request("/hs/silent", id: UUID().uuidString).url)
                        |> withDeadline(0.5)))
        }
        #expect(error?.kind == .deadlineExceeded)
    }

    @Test(arguments: TransportKind.allCases)
    func theClientsCloseIsACloseHandshake(_ kind: TransportKind) async throws {
        let id = UUID().uuidString
        let socket = try await kind.client().webSocket(server.request("/f/quiet", id: id))
        await socket.close(WebSocketCloseCode(rawValue: 4000), reason: "bye")
        #expect(try await server.seenWhenDone(id).close == 4000)
        let (_, error) = await socket.readAll()
        #expect(error as? WebSocketError == .closedByServer(code: WebSocketCloseCode(rawValue: 4000), reason: ""))
        await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
    }

    @Test
    func aPingFloodIsAnsweredWithoutUnboundedQueuesAndMessagesStillArrive() async throws {
        let id = UUID().uuidString
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/f/ping-flood?n=20000", id: id))
        #expect(try await socket.next() == .text("done"))
        await socket.close()
        let seen = try await server.seenWhenDone(id)
        #expect(seen.pongs > 0 && seen.pongs <= 20000)
        #expect(seen.close == 1000)
    }

    @Test
    func aReaderThatLagsStopsReadingFromTheConnectionAndThenGetsEveryMessage() async throws {
        let id = UUID().uuidString
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/f/flood?n=200&size=262144", id: id))
        // Nobody reads: the client holds 16 messages and stops reading, so the server's sends find the window full.
        try await waitUntil { socket.inbox.isWaitingForReader }
        try await waitUntil(asking: { (try? await server.seen(id).blocked) == true })
        #expect(socket.inbox.unreadMessages <= WebSocket.bufferedMessages)
        let (messages, error) = await socket.readAll()
        #expect(error == nil)
        #expect(messages.count == 201)
        #expect(messages.first == .binary(Data(repeating: 0, count: 262_144)))
        #expect(messages.last == .text("end"))
    }

    @Test
    func aServerThatAnswersNoPingIsTakenAsLost() async throws {
        let id = UUID().uuidString
        let socket = try await TransportKind.underTest.client().webSocket(
            server.request("/f/quiet", id: id), options: .init(pingInterval: .milliseconds(200)))
        let (_, error) = await socket.readAll()
        let failure = try #require(error as? WebSocketError)
        #expect(failure.description.contains("answered no ping"), "\(failure)")
        #expect(try await server.seenWhenDone(id).pings == 1)
    }
}
#endif
