import Foundation
import GirdersNetworking

/// The bytes of one ``FileCacheStore`` entry, and the reader that takes nothing on faith.
///
/// Layout (integers little-endian): the magic line `GIRDERS-HTTP-CACHE-1\n`; a 64-bit FNV-1a checksum of everything
/// after it; then the URL, the partition, the status (16 bits), the request and response times (64-bit float
/// bits), the header fields and the `Vary` values (a 32-bit count, then each name and value), and the body. Every
/// string is a 32-bit length and UTF-8 bytes; the body a 64-bit length and its bytes. The checksum catches a file
/// torn by a power loss or changed on disk; the reader checks every length against the bytes that are left, so a
/// hostile file costs at most its own size.
enum CacheEntryFile {
    static let magic = Array("GIRDERS-HTTP-CACHE-1\n".utf8)

    /// The entry's bytes.
    static func encode(_ response: CachedResponse, key: CacheKey) -> [UInt8] {
        var content: [UInt8] = []
        content.reserveCapacity(response.body.count + 512)
        append(key.url, to: &content)
        append(key.partition, to: &content)
        append(UInt64(UInt16(clamping: response.statusCode)), width: 2, to: &content)
        append(response.requestTime.timeIntervalSince1970.bitPattern, width: 8, to: &content)
        append(response.responseTime.timeIntervalSince1970.bitPattern, width: 8, to: &content)
        append(UInt64(response.headers.fields.count), width: 4, to: &content)
        for field in response.headers.fields {
            append(field.name, to: &content)
            append(field.value, to: &content)
        }
        let varying = response.varying.sorted { $0.key < $1.key }
        append(UInt64(varying.count), width: 4, to: &content)
        for (name, value) in varying {
            append(name, to: &content)
            append(value, to: &content)
        }
        append(UInt64(response.body.count), width: 8, to: &content)
        content.append(contentsOf: response.body)
        var bytes = magic
        append(checksum(content), width: 8, to: &bytes)
        bytes.append(contentsOf: content)
        return bytes
    }

    /// The entry in `bytes` with its key, or why it is not one.
    static func decode(_ bytes: [UInt8]) -> Result<(CacheKey, CachedResponse), Damage> {
        var reader = Reader(bytes: bytes)
        guard reader.take(magic.count).map(Array.init) == magic else { return .failure(Damage("not a cache entry")) }
        guard let stored = reader.integer(8) else { return .failure(Damage("cut off before its checksum")) }
        guard checksum(bytes[reader.offset...]) == stored else { return .failure(Damage("its checksum differs")) }
        guard let url = reader.string(), let partition = reader.string(), let status = reader.integer(2),
            let requestBits = reader.integer(8), let responseBits = reader.integer(8),
            let headers = reader.pairs(), let varying = reader.pairs(), let bodyLength = reader.integer(8),
            let body = reader.take(bodyLength), reader.offset == bytes.count,
            let address = URL(string: url)
        else { return .failure(Damage("its fields are not whole at byte \(reader.offset)")) }
        let requestTime = Double(bitPattern: requestBits)
        let responseTime = Double(bitPattern: responseBits)
        guard requestTime.isFinite, responseTime.isFinite, (100...999).contains(status) else {
            return .failure(Damage("its status or times are out of range"))
        }
        var varyingValues: [String: String] = [:]
        for (name, value) in varying { varyingValues[name] = value }
        let response = CachedResponse(
            statusCode: Int(status), headers: HTTPHeaders(headers.map { HTTPHeader(name: $0.0, value: $0.1) }),
            body: Data(body), url: address, requestTime: Date(timeIntervalSince1970: requestTime),
            responseTime: Date(timeIntervalSince1970: responseTime), varying: varyingValues)
        return .success((CacheKey(url: url, partition: partition), response))
    }

    /// Why a file is no entry.
    struct Damage: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// 64-bit FNV-1a: a checksum against damage, not a defence against a forger (who could write any entry anyway).
    static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        append(UInt64(utf8.count), width: 4, to: &bytes)
        bytes.append(contentsOf: utf8)
    }

    /// A cursor that never reads past the end and never trusts a length.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ count: UInt64) -> ArraySlice<UInt8>? {
            guard count <= UInt64(bytes.count - offset) else { return nil }
            defer { offset += Int(count) }
            return bytes[offset..<offset + Int(count)]
        }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            count >= 0 ? take(UInt64(count)) : nil
        }

        mutating func integer(_ width: Int) -> UInt64? {
            guard let slice = take(width) else { return nil }
            var value: UInt64 = 0
            for (index, byte) in slice.enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
            return value
        }

        mutating func string() -> String? {
            guard let length = integer(4), let slice = take(length) else { return nil }
            return String(decoding: slice, as: UTF8.self)
        }

        mutating func pairs() -> [(String, String)]? {
            guard let count = integer(4), count <= UInt64(bytes.count - offset) / 8 else { return nil }
            var pairs: [(String, String)] = []
            for _ in 0..<count {
                guard let name = string(), let value = string() else { return nil }
                pairs.append((name, value))
            }
            return pairs
        }
    }
}
