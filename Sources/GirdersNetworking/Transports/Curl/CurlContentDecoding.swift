#if canImport(CGirdersCompression)
import CGirdersCompression
import Foundation
import GirdersSupport

/// A body's content codings (`Content-Encoding`), decoded by CurlTransport itself rather than by libcurl, so that
/// their end is checked and their output bounded the same way for every coding.
///
/// libcurl 7.88 reports a coding cut short as a success: half a gzip stream whose `Content-Length` was met, a gzip
/// stream without its CRC-32 and size, a brotli stream without its last meta-block were all `200 OK`. Here each
/// coding must reach its end (zlib checks gzip's CRC-32 and size and zlib's Adler-32; brotli's and zstd's decoders
/// say when a stream or frame is complete) before the body does, and nothing may follow it but another gzip member
/// or zstd frame: a body that ends early is ``ResponseError/interrupted(url:receivedBytes:expectedBytes:reason:)``,
/// one with bad or trailing data ``ResponseError/malformedResponse(url:reason:)``, each naming the coding. Layered
/// codings (`gzip, br`) are undone last first, at most four; the decompression ratio is checked on the bytes as
/// they came over the wire against the bytes decoded, every 64 KiB of output.
///
/// Used on the engine's thread only, by one ``CurlTransfer``.
final class CurlContentDecoding {
    /// A coding Girders decodes, as `Content-Encoding` names it.
    enum Coding: String, CaseIterable {
        case gzip, deflate, br, zstd

        var code: girders_coding {
            switch self {
            case .gzip: GIRDERS_CODING_GZIP
            case .deflate: GIRDERS_CODING_DEFLATE
            case .br: GIRDERS_CODING_BR
            case .zstd: GIRDERS_CODING_ZSTD
            }
        }

        /// Whether its library loaded (zlib for gzip and deflate is always there where libcurl is).
        var isAvailable: Bool { girders_coding_load(code) == nil }

        /// The bytes another member (gzip) or frame (zstd, and its skippable frames) of the coding starts with.
        func startsAnother(_ bytes: ArraySlice<UInt8>) -> Bool? {
            switch self {
            case .gzip:
                guard bytes.count >= 2 else { return bytes.first.map { $0 == 0x1F ? nil : false } ?? nil }
                return bytes.prefix(2).elementsEqual([0x1F, 0x8B])
            case .zstd:
                guard bytes.count >= 4 else { return nil }
                let magic = bytes.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                return magic == 0xFD2F_B528 || magic & 0xFFFF_FFF0 == 0x184D_2A50
            case .deflate, .br:
                return false
            }
        }
    }

    /// `Accept-Encoding` for a request that named none: the codings whose decoders loaded.
    static let acceptEncoding: String = Coding.allCases.filter(\.isAvailable).map(\.rawValue).joined(separator: ", ")
    /// The `Accept-Encoding` field line sent with ``acceptEncoding``, made once.
    static let acceptEncodingField = "Accept-Encoding: " + acceptEncoding

    /// The most codings one body may layer.
    static let maximumCodings = 4
    /// The most bytes one step hands on.
    static let pieceBytes = 64 << 10

    private struct Stage {
        let coding: Coding
        let decoder: OpaquePointer
        var ended = false
        /// Bytes after the coding ended, too few yet to tell whether another member or frame starts.
        var after: [UInt8] = []
    }

    private var stages: [Stage] = []
    private let output: UnsafeMutableRawBufferPointer
    private let url: URL
    private let limits: ResponseLimits
    private(set) var encodedBytes: Int64 = 0
    private(set) var decodedBytes: Int64 = 0

    /// Decoders for `contentEncoding` (the field's values joined); `nil` when it names only `identity`, or a coding
    /// Girders does not know: such a body is delivered as it came, its `Content-Encoding` telling the app so, as
    /// browsers do (one unknown layer means nothing can be undone). A known coding whose library did not load is an
    /// error naming it.
    init?(contentEncoding: String, url: URL, limits: ResponseLimits) throws(ResponseError) {
        self.url = url
        self.limits = limits
        let names = contentEncoding.split(atScalar: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        guard !names.isEmpty, names.allSatisfy({ Coding(rawValue: $0 == "x-gzip" ? "gzip" : $0) != nil }) else {
            return nil
        }
        guard names.count <= Self.maximumCodings else {
            throw .malformedResponse(
                url: url, reason: "the response layers \(names.count) content codings, more than \(Self.maximumCodings)"
            )
        }
        output = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.pieceBytes * names.count, alignment: 1)
        for name in names.reversed() {  // the last coding applied is undone first
            let coding = Coding(rawValue: name == "x-gzip" ? "gzip" : name)
            guard let coding, let decoder = girders_decoder_create(coding.code) else {
                let reason =
                    coding.flatMap { girders_coding_load($0.code).map { String(cString: $0) } }
                    ?? "its decoder is not available"
                throw .malformedResponse(
                    url: url,
                    reason: "the response's content coding \(name.debugDescription) cannot be decoded: \(reason)")
            }
            stages.append(Stage(coding: coding, decoder: decoder))
        }
    }

