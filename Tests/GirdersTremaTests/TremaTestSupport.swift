import Foundation
import GirdersTrema
import Testing

/// A fixture file shipped with the tests.
func fixture(_ path: String) throws -> URL {
    try #require(Bundle.module.resourceURL).appendingPathComponent("Fixtures").appendingPathComponent(path)
}

/// The folder every temporary folder of this test run lives in; removed when the test process exits, so a
/// full run leaves nothing in the system's temporary folder.
let testRunFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-trema-run-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: testRunFolder) }
    return folder
}()

/// A new empty temporary folder.
func temporaryFolder() throws -> URL {
    let folder = testRunFolder.appendingPathComponent("girders-trema-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Parses trema XML given as text.
func parse(_ xml: String, file: String = "test.trm") throws(TremaError) -> TremaDocument {
    try TremaDocument(data: Data(xml.utf8), file: file)
}

/// The violations the parser reports for `xml`, or an empty list when it parses.
func violations(_ xml: String) -> [TremaError.Violation] {
    do {
        _ = try parse(xml)
        return []
    } catch {
        if case .invalidDocument(_, let violations) = error { return violations }
        return []
    }
}

/// A trema document around `body`, with master language `de`.
func tremaXML(_ body: String, master: String = "de") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <trema masterLang="\(master)">
    \(body)
    </trema>
    """
}

/// Values a `.strings`, Android or Swift export must carry through unchanged.
let hostileValues: [String] = [
    #"quote " and backslash \ and both \""#, "line\nbreak", "carriage\rreturn", "tab\there", "bell\u{7}and\u{1}nul",
    "comment */ end", "emoji 😀👍🏽 and CJK 漢字かな", "percent % and %@ and %1$d and %%", "C:\\Users\\Public",
    "'single' quotes", "@start", "?start", " padded ", "<tag> & entity &amp;", "",
]

/// A document whose `en` values are ``hostileValues`` (written so that their meaning is exactly those strings).
func hostileDocument() -> TremaDocument {
    let texts = hostileValues.enumerated().map { index, value in
        TremaText(
            key: "key\(index)", context: "context */ \(index)",
            values: [
                TremaValue(language: "de", status: .verified, text: "de \(index)"),
                TremaValue(language: "en", status: .verified, text: escapeForTrema(value)),
            ])
    }
    return TremaDocument(masterLanguage: "de", texts: texts)
}

/// The trema text whose meaning is `value`: backslashes doubled, control characters as escapes.
func escapeForTrema(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
        .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
}
