import Foundation
import GirdersDI

protocol SomeServiceProtocol: AnyObject {
    var id: UUID { get }
}

final class SomeService: SomeServiceProtocol {
    let id = UUID()
}

/// Two types that share the name `Service`, as types in two modules can; GirdersSwift's string keys mixed them up.
enum FirstModule {
    final class Service { let origin = "first" }
}

enum SecondModule {
    final class Service { let origin = "second" }
}

/// A thread-safe counter for factories.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
}

final class Parent {
    var child: Child?
}

final class Child {
    weak var parent: Parent?
    init(parent: Parent?) { self.parent = parent }
}
