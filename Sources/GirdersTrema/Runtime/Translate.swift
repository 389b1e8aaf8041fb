import Foundation
import GirdersSupport

/// The translator ``translate(_:_:)`` reads: GirdersSwift's `messages` table from the main bundle unless
/// replaced.
public enum Translation {
    private static let state = LockedState(TranslatorCache())

    /// The process-wide translator. On first use it loads the main bundle's `messages` tables; replace it at any
    /// time, for example with `Translator(trm:)` or `Translator(folder:masterLanguage:)`.
    public static var shared: Translator {
        get {
            state.withLock { cache in
                if let translator = cache.translator { return translator }
                let loaded = TranslatorCache.load(.main)
                cache.translator = loaded
                return loaded
            }
        }
        set { state.withLock { $0.translator = newValue } }
    }

    /// The translator of `bundle`'s `messages` tables, loaded on first use and kept.
    static func translator(for bundle: Bundle) -> Translator {
        state.withLock { cache in
            if let translator = cache.bundleTranslators[bundle.bundlePath] { return translator }
            let loaded = TranslatorCache.load(bundle)
            cache.bundleTranslators[bundle.bundlePath] = loaded
            return loaded
        }
    }
}

/// GirdersSwift's `translate("app_name")`: the text in the user's language, the master language's when it has
/// none, `?app_name?` when no table has the key. Arguments fill printf placeholders in the language's locale.
public func translate(_ key: String, _ arguments: any CVarArg...) -> String {
    Translation.shared.translate(key, arguments: arguments)
}

/// ``translate(_:_:)`` in an explicit language.
public func translate(_ key: String, language: String, _ arguments: any CVarArg...) -> String {
    Translation.shared.translate(key, language: language, arguments: arguments)
}

/// The plural text `key` in the form `count` takes in the user's language (CLDR's rules), formatted with
/// `arguments`; see ``Translator/translate(_:count:language:arguments:)-(_,Int,_,_)``.
public func translate(_ key: String, count: Int, _ arguments: any CVarArg...) -> String {
    Translation.shared.translate(key, count: count, arguments: arguments)
}

/// `translate(_:count:_:)` for a decimal count (`1.5 km`).
public func translate(_ key: String, count: Double, _ arguments: any CVarArg...) -> String {
    Translation.shared.translate(key, count: count, arguments: arguments)
}

/// `translate(_:count:_:)` in an explicit language.
public func translate(_ key: String, language: String, count: Int, _ arguments: any CVarArg...) -> String {
    Translation.shared.translate(key, count: count, language: language, arguments: arguments)
}

/// `translate(_:count:_:)` with a `Double` in an explicit language.
public func translate(_ key: String, language: String, count: Double, _ arguments: any CVarArg...) -> String {
    Translation.shared.translate(key, count: count, language: language, arguments: arguments)
}

/// What ``Translation`` keeps: the shared translator (loaded on first use) and the per-bundle ones.
private struct TranslatorCache {
    var translator: Translator?
    var bundleTranslators: [String: Translator] = [:]

    /// The bundle's `messages` tables, or an empty translator (every key `?key?`) when they cannot be read.
    static func load(_ bundle: Bundle) -> Translator {
        (try? Translator(bundle: bundle))
            ?? Translator(
                tables: [:],
                masterLanguage: SystemLanguage.development(
                    of: bundle, tables: [], preferred: SystemLanguage.preferred()))
    }
}
