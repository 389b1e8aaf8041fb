import GirdersSupport

/// RFC 9112's framing rules that libcurl 7.88 and FoundationNetworking leave loose, applied the same way by every
/// transport to the head it received:
///
/// - `Content-Length` fields (or one field listing several values) that disagree are an error
///   (RFC 9112, section 6.3): which length is right cannot be known, and a wrong one cuts or extends the body.
/// - With both `Transfer-Encoding` and `Content-Length`, the length is dropped from the response: the transfer
///   coding framed the body, and the length would misstate it (section 6.3, item 3).
/// - A control character in a field value (anything below a space but tab, and DEL) becomes a space (RFC 9110,
///   section 5.5), so a CR or ESC a server sends never reaches a log line or a header an app passes on.
enum ResponseFraming {
    /// Why the `Content-Length` values of one head cannot be used, or `nil`: each value (fields and comma-separated
    /// list elements) must be digits, and all must be the same.
    static func lengthProblem(_ values: [String]) -> String? {
        var lengths = Set<Substring>()
        for value in values {
            for element in value.split(atScalar: ",", omittingEmptySubsequences: false) {
                let trimmed = element.trimmingSpaces
                guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    return "the response's Content-Length \(value.debugDescription) is not a number"
                }
                lengths.insert(trimmed)
            }
        }
        guard lengths.count <= 1 else {
            return "the response has conflicting Content-Length values (\(lengths.sorted().joined(separator: ", ")))"
        }
        return nil
    }

    /// The head as the app sees it: values without control characters, and no `Content-Length` when a
    /// `Transfer-Encoding` framed the body.
    static func cleaned(_ fields: [HTTPHeader]) -> [HTTPHeader] {
        let transferCoded = fields.contains { HTTPHeaders.same($0.name, "Transfer-Encoding") }
        let needsWork = fields.contains {
            (transferCoded && HTTPHeaders.same($0.name, "Content-Length"))
                || $0.value.utf8.contains(where: { HTTPCharacters.isFieldControl($0) })
        }
        guard needsWork else { return fields }  // the common case: no copy
        var result: [HTTPHeader] = []
        result.reserveCapacity(fields.count)
        for field in fields where !(transferCoded && HTTPHeaders.same(field.name, "Content-Length")) {
            result.append(HTTPHeader(name: field.name, value: spaced(field.value)))
        }
        return result
    }

    /// `value` with every control character but tab replaced by a space (unchanged, without copying, when it has
    /// none).
    static func spaced(_ value: String) -> String {
        guard value.utf8.contains(where: { HTTPCharacters.isFieldControl($0) }) else { return value }
        return String(decoding: value.utf8.map { HTTPCharacters.isFieldControl($0) ? 0x20 : $0 }, as: UTF8.self)
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var slice = self
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}
