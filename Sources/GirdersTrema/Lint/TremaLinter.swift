/// One finding of ``TremaLinter``.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable {
        /// Fails the lint.
        case error
        /// Fails the lint only in strict mode.
        case warning
    }

    /// How serious it is.
    public let severity: Severity
    /// The key of the text the finding is about (empty for a finding about the whole file).
    public let key: String
    /// What is wrong.
    public let message: String
    /// Where, when the document came from a file.
    public let location: SourceLocation?

    /// `file:line:column: warning: message` (or without the location), with control characters escaped (see
    /// ``TremaError/escaped(_:)``), so a key cannot forge a line of lint output.
    public var description: String {
        TremaError.escaped((location.map { "\($0): " } ?? "") + "\(severity.rawValue): \(message)")
    }
}

/// Checks a document for problems a file can have while still being valid trema:
/// keys missing a language (warning), values whose status is not final (warning), placeholders that differ from
/// the master language's (error), and keys that are not valid Android resource names (warning; an error when two
/// keys would collide), and placeholders beyond ``PrintfPlaceholder``'s limits or using one argument as two
/// kinds (error, in every language including the master). Its cost is linear in the document's size.
public enum TremaLinter {
    /// Every finding, in file order; without `android`, the Android resource-name checks are left out (the build
    /// plugin's `trema generate` produces Swift only).
    public static func lint(_ document: TremaDocument, android: Bool = true) -> [LintFinding] {
        var findings: [LintFinding] = []
        let languages = document.languages
        var androidNames: [String: String] = [:]
        for text in document.texts {
            func add(_ severity: LintFinding.Severity, _ message: String, at location: SourceLocation? = nil) {
                findings.append(
                    LintFinding(
                        severity: severity, key: text.key, message: message, location: location ?? text.location))
            }
            let present = Set(text.values.map(\.language))
            let missing = present.count == languages.count ? [] : languages.filter { !present.contains($0) }
            if !missing.isEmpty {
                add(.warning, "key '\(text.key)' has no value for \(missing.joined(separator: ", "))")
            }
            for value in text.values where !value.status.isFinal {
                add(
                    .warning, "the \(value.language) value of '\(text.key)' is still \(value.status)",
                    at: value.location)
            }
            for value in text.values {
                for problem in PrintfPlaceholder.problems(in: value.meaning()) {
                    add(.error, "the \(value.language) value of '\(text.key)': \(problem)", at: value.location)
                }
            }
            if let master = text.value(for: document.masterLanguage) {
                let expected = PrintfPlaceholder.argumentKinds(master.meaning())
                for value in text.values where value.language != document.masterLanguage {
                    let actual = PrintfPlaceholder.argumentKinds(value.meaning())
                    if actual != expected {
                        add(
                            .error,
                            "the \(value.language) value of '\(text.key)' has placeholders \(describe(actual)), the master (\(document.masterLanguage)) has \(describe(expected))",
                            at: value.location)
                    }
                }
            }
            guard android else { continue }
            let name = AndroidExporter.resourceName(text.key)
            if let other = androidNames[name] {
                add(.error, "keys '\(other)' and '\(text.key)' both become the Android resource name '\(name)'")
            } else if name != text.key {
                add(.warning, "key '\(text.key)' is not a valid Android resource name; it is exported as '\(name)'")
            }
            androidNames[name] = androidNames[name] ?? text.key
        }
        return findings
    }

    private static func describe(_ kinds: [Int: PrintfPlaceholder.Kind]) -> String {
        kinds.isEmpty
            ? "none"
            : "[" + kinds.keys.sorted().map { "\($0): \(kinds[$0]?.rawValue ?? "")" }.joined(separator: ", ") + "]"
    }
}
