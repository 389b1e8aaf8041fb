/// What a dry run (``Container/verify()``) collects on its thread while it builds every registration.
@usableFromInline
struct VerificationLog {
    /// The problems found, in order, each once.
    var problems: [ContainerProblem] = []
    /// The identities of the mistakes recorded: the same mistake reached from several registrations is one.
    private var seen: Set<String> = []
    /// The chains of the too-deep resolves recorded: a chain that shares a service with one of them is the same.
    private var deepChains: [Set<String>] = []
    /// The registration that resolved an `async` service synchronously, by the service's description.
    var pendingAsync: [String: String] = [:]
    /// The chain of the last too-deep resolve, as it stood when the limit was reached.
    var pendingDeepChain: [String]?
    /// A missing service's chain at the moment it was looked up, by its description: reported only if the error
    /// reaches the dry run (a factory may catch it on purpose, as for an optional service).
    var pendingMissing: [String: (ContainerProblem.Kind, [String])] = [:]

    /// Records `problem` unless a problem of the same `identity` was.
    mutating func record(_ problem: ContainerProblem, identity: String) {
        if seen.insert(problem.kind.rawValue + "|" + identity).inserted { problems.append(problem) }
    }

    /// Records a too-deep chain unless it shares a service with one recorded.
    mutating func recordTooDeep(_ chain: [String], message: String) {
        let members = Set(chain)
        guard !deepChains.contains(where: { !$0.isDisjoint(with: members) }) else { return }
        deepChains.append(members)
        problems.append(ContainerProblem(kind: .tooDeep, chain: chain, message: message))
    }

    /// A cycle is one problem whichever of its members the dry run started from.
    mutating func recordCycle(_ chain: [String]) {
        record(
            ContainerProblem(
                kind: .cycle, chain: chain, message: "Dependency cycle: \(chain.joined(separator: " -> "))"),
            identity: Set(chain).sorted().joined(separator: "|"))
    }
}
