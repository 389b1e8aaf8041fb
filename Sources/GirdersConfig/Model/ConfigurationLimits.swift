/// What one configuration file may expand to, so a hostile or broken file cannot make reading it costly.
///
/// A property list stores each key once, however deep, but every key path a ``Configuration`` lists (``Configuration/keys``,
/// its `description`) spells out the keys above it: 500 levels of 16,000-byte keys are an 8 MB file whose paths add
/// up to 2 GB. Each file is measured when it is read, in one pass, and refused above the limit with
/// ``ConfigurationError/keyPathsTooLong(path:limit:)``, so listing and printing stay in proportion to what was
/// allowed.
public struct ConfigurationLimits: Sendable, Hashable {
    /// The most bytes the full key paths of one file's values may add up to (every dictionary entry's path from the
    /// root, dots included). 16 MiB by default: a configuration of 10,000 keys of 100-byte paths needs 1 MB.
    public var keyPathBytes: Int

    /// Limits with the given bound.
    public init(keyPathBytes: Int = Self.standard.keyPathBytes) {
        self.keyPathBytes = keyPathBytes
    }

    /// 16 MiB of key paths per file.
    public static let standard = ConfigurationLimits(uncheckedKeyPathBytes: 16 << 20)

    private init(uncheckedKeyPathBytes: Int) {
        keyPathBytes = uncheckedKeyPathBytes
    }
}

extension ConfigValue {
    /// Whether the full key paths below this value add up to more than `limit` bytes; one pass over the tree with
    /// an explicit stack (no recursion per level), stopping as soon as the sum passes the limit.
    func keyPathsExceed(_ limit: Int) -> Bool {
        guard case .dictionary = self else { return false }
        var total = 0
        var pending: [(value: ConfigValue, prefix: Int)] = [(self, -1)]
        while let (value, prefix) = pending.popLast() {
            switch value {
            case .dictionary(let children):
                for (key, child) in children {
                    let length = prefix + 1 + key.utf8.count
                    total += length
                    if total > limit { return true }
                    pending.append((child, length))
                }
            case .array(let items):
                // Arrays have no keys of their own; dictionaries inside them start their paths at the array's.
                for item in items { pending.append((item, prefix)) }
            default:
                continue
            }
        }
        return false
    }
}
