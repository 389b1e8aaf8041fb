import Foundation
import GirdersSupport

/// One event of a `text/event-stream` (Server-Sent Events).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's type: its `event:` field, or `message` when it named none.
    public var type: String
    /// Its `data:` lines, joined with line feeds.
    public var data: String
    /// The last event ID the stream set at this event (`id:`), sent back as `Last-Event-ID` on a reconnect; `nil`
    /// when none was set (or an empty one cleared it).
    public var id: String?

    /// An event.
    public init(type: String = "message", data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// The WHATWG HTML rules for reading an event stream ("Interpreting an event stream"), bounded for a hostile
/// server: lines end at CRLF, LF or CR; a byte-order mark at the start is skipped; a blank line dispatches the
/// event being built (none when it has no data); a line starting with `:` is a comment; `field: value` (one space
/// after the colon dropped) sets `event`, appends to `data`, sets the last event ID buffer (`id`, unless it holds NUL
/// or another control character, which could not go back in a header) or the reconnection time (`retry`, digits
/// only, clamped to ``maximumRetry``); unknown fields are ignored. The buffer becomes the last event ID only when a
/// blank line dispatches (with or without data), so an event cut off after its `id:` line is asked for again on the
/// reconnect; an event left unfinished when the stream ends is dropped with its buffer. A line longer than
/// ``maximumLineBytes`` or an event whose data passes ``maximumEventBytes`` is an error.
struct ServerSentEventParser {
    /// The most bytes one line may hold.
    let maximumLineBytes: Int
    /// The most bytes one event's data may hold.
    let maximumEventBytes: Int
    /// The longest reconnection time a server may ask for, in milliseconds.
    let maximumRetry: Int

    /// The last event ID, as of the last dispatch: sent as `Last-Event-ID` when reconnecting; empty means none.
    private(set) var lastEventID: String
    /// The `id:` read since the last dispatch (WHATWG's "last event ID buffer"); it becomes ``lastEventID`` there.
    private var idBuffer: String
    /// The reconnection time the server asked for, in milliseconds, if it did.
    private(set) var retry: Int?

    private var scanner: LineScanner
    private var atStart = true
    private var startBytes: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var type: [UInt8] = []
    private var ready: [ServerSentEvent] = []
    private var next = 0
    /// Why the stream cannot be read further: raised by ``nextEvent()`` once the events before it were returned.
    private var failure: Failure?

    /// Why the stream cannot be read.
    enum Failure: Error, Equatable {
        case lineTooLong(Int)
        case eventTooLarge(Int)
    }

    init(maximumLineBytes: Int, maximumEventBytes: Int, maximumRetry: Int, lastEventID: String = "") {
        self.maximumLineBytes = maximumLineBytes
        self.maximumEventBytes = maximumEventBytes
        self.maximumRetry = maximumRetry
        self.lastEventID = lastEventID
        idBuffer = lastEventID
        scanner = LineScanner(maximumBytes: maximumLineBytes)
    }

    /// A new connection: what was half-read goes (an `id:` not yet dispatched too), the last event ID and the
    /// reconnection time stay.
    mutating func reconnected() {
        idBuffer = lastEventID
        scanner = LineScanner(maximumBytes: maximumLineBytes)
        atStart = true
        startBytes = []
        data = []
        hasData = false
        type = []
        ready = []
        next = 0
        failure = nil
    }

    /// Takes the next bytes of the stream; the events they complete are then returned by ``nextEvent()``, and a
    /// line or event beyond its limit is raised there after the events completed before it (so they arrive however
    /// the bytes were split). Nothing more is taken after such a failure.
    mutating func append(_ bytes: Data) {
        guard failure == nil else { return }
        var bytes = bytes
        if atStart {
            // A byte-order mark (EF BB BF) at the very start is skipped, even split across pieces.
            startBytes += bytes
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if startBytes.count < 3, bom.starts(with: startBytes) { return }
            atStart = false
            bytes = Data(startBytes.starts(with: bom) ? startBytes.dropFirst(3) : startBytes[...])
            startBytes = []
        }
        scanner.append(bytes)
        while failure == nil, let line = scanner.nextLine() {
            do throws(Failure) {
                try take(line)
            } catch {
                failure = error
            }
        }
        if failure == nil, scanner.overflowed { failure = .lineTooLong(maximumLineBytes) }
    }

    /// The next complete event, or `nil` until more bytes arrive; throws what stopped the stream once the events
    /// before it were returned.
    mutating func nextEvent() throws(Failure) -> ServerSentEvent? {
        guard next < ready.count else {
            ready.removeAll(keepingCapacity: true)
            next = 0
            if let failure { throw failure }
            return nil
        }
        defer { next += 1 }
        return ready[next]
    }

    private mutating func take(_ line: [UInt8]) throws(Failure) {
        guard let first = line.first else { return dispatch() }
        if first == 0x3A { return }  // ":" a comment
        let colon = line.firstIndex(of: 0x3A) ?? line.endIndex
        let field = line[..<colon]
        var value = colon < line.endIndex ? line[(colon + 1)...] : []
        if value.first == 0x20 { value = value.dropFirst() }
        switch String(decoding: field, as: UTF8.self) {
        case "event": type = Array(value)
        case "data":
            guard data.count + value.count + 1 <= maximumEventBytes else { throw .eventTooLarge(maximumEventBytes) }
            if hasData { data.append(0x0A) }
            data += value
            hasData = true
        case "id":
            // NUL is refused by the specification; any other control character could not go back in a header.
            guard !value.contains(where: { HTTPCharacters.isControl($0) }) else { return }
            idBuffer = String(decoding: value, as: UTF8.self)
        case "retry":
            guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
            var milliseconds = 0
            for digit in value {
                milliseconds = min(milliseconds * 10 + Int(digit - 0x30), maximumRetry)
            }
            retry = milliseconds
        default: break
        }
    }

    private mutating func dispatch() {
        lastEventID = idBuffer  // WHATWG "dispatch the event", step 1: even when no data follows
        defer {
            data = []
            hasData = false
            type = []
        }
        guard hasData else { return }
        ready.append(
            ServerSentEvent(
                type: type.isEmpty ? "message" : String(decoding: type, as: UTF8.self),
                data: String(decoding: data, as: UTF8.self), id: lastEventID.isEmpty ? nil : lastEventID))
    }
}
