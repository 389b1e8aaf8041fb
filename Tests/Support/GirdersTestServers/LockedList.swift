import Foundation

/// A list appended to from any thread: a lock box.
public final class LockedList<Element>: @unchecked Sendable {
    // Invariant: `elements` is read and written only under `lock`.
    private let lock = NSLock()
    private var elements: [Element] = []

    public init() {}

    public func append(_ element: Element) { lock.withLock { elements.append(element) } }
    public var values: [Element] { lock.withLock { elements } }
}
