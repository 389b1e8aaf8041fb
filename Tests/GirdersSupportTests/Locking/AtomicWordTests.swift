import Dispatch
import GirdersSupport
import Testing

/// `AtomicWord`: one word read and written from many threads at once, as the DI registry's generation and the
/// log level gate are. Under ThreadSanitizer (`.ci/run`) a plain, non-atomic access would be reported here.
struct AtomicWordTests {
    @Test func aWordStoredFromManyThreadsIsAlwaysOneOfTheValuesStored() {
        let word = AtomicWord(0)
        let threads = 8
        let rounds = 20_000
        let seen = LockedState(Set<Int>())
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var local = Set<Int>()
            for round in 0..<rounds {
                if round.isMultiple(of: 2) {
                    word.store(thread * rounds + round)
                } else {
                    local.insert(round.isMultiple(of: 3) ? word.load() : word.loadRelaxed())
                }
            }
            seen.withLock { $0.formUnion(local) }
        }
        // Every value read is 0 or one that some thread stored (an even round): never a torn or invented word.
        #expect(seen.value.allSatisfy { $0 == 0 || ($0 % rounds).isMultiple(of: 2) && $0 < threads * rounds })
        #expect(word.load() % 2 == 0)
    }

    @Test func whatIsStoredBeforeAReleaseIsSeenAfterTheAcquireThatReadsIt() {
        // The message-passing shape RegistryGeneration relies on: a write, then a release store of the word;
        // a reader that acquires the new word must see the write.
        final class Box: @unchecked Sendable {  // `payload` is written before the release, read after the acquire
            var payload = 0
        }
        for _ in 0..<200 {
            let box = Box()
            let word = AtomicWord(0)
            let reader = DispatchQueue(label: "reader")
            let done = DispatchSemaphore(value: 0)
            let observed = LockedState(-1)
            reader.async {
                while word.load() == 0 {}
                observed.value = box.payload
                done.signal()
            }
            box.payload = 42
            word.store(1)
            done.wait()
            #expect(observed.value == 42)
        }
    }

    @Test func aNewWordHoldsItsInitialValue() {
        #expect(AtomicWord(-7).load() == -7)
        #expect(AtomicWord(Int.max).loadRelaxed() == Int.max)
    }
}
