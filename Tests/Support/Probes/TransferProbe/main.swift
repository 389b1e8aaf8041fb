// A helper for GirdersNetworking's tests: uploads a file as multipart form data in a fresh process and reports how
// much the upload raised the process's peak memory, so the test can hold the bound without other tests' noise.
//
//     TransferProbe <upload URL> <file> → one JSON line: {"baselineKB":…,"peakKB":…,"status":…,"body":"…"}
//
// and sends one GET with the process's own environment (so a test can set proxy variables for it alone):
//
//     TransferProbe get <URL> curl|urlSession → one JSON line: {"status":…,"body":"…"}, or the error on stderr
//
// and sends one GET that a hostile server answers with more than the default ResponseLimits allow, reporting how
// much it raised the process's peak memory and the error it ended with:
//
//     TransferProbe limit <URL> curl|urlSession → one JSON line: {"baselineKB":…,"peakKB":…,"error":"…"}
//
// and sends a GET whose response sets many cookies (into HTTPCookieStorage.shared, which on Linux writes a file;
// GIRDERS_PROBE_JAR=rfc6265 uses CookieJars.shared instead)
// while other GETs run on the same transport, reporting how long each took:
//
//     TransferProbe cookies <cookie URL> <other URL> curl|urlSession
//       → {"cookieSeconds":…,"otherSeconds":[…],"othersEndedFirst":…,"stored":…}
//
// and streams one GET's body to a reader that sleeps after every chunk, reporting the peak memory (StreamProbe.swift):
//
//     TransferProbe stream <URL> curl|urlSession <microseconds per chunk>
//       → {"baselineKB":…,"peakKB":…,"bytes":…,"seconds":…,"error":"…"}
//
// and writes a FileCacheStore until it is killed (CacheWriterProbe.swift):
//
//     TransferProbe cache-writer <folder> <seed> <generations>
//
// and downloads resumably until the test kills it:
//
//     TransferProbe resumable-download <URL> <destination>
//
// and runs Autobahn|Testsuite's cases as an echo client (AutobahnProbe.swift, Scripts/autobahn.sh):
//
//     TransferProbe autobahn <ws://host:port> curl|urlSession deflate|plain <agent> [first-last]
import Foundation
import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Whether the cookie request has ended.
actor CookieFlag {
    private(set) var value = false
    func set() { value = true }
}

/// `VmHWM` (the peak resident set) from /proc/self/status, in KiB.
func peakKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? -1
}

/// Resets the peak to the current resident set (Linux `clear_refs` value 5); harmless where unsupported.
func resetPeak() {
    try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
}

