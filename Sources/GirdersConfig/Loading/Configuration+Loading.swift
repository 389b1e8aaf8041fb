public import Foundation

/// Loading `Configuration.plist` and its environment overlay `Configuration-<environment>.plist`.
extension Configuration {
    /// The process environment variable that selects the environment: `GIRDERS_ENV`.
    public static let environmentVariable = "GIRDERS_ENV"
    /// The Info.plist key that selects the environment: `ConfigurationEnvironment`.
    public static let infoPlistKey = "ConfigurationEnvironment"
    /// The base file's name: `Configuration.plist`.
    public static let baseFileName = "Configuration.plist"

    /// The overlay file's name for an environment: `Configuration-<environment>.plist`. GirdersSwift's
    /// `Configuration-env.plist` is the environment `env`.
    public static func overlayFileName(for environment: String) -> String {
        "Configuration-\(environment).plist"
    }

    /// Loads from a folder holding `Configuration.plist` and, when an environment is chosen, its overlay.
    ///
    /// The environment is `environment` if given, else the `GIRDERS_ENV` variable of `processEnvironment`, else
    /// `infoPlistEnvironment` (the Info.plist key `ConfigurationEnvironment`), else none.
    /// - Parameters:
    ///   - directory: The folder holding `Configuration.plist` and the overlays.
    ///   - environment: The environment to load the overlay of; `nil` to look further, as described above.
    ///   - infoPlistEnvironment: The app's `ConfigurationEnvironment` Info.plist value, if any.
    ///   - processEnvironment: The variables `GIRDERS_ENV` is read from (the process's own by default).
    ///   - additionalLayers: Layers searched before the files, highest priority first (overrides, environment
    ///     variables, a local developer file, ...).
    ///   - secretKeys: Keys whose values are redacted in descriptions and errors.
    ///   - redactsLikelySecrets: Whether keys that look secret (`password`, `token`, `secret`, ...) are redacted too.
    ///   - limits: What each file may expand to (``ConfigurationLimits``); also used by ``reloaded()``.
    /// - Throws: ``ConfigurationError`` when the base file is missing or malformed, the chosen environment's name
    ///   is not valid (``ConfigurationError/invalidEnvironmentName(name:chosenBy:)``), it has no overlay file, or a
    ///   file passes `limits`.
    public init(
        directory: URL, environment: String? = nil, infoPlistEnvironment: String? = nil,
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
        additionalLayers: [ConfigurationLayer] = [], secretKeys: Set<String> = [], redactsLikelySecrets: Bool = true,
        limits: ConfigurationLimits = .standard
    ) throws(ConfigurationError) {
        let base = directory.appendingPathComponent(Self.baseFileName)
        guard FileManager.default.fileExists(atPath: base.path) else { throw .fileNotFound(path: base.path) }
        var files: [URL] = []
        if let choice = EnvironmentChoice.select(
            explicit: environment, processEnvironment: processEnvironment, infoPlistEnvironment: infoPlistEnvironment)
        {
            guard EnvironmentChoice.isValidName(choice.name) else {
                throw .invalidEnvironmentName(name: choice.name, chosenBy: choice.chosenBy)
            }
            let overlay = directory.appendingPathComponent(Self.overlayFileName(for: choice.name))
            guard FileManager.default.fileExists(atPath: overlay.path) else {
                throw .unknownEnvironment(name: choice.name, expectedPath: overlay.path, chosenBy: choice.chosenBy)
            }
            files.append(overlay)
        }
        files.append(base)
        try self.init(
            files: files, additionalLayers: additionalLayers, secretKeys: secretKeys,
            redactsLikelySecrets: redactsLikelySecrets, limits: limits)
    }

    /// Loads from a bundle's resources, as GirdersSwift did from the main bundle; the Info.plist key
    /// `ConfigurationEnvironment` may choose the environment.
    public init(
        bundle: Bundle, environment: String? = nil,
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
        additionalLayers: [ConfigurationLayer] = [], secretKeys: Set<String> = [], redactsLikelySecrets: Bool = true,
        limits: ConfigurationLimits = .standard
    ) throws(ConfigurationError) {
        try self.init(
            directory: bundle.resourceURL ?? bundle.bundleURL, environment: environment,
            infoPlistEnvironment: bundle.object(forInfoDictionaryKey: Self.infoPlistKey) as? String,
            processEnvironment: processEnvironment, additionalLayers: additionalLayers, secretKeys: secretKeys,
            redactsLikelySecrets: redactsLikelySecrets, limits: limits)
    }

    /// Loads a base file and overlays (later overlays win over earlier ones and over the base).
    public init(
        baseFile: URL, overlayFiles: [URL] = [], additionalLayers: [ConfigurationLayer] = [],
        secretKeys: Set<String> = [], redactsLikelySecrets: Bool = true, limits: ConfigurationLimits = .standard
    ) throws(ConfigurationError) {
        try self.init(
            files: overlayFiles.reversed() + [baseFile], additionalLayers: additionalLayers, secretKeys: secretKeys,
            redactsLikelySecrets: redactsLikelySecrets, limits: limits)
    }

    /// Parses a base property list and overlays from memory (later overlays win).
    public init(
        baseData: Data, overlayData: [Data] = [], additionalLayers: [ConfigurationLayer] = [],
        secretKeys: Set<String> = [], redactsLikelySecrets: Bool = true, limits: ConfigurationLimits = .standard
    ) throws(ConfigurationError) {
        var layers = additionalLayers
        for (position, data) in overlayData.enumerated().reversed() {
            layers.append(try .propertyList(data: data, name: "overlay \(position + 1) (data)", limits: limits))
        }
        layers.append(try .propertyList(data: baseData, name: "\(Self.baseFileName) (data)", limits: limits))
        self.init(layers: layers, secretKeys: secretKeys, redactsLikelySecrets: redactsLikelySecrets)
    }

    /// Files highest priority first, after the additional layers; every file layer can be reloaded.
    init(
        files: [URL], additionalLayers: [ConfigurationLayer], secretKeys: Set<String>, redactsLikelySecrets: Bool,
        limits: ConfigurationLimits
    ) throws(ConfigurationError) {
        var layers = additionalLayers
        var reloadableFiles: [URL?] = Array(repeating: nil, count: additionalLayers.count)
        for file in files {
            layers.append(try .propertyList(at: file, limits: limits))
            reloadableFiles.append(file)
        }
        self.init(
            layers: layers, reloadableFiles: reloadableFiles, secretKeys: secretKeys,
            redactsLikelySecrets: redactsLikelySecrets, loadError: nil, limits: limits)
    }
}
