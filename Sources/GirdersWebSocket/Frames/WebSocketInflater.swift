#if canImport(CGirdersCompression)
import CGirdersCompression
import Foundation
import GirdersNetworking

/// Decompresses permessage-deflate messages (RFC 7692, section 7.2.2): each message's bytes with `00 00 FF FF`
/// appended, through one raw DEFLATE stream kept across messages (the server's context takeover) or started again
/// for each (`server_no_context_takeover`). The output is held to ``WebSocketLimits/messageBytes`` and, once past
/// 1 MiB, to ``WebSocketLimits/decompressionRatio`` as it is produced, so a small frame cannot inflate without
/// bound. zlib is loaded at run time (libz.so.1), as for content codings.
final class WebSocketInflater {
    private var decoder: OpaquePointer?
    private let limits: WebSocketLimits
    private let takesOverContext: Bool

    /// An inflater, or `nil` with why zlib cannot be used.
    static func make(limits: WebSocketLimits, takesOverContext: Bool) -> Result<WebSocketInflater, WebSocketError> {
        if let failure = girders_coding_load(GIRDERS_CODING_RAW_DEFLATE) {
            return .failure(.connectionLost(reason: "permessage-deflate needs zlib: \(String(cString: failure))"))
        }
        return .success(WebSocketInflater(limits: limits, takesOverContext: takesOverContext))
    }

    private init(limits: WebSocketLimits, takesOverContext: Bool) {
        self.limits = limits
        self.takesOverContext = takesOverContext
    }

    deinit {
        if let decoder { girders_decoder_free(decoder) }
    }

    /// Where zlib writes, made once per connection (a 64 KiB buffer per message cost more than small messages).
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)
    /// RFC 7692, 7.2.2: the tail every message's compressed bytes lack.
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// The message `compressed` decompresses to, or the rule or limit it breaks.
    func inflate(_ compressed: Data) throws(WebSocketError) -> Data {
        if decoder == nil || !takesOverContext {
            if let decoder, girders_decoder_restart(decoder) == 0 {
                // the same stream state, emptied
            } else {
                if let decoder { girders_decoder_free(decoder) }
                decoder = girders_decoder_create(GIRDERS_CODING_RAW_DEFLATE)
            }
        }
        guard let decoder else { throw .connectionLost(reason: "zlib could not start a decoder") }
        var output = Data()
        // The message's bytes where they are, then the tail: no copy of the compressed message.
        let ended = compressed.withUnsafeBytes { bytes in
            Result { () throws(WebSocketError) in
                try feed(bytes, decoder, compressedCount: compressed.count, into: &output)
            }
        }
        if try !ended.get() {
            _ = try Self.tail.withUnsafeBytes { bytes in
                Result { () throws(WebSocketError) in
                    try feed(bytes, decoder, compressedCount: compressed.count, into: &output)
                }
            }.get()
        }
        return output
    }

    /// Decodes `input` whole into `output`; `true` when the server ended its DEFLATE stream (BFINAL), which is
    /// allowed: the next message starts a new one.
    private func feed(
        _ input: UnsafeRawBufferPointer, _ decoder: OpaquePointer, compressedCount: Int, into output: inout Data
    ) throws(WebSocketError) -> Bool {
        let source = input.bindMemory(to: UInt8.self)
        var offset = 0
        while true {
            var consumed = 0
            var produced = 0
            let result = chunk.withUnsafeMutableBufferPointer { target in
                girders_decoder_step(
                    decoder, source.baseAddress.map { $0 + offset }, source.count - offset, &consumed,
                    target.baseAddress, target.count, &produced)
            }
            offset += consumed
            if produced > 0 {
                guard output.count + produced <= limits.messageBytes else {
                    throw .limitExceeded(limit: .messageBytes, maximum: limits.messageBytes)
                }
                output.append(contentsOf: chunk[..<produced])
                if output.count > 1 << 20, output.count / max(1, compressedCount) > limits.decompressionRatio {
                    throw .limitExceeded(limit: .decompressionRatio, maximum: limits.decompressionRatio)
                }
            }
            switch result {
            case GIRDERS_DECODE_ERROR:
                let why = String(cString: girders_decoder_error(decoder))
                throw .protocolViolation(
                    rule: "a compressed message that is not DEFLATE (RFC 7692, 7.2.2): \(why)", code: .protocolError)
            case GIRDERS_DECODE_END:
                if takesOverContext, girders_decoder_restart(decoder) != 0 {
                    girders_decoder_free(decoder)
                    self.decoder = nil
                }
                return true
            default:
                if offset >= source.count, produced < chunk.count { return false }
                if consumed == 0, produced == 0 { return false }  // no progress: all the input taken
            }
        }
    }
}
#endif
