import Foundation
import GirdersNetworking

/// Streams the body of a GET to a reader that sleeps `pause` microseconds after every chunk, and prints how much the
/// process's peak resident memory grew over a warmed-up baseline, the bytes read and the time it took: with a
/// transport that holds back (CurlTransport pauses libcurl), the growth stays near the stream buffer however large
/// the body.
func streamProbe(url: URL, transport name: String, pause: UInt64) async {
    var transport: any HTTPTransport = URLSessionTransport(configuration: .default)
    #if os(Linux)
    if name == "curl" { transport = CurlTransport() }
    #endif
    let client = HTTPClient(transport: transport)
    // Warm up (the transport, the streaming path) with a one-byte body, so the baseline includes them.
    var small = URLComponents(url: url, resolvingAgainstBaseURL: false)
    small?.query = "n=1"
    if let warm = small?.url {
        if let streamed = try? await client.stream(Request(URL: warm, method: .get)) {
            _ = try? await streamed.body.collect(upTo: 1 << 20)
        }
    }
    resetPeak()
    let baseline = peakKilobytes()
    let start = ContinuousClock.now
    var bytes = 0
    var outcome = "no error"
    do {
        let streamed = try await client.stream(Request(URL: url, method: .get))
        for try await chunk in streamed.body {
            bytes += chunk.count
            if pause > 0 { try await Task.sleep(nanoseconds: pause * 1_000) }
        }
    } catch {
        outcome = "\(error)"
    }
    let elapsed = ContinuousClock.now - start
    let report: [String: Any] = [
        "baselineKB": baseline, "peakKB": peakKilobytes(), "bytes": bytes,
        "seconds": Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        "error": outcome,
    ]
    if let data = try? JSONSerialization.data(withJSONObject: report) { print(String(decoding: data, as: UTF8.self)) }
}
