import Foundation
import PackagePlugin

/// Generates Swift accessors for every `.trm` file in a target at build time: `Texts.trm` becomes `Texts.appName`,
/// `Texts.loginWelcome("Ana", 3)` and `Texts.localized("fr")`, with every language compiled in.
///
/// One build command per file runs the package's own `trema generate`, with the file as its only input, so an edit
/// re-runs that command and recompiles what depends on its output, nothing else. A file that is not valid trema
/// fails the build with `file:line:column: error:` lines, which `swift build` and Xcode show on the line.
@main
struct TremaPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? any SourceModuleTarget else { return [] }
        let files = target.sourceFiles(withSuffix: "trm").map(\.url)
        return try Self.commands(
            for: files, tool: context.tool(named: "trema").url, workDirectory: context.pluginWorkDirectoryURL)
    }

    /// One `trema generate` command per file, each writing `<stem>.swift` in `workDirectory` (`<stem>_2.swift`
    /// for a second file with the same name in another folder, since a module cannot hold two equal file names).
    static func commands(for files: [URL], tool: URL, workDirectory: URL) -> [Command] {
        var used: Set<String> = []
        return files.sorted { $0.path < $1.path }.map { file in
            let stem = file.deletingPathExtension().lastPathComponent
            var name = stem
            var suffix = 2
            while !used.insert(name.lowercased()).inserted {
                name = "\(stem)_\(suffix)"
                suffix += 1
            }
            let output = workDirectory.appendingPathComponent("\(name).swift")
            return .buildCommand(
                displayName: "trema generate \(file.lastPathComponent)",
                executable: tool,
                arguments: ["generate", file.path, "--out", output.path],
                inputFiles: [file],
                outputFiles: [output])
        }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension TremaPlugin: XcodeBuildToolPlugin {
    /// The same commands for the `.trm` files of an Xcode target.
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let files = target.inputFiles.map(\.url).filter { $0.pathExtension == "trm" }
        return try Self.commands(
            for: files, tool: context.tool(named: "trema").url, workDirectory: context.pluginWorkDirectoryURL)
    }
}
#endif
