public import Foundation
import GirdersSupport

/// A response whose body is read as it arrives: the head of a successful response, and its body as a sequence of
/// byte chunks (``HTTPClient/stream(_:progress:)``).
///
/// ```swift
/// let streamed = try await client.stream(request)
/// print(streamed.head.statusCode, streamed.head.headers["Content-Type"] ?? "")
/// for try await line in streamed.body.lines {
///     let record = try JSONDecoder().decode(Record.self, from: Data(line.utf8))   // line-delimited JSON
/// }
/// ```
public struct StreamedResponse: Sendable {
    /// The response's head: status, header fields, URL and request; its ``HTTPResponse/body`` is empty.
    public let head: HTTPResponse
    /// The body, read once.
    public let body: ResponseBody

    init(head: HTTPResponse, body: ResponseBody) {
        self.head = head
        self.body = body
    }

    /// A response that arrived whole (from a client that cannot stream), its body one chunk.
    init(whole response: HTTPResponse) {
        let sink = ResponseSink(.answered(by: response), destination: .stream)
        try? sink.deliver(response)
        try? sink.finish()
        head = response.replacingBody(withData: Data())
        body = ResponseBody(sink: sink, owner: StreamOwner(sink: sink, transfer: Task {}))
    }
}

/// A response body read as it arrives, once: an `AsyncSequence` of `Data` chunks in the order they came.
///
/// The transport holds back while the reader lags: ``CurlTransport`` pauses the transfer once about a mebibyte is
/// waiting unread, and resumes when the reader catches up, so a slow reader of an endless body keeps memory flat;
/// ``URLSessionTransport``, which cannot pause a data task, fails with
/// ``ResponseError/limitExceeded(url:limit:maximum:)`` once ``ResponseLimits/bodyBytes`` are waiting unread.
/// Iterating throws the exchange's failure (cut off, timed out, a limit). Cancelling the reading task, or dropping
/// the body unread, cancels the transfer.
public struct ResponseBody: AsyncSequence, Sendable {
    /// One chunk of the body.
    public typealias Element = Data

    let sink: ResponseSink
    let owner: StreamOwner

    /// Reads the chunks in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sink: ResponseSink
        let owner: StreamOwner

        /// The next chunk, or `nil` at the end of the body; throws a ``ResponseError``.
        public mutating func next() async throws -> Data? {
            try await sink.nextChunk()
        }
    }

    /// An iterator from the start.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sink: sink, owner: owner)
    }

    /// The body's lines (ending at LF, CRLF or CR), decoded as UTF-8 (invalid bytes replaced). A line longer than
    /// `maximumBytes` fails with ``ResponseError/malformedResponse(url:reason:)``.
    public func lines(maximumBytes: Int = 1 << 20) -> Lines {
        Lines(body: self, maximumBytes: maximumBytes)
    }

    /// ``lines(maximumBytes:)`` with lines of up to 1 MiB.
    public var lines: Lines { lines() }

    /// The whole body, up to `maximumBytes` (more fails with ``ResponseError/limitExceeded(url:limit:maximum:)``).
    public func collect(upTo maximumBytes: Int) async throws(ResponseError) -> Data {
        var data = Data()
        while let chunk = try await sink.nextChunk() {
            guard data.count + chunk.count <= maximumBytes else {
                sink.cancelStream()
                throw .limitExceeded(url: sink.request.url, limit: .bodyBytes, maximum: Int64(maximumBytes))
            }
            data.append(chunk)
        }
        return data
    }

    /// A body's lines as they arrive.
    public struct Lines: AsyncSequence, Sendable {
        /// One line.
        public typealias Element = String
        let body: ResponseBody
        let maximumBytes: Int

        /// Reads the lines in order.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var chunks: ResponseBody.AsyncIterator
            var scanner: LineScanner
            var ended = false

            /// The next line, without its line end, or `nil` at the end of the body.
            public mutating func next() async throws -> String? {
                while true {
                    if let line = scanner.nextLine() { return String(decoding: line, as: UTF8.self) }
                    if scanner.overflowed {
                        chunks.sink.cancelStream()
                        throw ResponseError.malformedResponse(
                            url: chunks.sink.request.url,
                            reason: "a line of the body is longer than \(scanner.maximumBytes) bytes")
                    }
                    if ended { return nil }
                    guard let chunk = try await chunks.next() else {
                        ended = true
                        return scanner.finish().map { String(decoding: $0, as: UTF8.self) }
                    }
                    scanner.append(chunk)
                }
            }
        }

        /// An iterator from the start.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: body.makeAsyncIterator(), scanner: LineScanner(maximumBytes: maximumBytes))
        }
    }
}

/// Owns a streamed body's transfer: when the last ``ResponseBody`` (or iterator) holding it goes away, the
/// transfer is cancelled, so a body dropped unread does not keep a connection busy. It holds the request's
/// ``Deadline`` while the body is read (the deadline ends the stream through ``stop(_:)``) and ends it then.
final class StreamOwner: Sendable {
    let sink: ResponseSink
    private let transfer: Task<Void, Never>
    private let deadline = LockedState<Deadline?>(nil)

    init(sink: ResponseSink, transfer: Task<Void, Never>) {
        self.sink = sink
        self.transfer = transfer
    }

    /// Keeps `deadline` running while the body is read, and ends it with the body's owner.
    func hold(_ deadline: Deadline) {
        self.deadline.withLock { $0 = deadline }
    }

    /// Ends the stream with `error` (the deadline passed): the reader gets it, the transfer stops.
    func stop(_ error: ResponseError) {
        sink.fail(error)
        transfer.cancel()
    }

    deinit {
        deadline.withLock { $0 }?.end()
        transfer.cancel()
    }
}
