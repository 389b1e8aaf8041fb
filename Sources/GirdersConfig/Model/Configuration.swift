public import Foundation

/// An immutable, `Sendable` snapshot of configuration values merged from ordered layers.
///
/// The first layer that has a key wins; dictionaries merge key by key at any depth; arrays are replaced whole.
/// Key paths such as `"api.timeout"` read nested dictionaries, and a literal key containing dots
/// (GirdersSwift's `"auth.username"`) is found as well: within one layer it wins over a nested path.
/// Every key path is resolved once when the snapshot is built, so a read is one dictionary lookup and takes no
/// lock. Reloading produces a new snapshot (``reloaded()``).
///
/// ```swift
/// let config = try Configuration(directory: resources, environment: "staging")
/// let timeout = config.int(forKey: "api.timeout", default: 30)
/// let baseURL = try config.requiredURL(forKey: "baseURL")
/// ```
public struct Configuration: ConfigurationReading, CustomStringConvertible {
    /// The layers, highest priority first.
    public let layers: [ConfigurationLayer]
    /// Keys whose values (and everything below them) print as `<redacted>`.
    public let secretKeys: Set<String>
    /// Whether keys whose last component looks like a secret (`password`, `secret`, `token`, `apiKey`, ...) are
    /// redacted without being listed in ``secretKeys``.
    public let redactsLikelySecrets: Bool
    /// Set only on ``sharedInstance`` when loading from the main bundle failed: the error that was reported.
    public let loadError: ConfigurationError?
    /// For each layer read from a property list file, that file, so ``reloaded()`` can read it again.
    let reloadableFiles: [URL?]
    /// What each file may expand to, for ``reloaded()``.
    let limits: ConfigurationLimits
    let index: PathIndex

    struct Entry: Sendable {
        let value: ConfigValue
        let layer: Int
        let splits: Int
    }

    /// Creates a snapshot from layers, highest priority first.
    public init(layers: [ConfigurationLayer], secretKeys: Set<String> = [], redactsLikelySecrets: Bool = true) {
        self.init(
            layers: layers, reloadableFiles: Array(repeating: nil, count: layers.count), secretKeys: secretKeys,
            redactsLikelySecrets: redactsLikelySecrets, loadError: nil)
    }

    init(
        layers: [ConfigurationLayer], reloadableFiles: [URL?], secretKeys: Set<String>, redactsLikelySecrets: Bool,
        loadError: ConfigurationError?, limits: ConfigurationLimits = .standard
    ) {
        self.layers = layers
        self.limits = limits
        self.reloadableFiles = reloadableFiles
        self.secretKeys = secretKeys
        self.redactsLikelySecrets = redactsLikelySecrets
        self.loadError = loadError
        self.index = IndexBuilder(layers: layers).index
    }

    /// The value at `key` and its source, or `nil` when no layer has it.
    public func lookup(_ key: String) -> ConfigurationLookup? {
        guard let entry = index[key] else { return nil }
        let layer = layers[entry.layer]
        return ConfigurationLookup(
            value: entry.value, source: ConfigurationSource(layerName: layer.name, file: layer.file),
            parsesText: layer.parsesText)
    }

    /// The names of the layers, highest priority first.
    public var layerNames: [String] { layers.map(\.sourceDescription) }

    /// GirdersSwift's untyped read: `Configuration.sharedInstance["baseURL"] as? String`.
    ///
    /// Values are `String`, `Int`, `Double`, `Bool`, `Date`, `Data`, `[Any]` or `[String: Any]`. Unlike
    /// GirdersSwift, strings stay strings even when the key ends in "URL"; use ``url(forKey:)``.
    public subscript(key: String) -> Any? {
        index[key]?.value.foundationValue
    }

    /// Which layer and file the value at `key` came from. For a dictionary, the highest-priority layer that
    /// contributed to it.
    public func source(forKey key: String) -> ConfigurationSource? {
        lookup(key)?.source
    }

    /// Every key path that holds a value other than a dictionary, sorted. Only those paths are spelled out, so the
    /// work is in proportion to what is returned (which ``ConfigurationLimits`` bounds per file).
    public var keys: [String] { index.leafPaths.sorted() }

    /// `true` when the value at `key` is printed as `<redacted>`: it, or a key path above it, is in
    /// ``secretKeys``, or its last component looks secret. Compares in place: no prefix of `key` is copied.
    public func isSecret(_ key: String) -> Bool {
        if secretKeys.contains(key) { return true }
        for secret in secretKeys where key.utf8.count > secret.utf8.count {
            if key.utf8.starts(with: secret.utf8), key.utf8.dropFirst(secret.utf8.count).first == UInt8(ascii: ".") {
                return true
            }
        }
        guard redactsLikelySecrets else { return false }
        let last = key.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return Self.likelySecretWords.contains { last.contains($0) }
    }

    static let likelySecretWords = [
        "password", "passwd", "secret", "token", "apikey", "api_key", "privatekey",
        "private_key", "credential",
    ]

    /// Every leaf key with its value and source, one per line, secrets redacted.
    public var description: String {
        var lines = ["Configuration (\(layers.map(\.sourceDescription).joined(separator: " > ")))"]
        for key in keys {
            guard let entry = index[key] else { continue }
            let value = isSecret(key) ? "<redacted>" : entry.value.description
            lines.append("  \(key) = \(value)  [\(layers[entry.layer].sourceDescription)]")
        }
        return lines.joined(separator: "\n")
    }

    /// Reads every file-based layer again and returns a new snapshot; this one is unchanged.
    /// - Throws: the first ``ConfigurationError`` of a layer that cannot be read any more.
    public func reloaded() throws(ConfigurationError) -> Configuration {
        var fresh: [ConfigurationLayer] = []
        for (layer, file) in zip(layers, reloadableFiles) {
            fresh.append(
                try file.map { url throws(ConfigurationError) in try .propertyList(at: url, limits: limits) } ?? layer)
        }
        return Configuration(
            layers: fresh, reloadableFiles: reloadableFiles, secretKeys: secretKeys,
            redactsLikelySecrets: redactsLikelySecrets, loadError: nil, limits: limits)
    }
}

/// A value found by ``ConfigurationReading/lookup(_:)``, with where it came from.
public struct ConfigurationLookup: Sendable {
    /// The value found at the key path, as the layer named by ``source`` holds it.
    public let value: ConfigValue
    /// The layer and file it came from.
    public let source: ConfigurationSource
    /// Whether typed reads may parse the value from text (environment variables).
    public let parsesText: Bool

    /// Creates a lookup result; custom ``ConfigurationReading`` types return these.
    public init(value: ConfigValue, source: ConfigurationSource, parsesText: Bool = false) {
        self.value = value
        self.source = source
        self.parsesText = parsesText
    }
}

/// Where a value came from: the layer's name and, for files, the file.
public struct ConfigurationSource: Sendable, Hashable, CustomStringConvertible {
    /// The layer's name, for example `Configuration.plist` or `overrides`.
    public let layerName: String
    /// The file, for layers read from files.
    public let file: URL?

    /// Creates a source description.
    public init(layerName: String, file: URL? = nil) {
        self.layerName = layerName
        self.file = file
    }

    /// The file's path, else the layer's name.
    public var description: String { file?.path ?? layerName }
}
