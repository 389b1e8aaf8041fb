/// Merges layers into one tree and indexes every key path once (see ``PathIndex``), so reads are one hash lookup.
///
/// Ranking when two paths spell the same key: the higher-priority layer wins; within one layer, the spelling
/// with fewer nesting steps wins, so a literal `"auth.username"` beats `auth` → `username`.
struct IndexBuilder {
    private indirect enum Node {
        case leaf(ConfigValue, layer: Int)
        case branch([String: Node], layer: Int)
    }

    private(set) var index = PathIndex()

    init(layers: [ConfigurationLayer]) {
        var root: [String: Node] = [:]
        for layer in layers.indices.reversed() {
            Self.merge(layers[layer].values, layer: layer, into: &root)
        }
        _ = flatten(root, parent: -1, hasher: Hasher(), splits: 0)
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

    /// Records every node below `tree` in the index and returns the tree as a plain value.
    private mutating func flatten(_ tree: [String: Node], parent: Int, hasher: Hasher, splits: Int) -> ConfigValue {
        var values: [String: ConfigValue] = [:]
        values.reserveCapacity(tree.count)
        for (key, node) in tree {
            let depth = parent < 0 ? 0 : splits + 1
            let placeholder = Configuration.Entry(value: .bool(false), layer: 0, splits: depth)
            let (id, childHasher) = index.add(key: key, parent: parent, parentHasher: hasher, entry: placeholder)
            let value: ConfigValue
            let layer: Int
            switch node {
            case .leaf(let leaf, let leafLayer):
                value = leaf
                layer = leafLayer
            case .branch(let children, let branchLayer):
                value = flatten(children, parent: id, hasher: childHasher, splits: depth)
                layer = branchLayer
            }
            values[key] = value
            index.setEntry(Configuration.Entry(value: value, layer: layer, splits: depth), of: id)
        }
        return .dictionary(values)
    }
}
