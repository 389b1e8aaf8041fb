import Foundation
import GirdersTrema
import Testing

/// `trema generate`, what the `TremaPlugin` build plugin runs, as a process.
struct GenerateCommandTests {
    let cli = CLITests()

    @Test func itWritesOneTypeNamedAfterTheFileWithEveryLanguageCompiledIn() throws {
        let folder = try temporaryFolder()
        let input = folder.appendingPathComponent("login-texts.trm")
        try Data(
            tremaXML(
                #"<text key="title"><context/><value lang="de" status="initial">Anmelden</value><value lang="fr" status="verified">Connexion</value></text>"#
            ).utf8
        ).write(to: input)
        let output = folder.appendingPathComponent("LoginTexts.swift")
        let run = try cli.trema("generate", input.path, "--out", output.path)
        #expect(run.status == 0)
        #expect(run.errors.isEmpty, "a value still initial is the translators' state, not a build warning")
        let source = try String(contentsOf: output, encoding: .utf8)
        #expect(source.contains("enum LoginTexts {"))
        #expect(source.contains("static var title: String { Localized(language: nil).title }"))
        #expect(source.contains(#""de": ["#) && source.contains(#""title": "Connexion","#))
        #expect(!source.contains("public "), "generated texts stay internal to the module")
    }

    @Test func anUnchangedOutputIsNotRewritten() throws {
        let folder = try temporaryFolder()
        let input = folder.appendingPathComponent("Texts.trm")
        try Data(tremaXML(#"<text key="a"><context/><value lang="de" status="verified">A</value></text>"#).utf8)
            .write(to: input)
        let output = folder.appendingPathComponent("Texts.swift")
        #expect(try cli.trema("generate", input.path, "--out", output.path).status == 0)
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: output.path)
        #expect(try cli.trema("generate", input.path, "--out", output.path).status == 0)
        let kept = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        #expect(kept == old)
        try Data(tremaXML(#"<text key="a"><context/><value lang="de" status="verified">B</value></text>"#).utf8)
            .write(to: input)
        #expect(try cli.trema("generate", input.path, "--out", output.path).status == 0)
        let changed = try FileManager.default.attributesOfItem(atPath: output.path)[.modificationDate] as? Date
        #expect(changed != old)
        #expect(try String(contentsOf: output, encoding: .utf8).contains(#""a": "B","#))
    }

    @Test func aBrokenFileFailsWithFileLineColumnErrorAndLeavesTheOldOutput() throws {
        let folder = try temporaryFolder()
        let input = folder.appendingPathComponent("Texts.trm")
        let output = folder.appendingPathComponent("Texts.swift")
        try Data("kept".utf8).write(to: output)
        try Data(tremaXML(#"<text key="a"><context/><value lang="de" status="verified">A</valu></text>"#).utf8)
            .write(to: input)
        let run = try cli.trema("generate", input.path, "--out", output.path)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(input.path):3:"))
        let firstLine = run.errors.split(separator: "\n").first.map(String.init) ?? ""
        #expect(firstLine.split(separator: ":").count >= 4 && firstLine.contains(": error: "))
        #expect(try String(contentsOf: output, encoding: .utf8) == "kept")
    }

    @Test func placeholdersThatDifferFromTheMasterFailTheBuild() throws {
        let folder = try temporaryFolder()
        let input = folder.appendingPathComponent("Texts.trm")
        try Data(
            tremaXML(
                #"<text key="n"><context/><value lang="de" status="verified">%@ hat %d</value><value lang="en" status="verified">%d has %@</value></text>"#
            ).utf8
        ).write(to: input)
        let run = try cli.trema("generate", input.path, "--out", folder.appendingPathComponent("T.swift").path)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(input.path):3:"))
        #expect(run.errors.contains(": error: the en value of 'n' has placeholders"))
    }

    @Test func aKeyCannotForgeALineOfTheBuildLog() throws {
        let folder = try temporaryFolder()
        let input = folder.appendingPathComponent("Texts.trm")
        let forged = "x&#10;/etc/passwd:1:1: error: forged&#x2028;&#x85;"
        try Data(
            tremaXML(
                #"<text key="\#(forged)"><context/><value lang="de" status="verified">%@</value><value lang="en" status="verified">%d</value></text>"#
            ).utf8
        ).write(to: input)
        let run = try cli.trema("generate", input.path, "--out", folder.appendingPathComponent("T.swift").path)
        #expect(run.status == 1)
        let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { $0.hasPrefix(input.path) })
        #expect(run.errors.contains(#"x\u{a}/etc/passwd:1:1: error: forged\u{2028}\u{85}"#))
    }

    @Test func theTypeNameComesFromTheFileNameOrTheOption() throws {
        let folder = try temporaryFolder()
        for (file, type) in [
            ("2fa.trm", "_2fa"), ("---.trm", "Texts"), ("default.trm", "Default"), ("Texts.trm", "Texts"),
        ] {
            let input = folder.appendingPathComponent(file)
            try Data(tremaXML(#"<text key="a"><context/><value lang="de" status="verified">A</value></text>"#).utf8)
                .write(to: input)
            let output = folder.appendingPathComponent("out.swift")
            #expect(try cli.trema("generate", input.path, "--out", output.path).status == 0)
            #expect(try String(contentsOf: output, encoding: .utf8).contains("enum \(type) {"), "\(file)")
        }
        let input = folder.appendingPathComponent("Texts.trm")
        let output = folder.appendingPathComponent("named.swift")
        #expect(try cli.trema("generate", input.path, "--out", output.path, "--swift-type", "Strings").status == 0)
        #expect(try String(contentsOf: output, encoding: .utf8).contains("enum Strings {"))
        #expect(try cli.trema("generate", input.path, "--out", output.path, "--swift-type", "a b").status == 1)
        #expect(try cli.trema("generate", input.path, "--out", output.path, "--format", "android").status == 2)
        #expect(try cli.trema("generate", input.path).status == 2)
    }
}
