import Foundation

/// Test overrides that do not leak: registrations that apply inside a closure and the tasks it starts.
///
/// ```swift
/// try await container.withOverrides({ $0.register(Clock.self) { _ in FixedClock() } }) {
///     try await checkout()  // resolves FixedClock here, the real Clock everywhere else
/// }
/// ```
extension Container {
    /// Runs `operation` with a child of this container, set up by `configure`, answering every resolve on this
    /// container made by the operation and the tasks it starts. Other threads and tasks are unaffected.
    public func withOverrides<Result>(
        _ configure: (Container) -> Void, operation: () throws -> Result
    ) rethrows -> Result {
        let scope = OverrideScope.start(on: self, configure)
        defer { RegistryGeneration.shared.scopeEnded() }
        return try OverrideScope.$current.withValue(scope, operation: operation)
    }

    /// Runs async `operation` with overrides; see ``withOverrides(_:operation:)-(_,()->Result)``.
    public func withOverrides<Result>(
        _ configure: (Container) -> Void, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let scope = OverrideScope.start(on: self, configure)
        defer { RegistryGeneration.shared.scopeEnded() }
        return try await OverrideScope.$current.withValue(scope, operation: operation, isolation: isolation)
    }
}

/// One active override: resolves on `target` go to `replacement`, a child of it.
@usableFromInline
final class OverrideScope: Sendable {
    let target: ObjectIdentifier
    let replacement: Container
    let outer: OverrideScope?

    init(target: Container, outer: OverrideScope?) {
        self.target = ObjectIdentifier(target)
        self.replacement = target.makeChild()
        self.outer = outer
    }

    @TaskLocal static var current: OverrideScope?

    /// A configured scope nested in the current one; the caller must call `RegistryGeneration.shared.scopeEnded()`.
    static func start(on container: Container, _ configure: (Container) -> Void) -> OverrideScope {
        let scope = OverrideScope(target: container, outer: current)
        configure(scope.replacement)
        RegistryGeneration.shared.scopeStarted()
        return scope
    }

    /// The innermost replacement for `container` in the current task, if any.
    @usableFromInline static func replacement(for container: Container) -> Container? {
        var scope = current
        let identity = ObjectIdentifier(container)
        while let candidate = scope {
            if candidate.target == identity { return candidate.replacement }
            scope = candidate.outer
        }
        return nil
    }
}
