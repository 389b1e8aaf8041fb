public import Foundation
import GirdersSupport

/// A lowered request's body as a transport reads it, for one exchange: ``WireRequest/openBody()`` makes one. It is
/// the one place a body is opened, whatever it is: bytes in memory, a file (``BodySource/file(_:)``, read in
/// place), multipart form data (``BodySource/multipart(_:)``, encoded into a temporary 0600 file when opened) or
/// chunks produced while it is sent (``BodyStream``, at most a mebibyte ahead of the reader).
///
/// Read it without waiting (``read(into:)``, what libcurl's read callback does: ``ReadResult/wait`` means nothing is
/// there yet and ``onAvailable(_:)`` says when there is), waiting (``next(maximumBytes:)``), or as one file
/// (``file()``, for a stack that uploads from a file). ``rewind()`` starts it over when it may be sent again: from
/// memory or a file, and only for an idempotent method or a request that allows retries (RFC 9110, 9.2.2); a stream
/// made once never. ``close()`` (or the reader's release) deletes its temporary files and stops its producer.
///
/// Thread-safe: one transport reads it, from any thread.
public final class RequestBodyReader: Sendable {
    /// What ``read(into:)`` found.
    public enum ReadResult: Sendable, Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing yet: ``onAvailable(_:)`` is called when more is there.
        case wait
        /// The body ended.
        case end
        /// The body cannot be read further: a file read failed, the producer threw, or it ended short of its length.
        case failed(ResponseError)
    }

    private enum Source: Sendable {
        case none
        case memory(Data)
        case file(URL, temporary: Bool)
        case stream(BodyPump)
    }

    private struct State {
        var offset: Int64 = 0
        var descriptor: Int32 = -1
        var closed = false
    }

    /// The number of bytes, when known before sending.
    public let length: Int64?
    /// Whether ``rewind()`` can start the body over.
    public let canRewind: Bool
    private let source: Source
    private let url: URL
    private let state = LockedState(State())

    init(_ wire: WireRequest) throws(ResponseError) {
        url = wire.url
        let sendsAgain = HTTPMethod(rawValue: wire.method)?.isIdempotent == true || wire.request.allowsRetries
        switch wire.body {
        case .none:
            source = .none
            length = 0
        case .data(let data):
            source = .memory(data)
            length = Int64(data.count)
        case .source(.file(let file)):
            guard let size = FileIO.size(of: file) else {
                throw .fileError(path: file.path, reason: "not a readable regular file")
            }
            source = .file(file, temporary: false)
            length = size
        case .source(.multipart(let form)):
            let file = URL(fileURLWithPath: NSTemporaryDirectory())
                .appendingPathComponent("girders-\(UUID().uuidString).multipart")
            do {
                try form.write(to: file)
            } catch {
                FileIO.remove(file)
                throw error
            }
            source = .file(file, temporary: true)
            length = FileIO.size(of: file)
        case .source(.stream(let stream)), .stream(let stream):
            let pump = BodyPump()
            pump.start(try stream.chunks(for: wire.method, wire.url))
            source = .stream(pump)
            length = stream.length
        }
        switch source {
        case .memory, .file: canRewind = sendsAgain
        case .none: canRewind = true
        case .stream: canRewind = false
        }
    }

    deinit {
        close()
    }

    /// Copies the next bytes into `buffer` without waiting.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        switch source {
        case .none: return .end
        case .memory(let data):
            return state.withLock { state in
                let start = Int(state.offset)
                let count = min(buffer.count, data.count - start)
                guard count > 0 else { return .end }
                data.withUnsafeBytes { bytes in
                    guard let from = bytes.baseAddress, let to = buffer.baseAddress else { return }
                    to.copyMemory(from: from + start, byteCount: count)
                }
                state.offset += Int64(count)
                return .bytes(count)
            }
        case .file(let file, _):
            return state.withLock { state in
                if state.descriptor < 0 {
                    state.descriptor = FileIO.openForReading(file)
                    guard state.descriptor >= 0 else {
                        return .failed(.fileError(path: file.path, reason: FileIO.lastError()))
                    }
                }
                let count = FileIO.readSome(state.descriptor, into: buffer)
                guard count >= 0 else { return .failed(.fileError(path: file.path, reason: FileIO.lastError())) }
                state.offset += Int64(count)
                return count == 0 ? .end : .bytes(count)
            }
        case .stream(let pump):
            switch pump.take(into: buffer) {
            case .bytes(let count): return .bytes(count)
            case .wait: return .wait
            case .end: return .end
            case .failed(let reason):
                return .failed(.transport(url: url, code: 0, reason: "the request's body stream failed: \(reason)"))
            }
        }
    }

    /// Called (from another thread) when a stream's next chunk arrives or it ends, after ``read(into:)`` said
    /// ``ReadResult/wait``; never for a body from memory or a file.
    public func onAvailable(_ notify: @escaping @Sendable () -> Void) {
        if case .stream(let pump) = source { pump.onData(notify) }
    }

    /// The next bytes, up to `maximumBytes`, waiting for a stream's producer; `nil` at the end.
    public func next(maximumBytes: Int = 64 << 10) async throws(ResponseError) -> Data? {
        var chunk = Data(count: max(1, maximumBytes))
        while true {
            let result = chunk.withUnsafeMutableBytes { read(into: $0) }
            switch result {
            case .bytes(let count): return chunk.prefix(count)
            case .end: return nil
            case .failed(let error): throw error
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let once = LockedState<CheckedContinuation<Void, Never>?>(continuation)
                    onAvailable { once.withLock { $0.take() }?.resume() }
                    // It may have arrived between the read and the registration.
                    if case .stream(let pump) = source, pump.hasSomething { once.withLock { $0.take() }?.resume() }
                }
            }
        }
    }

    /// Starts the body over from its first byte; `false` when it cannot be sent again (a stream, or a method that
    /// is not idempotent in a request that does not allow retries).
    public func rewind() -> Bool {
        guard canRewind else { return false }
        return state.withLock { state in
            if state.descriptor >= 0, FileIO.seek(state.descriptor, to: 0) != 0 { return false }
            state.offset = 0
            return true
        }
    }

    /// A file that holds the whole body, for a stack that uploads from a file: a file body itself, multipart form
    /// data's encoded file, a stream's chunks written to a temporary 0600 file first (a length they do not match,
    /// or a producer that throws, fails and leaves no file); `nil` for a body in memory or none.
    public func file() async throws(ResponseError) -> URL? {
        switch source {
        case .none, .memory: return nil
        case .file(let file, _): return file
        case .stream:
            let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
                "girders-\(UUID().uuidString).body")
            let writer = try FileIO.Writer(creating: file)
            var written: Int64 = 0
            do throws(ResponseError) {
                while let chunk = try await next(maximumBytes: 1 << 20) {
                    try writer.append(chunk, path: file)
                    written += Int64(chunk.count)
                    if let length, written > length { break }
                }
                if let length, written != length {
                    throw .invalidRequest(
                        reason: "the body stream for \(url.absoluteString) gave \(written) bytes, not the \(length) "
                            + "announced")
                }
                try writer.finish(syncing: false, path: file)
            } catch {
                writer.abandon()
                FileIO.remove(file)
                throw error
            }
            temporaryFiles.withLock { $0.append(file) }
            return file
        }
    }

    private let temporaryFiles = LockedState<[URL]>([])

    /// Releases what the body holds: an open file, temporary files, a stream's producer. Once only; later reads end.
    public func close() {
        let (descriptor, alreadyClosed) = state.withLock { state -> (Int32, Bool) in
            defer {
                state.descriptor = -1
                state.closed = true
            }
            return (state.descriptor, state.closed)
        }
        guard !alreadyClosed else { return }
        if descriptor >= 0 { FileIO.closeFile(descriptor) }
        switch source {
        case .file(let file, temporary: true): FileIO.remove(file)
        case .stream(let pump): pump.cancel()
        default: break
        }
        for file in temporaryFiles.withLock({ $0 }) { FileIO.remove(file) }
    }
}

extension WireRequest {
    /// Opens the body for one exchange (see ``RequestBodyReader``); a stream made once that was sent already fails
    /// with ``ResponseError/invalidRequest(reason:)``, a file that cannot be read with
    /// ``ResponseError/fileError(path:reason:)``. Close it when the exchange ends.
    public func openBody() throws(ResponseError) -> RequestBodyReader {
        try RequestBodyReader(self)
    }
}
