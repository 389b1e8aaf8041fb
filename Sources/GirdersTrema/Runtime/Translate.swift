import Foundation

/// The translator ``translate(_:_:)`` reads: GirdersSwift's `messages` table from the main bundle unless
/// replaced.
public enum Translation {
    private static let state = TranslatorBox()

    /// The process-wide translator. On first use it loads the main bundle's `messages` tables; replace it at any
    /// time, for example with `Translator(trm:)` or `Translator(folder:masterLanguage:)`.
    public static var shared: Translator {
        get { state.current }
        set { state.replace(with: newValue) }
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

/// The lock box behind ``Translation/shared``.
private final class TranslatorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var translator: Translator?

    var current: Translator {
        lock.lock()
        defer { lock.unlock() }
        if let translator { return translator }
        let loaded =
            (try? Translator(bundle: .main))
            ?? Translator(
                tables: [:],
                masterLanguage: SystemLanguage.development(
                    of: .main, tables: [], preferred: SystemLanguage.preferred()))
        translator = loaded
        return loaded
    }

    func replace(with newValue: Translator) {
        lock.lock()
        translator = newValue
        lock.unlock()
    }
}
