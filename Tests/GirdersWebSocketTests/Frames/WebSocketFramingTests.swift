import Foundation
import GirdersTestServers
import Testing

@testable import GirdersNetworking
@testable import GirdersWebSocket

/// A server's frame as bytes, unmasked unless asked; `length` forces a length form (7, 16 or 64 bits).
func serverFrame(
    fin: Bool = true, rsv: UInt8 = 0, opcode: UInt8, _ payload: [UInt8], masked: Bool = false, lengthForm: Int? = nil
) -> Data {
    var out = Data([(fin ? 0x80 : 0) | (rsv << 4) | opcode])
    let count = payload.count
    let form = lengthForm ?? (count < 126 ? 7 : count <= 0xFFFF ? 16 : 64)
    let maskBit: UInt8 = masked ? 0x80 : 0
    switch form {
    case 7: out.append(maskBit | UInt8(count))
    case 16: out.append(contentsOf: [maskBit | 126, UInt8(count >> 8), UInt8(count & 0xFF)])
    default:
        out.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: count >> shift)) }
    }
    if masked { out.append(contentsOf: [0, 0, 0, 0]) }
    out.append(contentsOf: payload)
    return out
}

/// Every event the bytes make, or the first error.
func events(
    _ bytes: Data, limits: WebSocketLimits = .standard, compression: Bool = false, pieceSize: Int? = nil
) -> Result<[WebSocketMessageAssembler.Event], WebSocketError> {
    var parser = WebSocketFrameParser(limits: limits, compression: compression)
    var assembler = WebSocketMessageAssembler(limits: limits)
    var found: [WebSocketMessageAssembler.Event] = []
    let size = pieceSize ?? max(1, bytes.count)
    var offset = 0
    do throws(WebSocketError) {
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            parser.append(bytes[bytes.startIndex + offset..<bytes.startIndex + end])
            offset = end
            while let frame = try parser.next() {
                if let event = try assembler.take(frame) { found.append(event) }
            }
        }
        return .success(found)
    } catch {
        return .failure(error)
    }
}

/// The close code the bytes end in (the rule's code), or `nil` when they are accepted.
func closeCode(_ bytes: Data, limits: WebSocketLimits = .standard, compression: Bool = false) -> WebSocketCloseCode? {
    if case .failure(let error) = events(bytes, limits: limits, compression: compression) { return error.closeCode }
    return nil
}

struct WebSocketFramingTests {
    let big = [UInt8]((0..<70_000).map { UInt8($0 % 251) })

