import Foundation
import GirdersLog
import Testing

struct FormattingTests {
    let record = LogRecord(
        timestamp: Date(timeIntervalSince1970: 1_700_000_000.1239), level: .warning, label: "com.example.sync",
        message: "Retrying in 5 s", metadata: ["attempt": "2", "account": "alice"], fileID: "App/Sync.swift",
        function: "run()", line: 42)

    @Test func theDefaultLineHasTimestampLevelLabelCallSiteMessageAndSortedMetadata() {
        #expect(
            DefaultLogFormatter().format(record, revealingPrivate: false)
                == "2023-11-14T22:13:20.123Z WARNING [com.example.sync] App/Sync.swift:42 Retrying in 5 s"
                + " account=alice attempt=2")
    }

    @Test func theCallSiteCanBeLeftOut() {
        #expect(
            DefaultLogFormatter(includesCallSite: false).format(record, revealingPrivate: false)
                == "2023-11-14T22:13:20.123Z WARNING [com.example.sync] Retrying in 5 s account=alice attempt=2")
    }

    @Test func newlinesAreEscapedByDefaultSoEachRecordIsOneLine() {
        let multiline = LogRecord(
            timestamp: Date(timeIntervalSince1970: 0), level: .info, label: "l", message: "a\nb\r\nc",
            metadata: ["k": "x\ny"], fileID: "M/F.swift", line: 1)
        let escaped = DefaultLogFormatter().format(multiline, revealingPrivate: false)
        #expect(escaped == "1970-01-01T00:00:00.000Z INFO [l] M/F.swift:1 a\\nb\\r\\nc k=x\\ny")
        let trusted = DefaultLogFormatter(allowsMultilineMessages: true).format(multiline, revealingPrivate: false)
        #expect(trusted.contains("a\nb") && trusted.hasSuffix(" k=x\\ny"), "metadata stays escaped")
    }

    @Test func nothingInALabelMessageOrMetadataCanStartALineOrReachTheTerminal() {
        let hostile =
            "x\n2026-01-01T00:00:00.000Z ERROR [forged]\r\u{1B}[2J\u{7}\u{7F}\u{85}\u{9B}31m\u{2028}\u{2029}\t\0"
        let record = LogRecord(
            timestamp: Date(timeIntervalSince1970: 0), level: .info, label: hostile, message: "\(hostile)",
            metadata: [hostile: .string(hostile), "nested": [hostile: [.string(hostile)]]], fileID: "M/F.swift",
            line: 1)
        let line = DefaultLogFormatter().format(record, revealingPrivate: false)
        let forbidden = line.unicodeScalars.filter {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
        }
        #expect(forbidden.isEmpty, "raw controls: \(forbidden.map(\.value))")
        #expect(line.contains(#"x\n2026-01-01T00:00:00.000Z ERROR [forged]\r\u{1B}[2J\u{07}\u{7F}\u{85}\u{9B}31m"#))
        #expect(line.contains(#"\u{2028}\u{2029}\t\u{00}"#))
    }

    @Test func aCallSiteGivenAsTextIsPrintedEscapedAndHasNoLiterals() {
        let bridged = LogRecord(
            timestamp: Date(timeIntervalSince1970: 0), level: .info, label: "l", message: "m",
            file: "Other/File.swift\nforged", function: "f()", line: 7)
        #expect(bridged.file == "Other/File.swift\nforged" && bridged.function == "f()")
        #expect(bridged.fileID == nil && bridged.functionName == nil)
        #expect(
            DefaultLogFormatter().format(bridged, revealingPrivate: false)
                == #"1970-01-01T00:00:00.000Z INFO [l] Other/File.swift\nforged:7 m"#)
        #expect(record.fileID?.description == "App/Sync.swift" && record.functionName?.description == "run()")
    }

    @Test func anEscapedNewlineAndABackslashNDiffer() {
        #expect(LogEscaping.escaped("a\nb") == #"a\nb"#)
        #expect(LogEscaping.escaped(#"a\nb"#) == #"a\\nb"#)
        #expect(LogEscaping.escaped("plain ü ✓ 😀") == "plain ü ✓ 😀")
    }

    @Test func nestedMetadataRendersListsAndSortedDictionaries() {
        let value: LogMetadataValue = ["ids": ["1", "2"], "user": ["name": "bob", "age": "7"]]
        #expect(value.rendered(revealingPrivate: false) == "[ids: [1, 2], user: [age: 7, name: bob]]")
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
        (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (253_402_300_799.0, "9999-12-31T23:59:59.000Z"),
        (-62_135_596_800, "0001-01-01T00:00:00.000Z"),
        (1_700_000_000.9999, "2023-11-14T22:13:20.999Z"),
    ])
    func timestampsMatchKnownValues(seconds: Double, expected: String) {
        #expect(RFC3339Timestamp.string(from: Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func timestampsAgreeWithTheGregorianCalendarOverFourCenturies() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            let date = Date(timeIntervalSince1970: (Double(milliseconds) + 0.5) / 1000)
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let millisecond = ((milliseconds % 1000) + 1000) % 1000
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
                parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0, Int(millisecond))
            #expect(RFC3339Timestamp.string(from: date) == expected, "for \(milliseconds) ms")
        }
    }

    @Test func aCustomFormatterReplacesTheLineFormat() {
        struct JSONish: LogFormatter {
            func format(_ record: LogRecord, revealingPrivate: Bool) -> String {
                "{\"level\":\"\(record.level)\",\"msg\":\"\(record.message.text(revealingPrivate: revealingPrivate))\"}"
            }
        }
        let recorderLine = JSONish().format(record, revealingPrivate: false)
        #expect(recorderLine == "{\"level\":\"WARNING\",\"msg\":\"Retrying in 5 s\"}")
    }
}
