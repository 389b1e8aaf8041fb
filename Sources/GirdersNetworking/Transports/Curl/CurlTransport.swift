#if canImport(CGirdersCurl)
import CGirdersCurl
import Foundation

/// The default ``HTTPTransport`` on Linux: libcurl's multi interface on one thread of its own, without
/// FoundationNetworking in the way.
///
/// ```swift
/// let client = HTTPClient()                                  // a CurlTransport on Linux
/// let explicit = HTTPClient(transport: CurlTransport(cookieStorage: nil))
/// let foundation = HTTPClient(transport: URLSessionTransport())  // still available on Linux
/// ```
///
/// It does what ``URLSessionTransport`` does, the same way: connections are kept alive and reused (HTTP/1.1, and
/// HTTP/2 over TLS where libcurl has it), redirects are returned to ``HTTPClient`` (never followed here), file and
/// multipart bodies are streamed from disk with a known length, a 2xx download is streamed into a
/// `DownloadFile`, progress is reported, gzip and deflate bodies are decoded, proxies come from the environment
/// as in every curl program, and the server's certificate is verified. Beyond FoundationNetworking it enforces
/// the request's timeout to the millisecond (as time without progress), lets an explicit `Cookie` header win over
/// stored cookies, keeps every response header line (two `Set-Cookie` fields stay two), and presents
/// ``TLSCredentials`` (trust anchors and a PKCS#12 client identity).
///
/// A request sent while nothing else is in flight runs libcurl on the caller's thread, as a C program does: sent,
/// and its response awaited in `poll`, there, for up to a millisecond, so requests one after another pass no work
/// between threads. A slower response, a streamed response, or a request that comes while others are in flight,
/// goes to the transport's thread, which resumes the caller when it ends.
///
/// Cancelling the calling `Task` stops the transfer at once and deletes a partial download. Failures map to the
/// same ``ResponseError`` cases as on ``URLSessionTransport``, with libcurl's message as the detail. Thread-safe.
/// Linux only; on Apple platforms ``URLSessionTransport`` is the default.
///
/// libcurl is loaded at run time from `libcurl.so.4` (7.77.0 or later), the library FoundationNetworking links,
/// so building Girders needs no libcurl headers. Where it cannot be loaded, ``libraryFailure`` says why, every
/// ``send(_:to:)`` throws ``ResponseError/transport(url:code:reason:)`` with that reason, and `HTTPClient()`
/// uses ``URLSessionTransport`` instead.
public final class CurlTransport: HTTPTransport {
    /// Why libcurl cannot be used in this process (the library that could not be loaded, the function it lacks or
    /// its version, and the package to install), or `nil` when it can.
    public static var libraryFailure: String? { CurlEngine.globalSetup }

    private let engine: CurlEngine
    private let executor: CurlEngineExecutor

    /// The transport's own thread as a `TaskExecutor`, for code that keeps many requests in flight: run it with this
    /// preference, and every response resumes its caller on the thread that received it, and the next request
    /// reaches libcurl there, with no hand-over between threads (measured in Documentation/Benchmarks.md). One
    /// request after another needs no preference: with nothing else in flight, the caller runs libcurl itself.
    ///
    /// ```swift
    /// let transport = CurlTransport()
    /// let client = HTTPClient(transport: transport)
    /// try await withTaskExecutorPreference(transport.taskExecutor) {
    ///     for id in ids { try await client.perform(Request(URL: base.appending(path: id), method: .get)) }
    /// }
    /// ```
    ///
    /// Only for code that waits for the network: what runs there holds every transfer of this transport while it
    /// runs, so decoding a large body or any blocking call belongs elsewhere. Once the transport is released, a task
    /// that still prefers it runs on the global concurrent executor.
    public var taskExecutor: any TaskExecutor { executor }

    /// A transport with its own thread and connection cache, at most `maximumConnectionsPerHost` connections open
    /// to one host at once (0, the default, sets no limit). Cookies are the client's (``HTTPClient/cookieJar``).
    public init(maximumConnectionsPerHost: Int = 0) {
        self.engine = CurlEngine(maximumConnectionsPerHost: maximumConnectionsPerHost)
        self.executor = CurlEngineExecutor(engine: engine)
    }

    /// A transport whose callers drive libcurl for up to `callersWindowNanoseconds` before handing a transfer to
    /// the transport's thread (for tests of both ways).
    init(maximumConnectionsPerHost: Int = 0, callersWindowNanoseconds: UInt64) {
        self.engine = CurlEngine(
            maximumConnectionsPerHost: maximumConnectionsPerHost, callersWindowNanoseconds: callersWindowNanoseconds)
        self.executor = CurlEngineExecutor(engine: engine)
    }

    /// Whether the transport's thread waits with nothing in flight, so that the next caller drives libcurl itself.
    var engineWaitsForCallers: Bool {
        engine.state.withLock { $0.parked && !$0.callerDrives }
    }

    deinit {
        engine.stop()
    }

    /// Sends `request` once into `sink`: a body from memory or streamed from disk, the response's head and body
    /// handed to the sink as they arrive (and held back while a streamed body's reader lags).
    public func send(_ request: WireRequest, to sink: ResponseSink) async throws(ResponseError) {
        if let setupFailure = engine.setupFailure {
            throw .transport(url: request.url, code: 0, reason: setupFailure)
        }
        if Task.isCancelled { throw .cancelled(url: request.url) }
        if sink.asksForUpgrade { return try await CurlUpgradeOpener.open(request, into: sink) }
        guard let handle = engine.takeHandle() else {
            throw .transport(url: request.url, code: 0, reason: "libcurl could not make an easy handle")
        }
        let transfer: CurlTransfer
        do {
            transfer = try CurlTransfer(wire: request, sink: sink, handle: handle)
        } catch {
            engine.giveBack(handle)
            throw error
        }
        try await engine.run(transfer).get()
    }
}
#endif