    @Test func framesReadTheSameWholeAndByteByByte_RFC6455_5_2() throws {
        let bytes =
            serverFrame(opcode: 1, Array("hello".utf8)) + serverFrame(opcode: 2, Array(big[..<300]))
            + serverFrame(opcode: 2, big)
        let whole = try events(bytes).get()
        #expect(
            whole == [.message(.text("hello")), .message(.binary(Data(big[..<300]))), .message(.binary(Data(big)))])
        #expect(try events(bytes, pieceSize: 1).get() == whole)
        #expect(try events(bytes, pieceSize: 7).get() == whole)
    }

    @Test func aMaskedServerFrameIsAProtocolError_RFC6455_5_1() {
        #expect(closeCode(serverFrame(opcode: 1, Array("x".utf8), masked: true)) == .protocolError)
    }

    @Test(arguments: [UInt8(1), 2, 4, 6])
    func reservedBitsWithoutAnExtensionAreAProtocolError_RFC6455_5_2(_ rsv: UInt8) {
        #expect(closeCode(serverFrame(rsv: rsv, opcode: 1, [0x61])) == .protocolError)
    }

    @Test func rsv1IsAllowedOnlyOnTheFirstFrameOfACompressedMessage_RFC7692_6() {
        #expect(closeCode(serverFrame(rsv: 4, opcode: 2, [1]), compression: true) == nil)
        #expect(closeCode(serverFrame(rsv: 4, opcode: 9, []), compression: true) == .protocolError)
        let continued = serverFrame(fin: false, rsv: 4, opcode: 2, [1]) + serverFrame(rsv: 4, opcode: 0, [2])
        #expect(closeCode(continued, compression: true) == .protocolError)
    }

    @Test(arguments: [UInt8(3), 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func anUnknownOpcodeIsAProtocolError_RFC6455_5_2(_ opcode: UInt8) {
        #expect(closeCode(serverFrame(opcode: opcode, [])) == .protocolError)
    }

    @Test func aControlFrameOver125BytesOrFragmentedIsAProtocolError_RFC6455_5_5() {
        #expect(closeCode(serverFrame(opcode: 9, [UInt8](repeating: 1, count: 126))) == .protocolError)
        #expect(closeCode(serverFrame(opcode: 9, [UInt8](repeating: 1, count: 125))) == nil)
        #expect(closeCode(serverFrame(fin: false, opcode: 9, [])) == .protocolError)
    }

    @Test func aLengthWithItsTopBitSetIsRefusedFromTheHeaderAlone_RFC6455_5_2() {
        var header = Data([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0])
        #expect(closeCode(header) == .protocolError)
        header[2] = 0x7F  // 2^63 - 1: past any limit, refused before a byte of payload arrives
        #expect(closeCode(header) == .messageTooBig)
    }

    @Test func aLengthNotInItsShortestFormIsAProtocolError_RFC6455_5_2() {
        #expect(closeCode(serverFrame(opcode: 2, [1, 2, 3], lengthForm: 16)) == .protocolError)
        #expect(closeCode(serverFrame(opcode: 2, [UInt8](repeating: 0, count: 300), lengthForm: 64)) == .protocolError)
    }

    @Test func aFrameOverTheLimitIsRefusedBeforeItsPayloadIsHeld() {
        let limits = WebSocketLimits(frameBytes: 1_000)
        let header = serverFrame(opcode: 2, [UInt8](repeating: 0, count: 5_000)).prefix(4)  // the header alone
        guard case .failure(let error) = events(Data(header), limits: limits) else {
            Issue.record("accepted a frame over the limit")
            return
        }
        #expect(error == .limitExceeded(limit: .frameBytes, maximum: 1_000))
    }

    @Test func theBufferHoldsAboutOneFrameWhateverThePiecesOfAStream() throws {
        // 2,000 frames of 1,000 bytes in pieces of 999: the pieces never end where a frame does, so the consumed part
        // must be dropped as reading goes on (it was kept: the buffer grew to the whole stream, 2 MB).
        var parser = WebSocketFrameParser(limits: .standard, compression: false)
        let frame = serverFrame(opcode: 2, [UInt8](repeating: 1, count: 1_000))
        let stream = (0..<2_000).reduce(into: Data()) { bytes, _ in bytes.append(frame) }
        var frames = 0
        var largest = 0
        for offset in stride(from: 0, to: stream.count, by: 999) {
            parser.append(stream[offset..<min(stream.count, offset + 999)])
            largest = max(largest, parser.bufferedBytes)
            while try parser.next() != nil { frames += 1 }
        }
        #expect(frames == 2_000)
        #expect(largest <= 4 * 1_004, "the buffer held \(largest) bytes")
    }

    @Test func aContinuationWithoutAStartAndANewMessageInsideOneAreProtocolErrors_RFC6455_5_4() {
        #expect(closeCode(serverFrame(opcode: 0, [1])) == .protocolError)
        #expect(
            closeCode(serverFrame(fin: false, opcode: 1, [0x61]) + serverFrame(opcode: 1, [0x62])) == .protocolError)
    }

    @Test func controlFramesMayComeBetweenFragments_RFC6455_5_4() throws {
        let bytes =
            serverFrame(fin: false, opcode: 1, Array("hel".utf8)) + serverFrame(opcode: 9, [7])
            + serverFrame(opcode: 0, Array("lo".utf8))
        #expect(try events(bytes).get() == [.ping(Data([7])), .message(.text("hello"))])
    }

    @Test func textThatIsNotUTF8IsRefusedEvenSplitAcrossFragments_RFC6455_8_1() throws {
        let euro = Array("€".utf8)  // E2 82 AC, split across two fragments: valid
        let split = serverFrame(fin: false, opcode: 1, Array(euro[..<2])) + serverFrame(opcode: 0, Array(euro[2...]))
        #expect(try events(split).get() == [.message(.text("€"))])
        // An overlong "/", a surrogate, a byte past U+10FFFF, a character cut at the message's end.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(closeCode(serverFrame(opcode: 1, bad)) == .invalidPayloadData, "\(bad)")
        }
        let badSplit = serverFrame(fin: false, opcode: 1, [0xE2]) + serverFrame(opcode: 0, [0x28, 0xA1])
        #expect(closeCode(badSplit) == .invalidPayloadData)
    }

    @Test func aMessageWhoseFragmentsAddUpPastTheLimitIsRefused() {
        let limits = WebSocketLimits(frameBytes: 1_000, messageBytes: 1_500)
        let bytes =
            serverFrame(fin: false, opcode: 2, [UInt8](repeating: 0, count: 1_000))
            + serverFrame(opcode: 0, [UInt8](repeating: 0, count: 1_000))
        #expect(closeCode(bytes, limits: limits) == .messageTooBig)
    }

    @Test func aServersCloseIsReadByTheRules_RFC6455_5_5_1_and_7_4() throws {
        #expect(try events(serverFrame(opcode: 8, [])).get() == [.close(code: .noStatusReceived, reason: "")])
        #expect(
            try events(serverFrame(opcode: 8, [0x0F, 0xA0] + Array("bye".utf8))).get() == [
                .close(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")
            ])
        #expect(closeCode(serverFrame(opcode: 8, [0x03])) == .protocolError)
        for code: UInt16 in [999, 1004, 1005, 1006, 1015, 2000, 2999, 5000] {
            #expect(
                closeCode(serverFrame(opcode: 8, [UInt8(code >> 8), UInt8(code & 0xFF)])) == .protocolError, "\(code)")
        }
        #expect(closeCode(serverFrame(opcode: 8, [0x03, 0xE8, 0xFF])) == .invalidPayloadData)
    }

    @Test func aClientsFramesAreMaskedAndTheirLengthsInTheShortestForm_RFC6455_5_3() throws {
        // Every length class, odd lengths, and a payload that is a slice of a larger Data (its indices do not start
        // at 0): the masking loop writes by index into a buffer of exactly the frame's size.
        for count in [0, 1, 3, 125, 126, 127, 65_535, 65_536, 65_537] {
            let larger = Data((0..<count + 7).map { UInt8(($0 + 249) % 256) })
            let payload = count % 2 == 1 ? larger[7...] : Data((0..<count).map { UInt8($0 % 256) })
            let bytes = WebSocketFrameWriter.bytes(
                of: WebSocketFrame(opcode: .binary, payload: payload), key: (1, 2, 3, 4))
            #expect(bytes[1] & 0x80 != 0, "masked")
            let headerLength = count < 126 ? 2 : count <= 0xFFFF ? 4 : 10
            #expect(bytes.count == headerLength + 4 + count)
            let key = [UInt8](bytes[headerLength..<headerLength + 4])
            let unmasked = bytes[(headerLength + 4)...].enumerated().map { $0.element ^ key[$0.offset & 3] }
            #expect(Data(unmasked) == payload)
        }
    }

    @Test func aCloseReasonIsCutToFitAControlFrameAtACharacter() {
        let payload = WebSocketFrameWriter.closePayload(.goingAway, reason: String(repeating: "é", count: 100))
        #expect(payload.count <= 125)
        #expect(String(data: payload.dropFirst(2), encoding: .utf8) != nil)
        #expect(payload.prefix(2) == Data([0x03, 0xE9]))
    }
}
