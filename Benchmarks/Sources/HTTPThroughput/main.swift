// The clients Girders is compared with, against the same server (Scripts/bench-http.sh starts nginx on 127.0.0.1
// and runs this once per client and scenario, each in a process of its own so the peak memory is the scenario's;
// Girders itself runs in GirdersThroughput, the same scenarios from BenchSupport).
//
// Usage: HTTPThroughput CLIENT SCENARIO BASE_URL [N|FILE]
//   CLIENT: urlsession, async-http-client
//   SCENARIO: small-sequential N, small-parallel N (16 in flight), download-memory, download-file FILE,
//             upload-file FILE
// Prints one line: "<scenario> <seconds> <requests/s or MiB/s> <peak RSS KiB> <CPU seconds of the scenario,
// every thread>", as CurlLimit does. With BENCH_THREAD_CPU=1 it also writes the CPU time of its four busiest
// threads to standard error.
import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct BareURLSession: ThroughputClient {
    let session: URLSession

    func data(_ request: URLRequest) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, _, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }.resume()
        }
    }

    func get(_ url: URL) async throws -> Int { try await data(URLRequest(url: url)).count }

    func downloadToMemory(_ url: URL) async throws -> Int { try await data(URLRequest(url: url)).count }

    func downloadToFile(_ url: URL, _ file: URL) async throws {
        let location: URL = try await withCheckedThrowingContinuation { continuation in
            session.downloadTask(with: url) { location, _, error in
                guard let location else {
                    continuation.resume(throwing: error ?? ThroughputFailure("no file"))
                    return
                }
                // The file is deleted when the handler returns: move it first.
                let kept = file.appendingPathExtension("part")
                do {
                    try FileManager.default.moveItem(at: location, to: kept)
                    continuation.resume(returning: kept)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.resume()
        }
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: location, to: file)
    }

    func uploadFile(_ url: URL, _ file: URL) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            session.uploadTask(with: request, fromFile: file) { _, _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }.resume()
        }
    }

    func shutdown() async throws { session.invalidateAndCancel() }
}

struct AHC: ThroughputClient {
    let client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton)

    func get(_ url: URL) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(60))
        return try await response.body.collect(upTo: 1 << 20).readableBytes
    }

    func downloadToMemory(_ url: URL) async throws -> Int {
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(60))
        return try await response.body.collect(upTo: 200 << 20).readableBytes
    }

    func downloadToFile(_ url: URL, _ file: URL) async throws {
        let request = try AsyncHTTPClient.HTTPClient.Request(url: url.absoluteString)
        let delegate = try FileDownloadDelegate(path: file.path)
        _ = try await client.execute(request: request, delegate: delegate).get()
    }

    func uploadFile(_ url: URL, _ file: URL) async throws {
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        let handle = try FileHandle(forReadingFrom: file)
        let chunks = AsyncStream<ByteBuffer> { continuation in
            while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty {
                continuation.yield(ByteBuffer(bytes: data))
            }
            continuation.finish()
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.body = .stream(chunks, length: .known(Int64(size)))
        let response = try await client.execute(request, timeout: .seconds(120))
        _ = try await response.body.collect(upTo: 1 << 20)
        try handle.close()
    }

    func shutdown() async throws { try await client.shutdown() }
}

await ThroughputScenario.main(usage: "usage: HTTPThroughput CLIENT SCENARIO BASE_URL [N|FILE]") { name in
    switch name {
    case "urlsession": return BareURLSession(session: URLSession(configuration: .default))
    case "async-http-client": return AHC()
    default: throw ThroughputFailure("unknown client \(name) (Girders' own: GirdersThroughput)")
    }
}
