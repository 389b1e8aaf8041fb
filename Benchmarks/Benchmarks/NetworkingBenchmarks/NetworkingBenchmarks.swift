// GirdersNetworking against Foundation: date utilities versus formatters, request building, and HTTPClient versus a
// bare URLSession on the same loopback server, in one run.
import Benchmark
import Foundation
import GirdersNetworking

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 3, scalingFactor: .kilo,
        maxDuration: .seconds(2), maxIterations: 10_000)

    let rfc3339 = "2026-11-22T13:30:56.123Z"
    let rfc1123 = "Sun, 06 Nov 1994 08:49:37 GMT"

    Benchmark("Parse RFC 3339: GirdersNetworking") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RFC3339Date.parse(rfc3339)) }
    }
    Benchmark("Parse RFC 3339: ISO8601DateFormatter") { benchmark in
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(formatter.date(from: rfc3339)) }
    }
    Benchmark("Parse RFC 3339: Date.ISO8601FormatStyle") { benchmark in
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try? style.parse(rfc3339)) }
    }
    Benchmark("Parse RFC 1123: GirdersNetworking") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(HTTPDate.parse(rfc1123)) }
    }
    Benchmark("Parse RFC 1123: DateFormatter") { benchmark in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(formatter.date(from: rfc1123)) }
    }
    let date = Date(timeIntervalSince1970: 1_795_354_256.123)
    Benchmark("Format IMF-fixdate: GirdersNetworking") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(HTTPDate.string(from: date)) }
    }
    Benchmark("Format RFC 3339: GirdersNetworking") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RFC3339Date.string(from: date, includingMilliseconds: true)) }
    }

    Benchmark("Build request, five generator functions: GirdersNetworking") { benchmark in
        let url = URL(string: "https://api.example.com/v1/items") ?? URL(fileURLWithPath: "/v1/items")
        for _ in benchmark.scaledIterations {
            blackHole(
                Request(
                    MutableRequest(method: .post, url: url) |> withJsonSupport |> withBearerToken("t0k3n")
                        |> withHeader("X-Client", "bench") |> withQueryItem("page", "2") |> withTimeout(30)))
        }
    }
    Benchmark("Build request, five header/query steps: URLRequest") { benchmark in
        let url = URL(string: "https://api.example.com/v1/items") ?? URL(fileURLWithPath: "/v1/items")
        for _ in benchmark.scaledIterations {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "page", value: "2")]
            var request = URLRequest(url: components?.url ?? url)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.setValue("Bearer t0k3n", forHTTPHeaderField: "Authorization")
            request.setValue("bench", forHTTPHeaderField: "X-Client")
            request.timeoutInterval = 30
            blackHole(request)
        }
    }

    registerThroughputBenchmarks()
    registerTransferBenchmarks()
}
