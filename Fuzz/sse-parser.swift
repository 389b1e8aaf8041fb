import Foundation

/// libFuzzer entry: any bytes as a `text/event-stream`, the way the Server-Sent Events reader takes them. Parsing
/// never traps and is bounded; the events (and any error) are the same whether the bytes arrive whole, one by one
/// or split in two; an event's ID never holds a control character (it goes back in the `Last-Event-ID` header), its
/// data stays within the limit, and the reconnection time within its cap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    func read(_ pieces: [ArraySlice<UInt8>]) -> (events: [ServerSentEvent], failure: String?, retry: Int?) {
        var parser = ServerSentEventParser(maximumLineBytes: 256, maximumEventBytes: 1024, maximumRetry: 60_000)
        var events: [ServerSentEvent] = []
        do {
            for piece in pieces {
                parser.append(Data(piece))
                while let event = try parser.nextEvent() { events.append(event) }
            }
        } catch {
            return (events, "\(error)", parser.retry)
        }
        return (events, nil, parser.retry)
    }
    let whole = read([bytes[...]])
    let byByte = read(bytes.indices.map { bytes[$0...$0] })
    let half = read([bytes[..<(size / 2)], bytes[(size / 2)...]])
    for other in [byByte, half] where other.events != whole.events || other.failure != whole.failure {
        fatalError("the split changed what was read: \(whole) against \(other)")
    }
    for event in whole.events {
        if let id = event.id, id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            fatalError("an ID with a control character: \(id.debugDescription)")
        }
        if event.data.utf8.count > 1024 * 3 { fatalError("data beyond the limit: \(event.data.utf8.count) bytes") }
    }
    if let retry = whole.retry, !(0...60_000).contains(retry) { fatalError("retry \(retry) beyond its cap") }
    return 0
}
