import Dispatch
import Foundation
import GirdersSupport

/// Moves a ``BodyStream``'s chunks from the task that produces them to a transport's reader, at most ``capacity``
/// bytes ahead of it: the producing task waits while the reader lags (the network is slower), and the reader is
/// told when a chunk arrives. One pump per exchange, inside a ``RequestBodyReader``, which cancels it when closed.
/// The reader takes what is there without waiting (``take(into:)``) and waits for ``onData`` when nothing is.
final class BodyPump: Sendable {
    /// What ``take(into:)`` found.
    enum Take {
        case bytes(Int)
        /// Nothing yet: ``onData`` will be called when a chunk arrives.
        case wait
        case end
        case failed(String)
    }

    private struct State {
        var chunks: [Data] = []
        var offset = 0
        var buffered = 0
        var ended = false
        var failure: String?
        var space: CheckedContinuation<Void, Never>?
        var onData: (@Sendable () -> Void)?
        var producer: Task<Void, Never>?
    }

    /// The most bytes waiting between producer and reader before the producer waits.
    let capacity: Int
    private let state = LockedState(State())

    init(capacity: Int = 1 << 20) {
        self.capacity = capacity
    }

    /// Starts producing from `source` (the chunks of one attempt).
    func start(_ source: sending any ChunkSource) {
        let task = Task { [self] in
            do {
                while let chunk = try await source.next() {
                    if Task.isCancelled { break }
                    await waitForSpace()
                    if !chunk.isEmpty {
                        arrive {
                            $0.chunks.append(chunk); $0.buffered += chunk.count
                        }
                    }
                }
                arrive { $0.ended = true }
            } catch {
                arrive {
                    $0.failure = "\(error)"
                    $0.ended = true
                }
            }
        }
        state.withLock { $0.producer = task }
    }

    /// Called (from the producer's task) whenever a chunk arrives or the body ends.
    func onData(_ notify: @escaping @Sendable () -> Void) {
        state.withLock { $0.onData = notify }
    }

    /// Stops the producer (the exchange ended, or was cancelled).
    func cancel() {
        let (producer, space) = state.withLock { state in
            state.ended = true
            return (state.producer, state.space.take())
        }
        producer?.cancel()
        space?.resume()
    }

    private func arrive(_ change: (inout State) -> Void) {
        let notify = state.withLock { state -> (@Sendable () -> Void)? in
            change(&state)
            return state.onData
        }
        notify?()
    }

    private func waitForSpace() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.buffered < capacity || state.ended { return true }
                state.space = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Copies what is there into `buffer`, without waiting.
    func take(into buffer: UnsafeMutableRawBufferPointer) -> Take {
        let (take, space): (Take, CheckedContinuation<Void, Never>?) = state.withLock { state in
            if let failure = state.failure { return (.failed(failure), nil) }
            guard !state.chunks.isEmpty else { return (state.ended ? .end : .wait, nil) }
            var copied = 0
            while copied < buffer.count, !state.chunks.isEmpty {
                let chunk = state.chunks[0]
                let count = min(buffer.count - copied, chunk.count - state.offset)
                chunk.withUnsafeBytes { source in
                    guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                    (to + copied).copyMemory(from: from + state.offset, byteCount: count)
                }
                copied += count
                state.offset += count
                if state.offset == chunk.count {
                    state.chunks.removeFirst()
                    state.offset = 0
                }
            }
            state.buffered -= copied
            return (.bytes(copied), state.buffered < capacity ? state.space.take() : nil)
        }
        space?.resume()
        return take
    }

    /// Whether a chunk, the end or a failure is there to take.
    var hasSomething: Bool {
        state.withLock { !$0.chunks.isEmpty || $0.ended || $0.failure != nil }
    }
}
