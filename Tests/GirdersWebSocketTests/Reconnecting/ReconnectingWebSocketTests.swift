#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket
import GirdersTestServers

/// `reconnectingWebSocket(_:)`: what it reconnects after, how long it waits (recorded, not slept), and what ends it.
struct ReconnectingWebSocketTests {
    let hostile: HostileWebSocketServer

    init() throws {
        hostile = try HostileWebSocketServer.get()
    }

    /// PyPI's `websockets`, for the tests that need a conforming server (they require the tool).
    var thirdParty: WebSocketServer {
        get throws { try WebSocketServer.get() }
    }

    /// A policy whose waits are recorded in `waits` instead of slept through, with the jitter at its top.
    func recorded(_ waits: LockedList<Double>, maximumReconnects: Int? = 10) -> WebSocket.Reconnect {
        var reconnect = WebSocket.Reconnect(delay: 0.5, minimumDelay: 0.25, maximumReconnects: maximumReconnects)
        reconnect.sleep = { waits.append($0) }
        reconnect.random = { 0.999 }
        return reconnect
    }

    @Test
    func aLostConnectionIsOpenedAgainAndAMessageResetsTheBackOff() async throws {
        let waits = LockedList<Double>()
        let feed = TransportKind.underTest.client().reconnectingWebSocket(
            hostile.request("/f/drop", id: UUID().uuidString), reconnect: recorded(waits))
        var events: [ReconnectingWebSocket.Event] = []
        var iterator = feed.events.makeAsyncIterator()
        while events.count < 8, let event = try await iterator.next() { events.append(event) }
        await feed.close()
        #expect(try await iterator.next() == nil)
        let cycle: [ReconnectingWebSocket.Event] = [.connected(protocol: nil), .message(.text("hello"))]
        #expect(Array(events.prefix(2)) == cycle)
        #expect(events.filter { $0 == .message(.text("hello")) }.count == 3)
        guard case .disconnected(let reason) = events[2] else {
            Issue.record("\(events)")
            return
        }
        #expect(reason.contains("without a close frame"), "\(reason)")
        #expect(waits.values == [0.5, 0.5])  // each after a message: the first wait again
    }

    @Test
    func handshakesThatFailInARowBackOffAndStopAtTheBound() async throws {
        let waits = LockedList<Double>()
        let feed = TransportKind.underTest.client().reconnectingWebSocket(
            hostile.request("/hs/hang-up", id: UUID().uuidString),
            reconnect: recorded(waits, maximumReconnects: 3))
        var iterator = feed.events.makeAsyncIterator()
        await #expect(throws: (any Error).self) {
            do {
                _ = try await iterator.next()
            } catch {
                #expect("\(error)".contains("lost 4 times in a row (3 reconnects)"), "\(error)")
                throw error
            }
        }
        // 0.5 s, then doubled with the jitter at its top: 1, 2.
        #expect(waits.values.map { ($0 * 100).rounded() / 100 } == [0.5, 1, 2])
    }

    @Test
    func aBrokenRuleEndsTheEventsWithoutAReconnect() async throws {
        let waits = LockedList<Double>()
        let feed = TransportKind.underTest.client().reconnectingWebSocket(
            hostile.request("/f/masked", id: UUID().uuidString), reconnect: recorded(waits))
        var iterator = feed.events.makeAsyncIterator()
        #expect(try await iterator.next() == .connected(protocol: nil))
        await #expect(throws: WebSocketError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(waits.values.isEmpty)
    }

    @Test(.requires(.websockets))
    func aNormalCloseEndsTheEvents() async throws {
        let feed = TransportKind.underTest.client().reconnectingWebSocket(try thirdParty.request("/count?n=1&size=3"))
        var events: [ReconnectingWebSocket.Event] = []
        for try await event in feed.events { events.append(event) }
        #expect(events == [.connected(protocol: nil), .message(.binary(Data([0, 0, 0])))])
    }

    @Test(.requires(.websockets))
    func sendingGoesOverTheOpenConnectionAndFailsWhenThereIsNone() async throws {
        let feed = TransportKind.underTest.client().reconnectingWebSocket(try thirdParty.request("/echo"))
        await #expect(throws: WebSocketError.self) { try await feed.send(.text("too early")) }
        var iterator = feed.events.makeAsyncIterator()
        #expect(try await iterator.next() == .connected(protocol: nil))
        try await feed.send(.text("now"))
        #expect(try await iterator.next() == .message(.text("now")))
        await feed.close()
        #expect(try await iterator.next() == nil)
    }
}
#endif
