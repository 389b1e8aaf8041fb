import Foundation
import GirdersSupport

/// Reads XML and binary property lists into ``ConfigValue`` dictionaries, with errors that name the file and the
/// line (XML) or byte offset (binary). Both formats are read by the bounds-checked parsers GirdersSupport shares
/// with GirdersTrema.
enum PropertyListReader {
    /// Parses `data`; `path` is only used in errors. A document whose key paths pass `limits` is refused.
    static func dictionary(
        from data: Data, path: String, limits: ConfigurationLimits
    ) throws(ConfigurationError) -> [String: ConfigValue] {
        let converted: ConfigValue =
            switch PropertyListFormat(of: data) {
            case .binary: try parseBinary(data, path: path)
            case .xml: try parseXML(data, path: path)
            case .text: try parseWithFoundation(data, path: path)
            }
        guard case .dictionary(let values) = converted else {
            throw .rootIsNotADictionary(path: path, actualType: converted.typeName)
        }
        if converted.keyPathsExceed(limits.keyPathBytes) {
            throw .keyPathsTooLong(path: path, limit: limits.keyPathBytes)
        }
        return values
    }

    static func parseXML(_ data: Data, path: String) throws(ConfigurationError) -> ConfigValue {
        do {
            return ConfigValue(try XMLPropertyListParser.parse(data))
        } catch {
            let (line, column) = XMLPropertyListParser.location(of: error.offset, in: data)
            throw .malformedPropertyList(path: path, line: line, reason: "column \(column): \(error.reason)")
        }
    }

    static func parseBinary(_ data: Data, path: String) throws(ConfigurationError) -> ConfigValue {
        do {
            return ConfigValue(try BinaryPropertyListReader.parse(data))
        } catch {
            throw .malformedPropertyList(path: path, line: nil, reason: "byte offset \(error.offset): \(error.reason)")
        }
    }

    /// Old-style (OpenStep) text property lists go through Foundation; XML and binary ones never do.
    static func parseWithFoundation(_ data: Data, path: String) throws(ConfigurationError) -> ConfigValue {
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .malformedPropertyList(path: path, line: lineNumber(in: error), reason: reason(for: error))
        }
        guard let converted = ConfigValue(propertyListValue: parsed) else {
            throw .malformedPropertyList(path: path, line: nil, reason: "it holds a value a property list cannot")
        }
        return converted
    }

    /// Reads and parses a file.
    static func dictionary(
        contentsOf url: URL, limits: ConfigurationLimits
    ) throws(ConfigurationError) -> [String: ConfigValue] {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableFile(path: url.path, reason: error.localizedDescription)
        }
        return try dictionary(from: data, path: url.path, limits: limits)
    }

    /// The parser's own explanation (`NSDebugDescription`), which is more specific than the generic message.
    static func reason(for error: any Error) -> String {
        let info = (error as NSError).userInfo
        if let debug = info["NSDebugDescription"] as? String, !debug.isEmpty { return debug }
        return (error as NSError).localizedDescription
    }

    /// The line number the parser mentions ("... at line 12"), if any.
    static func lineNumber(in error: any Error) -> Int? {
        let text = reason(for: error)
        guard let range = text.range(of: "line ") else { return nil }
        let digits = text[range.upperBound...].prefix { $0.isNumber }
        return Int(digits)
    }
}
