import Foundation

/// The wait before a reconnect, for every stream that reconnects (``ServerSentEvents``, ``ReconnectingWebSocket``):
/// never below a floor, doubling per failed attempt up to a ceiling, spread over its upper half by jitter.
enum ReconnectBackoff {
    /// Seconds before reconnect number `attempt` (1 for the first): `first` (held to `floor...ceiling`); from the
    /// second attempt on, doubled per attempt up to `ceiling` and spread over its upper half by `random` (in `0..<1`),
    /// never below the first wait. Every bound is clamped to 0...86,400 s, so no value of the app's or a server's
    /// can make it negative, infinite or not a number.
    static func wait(attempt: Int, first: Double, floor: Double, ceiling: Double, random: Double) -> Double {
        func clamped(_ seconds: Double) -> Double { seconds.isNaN ? 0 : Swift.min(Swift.max(seconds, 0), 86_400) }
        let ceiling = clamped(ceiling)
        let floor = Swift.min(clamped(floor), ceiling)
        let first = Swift.min(Swift.max(clamped(first), floor), ceiling)
        guard attempt > 1 else { return first }
        let doubled = Swift.min(first * pow(2, Double(Swift.min(attempt - 1, 32))), ceiling)
        let jittered = doubled / 2 + doubled / 2 * Swift.min(Swift.max(random, 0), 1)
        return Swift.max(jittered, first)
    }
}
