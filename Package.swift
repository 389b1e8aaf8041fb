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
        .library(name: "GirdersTrema", targets: ["GirdersTrema"]),
        .library(name: "GirdersStorage", targets: ["GirdersStorage"]),
        .executable(name: "trema", targets: ["TremaCLI"]),
    ],
    targets: [
        .target(name: "GirdersLog", swiftSettings: strictSettings),
        .testTarget(name: "GirdersLogTests", dependencies: ["GirdersLog"], swiftSettings: strictSettings),
        .target(name: "GirdersConfig", swiftSettings: strictSettings),
        .testTarget(
            name: "GirdersConfigTests", dependencies: ["GirdersConfig"], resources: [.copy("Fixtures")],
            swiftSettings: strictSettings),
        .target(name: "GirdersDI", swiftSettings: strictSettings),
        // Written with GirdersSwift's call sites as they are (bare protocol types), so without ExistentialAny.
        .testTarget(
            name: "GirdersDITests", dependencies: ["GirdersDI", "GirdersTestLocks"],
            swiftSettings: [.swiftLanguageMode(.v6)]),
        // libcurl (libcurl4-openssl-dev) for CurlTransport, the default transport on Linux.
        .systemLibrary(
            name: "CGirdersCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(
            name: "GirdersNetworking",
            dependencies: [
                "GirdersConfig", "GirdersLog", .target(name: "CGirdersCurl", condition: .when(platforms: [.linux])),
            ],
            exclude: ["README.md"], swiftSettings: strictSettings),
        .testTarget(
            name: "GirdersNetworkingTests",
            dependencies: ["GirdersNetworking", "GirdersConfig", "GirdersLog", "GirdersTestLocks"],
            resources: [.copy("Server")], swiftSettings: [.swiftLanguageMode(.v6)]),
        // GirdersSwift apps' call shapes as they are written there: Swift 5 language mode, bare protocol types.
        .testTarget(
            name: "GirdersSwiftCompatibilityTests",
            dependencies: [
                "GirdersNetworking", "GirdersDI", "GirdersTrema", "GirdersStorage", "GirdersConfig", "GirdersTestLocks",
            ],
            swiftSettings: [.swiftLanguageMode(.v5)]),
        // Not a product: the locks test targets take around process-wide settings they change.
        .target(name: "GirdersTestLocks", path: "Tests/Support/GirdersTestLocks", swiftSettings: strictSettings),
        // Runs one large multipart upload in a process of its own, so a test can measure its peak memory.
        .executableTarget(name: "TransferProbe", dependencies: ["GirdersNetworking"], swiftSettings: strictSettings),
        .target(name: "GirdersTrema", swiftSettings: strictSettings),
        .executableTarget(name: "TremaCLI", dependencies: ["GirdersTrema"], swiftSettings: strictSettings),
        // Not a product: an app with nothing configured, which GirdersTrema's tests run beside `.lproj` tables.
        .executableTarget(name: "TranslateProbe", dependencies: ["GirdersTrema"], swiftSettings: strictSettings),
        .testTarget(
            name: "GirdersTremaTests", dependencies: ["GirdersTrema"], resources: [.copy("Fixtures")],
            swiftSettings: strictSettings),
        .systemLibrary(
            name: "CGirdersOpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "GirdersStorage",
            dependencies: [.target(name: "CGirdersOpenSSL", condition: .when(platforms: [.linux]))],
            exclude: ["FORMAT.md"], swiftSettings: strictSettings),
        // Not a product: the helper process GirdersStorage's kill and multi-process tests run.
        .executableTarget(name: "StorageStress", dependencies: ["GirdersStorage"], swiftSettings: strictSettings),
        .testTarget(
            name: "GirdersStorageTests", dependencies: ["GirdersStorage"], resources: [.copy("Scripts")],
            swiftSettings: strictSettings),
    ]
)
