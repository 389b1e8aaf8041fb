import Foundation
import GirdersNetworking
import Tracing

/// The spans of attempts in flight, by call and attempt, from ``TracingInterceptor/adapt(_:context:)`` to
/// ``TracingInterceptor/attemptDidFinish(_:result:context:)``.
///
/// Invariant: `spans` is read and written only under `lock` (`Mutex` needs macOS 15; this package's floor is 13);
/// `TracingInterceptorTests.sixtyFourParallelRequestsEachEndTheirOwnSpan` drives it from many tasks at once.
final class SpanTable: @unchecked Sendable {
    private struct Key: Hashable {
        let call: UInt64
        let attempt: Int
    }

    private let lock = NSLock()
    private var spans: [Key: any Span] = [:]

    func insert(_ span: any Span, for context: InterceptorContext) {
        lock.withLock { spans[Key(call: context.call, attempt: context.attempt)] = span }
    }

    func remove(for context: InterceptorContext) -> (any Span)? {
        lock.withLock { spans.removeValue(forKey: Key(call: context.call, attempt: context.attempt)) }
    }
}
