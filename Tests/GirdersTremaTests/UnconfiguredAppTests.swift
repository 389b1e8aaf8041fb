#if os(macOS) || os(Linux)  // starts processes (Python servers, helper executables): macOS and Linux only
import Foundation
import GirdersTestProcesses
import Testing

@testable import GirdersTrema

/// GirdersSwift's `translate("app_name")` in an app that configured nothing: `.lproj` tables beside it, or none.
/// Each case runs a real executable (TranslateProbe), because `Bundle.main` is the process's own.
struct UnconfiguredAppTests {
    /// Copies TranslateProbe into a new folder with `tables` (language → `.strings` text) beside it, runs it with
    /// `environment` and returns its exit status and the lines it printed.
    func runApp(
        tables: [String: String], environment: [String: String], arguments: [String] = ["app_name"]
    ) async throws -> (status: Int32, lines: [String]) {
        let app = try temporaryFolder()
        let built = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("TranslateProbe")
        let executable = app.appendingPathComponent("TranslateProbe")
        try FileManager.default.copyItem(at: built, to: executable)
        for (language, text) in tables {
            let folder = app.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("messages.strings"))
        }
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let run = try await process.runToEnd()
        return (run.status, run.outputText.split(separator: "\n").map(String.init))
    }

    @Test func translateWithNoTablesAndNoInfoPlistAnswersTheKeyInsteadOfCrashing() async throws {
        let run = try await runApp(tables: [:], environment: ["LANG": "C"])
        #expect(run.status == 0)
        #expect(run.lines == ["?app_name?", "en"])
    }

    @Test func theOnlyTableBesideTheAppIsTheMasterLanguage() async throws {
        let run = try await runApp(
            tables: ["fr": "\"app_name\" = \"Mon app\";\n"], environment: ["LANG": "de_CH.UTF-8"])
        #expect(run.status == 0)
        #expect(run.lines == ["Mon app", "fr"])
    }

    @Test func theEnvironmentsLanguagePicksTheTableAndTheMasterLanguage() async throws {
        let tables = ["en": "\"app_name\" = \"My app\";\n", "de": "\"app_name\" = \"Meine App\";\n"]
        #expect(try await runApp(tables: tables, environment: ["LANG": "de_CH.UTF-8"]).lines == ["Meine App", "de"])
        #expect(try await runApp(tables: tables, environment: ["LANG": "C"]).lines == ["My app", "en"])
    }

    @Test func aDoublePercentShowsAsOnePercentWithOrWithoutArguments() async throws {
        let tables = ["de": "\"safe\" = \"100 %% sicher\";\n\"hello\" = \"Hallo %@, 100 %%\";\n"]
        #expect(
            try await runApp(tables: tables, environment: ["LANG": "C"], arguments: ["safe"]).lines.first
                == "100 % sicher")
        #expect(
            try await runApp(tables: tables, environment: ["LANG": "C"], arguments: ["hello", "Ada"]).lines.first
                == "Hallo Ada, 100 %")
        let translator = Translator(tables: ["de": ["safe": "100 %% sicher", "plain": "ohne"]], masterLanguage: "de")
        #expect(translator.translate("safe") == "100 % sicher")
        #expect(translator.translate("plain") == "ohne")
    }

    @Test func thePOSIXLocaleVariablesGiveTheLanguagesInGlibcsOrder() {
        #expect(SystemLanguage.fromEnvironment(["LANG": "de_CH.UTF-8@euro"]) == ["de-CH"])
        #expect(SystemLanguage.fromEnvironment(["LANG": "de_CH.UTF-8", "LC_ALL": "fr_FR.UTF-8"]) == ["fr-FR"])
        #expect(
            SystemLanguage.fromEnvironment(["LANG": "de_CH.UTF-8", "LANGUAGE": "it:en_GB"]) == ["it", "en-GB", "de-CH"])
        #expect(SystemLanguage.fromEnvironment(["LANG": "C", "LANGUAGE": "it"]).isEmpty)
        #expect(SystemLanguage.fromEnvironment(["LANG": "../../etc\n"]).isEmpty)
        #expect(SystemLanguage.fromEnvironment([:]).isEmpty)
    }
}
#endif
