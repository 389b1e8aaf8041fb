import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket

/// A server's side of a WebSocket connection, scripted by a test: what it sends, and every frame the client wrote.
final class ScriptedChannel: UpgradedConnection {
    private let inbound: AsyncStream<Data>
    private let push: AsyncStream<Data>.Continuation
    private let iterator: LockedList<AsyncStream<Data>.AsyncIterator>
    let written = LockedList<Data>()
    let reads = LockedList<Int>()
    let closes = LockedList<Bool>()

    init() {
        (inbound, push) = AsyncStream<Data>.makeStream()
        iterator = LockedList()
        iterator.append(inbound.makeAsyncIterator())
    }

    /// The server sends `bytes`.
    func send(_ bytes: Data) { push.yield(bytes) }
    /// The server closes the connection.
    func hangUp() { push.finish() }

    func read() async throws(ConnectionLost) -> Data? {
        reads.append(1)
        guard var next = iterator.values.last else { return nil }
        let bytes = await next.next()
        iterator.append(next)
        return bytes
    }

    func write(_ bytes: Data) async throws(ConnectionLost) { written.append(bytes) }

    func close() async {
        closes.append(true)
        push.finish()
    }

    /// The client's frames, unmasked.
    var frames: [WebSocketFrame] {
        written.values.compactMap { bytes -> WebSocketFrame? in
            let raw = [UInt8](bytes)
            guard raw.count >= 6 else { return nil }
            var length = Int(raw[1] & 0x7F)
            var offset = 2
            if length == 126 {
                length = Int(raw[2]) << 8 | Int(raw[3])
                offset = 4
            } else if length == 127 {
                length = (2..<10).reduce(0) { $0 << 8 | Int(raw[$1]) }
                offset = 10
            }
            let key = Array(raw[offset..<offset + 4])
            let payload = raw[(offset + 4)...].enumerated().map { $0.element ^ key[$0.offset & 3] }
            guard let opcode = WebSocketFrame.Opcode(rawValue: raw[0] & 0x0F) else { return nil }
            return WebSocketFrame(
                fin: raw[0] & 0x80 != 0, rsv1: raw[0] & 0x40 != 0, opcode: opcode, payload: Data(payload))
        }
    }
}

struct WebSocketSessionTests {
    let plain = WebSocketHandshake.Agreement(protocol: nil, compression: false, serverResetsContext: false)

    func socket(_ channel: ScriptedChannel, compression: Bool = false) throws -> WebSocket {
        try WebSocket(
            channel: channel,
            agreement: .init(protocol: "chat", compression: compression, serverResetsContext: false))
    }

