import Foundation

extension WebSocket {
    /// When and how often a ``ReconnectingWebSocket`` opens its connection again: as ``ServerSentEvents`` does, never
    /// sooner than ``minimumDelay``, doubling with jitter while attempts fail (up to ``maximumDelay``), and at most
    /// ``maximumReconnects`` times in a row without a message in between.
    public struct Reconnect: Sendable {
        /// Seconds before the first reconnect (1 by default).
        public var delay: Double
        /// The shortest wait before a reconnect, in seconds, whatever else says (1 by default).
        public var minimumDelay: Double
        /// The longest wait the back-off reaches, in seconds (60 by default).
        public var maximumDelay: Double
        /// How many times to reconnect in a row without a message in between (10 by default); `nil` for no limit.
        public var maximumReconnects: Int?

        /// How a reconnect waits; tests record the waits instead of sleeping through them.
        var sleep: @Sendable (_ seconds: Double) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        }
        /// A number in `0..<1` for the jitter.
        var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

        /// A policy; each part has a default (see above).
        public init(
            delay: Double = 1, minimumDelay: Double = 1, maximumDelay: Double = 60, maximumReconnects: Int? = 10
        ) {
            self.delay = delay
            self.minimumDelay = minimumDelay
            self.maximumDelay = maximumDelay
            self.maximumReconnects = maximumReconnects
        }

        /// Seconds before reconnect number `attempt` in a row (``ReconnectBackoff``).
        func wait(attempt: Int, random: Double) -> Double {
            ReconnectBackoff.wait(
                attempt: attempt, first: delay, floor: minimumDelay, ceiling: maximumDelay, random: random)
        }

        /// Whether a connection that ended with `error` (or a handshake that failed with it) is opened again.
        static func reconnects(after error: any Error) -> Bool {
            switch error {
            case let error as WebSocketError:
                switch error {
                case .connectionLost: return true
                case .closedByServer(let code, _): return [1001, 1011, 1012, 1013].contains(code.rawValue)
                case .protocolViolation, .limitExceeded, .notSent: return false
                }
            case let error as ResponseError:
                switch error.kind {
                case .interrupted, .timedOut, .cannotConnect, .cannotFindHost: return true
                default: return false
                }
            default:
                return false
            }
        }
    }
}
