// swift-tools-version: 6.0
import PackageDescription

/// Girders: modular building blocks for apps and services that talk to REST backends.
///
/// Every module is its own library product, so users pick only what they need. The package has no
/// package dependencies: everything comes from the toolchain and the operating system.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Girders",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GirdersLog", targets: ["GirdersLog"]),
        .library(name: "GirdersConfig", targets: ["GirdersConfig"]),
        .library(name: "GirdersDI", targets: ["GirdersDI"]),
        .library(name: "GirdersNetworking", targets: ["GirdersNetworking"]),
        .library(name: "GirdersNetworkingTesting", targets: ["GirdersNetworkingTesting"]),
        .library(name: "GirdersHTTPCache", targets: ["GirdersHTTPCache"]),
        .library(name: "GirdersWebSocket", targets: ["GirdersWebSocket"]),
        .library(name: "GirdersTrema", targets: ["GirdersTrema"]),
        .library(name: "GirdersStorage", targets: ["GirdersStorage"]),
        .executable(name: "trema", targets: ["trema"]),
        .plugin(name: "TremaPlugin", targets: ["TremaPlugin"]),
    ],
    targets: [
        // Not a product: what several modules need inside (the lock box, text validation, the property-list
        // readers, POSIX file calls, calendar arithmetic), with `package` access. Modules still meet only
        // through protocols; a fix here lands once.
        .target(name: "GirdersSupport", dependencies: ["CGirdersAtomics"], exclude: ["README.md"]),
        // Not a product: atomic loads and stores of one word for GirdersSupport's `AtomicWord`
        // (`Synchronization.Atomic` needs macOS 15 / iOS 18).
        .target(name: "CGirdersAtomics"),
        .testTarget(name: "GirdersSupportTests", dependencies: ["GirdersSupport"]),
        .target(name: "GirdersLog", dependencies: ["GirdersSupport"], exclude: ["README.md"]),
        .testTarget(name: "GirdersLogTests", dependencies: ["GirdersLog"]),
        .target(name: "GirdersConfig", dependencies: ["GirdersSupport"], exclude: ["README.md"]),
        .testTarget(
            name: "GirdersConfigTests", dependencies: ["GirdersConfig", "GirdersSupport"],
            resources: [.copy("Fixtures")]),
        .target(name: "GirdersDI", dependencies: ["GirdersSupport"], exclude: ["README.md"]),
        .testTarget(
            name: "GirdersDITests", dependencies: ["GirdersDI", "GirdersTestLocks"]),
        // Not a product: dlopen, dlsym and their failure messages, for the two C targets below.
        .target(name: "CGirdersLoading", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // libcurl for CurlTransport, the default transport on Linux: declared from its ABI and loaded from
        // libcurl.so.4 at run time, so the build needs no libcurl headers (Linux only, as the dependency says).
        .target(name: "CGirdersCurl", dependencies: ["CGirdersLoading"]),
        // zlib, brotli's decoder and zstd for CurlTransport's content decoding (it checks that a coding ends and
        // bounds its output itself), declared from their ABIs and loaded from libz.so.1, libbrotlidec.so.1 and
        // libzstd.so.1 at run time (Linux only, as the dependency says).
        .target(name: "CGirdersCompression", dependencies: ["CGirdersLoading"]),
        .target(
            name: "GirdersNetworking",
            dependencies: [
                "GirdersConfig", "GirdersLog", "GirdersSupport",
                .target(name: "CGirdersCurl", condition: .when(platforms: [.linux])),
                .target(name: "CGirdersCompression", condition: .when(platforms: [.linux])),
                .target(name: "CGirdersOpenSSL", condition: .when(platforms: [.linux])),
            ],
            exclude: ["README.md"]),
        .testTarget(
            name: "GirdersNetworkingTests",
            dependencies: [
                "GirdersNetworking", "GirdersNetworkingTesting", "GirdersConfig", "GirdersLog", "GirdersTestLocks",
                "GirdersTestProcesses", "GirdersTestServers",
            ]),
        // For the tests of apps and of transports: a server in the test's process, the transport conformance suite,
        // StubTransport, HAR recording and replay. Written against GirdersNetworking's public API only.
        .target(
            name: "GirdersNetworkingTesting", dependencies: ["GirdersNetworking", "GirdersSupport"],
            exclude: ["README.md"]),
        // The RFC 9111 cache: a decorator on GirdersNetworking's public transport seam, with its stores.
        .target(
            name: "GirdersHTTPCache", dependencies: ["GirdersNetworking", "GirdersSupport"], exclude: ["README.md"]),
        .testTarget(
            name: "GirdersHTTPCacheTests",
            dependencies: [
                "GirdersHTTPCache", "GirdersNetworking", "GirdersNetworkingTesting", "GirdersTestProcesses",
                "GirdersTestServers",
            ]),
        // WebSockets (RFC 6455, RFC 7692): framing, deflate, the connection and reconnecting, over the connection any
        // transport hands over after a `101` (GirdersNetworking's `UpgradedConnection`).
        .target(
            name: "GirdersWebSocket",
            dependencies: [
                "GirdersNetworking", "GirdersSupport",
                .target(name: "CGirdersCompression", condition: .when(platforms: [.linux])),
                .target(name: "CGirdersOpenSSL", condition: .when(platforms: [.linux])),
            ],
            exclude: ["README.md"]),
        .testTarget(
            name: "GirdersWebSocketTests",
            dependencies: [
                "GirdersWebSocket", "GirdersNetworking", "GirdersNetworkingTesting", "GirdersTestProcesses",
                "GirdersTestServers",
            ]),
        // Not a product: the servers the networking test targets start (Python scripts in `Server/`) and the
        // transports they run on.
        .target(
            name: "GirdersTestServers",
            dependencies: ["GirdersNetworking", "GirdersNetworkingTesting", "GirdersTestProcesses"],
            path: "Tests/Support/GirdersTestServers", resources: [.copy("Server")]),
        .testTarget(
            name: "GirdersNetworkingTestingTests",
            dependencies: ["GirdersNetworkingTesting", "GirdersNetworking", "GirdersSupport", "GirdersTestProcesses"]),
        .testTarget(
            name: "GirdersSwiftCompatibilityTests",
            dependencies: [
                "GirdersNetworking", "GirdersDI", "GirdersTrema", "GirdersStorage", "GirdersConfig", "GirdersTestLocks",
                "GirdersTestProcesses", "GirdersTestServers",
            ]),
        // Not a product: the locks test targets take around process-wide settings they change.
        .target(name: "GirdersTestLocks", path: "Tests/Support/GirdersTestLocks"),
        // Not a product: child processes for the tests without Foundation's `Process.run()` on Linux, which can
        // read past a buffer when many descriptors are open (swift-corelibs-foundation #5472).
        .target(name: "CGirdersTestSpawn", path: "Tests/Support/CGirdersTestSpawn"),
        .target(
            name: "GirdersTestProcesses",
            dependencies: [.target(name: "CGirdersTestSpawn", condition: .when(platforms: [.linux]))],
            path: "Tests/Support/GirdersTestProcesses"),
        // Runs one large multipart upload in a process of its own, so a test can measure its peak memory.
        .executableTarget(
            name: "TransferProbe", dependencies: ["GirdersNetworking", "GirdersHTTPCache", "GirdersWebSocket"],
            path: "Tests/Support/Probes/TransferProbe"),
        .target(name: "GirdersTrema", dependencies: ["GirdersSupport"], exclude: ["README.md"]),
        // The `trema` command; the target has the product's name so that the build plugin can run it as a tool.
        .executableTarget(name: "trema", dependencies: ["GirdersTrema"], path: "Sources/TremaCLI"),
        // Not a product: an app with nothing configured, which GirdersTrema's tests run beside `.lproj` tables.
        .executableTarget(
            name: "TranslateProbe", dependencies: ["GirdersTrema"], path: "Tests/Support/Probes/TranslateProbe"),
        .testTarget(
            name: "GirdersTremaTests", dependencies: ["GirdersTrema", "GirdersSupport", "GirdersTestProcesses"],
            resources: [.copy("Fixtures")]),
        // Runs `trema generate` for every `.trm` file of a target at build time.
        .plugin(name: "TremaPlugin", capability: .buildTool(), dependencies: ["trema"]),
        // Compiles what the plugin generates from a hostile and an ordinary `.trm` file, and reads it back.
        .testTarget(name: "TremaPluginTests", dependencies: ["GirdersTrema"], plugins: ["TremaPlugin"]),
        // OpenSSL 3's libcrypto for GirdersStorage on Linux, loaded from libcrypto.so.3 the same way.
        .target(name: "CGirdersOpenSSL", dependencies: ["CGirdersLoading"]),
        .target(
            name: "GirdersStorage",
            dependencies: ["GirdersSupport", .target(name: "CGirdersOpenSSL", condition: .when(platforms: [.linux]))],
            exclude: ["FORMAT.md", "README.md"]),
        // Not a product: the helper process GirdersStorage's kill and multi-process tests run.
        .executableTarget(
            name: "StorageStress", dependencies: ["GirdersStorage"], path: "Tests/Support/Probes/StorageStress"),
        .testTarget(
            name: "GirdersStorageTests", dependencies: ["GirdersStorage", "GirdersSupport", "GirdersTestProcesses"],
            resources: [.copy("Scripts")]),
    ]
)

// The strict settings for every target, in one place; the test targets that opt out say why.
let optOuts: [String: [SwiftSetting]] = [
    // GirdersSwift's DI call sites use bare protocol types (`let s: SomeServiceProtocol = Container.resolve()`).
    "GirdersDITests": [.swiftLanguageMode(.v6)],
    // GirdersSwift apps' call shapes as they are written there: Swift 5 language mode, bare protocol types.
    "GirdersSwiftCompatibilityTests": [.swiftLanguageMode(.v5)],
]
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = optOuts[target.name] ?? strictSettings
}
