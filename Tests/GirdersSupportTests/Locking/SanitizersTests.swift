import Foundation
import GirdersSupport
import Testing

/// `Sanitizers.thread` says whether this build runs under ThreadSanitizer: `.ci/run` sets `GIRDERS_SANITIZER` for
/// its sanitizer runs, and a plain `swift test` sets none.
struct SanitizersTests {
    @Test func theThreadSanitizerFlagMatchesTheBuild() {
        let sanitizer = ProcessInfo.processInfo.environment["GIRDERS_SANITIZER"]
        #expect(Sanitizers.thread == (sanitizer == "thread"), "GIRDERS_SANITIZER=\(sanitizer ?? "none")")
    }
}
