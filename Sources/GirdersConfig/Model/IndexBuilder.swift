/// Merges layers into one tree and indexes every key path once (see ``PathIndex``), so reads are one hash lookup.
///
/// Ranking when two paths spell the same key: the higher-priority layer wins; within one layer, the spelling
/// with fewer nesting steps wins, so a literal `"auth.username"` beats `auth` → `username`.
///
/// No step recurses per nesting level: the tree is an array of nodes, merged and walked with explicit stacks, so a
/// document 512 levels deep loads on a thread with a small stack (512 KiB on Apple platforms' secondary threads,
/// less room still under ThreadSanitizer).
struct IndexBuilder {
    /// One node of the merged tree: a leaf value, or a branch with its children's node numbers.
    private struct Node {
        var leaf: ConfigValue?
        var children: [String: Int] = [:]
        var layer: Int
    }

    private(set) var index = PathIndex()
    private var nodes = [Node(leaf: nil, layer: 0)]  // node 0 is the root

    init(layers: [ConfigurationLayer]) {
        for layer in layers.indices.reversed() {
            merge(layers[layer].values, layer: layer)
        }
        flatten()
    }

    /// Lays `values` over the tree: dictionaries merge key by key, anything else replaces.
    private mutating func merge(_ values: [String: ConfigValue], layer: Int) {
        var pending: [(values: [String: ConfigValue], node: Int)] = [(values, 0)]
        while let (values, parent) = pending.popLast() {
            for (key, value) in values {
                guard case .dictionary(let children) = value else {
                    nodes[parent].children[key] = append(Node(leaf: value, layer: layer))
                    continue
                }
                let node: Int
                if let existing = nodes[parent].children[key], nodes[existing].leaf == nil {
                    node = existing
                    nodes[node].layer = layer
                } else {
                    node = append(Node(leaf: nil, layer: layer))
                    nodes[parent].children[key] = node
                }
                pending.append((children, node))
            }
        }
    }

    private mutating func append(_ node: Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    /// Records every node in the index (parents before children, as ``PathIndex`` needs) and then each one's
    /// value, children before parents.
    private mutating func flatten() {
        var ids = [Int](repeating: -1, count: nodes.count)
        var depths = [Int](repeating: 0, count: nodes.count)
        var order: [Int] = []  // every node but the root, each after its parent
        order.reserveCapacity(nodes.count)
        var pending: [(node: Int, id: Int, hasher: Hasher, depth: Int)] = [(0, -1, Hasher(), -1)]
        while let (parent, parentID, hasher, parentDepth) = pending.popLast() {
            for (key, child) in nodes[parent].children {
                let depth = parentDepth + 1
                let placeholder = Configuration.Entry(value: .bool(false), layer: 0, splits: depth)
                let (id, childHasher) = index.add(key: key, parent: parentID, parentHasher: hasher, entry: placeholder)
                ids[child] = id
                depths[child] = depth
                order.append(child)
                if nodes[child].leaf == nil { pending.append((child, id, childHasher, depth)) }
            }
        }
        var values = [ConfigValue?](repeating: nil, count: nodes.count)
        for node in order.reversed() {
            let value =
                nodes[node].leaf
                ?? .dictionary(nodes[node].children.compactMapValues { values[$0] })
            values[node] = value
            index.setEntry(
                Configuration.Entry(value: value, layer: nodes[node].layer, splits: depths[node]), of: ids[node])
        }
    }
}
