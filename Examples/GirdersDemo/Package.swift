// swift-tools-version: 6.0
import PackageDescription

// GirdersDemo: a command-line client for a small REST service, using the Girders modules together.
let girders: [Target.Dependency] = [
    "GirdersConfig", "GirdersDI", "GirdersLog", "GirdersNetworking", "GirdersHTTPCache", "GirdersWebSocket",
    "GirdersStorage", "GirdersTrema",
].map { .product(name: $0, package: "Girders") }
let testing: Target.Dependency = .product(name: "GirdersNetworkingTesting", package: "Girders")  // HAR record, replay

let package = Package(
    name: "GirdersDemo",
    // Girders' own floors: the example builds wherever Girders does (Scripts/apple-sdk type-checks it).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "Girders", path: "../.."), .package(path: "../../Integrations"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", exact: "1.13.4"),
    ],
    targets: [
        .target(
            name: "GirdersDemoKit",
            // The item list goes through the client generated from the server's OpenAPI document (GirdersDemoAPI)
            // and Girders' OpenAPI transport.
            dependencies: girders
                + ["GirdersOpenAPI", "GirdersDemoAPI"].map { .product(name: $0, package: "Integrations") }
                + [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "TremaPlugin", package: "Girders")]),
        .executableTarget(name: "girders-demo", dependencies: ["GirdersDemoKit"]),
        .testTarget(name: "GirdersDemoTests", dependencies: ["GirdersDemoKit", testing] + girders),
    ]
)
