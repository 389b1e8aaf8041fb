import Foundation
import GirdersTrema

/// The `trema` command line: parsing the arguments and running a command.
enum TremaCommand {
    static let version = "trema (Girders) \(GirdersVersion.current)"

    static let usage = """
        usage: trema convert <file.trm> --out <dir> [--format strings|xcstrings|android|swift ...]
                             [--table NAME] [--langs de,en] [--status verified,...] [--fill-from-master]
                             [--override second.trm] [--comments] [--android-default-lang LANG]
                             [--swift-type NAME] [--no-escapes] [--allow-lint-errors]
               trema generate <file.trm> --out <File.swift> [--swift-type NAME] [--langs ...] [--status ...]
                              [--fill-from-master] [--no-escapes]
               trema lint <file.trm> [--strict]
               trema <source.trm> [second.trm] <outdir>     (GirdersSwift's trema.rb form)
               trema --help | --version

        convert writes <dir>/<lang>.lproj/<table>.strings (strings), <dir>/<table>.xcstrings (xcstrings),
        <dir>/res/values[-lang]/strings.xml (android) and <dir>/<Type>.swift (swift); the default format is strings.
        generate writes Swift accessors with every language compiled in (what the TremaPlugin build plugin runs);
        the type is named after the file unless --swift-type names it; problems print as file:line:column: error:.
        convert writes nothing when lint finds an error (a missing plural form, a misspelled category, placeholders
        that differ), unless --allow-lint-errors is given.
        Exit status: 0 success, 1 invalid input or lint failures, 2 usage errors.

        """

    /// What a run printed and its exit status.
    struct Outcome {
        var output = ""
        var errors = ""
        var status: Int32 = 0
        /// What the command read and wrote, held by `main` until the process exits and left to the system to
        /// reclaim at once: freeing a large document's values one by one took 3% of `trema convert` (a compiler's
        /// `-disable-free`).
        var keptUntilExit: [Any] = []
    }

    static func run(_ arguments: [String]) -> Outcome {
        do {
            switch arguments.first {
            case nil, "--help", "-h", "help":
                return Outcome(output: usage, status: arguments.isEmpty ? 2 : 0)
            case "--version":
                return Outcome(output: version + "\n")
            case "convert":
                return try convert(ConvertArguments(Array(arguments.dropFirst())))
            case "generate":
                return try GenerateCommand.run(Array(arguments.dropFirst()))
            case "lint":
                return try lint(Array(arguments.dropFirst()))
            default:
                return try legacy(arguments)
            }
        } catch let error as UsageError {
            return Outcome(errors: "trema: \(error.message)\n\n" + usage, status: 2)
        } catch let error as TremaError {
            return Outcome(errors: capped(error.description.split(separator: "\n").map(String.init)), status: 1)
        } catch {
            return Outcome(errors: "trema: \(error)\n", status: 1)
        }
    }

    static func convert(_ arguments: ConvertArguments) throws -> Outcome {
        var document = try TremaDocument(contentsOf: URL(fileURLWithPath: arguments.input))
        if let second = arguments.override {
            document = document.overriding(with: try TremaDocument(contentsOf: URL(fileURLWithPath: second)))
        }
        // Lint and the exports run at once; the files are written only when lint allows it.
        let (errors, files) = try document.lintErrorsAndExport(
            arguments.formats, options: arguments.options, android: arguments.formats.contains(.android))
        if !errors.isEmpty && !arguments.allowsLintErrors {
            return Outcome(
                errors: capped(errors.map(\.description))
                    + "trema: \(errors.count) lint error\(errors.count == 1 ? "" : "s"); nothing written (--allow-lint-errors writes anyway)\n",
                status: 1, keptUntilExit: [document])
        }
        let written = try files.get()
        try ExportedFile.write(written, to: URL(fileURLWithPath: arguments.output))
        return Outcome(
            output: "wrote \(written.count) files to \(arguments.output)\n",
            errors: errors.isEmpty ? "" : capped(errors.map(\.description)), keptUntilExit: [document, written])
    }

    static func lint(_ arguments: [String]) throws -> Outcome {
        let strict = arguments.contains("--strict")
        let files = arguments.filter { $0 != "--strict" }
        if let unknown = files.first(where: { $0.hasPrefix("-") }) { throw UsageError("unknown option \(unknown)") }
        guard files.count == 1, let path = files.first else { throw UsageError("lint needs exactly one .trm file") }
        let document = try TremaDocument(contentsOf: URL(fileURLWithPath: path))
        let findings = TremaLinter.lint(document)
        let failing = findings.filter { strict || $0.severity == .error }
        let report = findings.isEmpty ? "" : capped(findings.map(\.description))
        return Outcome(
            output: findings.isEmpty ? "\(path): no findings\n" : "", errors: report, status: failing.isEmpty ? 0 : 1,
            keptUntilExit: [document])
    }

    /// The most problems printed; a hostile file can hold hundreds of thousands.
    static let maximumPrintedProblems = 100

    /// The first ``maximumPrintedProblems`` lines, then how many more there are.
    static func capped(_ lines: [String]) -> String {
        let shown = lines.prefix(maximumPrintedProblems).map { $0 + "\n" }.joined()
        let rest = lines.count - maximumPrintedProblems
        return rest > 0 ? shown + "... and \(rest) more problems\n" : shown
    }

    /// `trema <source.trm> [second.trm] <outdir>`: what trema.rb wrote, `<outdir>/<lang>.lproj/messages.strings`.
    static func legacy(_ arguments: [String]) throws -> Outcome {
        if let unknown = arguments.first(where: { $0.hasPrefix("-") }) { throw UsageError("unknown option \(unknown)") }
        guard arguments.count == 2 || arguments.count == 3 else {
            throw UsageError("expected a command, or <source.trm> [second.trm] <outdir>")
        }
        var convert = ConvertArguments()
        convert.input = arguments[0]
        convert.override = arguments.count == 3 ? arguments[1] : nil
        convert.output = arguments[arguments.count - 1]
        return try self.convert(convert)
    }
}

/// A mistake in the arguments: exit status 2.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