    @Test func messagesArriveInOrderAndTheServersNormalCloseEndsThem_RFC6455_7_1_5() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        channel.send(serverFrame(opcode: 1, Array("one".utf8)) + serverFrame(opcode: 2, [1, 2]))
        channel.send(serverFrame(opcode: 8, [0x03, 0xE8]))
        let (messages, error) = await socket.readAll()
        #expect(messages == [.text("one"), .binary(Data([1, 2]))])
        #expect(error == nil)
        #expect(channel.frames.last == WebSocketFrame(opcode: .close, payload: Data([0x03, 0xE8])), "the close echoed")
        #expect(socket.protocol == "chat")
    }

    @Test func aPingIsAnsweredWithAPongOfItsPayload_RFC6455_5_5_2() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        channel.send(serverFrame(opcode: 9, Array("beat".utf8)))
        try await waitUntil { channel.frames.contains { $0.opcode == .pong } }
        #expect(channel.frames.first == WebSocketFrame(opcode: .pong, payload: Data("beat".utf8)))
        channel.send(serverFrame(opcode: 8, []))
        _ = await socket.readAll()
    }

    /// A frame breaking a rule, and the code the client closes with.
    static let brokenRules: [(Data, UInt16)] = [
        (serverFrame(opcode: 1, [0x61], masked: true), 1002), (serverFrame(opcode: 1, [0xC0, 0xAF]), 1007),
        (serverFrame(opcode: 0, [1]), 1002), (serverFrame(opcode: 8, [0x03, 0xED]), 1002),
    ]

    @Test(arguments: brokenRules)
    func aBrokenRuleClosesWithItsCodeAndFailsTheReader(_ bytes: Data, _ code: UInt16) async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        channel.send(bytes)
        let (_, error) = await socket.readAll()
        let failure = try #require(error as? WebSocketError)
        #expect(failure.closeCode.rawValue == code)
        #expect(channel.frames.last?.opcode == .close)
        #expect(channel.frames.last?.payload.prefix(2) == Data([UInt8(code >> 8), UInt8(code & 0xFF)]))
        #expect(!channel.closes.values.isEmpty)
    }

    @Test func aServersCloseWithAnotherCodeEndsTheReaderWithIt_RFC6455_7_4() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        channel.send(serverFrame(opcode: 8, [0x0F, 0xA1] + Array("bye".utf8)))
        let (_, error) = await socket.readAll()
        #expect(error as? WebSocketError == .closedByServer(code: WebSocketCloseCode(rawValue: 4001), reason: "bye"))
        #expect(channel.frames.last?.payload.prefix(2) == Data([0x0F, 0xA1]))
    }

    @Test func theClientsCloseWaitsForTheServersAndNothingIsSentAfter_RFC6455_7_1_2() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        let closing = Task { await socket.close(.goingAway, reason: "done") }
        try await waitUntil { channel.frames.contains { $0.opcode == .close } }
        #expect(
            channel.frames.last == WebSocketFrame(opcode: .close, payload: Data([0x03, 0xE9] + Array("done".utf8))))
        channel.send(serverFrame(opcode: 8, [0x03, 0xE9]))
        await closing.value
        await #expect(throws: WebSocketError.self) { try await socket.send(.text("late")) }
        #expect(channel.frames.filter { $0.opcode == .close }.count == 1)
    }

    @Test func aConnectionThatEndsWithoutACloseFailsTheReaderWith1006() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        channel.send(serverFrame(opcode: 1, Array("last".utf8)))
        channel.hangUp()
        let (messages, error) = await socket.readAll()
        #expect(messages == [.text("last")])
        #expect((error as? WebSocketError)?.closeCode == .abnormalClosure)
    }

    @Test func sentMessagesAreMaskedFramesOfTheirKind_RFC6455_5_3() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        try await socket.send(.text("hi"))
        try await socket.send(.binary(Data([9])))
        try await socket.ping(Data([7]))
        #expect(
            channel.frames == [
                WebSocketFrame(opcode: .text, payload: Data("hi".utf8)),
                WebSocketFrame(opcode: .binary, payload: Data([9])),
                WebSocketFrame(opcode: .ping, payload: Data([7])),
            ])
        #expect(channel.written.values.allSatisfy { $0[1] & 0x80 != 0 })
    }

    @Test func aLaggingReaderPausesReadingFromTheConnection() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel)
        for index in 0..<40 { channel.send(serverFrame(opcode: 1, Array("m\(index)".utf8))) }
        try await waitUntil { socket.inbox.isWaitingForReader }
        let readsWhilePaused = channel.reads.values.count
        #expect(readsWhilePaused == WebSocket.bufferedMessages)  // one message per read: 16 read, none more
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("m0"))
        try await waitUntil { channel.reads.values.count > readsWhilePaused }
        channel.send(serverFrame(opcode: 8, []))
        channel.hangUp()
    }

    #if os(Linux)
    @Test func aCompressedMessageIsInflated_RFC7692_7_2_3_1() async throws {
        let channel = ScriptedChannel()
        let socket = try socket(channel, compression: true)
        channel.send(serverFrame(rsv: 4, opcode: 1, [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]))
        channel.send(serverFrame(opcode: 8, []))
        let (messages, error) = await socket.readAll()
        #expect(messages == [.text("Hello")] && error == nil)
    }
    #endif
}
