#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import GirdersTrema
import Testing

/// The `trema` executable, run as a process.
struct CLITests {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    func trema(_ arguments: String...) async throws -> Run {
        let products = try #require(Bundle.module.bundleURL.deletingLastPathComponent() as URL?)
        let process = ChildProcess()
        process.executableURL = products.appendingPathComponent("trema")
        process.arguments = arguments
        let run = try await process.runToEnd()
        return Run(status: run.status, output: run.outputText, errors: run.errorText)
    }

    @Test func helpAndVersion() async throws {
        let help = try await trema("--help")
        #expect(help.status == 0 && help.output.contains("trema convert <file.trm> --out <dir>"))
        let version = try await trema("--version")
        // The version comes from one place, which CHANGELOG.md names as its latest release.
        let changelog = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let released = changelog.split(separator: "\n").first {
            $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]")
        }
        let number = released.flatMap { $0.dropFirst(4).split(separator: "]").first }.map(String.init)
        #expect(number != nil)
        #expect(version.status == 0 && version.output == "trema (Girders) \(number ?? "?")\n")
    }

    @Test func convertWritesEveryFormat() async throws {
        let out = try temporaryFolder()
        let run = try await trema(
            "convert", try fixture("golden/texts.trm").path, "--out", out.path, "--format", "strings", "--format",
            "xcstrings", "--format", "android", "--format", "swift", "--comments")
        #expect(run.status == 0, "\(run.errors)")
        for path in ["de.lproj/messages.strings", "messages.xcstrings", "res/values-fr/strings.xml", "Texts.swift"] {
            let written = try Data(contentsOf: out.appendingPathComponent(path))
            #expect(written == (try Data(contentsOf: try fixture("golden/expected/\(path)"))), "\(path)")
        }
    }

    @Test func theLegacyFormWritesWhatTremaRbWrote() async throws {
        let out = try temporaryFolder()
        let second = out.appendingPathComponent("second.trm")
        try Data(
            tremaXML(#"<text key="refresh"><context/><value lang="de" status="verified">Neu "laden"</value></text>"#)
                .utf8
        ).write(to: second)
        let run = try await trema(try fixture("girdersswift-texts.trm").path, second.path, out.path)
        #expect(run.status == 0, "\(run.errors)")
        let strings = try String(contentsOf: out.appendingPathComponent("de.lproj/messages.strings"), encoding: .utf8)
        #expect(strings == "\"name\" = \"AppName\";\n\"refresh\" = \"Neu \\\"laden\\\"\";\n")
    }

    @Test func invalidInputExitsWithOneNamesFileLineAndColumnAndWritesNothing() async throws {
        let folder = try temporaryFolder()
        let bad = folder.appendingPathComponent("bad.trm")
        try Data(tremaXML("<text key=\"a\"><context/><value lang=\"de\" status=\"nope\">A</value></text>").utf8).write(
            to: bad)
        let out = folder.appendingPathComponent("out")
        let run = try await trema("convert", bad.path, "--out", out.path)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(bad.path):3:"))
        #expect(run.errors.contains("status 'nope' of text 'a' (de)"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func usageErrorsExitWithTwo() async throws {
        #expect(try await trema().status == 2)
        #expect(try await trema("convert", "x.trm").status == 2)
        #expect(
            try await trema("convert", "x.trm", "--out", "o", "--format", "pdf").errors.contains("unknown format 'pdf'")
        )
        #expect(try await trema("convert", "x.trm", "--out", "o", "--status", "done").status == 2)
        #expect(try await trema("lint").status == 2)
        #expect(try await trema("--frobnicate").status == 2)
    }

    @Test func lintFailsOnErrorsAndInStrictModeOnWarnings() async throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("lint.trm")
        try Data(
            tremaXML(
                """
                <text key="ok"><context/><value lang="de" status="verified">A</value><value lang="en" status="initial">A</value></text>
                """
            ).utf8
        ).write(to: file)
        let relaxed = try await trema("lint", file.path)
        #expect(relaxed.status == 0)
        #expect(relaxed.errors.contains("\(file.path):3:"))
        #expect(relaxed.errors.contains("warning: the en value of 'ok' is still initial"))
        #expect(try await trema("lint", file.path, "--strict").status == 1)

        try Data(
            tremaXML(
                """
                <text key="n"><context/><value lang="de" status="verified">%@ hat %d</value><value lang="en" status="verified">%d has %@</value></text>
                """
            ).utf8
        ).write(to: file)
        let mismatch = try await trema("lint", file.path)
        #expect(mismatch.status == 1)
        #expect(
            mismatch.errors.contains(
                "error: the en value of 'n' has placeholders [1: Int, 2: String], the master (de) has [1: String, 2: Int]"
            ))
    }

    /// A plural that lacks a form its language needs, or has a misspelled one (`#mnay` became an ordinary text), is
    /// refused by convert and lint alike, naming the problem; `--allow-lint-errors` writes anyway and still says why.
    @Test(arguments: [
        (
            "missing",
            "<text key=\"n#other\"><context/><value lang=\"pl\" status=\"verified\">%d plików</value></text>",
            "the pl forms of plural 'n' lack one, few, many"
        ),
        (
            "misspelled",
            """
            <text key="n#one"><context/><value lang="pl" status="verified">%d plik</value></text>
            <text key="n#few"><context/><value lang="pl" status="verified">%d pliki</value></text>
            <text key="n#mnay"><context/><value lang="pl" status="verified">%d plików</value></text>
            <text key="n#other"><context/><value lang="pl" status="verified">%d pliku</value></text>
            """, "'mnay' in 'n#mnay' is not a plural category"
        ),
    ])
    func convertAndLintRefuseAPluralWithAMissingOrMisspelledForm(
        _ name: String, _ texts: String, _ error: String
    )
        async throws
    {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("\(name).trm")
        try Data(tremaXML(texts, master: "pl").utf8).write(to: file)
        let out = folder.appendingPathComponent("out")
        let refused = try await trema("convert", file.path, "--out", out.path, "--format", "strings")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("error: \(error)"), "\(refused.errors)")
        #expect(refused.errors.contains("nothing written (--allow-lint-errors writes anyway)"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let lint = try await trema("lint", file.path)
        #expect(lint.status == 1 && lint.errors.contains(error))
        let allowed = try await trema("convert", file.path, "--out", out.path, "--allow-lint-errors")
        #expect(allowed.status == 0 && allowed.errors.contains(error))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("pl.lproj/messages.strings").path))
    }

    /// Lint runs beside the exports now; when both fail (a placeholder mismatch, and two keys that become one
    /// Android name), convert still reports the lint errors and writes nothing, as it did when lint ran first.
    @Test func convertReportsLintErrorsBeforeAnExportsFailureAndWritesNothing() async throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("both.trm")
        try Data(
            tremaXML(
                """
                <text key="a.b"><context/><value lang="de" status="verified">%@ hat %d</value><value lang="en" status="verified">%d has %@</value></text>
                <text key="a_b"><context/><value lang="de" status="verified">B</value><value lang="en" status="verified">B</value></text>
                """
            ).utf8
        ).write(to: file)
        let out = folder.appendingPathComponent("out")
        let refused = try await trema(
            "convert", file.path, "--out", out.path, "--format", "android", "--format", "strings")
        #expect(refused.status == 1)
        #expect(refused.errors.contains("error: the en value of 'a.b' has placeholders"), "\(refused.errors)")
        #expect(refused.errors.contains("both become the Android resource name 'a_b'"), "\(refused.errors)")
        #expect(refused.errors.contains("nothing written (--allow-lint-errors writes anyway)"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aKeyCannotForgeALineOfLintOrConvertOutput() async throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("forge.trm")
        let key = "a&#10;/x.trm:1:1: error: forged&#x85;"
        try Data(tremaXML(#"<text key="\#(key)"><context/><value lang="de" status="initial">A</value></text>"#).utf8)
            .write(to: file)
        let lint = try await trema("lint", file.path)
        let lines = lint.errors.split(separator: "\n")
        #expect(lines.count == 2, "one line per finding: \(lint.errors)")
        #expect(lines.allSatisfy { $0.hasPrefix(file.path) })
        #expect(lint.errors.contains(#"'a\u{a}/x.trm:1:1: error: forged\u{85}' is still initial"#))
        try Data(tremaXML(#"<text key="b"><context/><value lang="de" status="nope">\#(key)</value></text>"#).utf8)
            .write(to: file)
        let convert = try await trema("convert", file.path, "--out", folder.appendingPathComponent("out").path)
        #expect(convert.status == 1)
        #expect(convert.errors.split(separator: "\n").allSatisfy { $0.hasPrefix(file.path) }, "\(convert.errors)")
    }
}
#endif