let arguments = CommandLine.arguments
if arguments.count >= 6, arguments[1] == "autobahn" {
    exit(
        await AutobahnProbe.run(
            arguments[2], transport: arguments[3], compression: arguments[4] == "deflate", agent: arguments[5],
            range: arguments.count > 6 ? arguments[6] : nil))
}
if arguments.count == 4, arguments[1] == "get", let url = URL(string: arguments[2]) {
    var transport: any HTTPTransport = URLSessionTransport(configuration: .default)
    #if os(Linux)
    if arguments[3] == "curl" { transport = CurlTransport() }
    #endif
    do {
        let response = try await HTTPClient(transport: transport).perform(Request(URL: url, method: .get))
        let report: [String: Any] = [
            "status": response.statusCode, "body": String(decoding: response.body, as: UTF8.self),
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
if arguments.count == 4, arguments[1] == "limit", let url = URL(string: arguments[2]) {
    var transport: any HTTPTransport = URLSessionTransport(configuration: .default)
    #if os(Linux)
    if arguments[3] == "curl" { transport = CurlTransport() }
    #endif
    let client = HTTPClient(transport: transport)
    // Warm up (the transport, a loopback connection) so the baseline includes it.
    _ = try? await client.perform(Request(URL: url.deletingLastPathComponent(), method: .get))
    resetPeak()
    let baseline = peakKilobytes()
    var outcome = "no error"
    // The body limit alone (the figure the tests hold it to); GIRDERS_PROBE_RATIO=N adds the decompression ratio
    // limit, which stops a bomb sooner.
    let ratio = ProcessInfo.processInfo.environment["GIRDERS_PROBE_RATIO"].flatMap { Int64($0) }
    do {
        let limits = ResponseLimits(decompressionRatio: ratio)
        _ = try await client.perform(Request(MutableRequest(url: url) |> withResponseLimits(limits)))
    } catch {
        outcome = "\(error)"
    }
    let report: [String: Any] = ["baselineKB": baseline, "peakKB": peakKilobytes(), "error": outcome]
    print(String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self))
    exit(0)
}
if arguments.count == 5, arguments[1] == "cookies", let cookieURL = URL(string: arguments[2]),
    let otherURL = URL(string: arguments[3])
{
    // HTTPCookieStorage.shared (slow on Linux: a file write per cookie) unless GIRDERS_PROBE_JAR=rfc6265 asks for
    // the default jar.
    let jar: any CookieJar =
        ProcessInfo.processInfo.environment["GIRDERS_PROBE_JAR"] == "rfc6265"
        ? CookieJars.shared : SystemCookieJar(.shared)
    var transport: any HTTPTransport = URLSessionTransport(configuration: .default)
    #if os(Linux)
    if arguments[4] == "curl" { transport = CurlTransport() }
    #endif
    let client = HTTPClient(transport: transport, cookieJar: jar)
    _ = try? await client.perform(Request(URL: otherURL, method: .get))  // warm up
    func seconds(_ url: URL) async -> Double {
        let start = ContinuousClock.now
        // More fields than the default ResponseLimits.headerFields (256) allow.
        let limits = ResponseLimits(headerFields: 10_000, headerBytes: 1 << 20)
        _ = try? await client.perform(Request(MutableRequest(url: url) |> withResponseLimits(limits)))
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    let cookieDone = CookieFlag()
    async let cookie = { () async -> Double in
        let elapsed = await seconds(cookieURL)
        await cookieDone.set()
        return elapsed
    }()
    var others: [Double] = []
    try? await Task.sleep(nanoseconds: 50_000_000)  // the cookie response is being stored
    for _ in 0..<5 { others.append(await seconds(otherURL)) }
    let othersEndedFirst = await !cookieDone.value
    let report: [String: Any] = [
        "cookieSeconds": await cookie, "otherSeconds": others, "othersEndedFirst": othersEndedFirst,
        "stored": jar.cookies(for: cookieURL).count,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self))
    exit(0)
}
if arguments.count == 4, arguments[1] == "resumable-download", let url = URL(string: arguments[2]) {
    // Runs until the test kills it (the origin drips the body).
    _ = try? await HTTPClient(transport: URLSessionTransport(configuration: .default)).download(
        Request(URL: url, method: .get), to: URL(fileURLWithPath: arguments[3]), resumable: true)
    exit(0)
}
if arguments.count == 5, arguments[1] == "cache-writer" {
    CacheWriterProbe.run(
        folder: URL(fileURLWithPath: arguments[2]), seed: UInt64(arguments[3]) ?? 1, generations: Int(arguments[4]) ?? 1
    )
}
if arguments.count == 5, arguments[1] == "stream", let url = URL(string: arguments[2]) {
    await streamProbe(url: url, transport: arguments[3], pause: UInt64(arguments[4]) ?? 0)
    exit(0)
}
guard arguments.count == 3, let url = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: TransferProbe <upload URL> <file>\n".utf8))
    exit(2)
}
let client = HTTPClient(transport: URLSessionTransport(configuration: .default))
var form = MultipartFormData()
form.append("probe", name: "title")
form.append(fileAt: URL(fileURLWithPath: arguments[2]), name: "file", contentType: "application/octet-stream")
let request = Request(MutableRequest(method: .post, url: url) |> withMultipartBody(form))
do {
    // Warm up the session (libcurl, TLS-free loopback connection) so the baseline includes it.
    _ = try await client.upload(
        Request(MutableRequest(method: .post, url: url) |> withMultipartBody(MultipartFormData())))
    resetPeak()
    let baseline = peakKilobytes()
    let response = try await client.upload(request)
    let report: [String: Any] = [
        "baselineKB": baseline, "peakKB": peakKilobytes(), "status": response.statusCode,
        "body": String(decoding: response.body, as: UTF8.self),
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
