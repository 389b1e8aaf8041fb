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

    /// The longest environment name accepted.
    public static let maximumNameLength = 64

    /// Whether `name` can name an environment: letters, digits, `-`, `_` and `.`, at most 64 characters, not
    /// `.` or `..` and not starting with a dot. The name becomes part of a file name
    /// (`Configuration-<name>.plist`), so nothing that could leave the configuration folder passes.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumNameLength, !name.hasPrefix("."), !name.contains("..") else {
            return false
        }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
        }
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
