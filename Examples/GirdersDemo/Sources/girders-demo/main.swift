import Foundation
import GirdersDI
import GirdersDemoKit

// girders-demo [--config DIR] [--env ENV] [--state DIR] [--lang LANG] COMMAND ...
var arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...(index + 1)) }
    return arguments[index + 1]
}
let config = option("--config", in: &arguments) ?? "Config"
let environment = option("--env", in: &arguments)
let state = option("--state", in: &arguments) ?? ".girders-demo"
let language = option("--lang", in: &arguments)

do {
    let settings = try Settings.load(folder: URL(fileURLWithPath: config), environment: environment)
    let container = Container()
    Demo.register(in: container, settings: settings, stateFolder: URL(fileURLWithPath: state))
    let (output, status) = await Demo.run(arguments, container: container, language: language)
    print(output)
    exit(status)
} catch {
    FileHandle.standardError.write(Data("girders-demo: \(error)\n".utf8))
    exit(2)
}
