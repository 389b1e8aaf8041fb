import Foundation

@testable import GirdersConfig

/// libFuzzer entry: any bytes as two configuration layers (nested dictionaries, arrays and every scalar kind,
/// keys from a small alphabet so paths collide), then the merge's property and the typed reads. A key path's value
/// in the snapshot is the value a plain recursive merge of the two layers has there (the first layer wins;
/// dictionaries merge key by key; anything else is replaced whole), and every typed read of every path, in every
/// type, answers without trapping: a value or `nil`, never a different value than the merge has.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigMerge(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size)).makeIterator()
    func next() -> UInt8 { bytes.next() ?? 0 }
    func value(depth: Int) -> ConfigValue {
        switch next() % 8 {
        case 0 where depth < 4, 1 where depth < 4:
            var dictionary: [String: ConfigValue] = [:]
            for _ in 0..<(Int(next()) % 4) { dictionary[key()] = value(depth: depth + 1) }
            return .dictionary(dictionary)
        case 2: return .array((0..<(Int(next()) % 3)).map { _ in value(depth: depth + 1) })
        case 3: return .integer(Int(Int8(bitPattern: next())))
        case 4: return .double(Double(Int8(bitPattern: next())) / 4)
        case 5: return .bool(next() % 2 == 0)
        case 6: return .string(["", "1", "true", "https://x.example", "2026-11-25T10:00:00Z", "a b"][Int(next()) % 6])
        default: return .data(Data([next()]))
        }
    }
    func key() -> String { ["a", "b", "c", "ab", "B"][Int(next()) % 5] }
    func layer() -> [String: ConfigValue] {
        var values: [String: ConfigValue] = [:]
        for _ in 0..<(Int(next()) % 5) { values[key()] = value(depth: 0) }
        return values
    }
    let top = layer()
    let bottom = layer()
    let configuration = Configuration(layers: [
        ConfigurationLayer(name: "top", values: top), ConfigurationLayer(name: "bottom", values: bottom),
    ])
    let merged = plainMerge(.dictionary(top), .dictionary(bottom))
    var paths: [(path: String, value: ConfigValue)] = []
    collect(merged, prefix: "", into: &paths)
    for (path, expected) in paths {
        guard let found = configuration.lookup(path)?.value else { fatalError("\(path) is missing from the snapshot") }
        if case .dictionary = expected {
            guard case .dictionary = found else { fatalError("\(path) is \(found), not a dictionary") }
        } else if found != expected {
            fatalError("\(path) is \(found), where the merge has \(expected)")
        }
        _ = configuration.value(forKey: path, as: Int.self)
        _ = configuration.value(forKey: path, as: Double.self)
        _ = configuration.value(forKey: path, as: Bool.self)
        _ = configuration.value(forKey: path, as: URL.self)
        _ = configuration.value(forKey: path, as: Date.self)
        _ = configuration.value(forKey: path, as: Data.self)
        if let text = configuration.value(forKey: path, as: String.self), case .string(let original) = expected,
            text != original
        {
            fatalError("\(path) read as the string \(text.debugDescription), not \(original.debugDescription)")
        }
        if let number = configuration.value(forKey: path, as: Int.self), case .integer(let original) = expected,
            number != original
        {
            fatalError("\(path) read as \(number), not \(original)")
        }
    }
    _ = configuration.description
    return 0
}

/// The first value wins; two dictionaries merge key by key.
private func plainMerge(_ high: ConfigValue, _ low: ConfigValue) -> ConfigValue {
    guard case .dictionary(let top) = high, case .dictionary(let bottom) = low else { return high }
    return .dictionary(top.merging(bottom) { plainMerge($0, $1) })
}

private func collect(_ value: ConfigValue, prefix: String, into paths: inout [(path: String, value: ConfigValue)]) {
    guard case .dictionary(let dictionary) = value else { return }
    for (key, child) in dictionary {
        let path = prefix.isEmpty ? key : prefix + "." + key
        paths.append((path, child))
        collect(child, prefix: path, into: &paths)
    }
}
