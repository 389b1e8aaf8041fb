import Foundation
import GirdersLog
import Testing

struct LogLevelTests {
    @Test func levelsAreOrderedFromVerboseToFatal() {
        #expect(LogLevel.allCases == [.verbose, .debug, .info, .warning, .error, .fatal])
        #expect(LogLevel.verbose < .debug && .debug < .info && .info < .warning)
        #expect(LogLevel.warning < .error && .error < .fatal)
        #expect(!(LogLevel.fatal < .error))
    }

    @Test(arguments: zip(0...5, LogLevel.allCases))
    func legacyIntegersMapToTheirLevels(value: Int, level: LogLevel) throws {
        #expect(try LogLevel(legacyValue: value) == level)
    }

    @Test(arguments: [-1, 6, 100])
    func legacyIntegersOutsideTheRangeAreRejected(value: Int) {
        #expect(throws: LogError.levelOutOfRange(value)) { try LogLevel(legacyValue: value) }
    }

    @Test(arguments: [
        ("warning", LogLevel.warning), ("WARN", .warning), ("Warning", .warning), (" error\n", .error),
        ("ERR", .error), ("trace", .verbose), ("VERBOSE", .verbose), ("debug", .debug), ("Info", .info),
        ("fatal", .fatal), ("critical", .fatal), ("4", .error), ("0", .verbose),
    ])
    func namesParseCaseInsensitively(text: String, level: LogLevel) throws {
        #expect(try LogLevel(parsing: text) == level)
    }

    @Test(arguments: ["", "loud", "warnings", "7", "-1", "3.5"])
    func unknownNamesAreAClearError(text: String) {
        #expect(throws: LogError.self) { try LogLevel(parsing: text) }
    }

    @Test func theErrorForAnUnknownNameQuotesTheName() {
        #expect(
            LogError.invalidLevel("loud").description
                == "Invalid log level \"loud\": expected one of verbose, debug, info, warning, error, fatal or 0...5")
    }

    @Test func aMissingConfigurationValueMeansWarningAsInGirdersSwift() throws {
        #expect(try LogLevel(configurationValue: nil) == .warning)
    }

    @Test func configurationValuesAcceptNumbersAndNames() throws {
        #expect(try LogLevel(configurationValue: 1) == .debug)
        #expect(try LogLevel(configurationValue: 4.0) == .error)
        #expect(try LogLevel(configurationValue: "info") == .info)
        #expect(try LogLevel(configurationValue: NSNumber(value: 2)) == .info)
    }

    @Test func anUnreadableConfigurationValueNamesTheKey() {
        #expect(throws: LogError.invalidConfigurationValue(key: "app.logLevel", value: "[1]")) {
            try LogLevel(configurationValue: [1], key: "app.logLevel")
        }
        #expect(throws: LogError.invalidConfigurationValue(key: "logLevel", value: "2.5")) {
            try LogLevel(configurationValue: 2.5)
        }
    }

    @Test func levelsPrintInUpperCase() {
        #expect(LogLevel.allCases.map(\.description) == ["VERBOSE", "DEBUG", "INFO", "WARNING", "ERROR", "FATAL"])
    }
}
