import Foundation

// The `trema` command: converts and lints trema files. See `TremaCommand` for the arguments.
let result = TremaCommand.run(Array(CommandLine.arguments.dropFirst()))
if !result.output.isEmpty { FileHandle.standardOutput.write(Data(result.output.utf8)) }
if !result.errors.isEmpty { FileHandle.standardError.write(Data(result.errors.utf8)) }
exit(result.status)
