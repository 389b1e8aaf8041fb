import Foundation

/// When and how often a stream that reconnects opens its connection again (``ServerSentEvents``, GirdersWebSocket's
/// `ReconnectingWebSocket`): never sooner than ``minimumDelay``, doubling with jitter while attempts fail (up to
/// ``maximumDelay``), and at most ``maximumReconnects`` times in a row without a message in between.
public struct ReconnectPolicy: Sendable {
    /// Seconds before the first reconnect (1 by default).
    public var delay: Double
    /// The shortest wait before a reconnect, in seconds, whatever else (a server's `retry`) says (1 by default).
    public var minimumDelay: Double
    /// The longest wait the back-off (or a server's `retry`) reaches, in seconds (60 by default).
    public var maximumDelay: Double
    /// How many times to reconnect in a row without a message in between (10 by default); `nil` for no limit.
    public var maximumReconnects: Int?

    /// How a reconnect waits (`Task.sleep`); a test records the waits instead of sleeping through them.
    public var sleep: @Sendable (_ seconds: Double) async throws -> Void = { seconds in
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
    /// A number in `0..<1` for the jitter.
    public var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// A policy; each part has a default (see above).
    public init(delay: Double = 1, minimumDelay: Double = 1, maximumDelay: Double = 60, maximumReconnects: Int? = 10) {
        self.delay = delay
        self.minimumDelay = minimumDelay
        self.maximumDelay = maximumDelay
        self.maximumReconnects = maximumReconnects
    }

    /// Seconds before reconnect number `attempt` in a row (1 for the first): ``delay`` (held to
    /// ``minimumDelay``...``maximumDelay``); from the second attempt on, doubled per attempt up to ``maximumDelay``
    /// and spread over its upper half by `random` (in `0..<1`), never below the first wait. Every bound is clamped to
    /// 0...86,400 s, so no value of the app's or a server's can make it negative, infinite or not a number.
    public func wait(attempt: Int, random: Double) -> Double {
        func clamped(_ seconds: Double) -> Double { seconds.isNaN ? 0 : Swift.min(Swift.max(seconds, 0), 86_400) }
        let ceiling = clamped(maximumDelay)
        let floor = Swift.min(clamped(minimumDelay), ceiling)
        let first = Swift.min(Swift.max(clamped(delay), floor), ceiling)
        guard attempt > 1 else { return first }
        let doubled = Swift.min(first * pow(2, Double(Swift.min(attempt - 1, 32))), ceiling)
        let jittered = doubled / 2 + doubled / 2 * Swift.min(Swift.max(random, 0), 1)
        return Swift.max(jittered, first)
    }
}
