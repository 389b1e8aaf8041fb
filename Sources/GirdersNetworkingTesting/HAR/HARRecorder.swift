public import Foundation
public import GirdersNetworking
import GirdersSupport

/// A transport decorator that records every exchange through the transport it wraps as a HAR 1.2 entry
/// (``HARArchive``): the request's and the response's headers and bodies, each redirect hop and each retry as an
/// entry of its own, the timings from ``RequestMetrics`` and failures with their reason. Credentials are hidden
/// by the same ``Redaction`` rules as ``LoggingMonitor`` (a cookie keeps its name and attributes, so that a replay
/// still stores it). The file opens in a browser's network panel and answers requests again through
/// ``HARReplayTransport``.
///
/// ```swift
/// let recorder = HARRecorder(CurlTransport(), file: URL(fileURLWithPath: "session.har"))
/// let client = HTTPClient(transport: recorder)
/// // ... every exchange is in session.har as soon as it ends
/// ```
///
/// The response passes through untouched (streamed, to a download file or in memory, held to its limits); the
/// recorder watches its body (``ResponseSink/observeBody(_:)``) and keeps the first `maximumBodyBytes` of each
/// body, marking the rest `_truncated`. A request body that is a stream is not read (it can be read only once, by
/// the transport) and is marked `_notRecorded`.
public final class HARRecorder: HTTPTransport {
    /// The transport that sends.
    public let base: any HTTPTransport
    /// What is hidden in the archive.
    public let redaction: Redaction
    /// The most bytes of one body kept in the archive.
    public let maximumBodyBytes: Int
    private let file: URL?
    private let recorded = LockedState<[(start: Date, entry: HARArchive.Entry)]>([])
    /// How many archives were written; writes take turns under its lock.
    private let writes = LockedState(0)

    /// Records what passes through `base`; with a `file`, the archive is rewritten there (atomically) after each
    /// exchange ends, so a session cut short keeps what it did.
    public init(
        _ base: any HTTPTransport, file: URL? = nil, redaction: Redaction = .standard,
        maximumBodyBytes: Int = 1 << 20
    ) {
        self.base = base
        self.file = file
        self.redaction = redaction
        self.maximumBodyBytes = max(0, maximumBodyBytes)
    }

    /// `true`: every exchange is measured, for the entries' timings.
    public var readsMetrics: Bool { true }

    /// What was recorded so far, the entries in the order their requests started.
    public var archive: HARArchive {
        HARArchive(entries: recorded.withLock { $0 }.sorted { $0.start < $1.start }.map(\.entry))
    }

    /// Writes ``archive`` to `url`, replacing what is there.
    public func write(to url: URL) throws(HARError) {
        let failure = writes.withLock { writes -> AtomicFile.Failure? in
            // Taken in its turn, so a write never replaces the archive with one of fewer entries.
            let data = archive.encoded()
            do throws(AtomicFile.Failure) {
                try AtomicFile.write(data, to: url.path)
                writes += 1
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw .unwritable(file: url.path, reason: failure.description) }
    }

    /// Sends `request` through ``base`` into `sink` untouched, and records the exchange as it ended.
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        let started = Date()
        let clock = ContinuousClock.now
        let recordedRequest = await HARRequestRecording.record(
            request, redaction: redaction, maximumBodyBytes: maximumBodyBytes)
        let body = BodyTap(limit: maximumBodyBytes, start: clock)
        sink.observeBody { body.take($0) }
        var failure: ResponseError?
        do {
            try await base.send(request, to: sink)
        } catch {
            failure = error
        }
        let entry = HARResponseRecording(
            request: request, sink: sink, body: body.taken, failure: failure ?? sink.stopReason,
            redaction: redaction, elapsed: clock.duration(to: .now)
        ).entry(started: started, request: recordedRequest)
        recorded.withLock { $0.append((started, entry)) }
        if let file { try? write(to: file) }
        if let failure { throw failure }
    }
}

/// The body's first bytes as the sink takes them, and when the first one came.
final class BodyTap: Sendable {
    struct Taken {
        var data = Data()
        var size: Int64 = 0
        var firstByte: Duration?
    }

    private let limit: Int
    private let start: ContinuousClock.Instant
    private let state = LockedState(Taken())

    init(limit: Int, start: ContinuousClock.Instant) {
        self.limit = limit
        self.start = start
    }

    func take(_ piece: Data) {
        let now = ContinuousClock.now
        state.withLock { taken in
            if taken.firstByte == nil { taken.firstByte = start.duration(to: now) }
            taken.size += Int64(piece.count)
            let room = limit - taken.data.count
            if room > 0 { taken.data.append(piece.prefix(room)) }
        }
    }

    var taken: Taken { state.withLock { $0 } }
}
