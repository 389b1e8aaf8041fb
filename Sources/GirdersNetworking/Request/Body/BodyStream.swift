public import Foundation
import GirdersSupport

/// A request body produced while it is sent: chunks from an `AsyncSequence`, with a known length (sent as
/// `Content-Length`) or without one (sent with chunked transfer encoding). ``CurlTransport`` reads it as it sends,
/// holding the producer back while the network is slower (at most about a mebibyte waits between them);
/// ``URLSessionTransport``, which cannot wait for a producer inside URLSession's read, writes it to a temporary file
/// first and sends it from there.
///
/// A body made once (``init(_:length:)``) can be sent once: a retry or a redirect that keeps the body fails with
/// ``ResponseError/invalidRequest(reason:)`` rather than send part of it again. A body made anew for every attempt
/// (``init(length:replayable:)``) is sent as often as the request is.
///
/// ```swift
/// let upload = Request(MutableRequest(method: .post, url: url) |> withBodyStream(BodyStream(lines, length: nil)))
/// ```
public struct BodyStream: Sendable, Equatable {
    /// The number of bytes, when known before sending.
    public let length: Int64?
    /// Whether every attempt gets its chunks anew.
    public let isReplayable: Bool
    private let make: @Sendable () -> any ChunkSource
    private let sent = LockedState(false)
    private let identity = UUID()

    /// A body from `chunks`, sent once.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64? = nil) where Chunks.Element == Data {
        self.length = length
        self.isReplayable = false
        self.make = { IteratorSource(chunks) }
    }

    /// A body whose chunks `makeChunks` makes anew for every attempt.
    public init<Chunks: AsyncSequence & Sendable>(
        length: Int64? = nil, replayable makeChunks: @escaping @Sendable () -> Chunks
    ) where Chunks.Element == Data {
        self.length = length
        self.isReplayable = true
        self.make = { IteratorSource(makeChunks()) }
    }

    /// Whether both are the same body.
    public static func == (lhs: BodyStream, rhs: BodyStream) -> Bool { lhs.identity == rhs.identity }

    /// The chunks for one attempt of `method` `url`; a body made once that was already handed out fails with
    /// ``spent(_:_:)``'s error (checked again here: lowering checked before, and a transport takes it after).
    func chunks(for method: String, _ url: URL) throws(ResponseError) -> any ChunkSource {
        if isReplayable { return make() }
        let first = sent.withLock { sent in
            defer { sent = true }
            return !sent
        }
        guard first else { throw Self.spent(method, url) }
        return make()
    }

    /// Whether a body made once was already handed to a transport.
    var isSpent: Bool { !isReplayable && sent.value }

    /// The error of a request whose body, made once, was sent already.
    static func spent(_ method: String, _ url: URL) -> ResponseError {
        .invalidRequest(
            reason: "the body stream of \(method) \(url.absoluteString) was sent already and cannot be sent again; "
                + "make it with BodyStream(length:replayable:) to allow retries")
    }
}

/// The chunks of one attempt, read in order by one task.
protocol ChunkSource: AnyObject {
    func next() async throws -> Data?
}

/// A ``ChunkSource`` over an `AsyncSequence`'s iterator.
private final class IteratorSource<Chunks: AsyncSequence>: ChunkSource where Chunks.Element == Data {
    private var iterator: Chunks.AsyncIterator

    init(_ chunks: Chunks) {
        iterator = chunks.makeAsyncIterator()
    }

    func next() async throws -> Data? {
        try await iterator.next()
    }
}

/// Sets a body streamed from `stream` and its `Content-Type`.
public func withBodyStream(_ stream: BodyStream, contentType: String = "application/octet-stream") -> RequestTransform {
    { (request: consuming MutableRequest) in
        request.body = nil
        request.bodySource = .stream(stream)
        request.headers["Content-Type"] = contentType
        return request
    }
}
