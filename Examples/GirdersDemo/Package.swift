// swift-tools-version: 6.0
import PackageDescription

// GirdersDemo: a command-line client for a small REST service, using all six Girders modules together.
let girders: [Target.Dependency] = [
    "GirdersConfig", "GirdersDI", "GirdersLog", "GirdersNetworking", "GirdersStorage", "GirdersTrema",
].map { .product(name: $0, package: "Girders") }

let package = Package(
    name: "GirdersDemo",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Girders", path: "../..")],
    targets: [
        .target(
            name: "GirdersDemoKit", dependencies: girders,
            plugins: [.plugin(name: "TremaPlugin", package: "Girders")]),
        .executableTarget(name: "girders-demo", dependencies: ["GirdersDemoKit"]),
        .testTarget(name: "GirdersDemoTests", dependencies: ["GirdersDemoKit"] + girders),
    ]
)
