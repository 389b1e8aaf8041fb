// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which differs between clones ("main", "girders", ...).
let girders = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

/// Whether the Girders beside this package (Scripts/compare-http.sh builds an earlier commit with this package's
/// sources) has `CurlTransport.taskExecutor`: GirdersThroughput's girders-curl-executor client needs it.
let girdersHasTaskExecutor: Bool = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let source = root.appendingPathComponent("Sources/GirdersNetworking/Transports/Curl/CurlTransport.swift")
    return (try? String(contentsOf: source, encoding: .utf8))?.contains("public var taskExecutor") ?? false
}()

/// Whether the Girders beside this package has the cache and WebSockets as modules of their own (GirdersHTTPCache and
/// GirdersWebSocket, carved out of GirdersNetworking together); an earlier commit has both in GirdersNetworking.
let girdersHasCacheModule = FileManager.default.fileExists(
    atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/GirdersHTTPCache").path)

/// Whether the Girders beside this package keeps the cookie jar on `HTTPClient` (an earlier commit kept it on each
/// transport): GirdersThroughput gives its libcurl clients no jar either way.
let girdersHasClientCookieJar: Bool = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    let source = root.appendingPathComponent("Sources/GirdersNetworking/Client/HTTPClient.swift")
    return (try? String(contentsOf: source, encoding: .utf8))?.contains("public let cookieJar") ?? false
}()

/// Side-by-side benchmarks of Girders against the libraries it replaces (with Integrations/, the packages that have
/// dependencies).
let package = Package(
    name: "GirdersBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", exact: "1.4.0", traits: ["PropertyList"]),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/Swinject/Swinject.git", exact: "2.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(path: "../Integrations"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", exact: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", exact: "1.5.0"),
    ],
    targets: [
        benchmark(
            "LogBenchmarks",
            [
                .product(name: "GirdersLog", package: girders), .product(name: "Logging", package: "swift-log"),
            ]),
        benchmark(
            "ConfigBenchmarks",
            [
                .product(name: "GirdersConfig", package: girders),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),
        benchmark(
            "NetworkingBenchmarks",
            [.product(name: "GirdersNetworking", package: girders), .product(name: "GirdersLog", package: girders)]),
        benchmark("TremaBenchmarks", [.product(name: "GirdersTrema", package: girders)]),
        // Raw libcrypto AES-256-GCM, the baseline for GirdersStorage's encryption.
        .systemLibrary(name: "CBenchOpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        benchmark("StorageBenchmarks", [.product(name: "GirdersStorage", package: girders), "CBenchOpenSSL"]),
        // HTTP clients side by side against nginx (Scripts/bench-http.sh): Girders on both transports (alone in
        // GirdersThroughput, so Scripts/compare-http.sh builds it against another commit quickly), bare URLSession
        // and AsyncHTTPClient, and the limit: libcurl in C (the easy interface one at a time, multi for 16).
        .executableTarget(
            name: "GirdersThroughput",
            dependencies: ["BenchSupport", .product(name: "GirdersNetworking", package: girders)]
                + (girdersHasCacheModule ? [.product(name: "GirdersHTTPCache", package: girders)] : []),
            swiftSettings: [.swiftLanguageMode(.v6)]
                + (girdersHasTaskExecutor ? [.define("GIRDERS_TASK_EXECUTOR")] : [])
                + (girdersHasClientCookieJar ? [.define("GIRDERS_CLIENT_COOKIE_JAR")] : [])),
        .executableTarget(
            name: "HTTPThroughput",
            dependencies: [
                "BenchSupport", .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // Girders' WebSocket client against PyPI's websockets server, beside its Python client
        // (Scripts/bench-websocket.sh).
        .executableTarget(
            name: "WebSocketThroughput",
            dependencies: ["BenchSupport", .product(name: "GirdersNetworking", package: girders)]
                + (girdersHasCacheModule ? [.product(name: "GirdersWebSocket", package: girders)] : []),
            swiftSettings: [.swiftLanguageMode(.v6)]),
        .systemLibrary(name: "CBenchCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .executableTarget(name: "CurlLimit", dependencies: ["CBenchCurl"]),
        // Peak memory and CPU time of a benchmark's own process.
        .target(name: "BenchSupport", swiftSettings: [.swiftLanguageMode(.v6)]),
        // The example app's generated client (Integrations' GirdersDemoAPI; its `GET /stats` is a static file on
        // nginx), sent through Girders' OpenAPI transport and through swift-openapi-async-http-client.
        .executableTarget(
            name: "OpenAPIThroughput",
            dependencies: [
                "BenchSupport", .product(name: "GirdersNetworking", package: girders),
                .product(name: "GirdersOpenAPI", package: "integrations"),
                .product(name: "GirdersDemoAPI", package: "integrations"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        benchmark(
            "DIBenchmarks",
            [.product(name: "GirdersDI", package: girders), .product(name: "Swinject", package: "Swinject")]),
    ]
)

/// A package-benchmark executable in `Benchmarks/<name>` with the Benchmark library and its plugin.
func benchmark(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")] + dependencies,
        path: "Benchmarks/\(name)",
        swiftSettings: [.swiftLanguageMode(.v6)],
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
