public import Foundation

// Every deprecated declaration of GirdersTrema, in one place; each message says what to write now.

/// GirdersSwift's `translate(_:_:bundle:)`: ``translate(_:_:)`` with the `messages` tables of `bundle`, loaded once
/// per bundle and kept. A bundle whose tables cannot be read translates every key to `?key?`.
@available(*, deprecated, message: "make a Translator(bundle:) once and call translate(_:arguments:) on it")
public func translate(_ key: String, _ arguments: any CVarArg..., bundle: Bundle) -> String {
    Translation.translator(for: bundle).translate(key, arguments: arguments)
}
