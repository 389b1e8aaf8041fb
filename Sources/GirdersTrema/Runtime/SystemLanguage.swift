import Foundation

/// The user's languages and a bundle's development language, found without anything that can trap.
///
/// On Linux `Locale.preferredLanguages` answers `en-001` whatever the environment says, and
/// `Bundle.developmentLocalization` traps when the bundle has no Info.plist (a command-line tool, a server, a test
/// runner). So the languages come from the POSIX environment there (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`),
/// and the development language from Info.plist's `CFBundleDevelopmentRegion` only when it is present.
enum SystemLanguage {
    /// The user's preferred languages as BCP 47 tags (`de-CH`), most preferred first.
    static func preferred(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        #if canImport(Darwin)
        return Locale.preferredLanguages
        #else
        return fromEnvironment(environment)
        #endif
    }

    /// The languages the POSIX locale variables name, in glibc's order of precedence; `C` and `POSIX` name none.
    static func fromEnvironment(_ environment: [String: String]) -> [String] {
        var result: [String] = []
        func add(_ value: String) {
            // de_CH.UTF-8@euro → de-CH
            let name = value.prefix { $0 != "." && $0 != "@" }.replacingOccurrences(of: "_", with: "-")
            guard !name.isEmpty, name != "C", name != "POSIX", name.count <= 35,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }),
                !result.contains(name)
            else { return }
            result.append(name)
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        // LANGUAGE (a colon-separated list) counts only when the locale itself is not C, as in gettext.
        if let locale, locale != "C", locale != "POSIX", let list = environment["LANGUAGE"] {
            list.split(separator: ":").forEach { add(String($0)) }
        }
        if let locale { add(locale) }
        return result
    }

    /// The development language of `bundle`: Info.plist's `CFBundleDevelopmentRegion` when there is one; else
    /// the only language with a table; else, of several, the user's first language that has one, `en` when it has
    /// one, or the first in alphabetical order; with no tables at all, the user's first language, or `en`.
    static func development(of bundle: Bundle, tables: [String], preferred: [String]) -> String {
        if let region = bundle.object(forInfoDictionaryKey: "CFBundleDevelopmentRegion") as? String, !region.isEmpty {
            return region
        }
        let available = tables.sorted()
        if available.count == 1 { return available[0] }
        for language in preferred {
            if available.contains(language) { return language }
            let base = String(language.prefix { $0 != "-" })
            if available.contains(base) { return base }
        }
        if available.contains("en") { return "en" }
        return available.first ?? preferred.first.map { String($0.prefix { $0 != "-" }) } ?? "en"
    }
}
