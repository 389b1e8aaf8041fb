// GirdersConfig side by side with apple/swift-configuration 1.4.0, in one run.
import Benchmark
import Configuration
import Foundation
import GirdersConfig
import SystemPackage

/// A plist of `count` keys in sections of 100: `section<n>.key<m>`, with ints, strings, bools and doubles.
func largePlist(count: Int, variant: String) -> [String: Any] {
    var root: [String: Any] = [:]
    for section in 0..<(count / 100) {
        var values: [String: Any] = [:]
        for index in 0..<100 {
            switch index % 4 {
            case 0: values["key\(index)"] = index
            case 1: values["key\(index)"] = "\(variant)-\(section)-\(index)"
            case 2: values["key\(index)"] = index % 8 == 2
            default: values["key\(index)"] = Double(index) / 4
            }
        }
        root["section\(section)"] = values
    }
    return root
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-config-bench-\(getpid())")
let baseFile = folder.appendingPathComponent("Configuration.plist")
let overlayFile = folder.appendingPathComponent("Configuration-bench.plist")
let smallFile = folder.appendingPathComponent("small.plist")
let deepFile = folder.appendingPathComponent("deep.plist")

/// About 8 MB: 500 nested levels, each keyed by 16,000 characters, with one integer beside each level. An index
/// that spelled out every full path would hold 500 * 499 / 2 * 16,000 bytes, about 2 GB.
func deepPlist() -> [String: Any] {
    var root: [String: Any] = ["leaf": "value"]
    for level in 0..<500 {
        root = ["\(level)" + String(repeating: "k", count: 16_000): root, "sibling\(level)": level]
    }
    return root
}

let prepareFiles: Void = {
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for (url, root) in [
        (baseFile, largePlist(count: 10_000, variant: "base")),
        (overlayFile, largePlist(count: 10_000, variant: "overlay")),
        (deepFile, deepPlist()),
        (smallFile, ["api": ["timeout": 30, "enabled": true, "ratio": 0.5, "host": "example.com"]]),
    ] {
        if let data = try? PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0) {
            try? data.write(to: url)
        }
    }
}()

let benchmarks: @Sendable () -> Void = {
    _ = prepareFiles
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 3, scalingFactor: .kilo,
        maxDuration: .seconds(2), maxIterations: 10_000)

    // MARK: Typed reads of an existing key.

    let girders = Configuration(layers: [
        ConfigurationLayer(values: ["api": ["timeout": 30, "enabled": true, "ratio": 0.5, "host": "example.com"]])
    ])
    let inMemory = ConfigReader(
        provider: InMemoryProvider(values: [
            AbsoluteConfigKey(["api", "timeout"]): 30, AbsoluteConfigKey(["api", "enabled"]): true,
            AbsoluteConfigKey(["api", "ratio"]): 0.5, AbsoluteConfigKey(["api", "host"]): "example.com",
        ]))

    let reads: [(String, @Sendable () -> Any?, @Sendable () -> Any?)] = [
        ("Int", { girders.int(forKey: "api.timeout") }, { inMemory.int(forKey: "api.timeout") }),
        ("Bool", { girders.bool(forKey: "api.enabled") }, { inMemory.bool(forKey: "api.enabled") }),
        ("Double", { girders.double(forKey: "api.ratio") }, { inMemory.double(forKey: "api.ratio") }),
        ("String", { girders.string(forKey: "api.host") }, { inMemory.string(forKey: "api.host") }),
    ]
    for (type, girdersRead, swiftConfigurationRead) in reads {
        Benchmark("Read \(type): GirdersConfig") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(girdersRead()) }
        }
        Benchmark("Read \(type): swift-configuration InMemoryProvider") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(swiftConfigurationRead()) }
        }
    }

    Benchmark("Read Int: swift-configuration PropertyList FileProvider") { benchmark in
        let reader = ConfigReader(
            provider: try await FileProvider<PropertyListSnapshot>(filePath: FilePath(smallFile.path)))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(reader.int(forKey: "api.timeout")) }
    }
    Benchmark("Read Int: GirdersConfig from a plist file") { benchmark in
        let config = try GirdersConfig.Configuration(baseFile: smallFile)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(config.int(forKey: "api.timeout")) }
    }

    // MARK: Loading and merging two plists of 10,000 keys each.

    Benchmark(
        "Load and merge 2 x 10,000-key plists: GirdersConfig",
        configuration: .init(scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 30)
    ) { benchmark in
        blackHole(try GirdersConfig.Configuration(baseFile: baseFile, overlayFiles: [overlayFile]))
    }
    Benchmark(
        "Load 2 x 10,000-key plists: swift-configuration FileProvider<PropertyListSnapshot>",
        configuration: .init(scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 30)
    ) { benchmark in
        let overlay = try await FileProvider<PropertyListSnapshot>(filePath: FilePath(overlayFile.path))
        let base = try await FileProvider<PropertyListSnapshot>(filePath: FilePath(baseFile.path))
        blackHole(ConfigReader(providers: [overlay, base]))
    }

    // MARK: Peak memory for an 8 MB file of long keys, 500 levels deep.

    let peakMemory = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], scalingFactor: .one,
        maxDuration: .seconds(10), maxIterations: 5)
    Benchmark(
        "Load an 8 MB plist of 16,000-character keys 500 levels deep: GirdersConfig", configuration: peakMemory
    ) { benchmark in
        blackHole(try GirdersConfig.Configuration(baseFile: deepFile))
    }
    Benchmark(
        "Load an 8 MB plist of 16,000-character keys 500 levels deep: swift-configuration FileProvider",
        configuration: peakMemory
    ) { benchmark in
        blackHole(
            ConfigReader(provider: try await FileProvider<PropertyListSnapshot>(filePath: FilePath(deepFile.path))))
    }
}
