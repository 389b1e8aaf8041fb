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
        lint(document, android: android, warnings: true)
    }

    /// ``lint(_:android:)``; without `warnings`, only the errors (what `trema convert` needs to decide), found
    /// without the cost of describing every warning.
    package static func lint(_ document: TremaDocument, android: Bool, warnings: Bool) -> [LintFinding] {
        var findings: [LintFinding] = []
        let languages = document.languages
        var androidNames: [String: String] = [:]
        var plainKeys: Set<String> = []
        for text in document.texts {
            func add(_ severity: LintFinding.Severity, _ message: String, at location: SourceLocation? = nil) {
                findings.append(
                    LintFinding(
                        severity: severity, key: text.key, message: message, location: location ?? text.location))
            }
            let isPluralForm = text.pluralForm != nil
            if !isPluralForm { plainKeys.insert(text.key) }
            if warnings && !isPluralForm && !hasEveryLanguage(text, languages) {
                let present = Set(text.values.map(\.language))
                let missing = languages.filter { !present.contains($0) }
                add(.warning, "key '\(text.key)' has no value for \(missing.joined(separator: ", "))")
            }
            for value in text.values where warnings && !value.status.isFinal {
                add(
                    .warning, "the \(value.language) value of '\(text.key)' is still \(value.status)",
                    at: value.location)
            }
            let analyses = text.values.map { PrintfPlaceholder.analyze($0.meaning()) }
            let masterIndex = isPluralForm ? nil : text.values.firstIndex { $0.language == document.masterLanguage }
            let master = masterIndex.map { text.values[$0] }
            let expected = masterIndex.map { analyses[$0].kinds }
            for (value, analysis) in zip(text.values, analyses) {
                for problem in analysis.problems {
                    add(.error, "the \(value.language) value of '\(text.key)': \(problem)", at: value.location)
                }
            }
            for (value, analysis) in zip(text.values, analyses) {
                if let expected, let master, value.language != master.language, analysis.kinds != expected {
                    add(
                        .error,
                        "the \(value.language) value of '\(text.key)' has placeholders \(describe(PrintfPlaceholder.argumentKinds(value.meaning()))), the master (\(document.masterLanguage)) has \(describe(PrintfPlaceholder.argumentKinds(master.meaning())))",
                        at: value.location)
                }
            }
            guard android, !isPluralForm else { continue }
            checkAndroidName(text.key, text.location, warnings: warnings, &androidNames, &findings)
        }
        for plural in document.plurals {
            findings += PluralLinter.findings(plural, document, languages: languages, plainKeys: plainKeys)
            if android {
                checkAndroidName(plural.key, plural.location, warnings: warnings, &androidNames, &findings)
            }
        }
        findings += PluralLinter.misspelledForms(document)
        if !warnings { findings.removeAll { $0.severity == .warning } }
        // Plurals are checked after the texts; every finding goes back to its place in the file.
        guard findings.allSatisfy({ $0.location != nil }) else { return findings }
        return findings.enumerated().sorted { lhs, rhs in
            let (left, right) = (lhs.element.location, rhs.element.location)
            return (left?.line ?? 0, left?.column ?? 0, lhs.offset) < (right?.line ?? 0, right?.column ?? 0, rhs.offset)
        }.map(\.element)
    }

    /// Whether `text` has a value in each of `languages` (those of its document), without a set for the common
    /// case of a few languages.
    private static func hasEveryLanguage(_ text: TremaText, _ languages: [String]) -> Bool {
        if languages.count <= 8 {
            return languages.allSatisfy { language in text.values.contains { $0.language == language } }
        }
        return Set(text.values.map(\.language)).count == languages.count
    }

    private static func checkAndroidName(
        _ key: String, _ location: SourceLocation?, warnings: Bool, _ androidNames: inout [String: String],
        _ findings: inout [LintFinding]
    ) {
        let name = AndroidExporter.resourceName(key)
        if let other = androidNames[name] {
            findings.append(
                LintFinding(
                    severity: .error, key: key,
                    message: "keys '\(other)' and '\(key)' both become the Android resource name '\(name)'",
                    location: location))
        } else if warnings && name != key {
            findings.append(
                LintFinding(
                    severity: .warning, key: key,
                    message: "key '\(key)' is not a valid Android resource name; it is exported as '\(name)'",
                    location: location))
        }
        androidNames[name] = androidNames[name] ?? key
    }

    static func describe(_ kinds: [Int: PrintfPlaceholder.Kind]) -> String {
        kinds.isEmpty
            ? "none"
            : "[" + kinds.keys.sorted().map { "\($0): \(kinds[$0]?.rawValue ?? "")" }.joined(separator: ", ") + "]"
    }
}
