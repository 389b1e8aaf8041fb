import Foundation
import GirdersSupport
import GirdersTestServers
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket

/// A system WebSocket task scripted by a test: the messages it receives, how it ends, and what the engine asked of it.
final class FakeWebSocketTask: WebSocketTaskSeam {
    private struct State {
        var closeCode = 0
        var closeReason: Data?
        var ending: (any Error)?
        var receives = 0
    }

    private let inbound: AsyncStream<WebSocketMessage>
    private let push: AsyncStream<WebSocketMessage>.Continuation
    private let iterator: LockedList<AsyncStream<WebSocketMessage>.AsyncIterator>
    private let state = LockedState(State())
    let sent = LockedList<WebSocketMessage>()
    let cancels = LockedList<Int>()
    /// Whether pings are answered.
    let answersPings: Bool

    init(answersPings: Bool = true) {
        (inbound, push) = AsyncStream<WebSocketMessage>.makeStream()
        iterator = LockedList()
        iterator.append(inbound.makeAsyncIterator())
        self.answersPings = answersPings
    }

    /// The server sends `message`.
    func deliver(_ message: WebSocketMessage) { push.yield(message) }

    /// The connection ends: with the server's close `code` (0 for none) and `error` as `receive`'s.
    func end(code: Int, reason: String? = nil, error: any Error = URLError(.networkConnectionLost)) {
        state.withLock {
            $0.closeCode = code
            $0.closeReason = reason.map { Data($0.utf8) }
            $0.ending = error
        }
        push.finish()
    }

    var receives: Int { state.withLock { $0.receives } }

    func receive() async throws -> WebSocketMessage {
        state.withLock { $0.receives += 1 }
        guard var next = iterator.values.last else { throw URLError(.unknown) }
        let message = await next.next()
        iterator.append(next)
        if let message { return message }
        throw state.withLock { $0.ending } ?? URLError(.unknown)
    }

    func send(_ message: WebSocketMessage) async throws { sent.append(message) }

    func sendPing() async throws {
        if !answersPings { try await Task.sleep(for: .seconds(3600)) }
    }

    func cancel(code: Int, reason: Data?) {
        cancels.append(code)
        end(code: code == 4000 ? 4000 : 1000)  // the server answers the close with the same code
    }

    var closeCode: Int { state.withLock { $0.closeCode } }
    var closeReason: Data? { state.withLock { $0.closeReason } }
}

/// The decisions of the Apple platforms' WebSocket path (over `URLSessionWebSocketTask`), driven here by a fake task.
struct TaskWebSocketEngineTests {
    func socket(_ task: FakeWebSocketTask, limits: WebSocketLimits = .standard, ping: Duration? = nil) -> WebSocket {
        let inbox = WebSocketInbox()
        return WebSocket(
            engine: TaskWebSocketEngine(task: task, inbox: inbox, limits: limits), inbox: inbox,
            agreement: .init(protocol: nil, compression: false, serverResetsContext: false), pingInterval: ping)
    }

    @Test
    func messagesArriveAndANormalCloseEndsThemWithoutAnError() async throws {
        let task = FakeWebSocketTask()
        let socket = socket(task)
        task.deliver(.text("a"))
        task.deliver(.binary(Data([1])))
        task.end(code: 1000)
        let (messages, error) = await socket.readAll()
        #expect(messages == [.text("a"), .binary(Data([1]))])
        #expect(error == nil)
    }

    @Test(arguments: [4001, 1011])
    func theServersOtherCodesReachTheReader(_ code: Int) async throws {
        let task = FakeWebSocketTask()
        let socket = socket(task)
        task.end(code: code, reason: "bye")
        let (_, error) = await socket.readAll()
        #expect(
            error as? WebSocketError == .closedByServer(code: WebSocketCloseCode(rawValue: UInt16(code)), reason: "bye")
        )
    }

    @Test
    func theSystemsMessageLimitAndALostConnectionAreSaidAsOnEveryTransport() {
        let limits = WebSocketLimits(messageBytes: 10)
        let tooBig = NSError(domain: NSPOSIXErrorDomain, code: Int(EMSGSIZE))
        #expect(
            TaskWebSocketEngine.ending(closeCode: 0, reason: nil, error: tooBig, limits: limits)
                == .limitExceeded(limit: .messageBytes, maximum: 10))
        guard
            case .connectionLost? = TaskWebSocketEngine.ending(
                closeCode: 0, reason: nil, error: URLError(.networkConnectionLost), limits: limits)
        else {
            Issue.record("not a lost connection")
            return
        }
        #expect(TaskWebSocketEngine.ending(closeCode: 1005, reason: nil, error: tooBig, limits: limits) == nil)
    }

    @Test
    func aMessagePastTheLimitClosesWith1009() async throws {
        let task = FakeWebSocketTask()
        let socket = socket(task, limits: WebSocketLimits(messageBytes: 4))
        task.deliver(.text("12345"))
        let (messages, error) = await socket.readAll()
        #expect(messages.isEmpty)
        #expect(error as? WebSocketError == .limitExceeded(limit: .messageBytes, maximum: 4))
        #expect(task.cancels.values == [1009])
    }

    @Test
    func aReaderThatLagsStopsTheReceives() async throws {
        let task = FakeWebSocketTask()
        let socket = socket(task)
        for index in 0..<40 { task.deliver(.text("\(index)")) }
        try await waitUntil { socket.inbox.isWaitingForReader }
        #expect(task.receives == WebSocket.bufferedMessages)  // 16 taken, the 17th not asked for
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("0"))
        try await waitUntil { task.receives > WebSocket.bufferedMessages }
    }

    @Test
    func closingCancelsTheTaskWithTheCodeAndLaterSendsFail() async throws {
        let task = FakeWebSocketTask()
        let socket = socket(task)
        await socket.close(WebSocketCloseCode(rawValue: 4000), reason: "done")
        #expect(task.cancels.values == [4000])
        await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
        let (_, error) = await socket.readAll()
        #expect(error as? WebSocketError == .closedByServer(code: WebSocketCloseCode(rawValue: 4000), reason: ""))
    }

    @Test
    func aServerThatAnswersNoPingIsTakenAsLost() async throws {
        let task = FakeWebSocketTask(answersPings: false)
        let socket = socket(task, ping: .milliseconds(50))
        let (_, error) = await socket.readAll()
        #expect("\(String(describing: error))".contains("answered no ping"))
        #expect(task.cancels.values == [1001])
    }

    @Test
    func sendingGoesToTheTask() async throws {
        let task = FakeWebSocketTask()
        let socket = socket(task)
        try await socket.send(.text("x"))
        try await socket.send(.binary(Data([2])))
        #expect(task.sent.values == [.text("x"), .binary(Data([2]))])
        await socket.close()
    }
}
