import Foundation

/// Which environment overlay applies, and what chose it.
public struct EnvironmentChoice: Sendable, Equatable {
    /// The environment's name, for example `staging` or GirdersSwift's `env`.
    public let name: String
    /// What chose it, as errors print it.
    public let chosenBy: String

    /// Creates a choice; ``select(explicit:processEnvironment:infoPlistEnvironment:)`` makes them from inputs.
    public init(name: String, chosenBy: String) {
        self.name = name
        self.chosenBy = chosenBy
    }

    /// The first non-empty of: the explicit argument, `GIRDERS_ENV`, the Info.plist value.
    public static func select(
        explicit: String?, processEnvironment: [String: String], infoPlistEnvironment: String?
    ) -> EnvironmentChoice? {
        let candidates = [
            (explicit, "the initialiser argument"),
            (
                processEnvironment[Configuration.environmentVariable],
                "the \(Configuration.environmentVariable) variable"
            ),
            (infoPlistEnvironment, "the Info.plist key \(Configuration.infoPlistKey)"),
        ]
        for case (let name?, let chosenBy) in candidates {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return EnvironmentChoice(name: trimmed, chosenBy: chosenBy) }
        }
        return nil
    }
}
