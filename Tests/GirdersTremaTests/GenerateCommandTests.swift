#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTrema
import Testing

/// `trema generate`, what the `TremaPlugin` build plugin runs, as a process.
struct GenerateCommandTests {
    let cli = CLITests()

    /// A trema file named `name` in `folder` with `body` between `<trema>` and `</trema>`.
    func trmFile(_ name: String, _ body: String, in folder: URL) throws -> URL {
        let file = folder.appendingPathComponent(name)
        try Data(tremaXML(body).utf8).write(to: file)
        return file
    }

    @Test func itWritesOneTypeNamedAfterTheFileWithEveryLanguageCompiledIn() async throws {
        let folder = try temporaryFolder()
        let input = try trmFile(
            "login-texts.trm",
            #"<text key="title"><context/><value lang="de" status="initial">Anmelden</value><value lang="fr" status="verified">Connexion</value></text>"#,
            in: folder)
        let output = folder.appendingPathComponent("LoginTexts.swift")
        let run = try await cli.trema("generate", input.path, "--out", output.path)
        #expect(run.status == 0)
        #expect(run.errors.isEmpty, "a value still initial is the translators' state, not a build warning")
        let source = try String(contentsOf: output, encoding: .utf8)
        #expect(source.contains("enum LoginTexts {"))
        #expect(source.contains("static var title: String { Localized(language: nil).title }"))
        #expect(source.contains(#""de": ["#) && source.contains(#""title": "Connexion","#))
        #expect(!source.contains("public "), "generated texts stay internal to the module")
    }

    @Test func anUnchangedOutputIsNotRewritten() async throws {
        let folder = try temporaryFolder()
        let input = try trmFile(
            "Texts.trm", #"<text key="a"><context/><value lang="de" status="verified">A</value></text>"#, in: folder)
        let output = folder.appendingPathComponent("Texts.swift")
        #expect(try await cli.trema("generate", input.path, "--out", output.path).status == 0)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: output.path)
        #expect(try await cli.trema("generate", input.path, "--out", output.path).status == 0)
        let kept = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        #expect(kept == old)
        _ = try trmFile(
            "Texts.trm", #"<text key="a"><context/><value lang="de" status="verified">B</value></text>"#, in: folder)
        #expect(try await cli.trema("generate", input.path, "--out", output.path).status == 0)
        let changed = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        #expect(changed != old)
        #expect(try String(contentsOf: output, encoding: .utf8).contains(#""a": "B","#))
    }

    @Test func aBrokenFileFailsWithFileLineColumnErrorAndLeavesTheOldOutput() async throws {
        let folder = try temporaryFolder()
        let input = try trmFile(
            "Texts.trm", #"<text key="a"><context/><value lang="de" status="verified">A</valu></text>"#, in: folder)
        let output = folder.appendingPathComponent("Texts.swift")
        try Data("kept".utf8).write(to: output)
        let run = try await cli.trema("generate", input.path, "--out", output.path)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(input.path):3:"))
        let firstLine = run.errors.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.split(separator: ":").count >= 4 && firstLine.contains(": error: "))
        #expect(try String(contentsOf: output, encoding: .utf8) == "kept")
    }

    @Test func placeholdersThatDifferFromTheMasterFailTheBuild() async throws {
        let folder = try temporaryFolder()
        let input = try trmFile(
            "Texts.trm",
            #"<text key="n"><context/><value lang="de" status="verified">%@ hat %d</value><value lang="en" status="verified">%d has %@</value></text>"#,
            in: folder)
        let output = folder.appendingPathComponent("T.swift")
        let run = try await cli.trema("generate", input.path, "--out", output.path)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(input.path):3:"))
        #expect(run.errors.contains(": error: the en value of 'n' has placeholders"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aKeyCannotForgeALineOfTheBuildLog() async throws {
        let folder = try temporaryFolder()
        let forged = "x&#10;/etc/passwd:1:1: error: forged&#x2028;&#x85;"
        let input = try trmFile(
            "Texts.trm",
            #"<text key="\#(forged)"><context/><value lang="de" status="verified">%@</value><value lang="en" status="verified">%d</value></text>"#,
            in: folder)
        let run = try await cli.trema("generate", input.path, "--out", folder.appendingPathComponent("T.swift").path)
        #expect(run.status == 1)
        let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { $0.hasPrefix(input.path) })
        #expect(run.errors.contains(#"x\u{a}/etc/passwd:1:1: error: forged\u{2028}\u{85}"#))
    }

    @Test func theTypeNameComesFromTheFileNameOrTheOption() async throws {
        let folder = try temporaryFolder()
        for (file, type) in [
            ("2fa.trm", "_2fa"), ("---.trm", "Texts"), ("default.trm", "Default"), ("Texts.trm", "Texts"),
            ("string.trm", "StringTexts"),
        ] {
            let input = try trmFile(
                file, #"<text key="a"><context/><value lang="de" status="verified">A</value></text>"#, in: folder)
            let output = folder.appendingPathComponent("out.swift")
            #expect(try await cli.trema("generate", input.path, "--out", output.path).status == 0)
            #expect(try String(contentsOf: output, encoding: .utf8).contains("enum \(type) {"), "\(file)")
        }
        let input = folder.appendingPathComponent("Texts.trm")
        let output = folder.appendingPathComponent("named.swift")
        #expect(
            try await cli.trema("generate", input.path, "--out", output.path, "--swift-type", "Strings").status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("enum Strings {"))
        #expect(try await cli.trema("generate", input.path, "--out", output.path, "--swift-type", "a b").status == 1)
        #expect(try await cli.trema("generate", input.path, "--out", output.path, "--format", "android").status == 2)
        #expect(try await cli.trema("generate", input.path).status == 2)
    }
}
#endif
