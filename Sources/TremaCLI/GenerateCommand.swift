import Foundation
import GirdersTrema

/// `trema generate <file.trm> --out <File.swift>`: the Swift accessors with every language compiled in, as the
/// `TremaPlugin` build plugin runs it (see `SwiftEmbeddedTables`).
///
/// The type is named after the file (`Texts.trm` → `Texts`, `login-texts.trm` → `LoginTexts`) unless
/// `--swift-type` names it. Only errors are reported (a file that is not trema, placeholders that differ from the
/// master language's or exceed the limits): a missing translation or a value still `initial` is the translators'
/// state, which `trema lint` reports, not the build's. Problems are printed as `file:line:column: error: message`,
/// the form `swift build` and Xcode put on the line, with every control character in them escaped so a hostile key
/// cannot forge a line of the build log. Nothing is written when there is a problem; otherwise the output is
/// replaced atomically, and left untouched when it would not change, so an edit that changes nothing recompiles
/// nothing.
enum GenerateCommand {
    static func run(_ arguments: [String]) throws -> TremaCommand.Outcome {
        var convert = try ConvertArguments(arguments, command: "generate", output: "--out <File.swift>")
        guard convert.formats == [.strings] else { throw UsageError("generate writes Swift; it takes no --format") }
        convert.options.embedsTables = true
        if !convert.namesSwiftType {
            let stem = URL(fileURLWithPath: convert.input).deletingPathExtension().lastPathComponent
            convert.options.swiftTypeName = typeName(forFile: stem)
        }
        do {
            let document = try TremaDocument(contentsOf: URL(fileURLWithPath: convert.input))
            // Checked before anything is written: a failed build leaves the last good output in place.
            let errors = TremaLinter.lint(document, android: false).filter { $0.severity == .error }
            guard errors.isEmpty else {
                return TremaCommand.Outcome(
                    errors: TremaCommand.capped(errors.map(\.description)), status: 1)
            }
            let source = try TremaExportFormat.swift.export(document, options: convert.options)
            guard let file = source.first else { return TremaCommand.Outcome() }
            try write(file.data, to: URL(fileURLWithPath: convert.output))
            return TremaCommand.Outcome()
        } catch {
            return TremaCommand.Outcome(
                errors: TremaCommand.capped(diagnostics(error, input: convert.input)), status: 1)
        }
    }

    /// `Texts` → `Texts`; `login-texts` → `LoginTexts`; `2fa` → `_2fa`; a stem with no letters or digits → `Texts`;
    /// a name the generated code itself uses (`String.trm`) → `StringTexts`, so it cannot shadow that type.
    static func typeName(forFile stem: String) -> String {
        let lower = SwiftSourceExporter.identifier(for: stem).filter { $0 != "`" }
        guard let first = lower.first, first != "_", lower != "text" || stem.lowercased() == "text" else {
            return lower.first == "_" ? lower : "Texts"
        }
        let name = first.uppercased() + lower.dropFirst()
        guard SwiftSourceExporter.isTypeName(name) else { return "Texts" }
        return shadowed.contains(name) ? name + "Texts" : name
    }

    /// Types the generated code names unqualified.
    static let shadowed: Set<String> = ["String", "Int", "Double", "Sendable", "Localized", "Swift"]

    /// One `file:line:column: error: message` line per problem (`file: error: message` where no line is known),
    /// escaped as every GirdersTrema description is.
    static func diagnostics(_ error: any Error, input: String) -> [String] {
        guard let error = error as? TremaError else { return [TremaError.escaped("\(input): error: \(error)")] }
        switch error {
        case .invalidDocument(_, let violations): return violations.map(\.diagnostic)
        case .cannotRead(let path, let reason): return [TremaError.escaped("\(path): error: cannot read: \(reason)")]
        case .cannotWrite(let path, let reason): return [TremaError.escaped("\(path): error: cannot write: \(reason)")]
        default: return ["\(TremaError.escaped(input)): error: \(error.description)"]
        }
    }

    /// Replaces `destination` atomically with `data`, unless it holds exactly `data` already.
    static func write(_ data: Data, to destination: URL) throws(TremaError) {
        if let existing = try? Data(contentsOf: destination), existing == data { return }
        do {
            try data.write(to: destination, options: .atomic)
        } catch {
            throw .cannotWrite(path: destination.path, reason: error.localizedDescription)
        }
    }
}