    deinit {
        for stage in stages { girders_decoder_free(stage.decoder) }
        output.deallocate()
    }

    /// Decodes the next bytes off the wire, handing each decoded piece to `deliver`, which returns `false` to stop.
    /// Throws a malformed coding, or the decompression ratio exceeded.
    func decode(_ bytes: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) throws(ResponseError) {
        encodedBytes += Int64(bytes.count)
        _ = try push(bytes, into: 0, deliver)
    }

    /// The body ended: every coding must have reached its end.
    func finish() throws(ResponseError) {
        for stage in stages {
            guard stage.ended else {
                throw .interrupted(
                    url: url, receivedBytes: decodedBytes, expectedBytes: nil,
                    reason: "the body's \(stage.coding.rawValue) coding ended before its end (cut short)")
            }
            guard stage.after.isEmpty else { throw trailing(stage.coding) }
        }
    }

    private func trailing(_ coding: Coding) -> ResponseError {
        .malformedResponse(url: url, reason: "bytes follow the end of the body's \(coding.rawValue) coding")
    }

    /// Feeds `input` to stage `index` and what it decodes on; `false` once `deliver` stopped.
    private func push(
        _ input: UnsafeRawBufferPointer, into index: Int, _ deliver: (UnsafeRawBufferPointer) -> Bool
    ) throws(ResponseError) -> Bool {
        guard index < stages.count else {
            decodedBytes += Int64(input.count)
            guard deliver(input) else { return false }
            if let ratio = limits.ratioToCheck(decodedBytes: decodedBytes), decodedBytes / max(encodedBytes, 1) > ratio
            {
                throw .limitExceeded(url: url, limit: .decompressionRatio, maximum: ratio)
            }
            return true
        }
        let piece = UnsafeMutableRawBufferPointer(
            rebasing: output[(index * Self.pieceBytes)..<((index + 1) * Self.pieceBytes)])
        var remaining = input
        while true {
            if stages[index].ended {
                // Only another gzip member or zstd frame may follow; decide once enough bytes are there.
                guard !remaining.isEmpty else { return true }
                stages[index].after += remaining
                remaining = UnsafeRawBufferPointer(start: nil, count: 0)
                guard let another = stages[index].coding.startsAnother(stages[index].after[...]) else { return true }
                guard another, girders_decoder_restart(stages[index].decoder) == 0 else {
                    throw trailing(stages[index].coding)
                }
                stages[index].ended = false
                let after = stages[index].after
                stages[index].after = []
                let carried = after.withUnsafeBytes { bytes -> Result<Bool, ResponseError> in
                    do throws(ResponseError) {
                        return .success(try push(bytes, into: index, deliver))
                    } catch {
                        return .failure(error)
                    }
                }
                return try carried.get()
            }
            var consumed = 0
            var produced = 0
            let result = girders_decoder_step(
                stages[index].decoder, remaining.baseAddress?.assumingMemoryBound(to: UInt8.self), remaining.count,
                &consumed, piece.baseAddress?.assumingMemoryBound(to: UInt8.self), piece.count, &produced)
            if result == GIRDERS_DECODE_ERROR {
                let reason = String(cString: girders_decoder_error(stages[index].decoder))
                throw .malformedResponse(
                    url: url, reason: "the body's \(stages[index].coding.rawValue) coding is damaged: \(reason)")
            }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[consumed...])
            if produced > 0 {
                guard try push(UnsafeRawBufferPointer(rebasing: piece[..<produced]), into: index + 1, deliver) else {
                    return false
                }
            }
            if result == GIRDERS_DECODE_END {
                stages[index].ended = true
                continue
            }
            // More input is needed once this input is used up and the output did not fill.
            if remaining.isEmpty, produced < piece.count { return true }
            if consumed == 0, produced == 0 {
                throw .malformedResponse(
                    url: url, reason: "the body's \(stages[index].coding.rawValue) coding makes no progress")
            }
        }
    }
}
#endif
