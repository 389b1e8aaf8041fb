import Foundation

/// A Server-Sent Events stream (`text/event-stream`) as an `AsyncSequence` of ``ServerSentEvent``s, reconnecting
/// as the specification says: when the connection ends or fails, after the server's `retry` (or
/// ``Options/reconnectDelay``), with `Last-Event-ID` set to the ID of the last event dispatched.
///
/// Reconnecting is bounded against a server that closes at once or a host that refuses: never sooner than
/// ``Options/minimumReconnectDelay`` (a `retry: 0` included), doubling with jitter while connections fail or end
/// without an event (up to ``Options/maximumReconnectDelay``), and failing with
/// ``ResponseError/cannotConnect(url:reason:)`` after ``Options/maximumReconnects`` such connections in a row. An
/// event resets the back-off.
///
/// Every connection runs ``HTTPClient``'s whole pipeline (``HTTPClient/stream(_:progress:)``): interceptors adapt
/// it (a token refreshed meanwhile is used for the reconnect), failures before the head are retried as they
/// decide, redirects are followed. A `204 No Content` ends the sequence; any other status than `200`, or a
/// content type other than `text/event-stream`, fails it. Cancelling the iterating task closes the connection and
/// ends the sequence with ``ResponseError/cancelled(url:)``. Events are read as they are asked for, so a slow reader
/// holds the server back as a slow ``ResponseBody`` reader does.
///
/// ```swift
/// for try await event in client.events(Request(URL: feed, method: .get)) {
///     if event.type == "price" { show(event.data) }
/// }
/// ```
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ServerSentEvent

    /// How the stream is read and resumed.
    public struct Options: Sendable {
        /// Seconds to wait before reconnecting, until the server sends `retry`.
        public var reconnectDelay: Double
        /// The shortest wait before a reconnect, in seconds, whatever `retry` says (1 by default): a server that
        /// sends `retry: 0` and closes cannot make the client reconnect in a loop.
        public var minimumReconnectDelay: Double
        /// The longest wait a server's `retry`, or the back-off, may reach, in seconds.
        public var maximumReconnectDelay: Double
        /// How many times to reconnect in a row without an event in between (10 by default); `nil` for no limit.
        public var maximumReconnects: Int?
        /// The most bytes one line of the stream may hold.
        public var maximumLineBytes: Int
        /// The most bytes one event's data may hold.
        public var maximumEventBytes: Int
        /// The event ID to resume after (sent as `Last-Event-ID` on the first connection), if any.
        public var lastEventID: String?

        /// How a reconnect waits; tests record the waits instead of sleeping through them.
        var sleep: @Sendable (_ seconds: Double) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
        }
        /// A number in `0..<1` for the jitter.
        var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

        /// Options; each has a default.
        public init(
            reconnectDelay: Double = 3, minimumReconnectDelay: Double = 1, maximumReconnectDelay: Double = 60,
            maximumReconnects: Int? = 10, maximumLineBytes: Int = 64 << 10, maximumEventBytes: Int = 1 << 20,
            lastEventID: String? = nil
        ) {
            self.reconnectDelay = reconnectDelay
            self.minimumReconnectDelay = minimumReconnectDelay
            self.maximumReconnectDelay = maximumReconnectDelay
            self.maximumReconnects = maximumReconnects
            self.maximumLineBytes = maximumLineBytes
            self.maximumEventBytes = maximumEventBytes
            self.lastEventID = lastEventID
        }
    }

    let client: any HTTP
    let request: Request
    let options: Options

    /// An iterator from the start.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, request: request, options: options)
    }

    /// Reads events, connecting and reconnecting as needed.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: any HTTP
        let request: Request
        let options: Options
        private var parser: ServerSentEventParser
        private var body: ResponseBody.AsyncIterator?  // holds the connection's transfer
        private var connections = 0
        private var failedInARow = 0
        private var finished = false

        init(client: any HTTP, request: Request, options: Options) {
            self.client = client
            self.request = request
            self.options = options
            parser = ServerSentEventParser(
                maximumLineBytes: options.maximumLineBytes, maximumEventBytes: options.maximumEventBytes,
                maximumRetry: Int(Swift.min(Swift.max(options.maximumReconnectDelay, 0), 86_400) * 1_000),
                lastEventID: options.lastEventID ?? "")
        }

        /// The next event; `nil` once the server ended the stream with `204`; throws what ended it otherwise.
        public mutating func next() async throws -> ServerSentEvent? {
            while !finished {
                if Task.isCancelled {
                    finished = true
                    throw ResponseError.cancelled(url: request.fullURL)
                }
                do throws(ResponseError) {
                    let ready: ServerSentEvent?
                    do {
                        ready = try parser.nextEvent()
                    } catch {
                        throw ResponseError.malformedResponse(url: request.fullURL, reason: Self.reason(error))
                    }
                    if let ready {
                        failedInARow = 0
                        return ready
                    }
                    if body == nil { try await connect() }
                    guard let chunks = body else { continue }
                    guard let chunk = try await chunks.sink.nextChunk() else {
                        body = nil  // the server closed the stream: reconnect
                        continue
                    }
                    parser.append(chunk)
                } catch {
                    body = nil
                    guard !finished, Self.reconnects(after: error) else {
                        finished = true
                        throw error
                    }
                }
            }
            return nil
        }

        /// Opens the next connection, waiting first if it is not the first.
        private mutating func connect() async throws(ResponseError) {
            if connections > 0 {
                failedInARow += 1
                if let limit = options.maximumReconnects, failedInARow > limit {
                    finished = true  // the bound ends the sequence: this error is not one to reconnect after
                    throw .cannotConnect(
                        url: request.fullURL, reason: "the event stream ended \(failedInARow) times without an event")
                }
                let seconds = options.reconnectWait(
                    attempt: failedInARow, retry: parser.retry.map { Double($0) / 1_000 }, random: options.random())
                do {
                    try await options.sleep(seconds)
                } catch {
                    throw .cancelled(url: request.fullURL)
                }
            }
            connections += 1
            parser.reconnected()
            var connection = request.settingHeader("Accept", "text/event-stream")
                .settingHeader("Cache-Control", "no-cache")
            if !parser.lastEventID.isEmpty {
                connection = connection.settingHeader("Last-Event-ID", parser.lastEventID)
            }
            let streamed = try await client.stream(connection, progress: nil)
            if streamed.head.statusCode == 204 {
                finished = true
                return
            }
            guard streamed.head.statusCode == 200 else { throw .unacceptableStatusCode(streamed.head) }
            guard streamed.head.mimeType == "text/event-stream" else {
                throw .unacceptableContentType(expected: ["text/event-stream"], streamed.head)
            }
            body = streamed.body.makeAsyncIterator()
        }

        /// Whether the stream is resumed after `error`: a connection that failed or was cut off, not a refusal.
        private static func reconnects(after error: ResponseError) -> Bool {
            switch error.kind {
            case .interrupted, .timedOut, .cannotConnect, .cannotFindHost: true
            default: false
            }
        }

        private static func reason(_ error: any Error) -> String {
            switch error as? ServerSentEventParser.Failure {
            case .lineTooLong(let limit)?: "a line of the event stream is longer than \(limit) bytes"
            case .eventTooLarge(let limit)?: "an event of the event stream holds more than \(limit) bytes of data"
            case nil: "\(error)"
            }
        }
    }
}

extension ServerSentEvents.Options {
    /// Seconds before reconnect number `attempt` since the last event (1 for the first): the server's `retry` (else
    /// ``reconnectDelay``), never below ``minimumReconnectDelay``; from the second attempt on, doubled per attempt
    /// up to ``maximumReconnectDelay`` and spread over its upper half by `random` (in `0..<1`), never below the
    /// first wait. Every bound is clamped to 0...86,400 s, so no value of the app's or the server's can make it
    /// negative, infinite or not a number.
    func reconnectWait(attempt: Int, retry: Double?, random: Double) -> Double {
        reconnect(firstWait: retry).wait(attempt: attempt, random: random)
    }

    /// The options' reconnect settings as the ``ReconnectPolicy`` SSE and WebSockets share; `firstWait` (the server's
    /// `retry`) in place of ``reconnectDelay`` when there is one.
    public func reconnect(firstWait: Double? = nil) -> ReconnectPolicy {
        ReconnectPolicy(
            delay: firstWait ?? reconnectDelay, minimumDelay: minimumReconnectDelay,
            maximumDelay: maximumReconnectDelay, maximumReconnects: maximumReconnects)
    }
}
