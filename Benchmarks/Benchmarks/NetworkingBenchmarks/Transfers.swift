// Uploads and downloads of 100 MB through HTTPClient versus a bare URLSession: time and peak memory.
import Benchmark
import Foundation
import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 100 MiB file of a repeating pattern, made once per benchmark process.
private let payload: URL? = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("girders-bench-\(UUID().uuidString).bin")
    let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    guard FileManager.default.createFile(atPath: url.path, contents: nil),
        let handle = try? FileHandle(forWritingTo: url)
    else { return nil }
    defer { try? handle.close() }
    for _ in 0..<100 { try? handle.write(contentsOf: chunk) }
    return url
}()

/// A bare URLSession task with a completion handler, awaited.
private func bareTransfer(
    _ start: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
        start { data, response, error in
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(returning: (data?.count ?? 0) + ((response as? HTTPURLResponse)?.statusCode ?? 0))
            }
        }.resume()
    }
}

func registerTransferBenchmarks() {
    guard let port = BenchmarkServer.port, let payload,
        let sink = URL(string: "http://127.0.0.1:\(port)/sink"),
        let multipart = URL(string: "http://127.0.0.1:\(port)/multipart"),
        let bytes = URL(string: "http://127.0.0.1:\(port)/bytes?n=\(100 << 20)")
    else {
        print("NetworkingBenchmarks: no server or payload; skipping the transfer benchmarks")
        return
    }
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident], warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(60), maxIterations: 5)
    let client = HTTPClient(transport: URLSessionTransport(configuration: .ephemeral))
    let session = URLSession(configuration: .ephemeral)
    let folder = FileManager.default.temporaryDirectory

    Benchmark("Upload 100 MB file: bare URLSession uploadTask(fromFile:)", configuration: configuration) { _ in
        var request = URLRequest(url: sink)
        request.httpMethod = "POST"
        blackHole(
            try await bareTransfer { session.uploadTask(with: request, fromFile: payload, completionHandler: $0) })
    }
    Benchmark("Upload 100 MB file: HTTPClient withBodyFile", configuration: configuration) { _ in
        let request = Request(MutableRequest(method: .post, url: sink) |> withBodyFile(payload))
        blackHole(try await client.upload(request).statusCode)
    }
    Benchmark("Upload 100 MB file as multipart: HTTPClient", configuration: configuration) { _ in
        var form = MultipartFormData()
        form.append("bench", name: "title")
        form.append(fileAt: payload, name: "file")
        let request = Request(MutableRequest(method: .post, url: multipart) |> withMultipartBody(form))
        blackHole(try await client.upload(request).statusCode)
    }
    Benchmark("Download 100 MB: bare URLSession dataTask into memory", configuration: configuration) { _ in
        blackHole(try await bareTransfer { session.dataTask(with: bytes, completionHandler: $0) })
    }
    Benchmark("Download 100 MB to a file: HTTPClient", configuration: configuration) { _ in
        let destination = folder.appendingPathComponent("girders-bench-download-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        blackHole(try await client.download(Request(URL: bytes, method: .get), to: destination).statusCode)
    }
}
