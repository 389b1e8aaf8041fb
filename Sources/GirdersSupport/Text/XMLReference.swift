/// XML 1.0's references, decoded once for every XML reader in Girders (the property-list parser and the trema
/// scanner): the five predefined entities and character references, `&#NNN;` and `&#xHH;`.
package enum XMLReference {
    /// The UTF-8 of the reference named `name` (what stands between `&` and `;`), or `nil` when it is neither a
    /// predefined entity nor a character reference to a character XML 1.0 allows (its `Char` production: tab,
    /// line feed, carriage return, and U+0020 and above except surrogates, U+FFFE and U+FFFF).
    package static func utf8(named name: some StringProtocol) -> [UInt8]? {
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
            guard name.hasPrefix("#"), let value = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                let scalar = Unicode.Scalar(value), value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D,
                value != 0xFFFE, value != 0xFFFF
            else { return nil }
            return Array(String(scalar).utf8)
        }
    }
}
