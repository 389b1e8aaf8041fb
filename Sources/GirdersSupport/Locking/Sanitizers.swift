import CGirdersAtomics

/// What the build was instrumented with.
package enum Sanitizers {
    /// Whether this build runs under ThreadSanitizer (`swift build --sanitize=thread`), read from a C function
    /// compiled with the same flags. Code that adds ordering only ThreadSanitizer needs (a hand-over the Swift
    /// runtime already orders, invisibly to it) asks this, so a release build does not pay for it.
    package static let thread = girders_thread_sanitizer_enabled() != 0
}
