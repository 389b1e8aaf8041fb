/// Every key path of a merged configuration, found in one hash lookup, in memory proportional to the number of
/// keys rather than to the length of their paths.
///
/// Each node stores only its own key and its parent; the table maps the hash of a node's full dotted path (built
/// incrementally from its parent's, without writing the path out) to the node. A lookup hashes the requested
/// path once and verifies a candidate by walking its parents against the requested bytes, so a collision can
/// never return another key's value. Where several spellings lead to the same path (`"a.b"` literally, and `a` →
/// `b`), the best ranked entry wins: the higher-priority layer, then the spelling with fewer nesting steps.
struct PathIndex: Sendable {
    private struct Node: Sendable {
        let parent: Int
        let key: String
        var entry: Configuration.Entry
        var nextWithSameHash: Int
    }

    private var nodes: [Node] = []
    private var heads: [Int: Int] = [:]

    /// The hash of a path's UTF-8 bytes; `combine(bytes:)` is a byte stream, so a path hashed in pieces (parent,
    /// dot, key) hashes like the whole path.
    private static func hash(_ text: String, continuing hasher: Hasher = Hasher()) -> Hasher {
        var hasher = hasher
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher
    }

    /// Adds a node for `key` below `parent` (`-1` for the root); returns its id and its hasher state, which the
    /// children continue from.
    mutating func add(
        key: String, parent: Int, parentHasher: Hasher, entry: Configuration.Entry
    ) -> (id: Int, hasher: Hasher) {
        var hasher = parentHasher
        hasher = Self.hash(parent >= 0 ? "." + key : key, continuing: hasher)
        let id = nodes.count
        let hash = hasher.finalize()
        nodes.append(Node(parent: parent, key: key, entry: entry, nextWithSameHash: heads[hash] ?? -1))
        heads[hash] = id
        return (id, hasher)
    }

    /// Replaces the entry of node `id` (its value is known only after its children are built).
    mutating func setEntry(_ entry: Configuration.Entry, of id: Int) {
        nodes[id].entry = entry
    }

    /// How many bytes of keys the index holds: each key once, whatever its depth.
    var storedKeyBytes: Int { nodes.reduce(0) { $0 + $1.key.utf8.count } }

    /// The best entry whose full path is `path`.
    subscript(path: String) -> Configuration.Entry? {
        guard var candidate = heads[Self.hash(path).finalize()] else { return nil }
        var best: Configuration.Entry?
        while candidate >= 0 {
            let node = nodes[candidate]
            if matches(candidate, path),
                best.map({ (node.entry.layer, node.entry.splits) < ($0.layer, $0.splits) }) ?? true
            {
                best = node.entry
            }
            candidate = node.nextWithSameHash
        }
        return best
    }

    /// Whether node `id`'s full path, read from its key back to the root, is exactly `path`.
    private func matches(_ id: Int, _ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var end = bytes.count
            var current = id
            while true {
                let node = nodes[current]
                let count = node.key.utf8.count
                guard end >= count, node.key.utf8.elementsEqual(bytes[(end - count)..<end]) else { return false }
                end -= count
                guard node.parent >= 0 else { return end == 0 }
                guard end > 0, bytes[end - 1] == UInt8(ascii: ".") else { return false }
                end -= 1
                current = node.parent
            }
        }
    }

    /// Every distinct path whose best entry is not a dictionary. Spells out only the paths of nodes that hold such
    /// a value (a dictionary's path is never built), so the work is in proportion to the paths returned.
    var leafPaths: Set<String> {
        var result: Set<String> = []
        for id in nodes.indices {
            if case .dictionary = nodes[id].entry.value { continue }
            var parts: [String] = []
            var current = id
            while current >= 0 {
                parts.append(nodes[current].key)
                current = nodes[current].parent
            }
            let path = parts.reversed().joined(separator: ".")
            // Another spelling of the same path may rank higher and hold a dictionary.
            if let best = self[path], case .dictionary = best.value { continue }
            result.insert(path)
        }
        return result
    }
}
