// A helper for GirdersTrema's tests: an app that calls GirdersSwift's `translate` with nothing configured, so a
// test can run it with `.lproj` tables beside it (or none) and a given environment.
//
// usage: TranslateProbe <key> [<argument>]
// Prints the translation and the master language chosen, one per line.
import GirdersTrema

let arguments = CommandLine.arguments
let key = arguments.count > 1 ? arguments[1] : "app_name"
print(arguments.count > 2 ? translate(key, arguments[2]) : translate(key))
print(Translation.shared.masterLanguage)
