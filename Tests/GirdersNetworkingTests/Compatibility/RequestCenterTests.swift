#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersNetworking
import GirdersTestServers
import GirdersNetworkingTesting
import Testing

/// Requests with ids, observed by id and by response type.
struct RequestCenterTests {
    struct Item: Decodable, Sendable { let name: String }
    final class Screen: Sendable {}

    let queue = DispatchQueue(label: "girders.test.center")

    @Test func anObserverGivenAtTheStartNeverMissesEvenAnInstantResponse() async throws {
        let center = RequestCenter(
            client: HTTPClient(transport: StubTransport(responses: [.json(#"{"name":"fast"}"#)])))
        let seen = LockedList<String>()
        for index in 0..<100 {
            center.start(
                Request(URL: apiBase.appendingPathComponent("\(index)"), method: .get), as: Item.self, queue: queue
            ) {
                outcome in
                seen.append((try? outcome.get().statusCode).map { "\(index): \($0)" } ?? "\(index): failed")
            }
        }
        try await waitUntil { seen.values.count == 100 }
        #expect(Set(seen.values) == Set((0..<100).map { "\($0): 200" }))
    }

    @Test func idsReportTheirStateCanBeCancelledAndDeliverLateObserversTheOutcome() async throws {
        let center = RequestCenter(
            client: HTTPClient(
                transport: StubTransport { request, _ in
                    request.url.path == "/slow" ? .json("{}", delay: 30) : .json(#"{"name":"x"}"#)
                }))
        let slow = center.start(
            Request(URL: apiBase.appendingPathComponent("slow"), method: .get), as: Item.self, queue: queue)
        let quick = center.start(
            Request(URL: apiBase.appendingPathComponent("quick"), method: .get), as: Item.self, queue: queue)
        #expect(slow != quick)
        try await waitUntil { center.isFinished(quick) }
        #expect(center.isFinished(quick) && !center.isFinished(slow))
        let outcomes = LockedList<String>()
        center.observe(slow, queue: queue) { outcome in
            if case .failure(let error) = outcome { outcomes.append(error.isCancellation ? "cancelled" : "failed") }
        }
        center.cancel(slow)
        try await waitUntil { !outcomes.values.isEmpty }
        #expect(outcomes.values == ["cancelled"])
        center.observe(quick, queue: queue) { outcome in outcomes.append("late \((try? outcome.get().statusCode) ?? 0)")
        }
        try await waitUntil { outcomes.values.count == 2 }
        #expect(outcomes.values.last == "late 200")
    }

    @Test func typeObserversHearEveryDecodedResponseWhileTheirOwnerLives() async throws {
        let center = RequestCenter(client: HTTPClient(transport: StubTransport(responses: [.json(#"{"name":"n"}"#)])))
        let heard = LockedList<String>()
        var screen: Screen? = Screen()
        center.observe(Item.self, owner: screen ?? Screen(), queue: queue) { heard.append($0.bodyObject?.name ?? "") }
        center.observe(Data.self, owner: screen ?? Screen(), queue: queue) { _ in heard.append("data") }
        // A request's own observer hears it after every type observer on the same queue did: its line in the log
        // is the condition that the request's deliveries are over.
        let ended = LockedList<String>()
        for index in 1...2 {
            let id = center.start(
                Request(URL: apiBase.appendingPathComponent("\(index)"), method: .get), as: Item.self, queue: queue)
            center.observe(id, queue: queue) { _ in ended.append("\(index)") }
        }
        try await waitUntil { ended.values.count == 2 }
        #expect(heard.values == ["n", "n"])
        screen = nil
        let third = center.start(
            Request(URL: apiBase.appendingPathComponent("3"), method: .get), as: Item.self, queue: queue)
        center.observe(third, queue: queue) { _ in ended.append("3") }
        try await waitUntil { ended.values.count == 3 }
        #expect(heard.values.count == 2)
        #expect(screen == nil)
    }
}
#endif
