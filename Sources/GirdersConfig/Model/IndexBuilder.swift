/// Merges layers into one tree and resolves every key path once, so reads are a single dictionary lookup.
///
/// Ranking when two paths spell the same key: the higher-priority layer wins; within one layer, the spelling
/// with fewer nesting steps wins, so a literal `"auth.username"` beats `auth` → `username`.
struct IndexBuilder {
    private indirect enum Node {
        case leaf(ConfigValue, layer: Int)
        case branch([String: Node], layer: Int)
    }

    private(set) var index: [String: Configuration.Entry] = [:]

    init(layers: [ConfigurationLayer]) {
        var root: [String: Node] = [:]
        for layer in layers.indices.reversed() {
            Self.merge(layers[layer].values, layer: layer, into: &root)
        }
        index.reserveCapacity(root.count * 2)
        _ = flatten(root, prefix: "", splits: 0)
    }

    /// Lays `values` over `tree`: dictionaries merge key by key, anything else replaces.
    private static func merge(_ values: [String: ConfigValue], layer: Int, into tree: inout [String: Node]) {
        for (key, value) in values {
            guard case .dictionary(let children) = value else {
                tree[key] = .leaf(value, layer: layer)
                continue
            }
            var merged: [String: Node] = [:]
            if case .branch(let existing, _)? = tree[key] { merged = existing }
            merge(children, layer: layer, into: &merged)
            tree[key] = .branch(merged, layer: layer)
        }
    }

    /// Records every path below `tree` and returns the tree as a plain value.
    private mutating func flatten(_ tree: [String: Node], prefix: String, splits: Int) -> ConfigValue {
        var values: [String: ConfigValue] = [:]
        values.reserveCapacity(tree.count)
        for (key, node) in tree {
            let path = prefix.isEmpty ? key : prefix + "." + key
            let depth = prefix.isEmpty ? 0 : splits + 1
            let value: ConfigValue
            let layer: Int
            switch node {
            case .leaf(let leaf, let leafLayer):
                value = leaf
                layer = leafLayer
            case .branch(let children, let branchLayer):
                value = flatten(children, prefix: path, splits: depth)
                layer = branchLayer
            }
            values[key] = value
            record(path, Configuration.Entry(value: value, layer: layer, splits: depth))
        }
        return .dictionary(values)
    }

    private mutating func record(_ path: String, _ entry: Configuration.Entry) {
        if let existing = index[path],
            (existing.layer, existing.splits) <= (entry.layer, entry.splits)
        {
            return
        }
        index[path] = entry
    }
}
