import Foundation

@testable import GirdersNetworking

/// libFuzzer entry: any bytes as a multipart form (a boundary, then parts whose names, file names, content types
/// and contents come from the bytes, CR, LF, quotes, backslashes and the boundary itself among them) and as the
/// chunks of a part. Properties: a body that encodes splits back into exactly the parts given, each with one
/// `Content-Disposition` line (and one `Content-Type` line) naming it and its content unchanged, and its announced
/// length is its length; a form whose part holds the delimiter, or whose boundary is not RFC 2046's, is refused;
/// the delimiter scanner finds the delimiter exactly when a plain search does, however the part is chunked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var cursor = 0
    func next() -> UInt8 {
        defer { cursor += 1 }
        return cursor < bytes.count ? bytes[cursor] : 0
    }
    func take(_ count: Int) -> [UInt8] {
        let start = min(cursor, bytes.count)
        let end = min(start + count, bytes.count)
        cursor = end
        return Array(bytes[start..<end])
    }
    let boundaries = ["b", "girders", "a-b_c", "x y", "bad\r\nboundary", "", String(repeating: "q", count: 71)]
    let boundary = boundaries[Int(next()) % boundaries.count] + (next() % 2 == 0 ? "" : "z")
    var form = MultipartFormData(boundary: boundary)
    var given: [(name: String, filename: String?, type: String?, content: [UInt8])] = []
    for _ in 0..<(Int(next()) % 4) {
        let name = String(decoding: take(Int(next()) % 8), as: UTF8.self)
        let filename = next() % 2 == 0 ? nil : String(decoding: take(Int(next()) % 6), as: UTF8.self)
        let type = next() % 2 == 0 ? nil : String(decoding: take(Int(next()) % 6), as: UTF8.self)
        let content = take(Int(next()) % 64)
        form.append(Data(content), name: name, filename: filename, contentType: type)
        given.append((name, filename, type, content))
    }
    let delimiter = Array("\r\n--\(boundary)".utf8)
    checkScanner(delimiter: delimiter, part: take(256), cuts: take(8))
    guard let body = try? form.encodedData() else {
        let collides = given.contains { contains([13, 10] + $0.content, delimiter) }
        if MultipartFormData.boundaryProblem(boundary) == nil, !collides {
            fatalError("a valid form was refused: boundary \(boundary.debugDescription)")
        }
        return 0
    }
    if MultipartFormData.boundaryProblem(boundary) != nil { fatalError("an invalid boundary was used") }
    if form.encodedLength != Int64(body.count) { fatalError("announced \(String(describing: form.encodedLength))") }
    let parts = split(Array(body), boundary: boundary)
    guard parts.count == given.count else { fatalError("\(given.count) parts came back as \(parts.count)") }
    for (part, original) in zip(parts, given) {
        var expected = "Content-Disposition: form-data; name=\"\(MultipartFormData.escaped(original.name))\""
        if let filename = original.filename { expected += "; filename=\"\(MultipartFormData.escaped(filename))\"" }
        var lines = [expected]
        if let type = original.type { lines.append("Content-Type: \(MultipartFormData.escaped(type))") }
        if part.head != lines { fatalError("a part's head became \(part.head), not \(lines)") }
        // Independently of the escaping: one line per field, no CR, LF or NUL in it, and the quoted name's quotes
        // are the two the encoder wrote.
        for line in part.head where line.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            fatalError("a part's head line holds a line break or NUL: \(line.debugDescription)")
        }
        let quotes = part.head[0].utf8.filter { $0 == UInt8(ascii: "\"") }.count
        if quotes != (original.filename == nil ? 2 : 4) {
            fatalError("a name broke out of its quotes: \(part.head[0])")
        }
        if part.content != original.content { fatalError("a part's content changed") }
    }
    return 0
}

/// The parts of `body`: each part's head lines and content, split at the delimiters.
private func split(_ body: [UInt8], boundary: String) -> [(head: [String], content: [UInt8])] {
    let opening = Array("--\(boundary)\r\n".utf8)
    let closing = Array("--\(boundary)--\r\n".utf8)
    guard body.starts(with: opening) || body == closing else { fatalError("the body does not open with the boundary") }
    guard body.count >= closing.count, Array(body.suffix(closing.count)) == closing else {
        fatalError("the body does not close with the boundary")
    }
    var parts: [(head: [String], content: [UInt8])] = []
    var rest = Array(body.dropLast(closing.count))
    while !rest.isEmpty {
        guard rest.starts(with: opening) else { fatalError("a part does not start with the boundary") }
        rest.removeFirst(opening.count)
        guard let headEnd = firstIndex(of: [13, 10, 13, 10], in: rest) else { fatalError("a part head never ends") }
        let head = String(decoding: rest[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        rest.removeFirst(headEnd + 4)
        let next = firstIndex(of: [13, 10] + opening, in: rest) ?? (rest.count - 2)
        guard next >= 0, Array(rest[next..<min(next + 2, rest.count)]) == [13, 10] else {
            fatalError("a part does not end with CRLF")
        }
        parts.append((head, Array(rest[..<next])))
        rest.removeFirst(next + 2)
    }
    return parts
}

private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count, !needle.isEmpty else { return nil }
    for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle {
        return start
    }
    return nil
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { firstIndex(of: needle, in: haystack) != nil }

/// The scanner, fed `part` cut at `cuts`, agrees with a plain search of the part after its header's CRLF.
private func checkScanner(delimiter: [UInt8], part: [UInt8], cuts: [UInt8]) {
    guard delimiter.count > 4 else { return }
    var scanner = DelimiterScanner(delimiter: Data(delimiter))
    var found = false
    var start = 0
    for cut in cuts.map({ Int($0) }) + [part.count] where !found {
        let end = min(max(start, cut), part.count)
        found = scanner.feed(Data(part[start..<end]))
        start = end
    }
    if found != contains([13, 10] + part, delimiter) {
        fatalError("the scanner said \(found) for \(part) with delimiter \(delimiter)")
    }
}
