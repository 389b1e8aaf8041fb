/// What ``Container/verify()`` found: every mistake in the container's registrations at once.
///
/// ```swift
/// let report = container.verify()
/// for problem in report.problems { print(problem) }   // "No registration for Clock (needed by Checkout -> Cart)"
/// try container.verifyOrThrow()                        // in a unit test
/// ```
public struct ContainerVerification: Sendable, CustomStringConvertible {
    /// The mistakes, in the order of the registrations whose dry run found them; each mistake once.
    public let problems: [ContainerProblem]
    /// How many registrations were built in the dry run.
    public let checked: Int

    /// `true` when nothing was found.
    public var isValid: Bool { problems.isEmpty }

    /// One problem per line, or "no problems in N registrations".
    public var description: String {
        problems.isEmpty
            ? "no problems in \(checked) registrations"
            : problems.map(\.description).joined(separator: "\n")
    }
}

/// One mistake in a container's registrations.
public struct ContainerProblem: Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake.
    public enum Kind: String, Sendable, Hashable {
        /// A service some factory resolves is not registered (`chain` leads to it).
        case missing
        /// A service registered only with `registerOnMainActor` is resolved by a factory that does not run on the
        /// main actor.
        case mainActorOffMain
        /// Factories that need each other (`chain` is the cycle).
        case cycle
        /// A chain longer than ``Container/maximumDepth``.
        case tooDeep
        /// A singleton (or `.weak` service) holds a per-request or per-graph service, which then lives as long as the
        /// singleton: the "captive dependency".
        case lifetime
        /// A synchronous resolve reaches a registration whose factory is `async`.
        case asyncFromSync
        /// A factory threw an error of its own.
        case factoryFailed
        /// A `.weak` registration's factory returned a value type.
        case weakRequiresClass
    }

    /// The kind.
    public let kind: Kind
    /// The services from a registration to the mistake, outermost first.
    public let chain: [String]
    /// A sentence naming the services.
    public let message: String

    /// The sentence.
    public var description: String { message }
}

/// The thrown form of a ``ContainerVerification`` with problems: what ``Container/verifyOrThrow()`` throws.
public struct ContainerVerificationFailure: Error, CustomStringConvertible {
    /// The report.
    public let verification: ContainerVerification

    /// Every problem, one per line, after how many there are.
    public var description: String {
        "\(verification.problems.count) problems in the container's registrations:\n\(verification)"
    }
}
