public import Testing

/// Holds ``TestLock/networkingDefaults`` around each test of a suite: `@Suite(NetworkingDefaultsLock())`.
public struct NetworkingDefaultsLock: TestTrait, SuiteTrait, TestScoping {
    /// The trait.
    public init() {}

    /// Applies to every test of the suite, not once around it.
    public var isRecursive: Bool { true }

    /// Runs each test case holding the lock; the suite itself runs without it.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil || !test.isSuite else { return try await function() }
        try await TestLock.networkingDefaults.withLock { try await function() }
    }
}
