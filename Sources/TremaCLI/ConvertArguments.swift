import GirdersTrema

/// The arguments of `trema convert`.
struct ConvertArguments {
    var input = ""
    var output = ""
    var formats: [TremaExportFormat] = []
    var override: String?
    var options = ExportOptions()
    /// Whether `--swift-type` was given.
    var namesSwiftType = false
    /// `--allow-lint-errors`: write the files even when lint finds errors (they are still printed).
    var allowsLintErrors = false

    init() {
        formats = [.strings]
    }

    /// The arguments of `command`, whose `--out` is described as `output` in errors.
    init(_ arguments: [String], command: String = "convert", output outputHelp: String = "--out <dir>") throws {
        var remaining = arguments[...]
        var positional: [String] = []
        func value(for option: String) throws -> String {
            guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                throw UsageError("\(option) needs a value")
            }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--out": output = try value(for: argument)
            case "--format":
                let name = try value(for: argument)
                guard let format = TremaExportFormat(rawValue: name) else {
                    let known = TremaExportFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError("unknown format '\(name)'; use \(known)")
                }
                if !formats.contains(format) { formats.append(format) }
            case "--table": options.table = try value(for: argument)
            case "--langs": options.languages = try value(for: argument).split(separator: ",").map(String.init)
            case "--status":
                var statuses: Set<TremaStatus> = []
                for name in try value(for: argument).split(separator: ",") {
                    guard let status = TremaStatus(rawValue: String(name)) else {
                        throw UsageError("unknown status '\(name)'; use initial, translated, verified, special")
                    }
                    statuses.insert(status)
                }
                options.statuses = statuses
            case "--fill-from-master": options.fillsFromMaster = true
            case "--override": override = try value(for: argument)
            case "--comments": options.includesComments = true
            case "--android-default-lang": options.androidDefaultLanguage = try value(for: argument)
            case "--swift-type":
                options.swiftTypeName = try value(for: argument)
                namesSwiftType = true
            case "--no-escapes": options.readsEscapes = false
            case "--allow-lint-errors": allowsLintErrors = true
            case _ where argument.hasPrefix("-"): throw UsageError("unknown option \(argument)")
            default: positional.append(argument)
            }
        }
        guard positional.count == 1, let input = positional.first else {
            throw UsageError("\(command) needs exactly one .trm file")
        }
        guard !output.isEmpty else { throw UsageError("\(command) needs \(outputHelp)") }
        self.input = input
        if formats.isEmpty { formats = [.strings] }
        options.sourceName = input.split(separator: "/").last.map(String.init) ?? input
    }
}
