public import Foundation

/// One source of configuration values: a property list, environment variables or values in memory.
///
/// A ``Configuration`` searches its layers in order; the first layer that has a key wins, and dictionaries
/// merge key by key across layers.
public struct ConfigurationLayer: Sendable {
    /// A readable name, for example `base`, `environment "staging"` or `environment variables`.
    public let name: String
    /// The file the values came from, if any.
    public let file: URL?
    /// The values, as nested dictionaries.
    public let values: [String: ConfigValue]
    /// Whether typed reads may parse strings ("30" as an `Int`), as for environment variables, which have no types.
    public let parsesText: Bool

    /// A layer of values in memory, for example overrides in tests.
    public init(name: String = "overrides", values: [String: ConfigValue], file: URL? = nil, parsesText: Bool = false) {
        self.name = name
        self.values = values
        self.file = file
        self.parsesText = parsesText
    }

    /// Where the layer's values came from, as errors print it: the file's path, else the layer's name.
    public var sourceDescription: String { file?.path ?? name }

    /// Reads an XML or binary property list file whose root is a dictionary.
    /// - Throws: ``ConfigurationError`` naming the path when the file is missing, unreadable or malformed, or its
    ///   key paths pass `limits` (``ConfigurationError/keyPathsTooLong(path:limit:)``).
    public static func propertyList(
        at url: URL, name: String? = nil, limits: ConfigurationLimits = .standard
    ) throws(ConfigurationError) -> ConfigurationLayer {
        let values = try PropertyListReader.dictionary(contentsOf: url, limits: limits)
        return ConfigurationLayer(name: name ?? url.lastPathComponent, values: values, file: url)
    }

    /// Parses property list data whose root is a dictionary; `name` appears in errors and provenance.
    public static func propertyList(
        data: Data, name: String, limits: ConfigurationLimits = .standard
    ) throws(ConfigurationError) -> ConfigurationLayer {
        ConfigurationLayer(
            name: name, values: try PropertyListReader.dictionary(from: data, path: name, limits: limits))
    }

    /// Values from process environment variables that start with `prefix`.
    ///
    /// The rest of the variable's name is the key, with `__` (two underscores) separating key-path components:
    /// `MYAPP_api__timeout=30` sets `api.timeout`. Values are strings; typed reads parse them.
    public static func environmentVariables(
        prefix: String, from environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ConfigurationLayer {
        var root: [String: ConfigValue] = [:]
        for (variable, value) in environment where variable.hasPrefix(prefix) && variable.count > prefix.count {
            let path = variable.dropFirst(prefix.count).components(separatedBy: "__").filter { !$0.isEmpty }
            guard !path.isEmpty else { continue }
            root.insert(.string(value), at: path[...])
        }
        return ConfigurationLayer(name: "environment variables \(prefix)*", values: root, parsesText: true)
    }
}

extension Dictionary where Key == String, Value == ConfigValue {
    /// Sets a value at a key path, creating (or replacing non-dictionary values with) dictionaries on the way.
    mutating func insert(_ value: ConfigValue, at path: ArraySlice<String>) {
        guard let first = path.first else { return }
        if path.count == 1 {
            self[first] = value
            return
        }
        var child: [String: ConfigValue] = [:]
        if case .dictionary(let existing)? = self[first] { child = existing }
        child.insert(value, at: path.dropFirst())
        self[first] = .dictionary(child)
    }
}
