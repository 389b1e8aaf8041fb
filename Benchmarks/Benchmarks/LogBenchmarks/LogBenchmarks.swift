// GirdersLog side by side with apple/swift-log, in one run.
import Benchmark
import Foundation
import GirdersLog
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Both libraries' console handlers write to standard error; it is pointed at /dev/null once, before any
/// benchmark runs, so both pay for formatting and the `write` call but not for a terminal.
let silenceStandardError: Void = {
    let null = open("/dev/null", O_WRONLY)
    if null >= 0 {
        dup2(null, 2)
        close(null)
    }
}()

let benchmarks: @Sendable () -> Void = {
    _ = silenceStandardError
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], warmupIterations: 3, scalingFactor: .kilo,
        maxDuration: .seconds(2), maxIterations: 10_000)

    // MARK: A call below the level: nothing built, nothing allocated.

    let girdersDisabled = GirdersLog.Logger(
        label: "bench", destination: ConsoleDestination(stream: .standardError, minimumLevel: .error))
    Benchmark("Disabled call: GirdersLog Logger.debug") { benchmark in
        for index in benchmark.scaledIterations {
            girdersDisabled.debug("request \(index) finished")
        }
    }

    var swiftLogDisabled = Logging.Logger(label: "bench") { StreamLogHandler.standardError(label: $0) }
    swiftLogDisabled.logLevel = .error
    let swiftLogDisabledCopy = swiftLogDisabled
    Benchmark("Disabled call: swift-log Logger.debug") { benchmark in
        for index in benchmark.scaledIterations {
            swiftLogDisabledCopy.debug("request \(index) finished")
        }
    }

    Benchmark(
        "Disabled call: GirdersLog Log.debug facade",
        configuration: .init(setup: {
            Log.logger = GirdersLog.Logger(
                label: "bench", destination: ConsoleDestination(stream: .standardError), level: .error)
        })
    ) { benchmark in
        for index in benchmark.scaledIterations {
            Log.debug("request \(index) finished")
        }
    }

    // MARK: Enabled lines into a console destination writing to /dev/null.

    let girdersConsole = GirdersLog.Logger(label: "bench", destination: ConsoleDestination(stream: .standardError))
    Benchmark("Console line: GirdersLog ConsoleDestination") { benchmark in
        for index in benchmark.scaledIterations {
            girdersConsole.info("request \(index) finished", metadata: ["user": "alice"])
        }
    }

    var swiftLogConsole = Logging.Logger(label: "bench") { StreamLogHandler.standardError(label: $0) }
    swiftLogConsole.logLevel = .info
    let swiftLogConsoleCopy = swiftLogConsole
    Benchmark("Console line: swift-log StreamLogHandler") { benchmark in
        for index in benchmark.scaledIterations {
            swiftLogConsoleCopy.info("request \(index) finished", metadata: ["user": "alice"])
        }
    }

    // MARK: The file destination, sustained, with every line on disk after flush().

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("girders-log-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    Benchmark(
        "File destination: lines through flush()",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .writeBytesLogical], scalingFactor: .mega,
            maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark in
        let url = folder.appendingPathComponent("bench-\(UUID().uuidString).log")
        guard let file = try? FileDestination(url: url) else {
            fatalError("cannot open \(url.path)")
        }
        let logger = GirdersLog.Logger(label: "bench", destination: file)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            logger.info("request \(index) finished", metadata: ["user": "alice"])
        }
        file.flush()
        benchmark.stopMeasurement()
        try? FileManager.default.removeItem(at: url)
    }
}
