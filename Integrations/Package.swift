// swift-tools-version: 6.0
import PackageDescription

import struct Foundation.URL

/// SwiftPM names a path dependency after its folder, which differs between clones ("main", "girders", ...).
let girders = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let settings: [SwiftSetting] = [
    .swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Girders in the server-side Swift ecosystem: one product per integration, each depending on Girders by path and
/// on the ecosystem package it bridges to. Girders itself keeps no package dependencies.
let package = Package(
    name: "GirdersIntegrations",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GirdersMetrics", targets: ["GirdersMetrics"]),
        .library(name: "GirdersOpenAPI", targets: ["GirdersOpenAPI"]),
        // The example app's API (Examples/GirdersDemo), generated: for the example and the OpenAPI tests.
        .library(name: "GirdersDemoAPI", targets: ["GirdersDemoAPI"]),
        .library(name: "GirdersSwiftLog", targets: ["GirdersSwiftLog"]),
        .library(name: "GirdersTracing", targets: ["GirdersTracing"]),
    ],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-http-types.git", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", exact: "1.7.3"),
        // Tests only: reads the `traceparent` field a W3C propagator wrote.
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", exact: "1.0.0"),
    ],
    targets: [
        .target(
            name: "GirdersMetrics",
            dependencies: [
                .product(name: "GirdersNetworking", package: girders),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ], swiftSettings: settings),
        .testTarget(
            name: "GirdersMetricsTests",
            dependencies: [
                "GirdersMetrics", .product(name: "GirdersNetworking", package: girders),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ], swiftSettings: settings),
        .target(
            name: "GirdersOpenAPI",
            dependencies: [
                .product(name: "GirdersNetworking", package: girders),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], swiftSettings: settings),
        .target(
            name: "GirdersDemoAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], exclude: ["openapi.yaml", "openapi-generator-config.yaml"], swiftSettings: [.swiftLanguageMode(.v6)]),
        .testTarget(
            name: "GirdersOpenAPITests",
            dependencies: [
                "GirdersOpenAPI", "GirdersDemoAPI", .product(name: "GirdersNetworking", package: girders),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], exclude: ["Server"], swiftSettings: settings),
        .target(
            name: "GirdersSwiftLog",
            dependencies: [
                .product(name: "GirdersLog", package: girders), .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: settings),
        .testTarget(
            name: "GirdersSwiftLogTests",
            dependencies: [
                "GirdersSwiftLog", .product(name: "GirdersLog", package: girders),
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: settings),
        .target(
            name: "GirdersTracing",
            dependencies: [
                .product(name: "GirdersNetworking", package: girders),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ], swiftSettings: settings),
        .testTarget(
            name: "GirdersTracingTests",
            dependencies: [
                "GirdersTracing", .product(name: "GirdersNetworking", package: girders),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ], swiftSettings: settings),
    ]
)
