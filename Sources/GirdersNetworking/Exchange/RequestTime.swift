import Foundation

/// The one owner of a request's durations: the default timeout, the clamps, and every wait the client itself
/// makes (a retry's delay, a Server-Sent Events reconnect), so that no value a caller or a server hands over can
/// be negative, infinite or not a number by the time something waits on it, and every transport gets the same.
///
/// - A timeout (time without progress) is the request's own or ``WireRequest/defaultTimeout``, at most
///   ``longest`` (`withTimeout(.infinity)` means a year, on every transport); zero, negative or NaN is
///   ``ResponseError/invalidRequest(reason:)`` while lowering.
/// - A deadline (``withDeadline(_:)``) is refused when it is not positive (at building) and clamped to ``longest``.
/// - A wait of the client's own (``sleep(_:atMost:url:)``) is clamped to `0...atMost`, a day unless said.
enum RequestTime {
    /// The longest any duration of a request can be: a year.
    static let longest: Double = 31_536_000

    /// The timeout every transport applies to `request`: its own or the default, clamped to ``longest``.
    static func timeout(of request: Request) throws(ResponseError) -> TimeInterval {
        guard let seconds = request.timeout else { return WireRequest.defaultTimeout }
        guard seconds > 0 else {  // NaN and zero too
            throw .invalidRequest(reason: "the timeout must be a positive number of seconds, not \(seconds)")
        }
        return min(seconds, longest)
    }

    /// `seconds` within `0...atMost` (NaN is 0).
    static func clamped(_ seconds: Double, atMost: Double = longest) -> Double {
        seconds.isNaN ? 0 : min(max(seconds, 0), atMost)
    }

    /// `seconds` (clamped to ``longest``) as whole nanoseconds, for `Task.sleep` and timers.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(clamped(seconds) * 1_000_000_000)
    }

    /// Waits `seconds` (clamped to `0...atMost`, a day by default), or throws ``ResponseError/cancelled(url:)``
    /// when the calling task is cancelled first.
    static func sleep(_ seconds: Double, atMost: Double = 86_400, url: URL?) async throws(ResponseError) {
        do {
            try await Task.sleep(nanoseconds: nanoseconds(clamped(seconds, atMost: atMost)))
        } catch {
            throw .cancelled(url: url)
        }
    }
}
