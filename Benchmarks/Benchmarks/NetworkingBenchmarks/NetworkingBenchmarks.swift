// GirdersNetworking's date utilities against Foundation's formatters, in one run.
import Benchmark
import Foundation
import GirdersNetworking

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
}
