/// Searching, splitting and replacing text by Unicode scalars, for syntax: separators, quotes and escapes.
///
/// `String`'s own `split(separator:)`, `contains(_:)`, `firstIndex(of:)` and Foundation's
/// `replacingOccurrences(of:with:)` compare `Character`s, and a combining mark joins the character before it:
/// `"/\u{301}"` is one `Character`, not `"/"`. Text from an attacker can so hide a `/`, `;`, `'` or `*/` from a
/// check or an escape while its bytes still reach the file system, the wire or a shell. Every function here finds
/// the scalar itself, whatever follows it.
extension StringProtocol where SubSequence == Substring {
    /// The parts of the text between occurrences of `separator` (at most `maxSplits` splits), like
    /// `split(separator:)`, but a separator followed by a combining mark still separates.
    package func split(
        atScalar separator: Unicode.Scalar, maxSplits: Int = .max, omittingEmptySubsequences: Bool = true
    ) -> [Substring] {
        var parts: [Substring] = []
        let scalars = unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex, parts.count < maxSplits {
            if scalars[index] == separator {
                if !omittingEmptySubsequences || start < index { parts.append(self[start..<index]) }
                start = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        if !omittingEmptySubsequences || start < scalars.endIndex { parts.append(self[start..<scalars.endIndex]) }
        return parts
    }

    /// The index of the first `scalar` in the text, also where a combining mark follows it.
    package func firstIndex(ofScalar scalar: Unicode.Scalar) -> Index? {
        unicodeScalars.firstIndex(of: scalar)
    }

    /// Whether the text's scalars hold `needle`'s scalars in a row, whatever scalars come before and after.
    package func containsScalars(_ needle: some StringProtocol) -> Bool {
        firstScalarRange(of: Array(needle.unicodeScalars), from: startIndex) != nil
    }

    /// The text with every run of `target`'s scalars replaced by `replacement`, scanning left to right.
    package func replacingScalars(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
        let wanted = Array(target.unicodeScalars)
        var result = String.UnicodeScalarView()
        var start = startIndex
        while let range = firstScalarRange(of: wanted, from: start) {
            result.append(contentsOf: unicodeScalars[start..<range.lowerBound])
            result.append(contentsOf: replacement.unicodeScalars)
            start = range.upperBound
        }
        result.append(contentsOf: unicodeScalars[start...])
        return String(result)
    }

    private func firstScalarRange(of wanted: [Unicode.Scalar], from start: Index) -> Range<Index>? {
        let scalars = unicodeScalars
        guard let first = wanted.first else { return start..<start }
        var index = start
        while index < scalars.endIndex {
            if scalars[index] == first {
                var end = scalars.index(after: index)
                var matched = 1
                while matched < wanted.count, end < scalars.endIndex, scalars[end] == wanted[matched] {
                    end = scalars.index(after: end)
                    matched += 1
                }
                if matched == wanted.count { return index..<end }
            }
            index = scalars.index(after: index)
        }
        return nil
    }
}
