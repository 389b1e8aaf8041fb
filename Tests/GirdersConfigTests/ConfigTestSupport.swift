import Foundation

@testable import GirdersConfig

/// A temporary folder that plist files are written into; removed when released.
final class PlistFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("GirdersConfigTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `root` as a property list named `name` (XML unless `binary`) and returns its URL.
    @discardableResult
    func write(_ name: String, _ root: [String: Any], binary: Bool = false) throws -> URL {
        let data = try PropertyListSerialization.data(
            fromPropertyList: root, format: binary ? .binary : .xml, options: 0)
        return try write(name, data: data)
    }

    /// Writes raw bytes and returns the file's URL.
    @discardableResult
    func write(_ name: String, data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }

    /// Copies GirdersSwift's fixtures (`Configuration.plist`, `Configuration-env.plist`) into this folder.
    func copyGirdersSwiftFixtures() throws {
        for name in ["Configuration.plist", "Configuration-env.plist"] {
            let source = try fixture(name)
            try FileManager.default.copyItem(at: source, to: url.appendingPathComponent(name))
        }
    }
}

/// A file from the test target's `Fixtures` folder.
func fixture(_ name: String) throws -> URL {
    guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
        throw ConfigurationError.fileNotFound(path: "Fixtures/\(name)")
    }
    return folder.appendingPathComponent(name)
}

/// A configuration from in-memory layers, highest priority first.
func configuration(_ layers: [String: ConfigValue]..., secretKeys: Set<String> = []) -> Configuration {
    Configuration(
        layers: layers.enumerated().map { ConfigurationLayer(name: "layer \($0.offset)", values: $0.element) },
        secretKeys: secretKeys)
}
