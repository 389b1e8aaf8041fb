import Foundation
import GirdersTestServers
import Testing

/// The tests' polling wait: it fails a condition that never holds, and a stall of the whole process does not use
/// up its time (a CI run once failed three waits that way).
struct WaitUntilTests {
    @Test func aConditionThatNeverHoldsIsRecordedAsAFailure() async throws {
        await withKnownIssue {
            try await waitUntil(seconds: 0.05) { false }
        }
    }

    @Test func aConditionThatHoldsReturnsAtOnceWithoutAFailure() async throws {
        try await waitUntil(seconds: 0) { true }
    }

    @Test func pollsAFewMillisecondsApartUseUpTheBudget() {
        let clock = FakeClock()
        var budget = WaitBudget(seconds: 1, clock: clock.now)
        var polls = 0
        while budget.remains() {
            clock.advance(.milliseconds(5))
            polls += 1
        }
        #expect(polls == 200)
    }

    @Test func aStallOfTheWholeProcessCountsAsAQuarterOfASecond() {
        let clock = FakeClock()
        var budget = WaitBudget(seconds: 1, clock: clock.now)
        clock.advance(.seconds(30))  // every thread blocked: the waiter did not run
        let afterTheStall = budget.remains()
        #expect(afterTheStall, "a 30 s stall used up a 1 s budget")
        var polls = 0
        repeat {
            clock.advance(.milliseconds(5))
            polls += 1
        } while budget.remains()
        #expect(polls == 150, "750 ms were left after the stall")
    }
}

/// A clock a test moves by hand.
private final class FakeClock: Sendable {
    private let instant = LockedList<ContinuousClock.Instant>()

    init() { instant.append(.now) }

    var now: () -> ContinuousClock.Instant { { [instant] in instant.values.last ?? .now } }

    func advance(_ duration: Duration) {
        instant.append((instant.values.last ?? .now) + duration)
    }
}
