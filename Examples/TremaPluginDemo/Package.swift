// swift-tools-version: 6.0
import PackageDescription

// Texts generated at build time from Texts.trm and Errors.trm by Girders' TremaPlugin.
let package = Package(
    name: "TremaPluginDemo",
    // At least Girders' floors: SwiftPM on Apple platforms rejects a dependency that needs more than its dependant.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(name: "Girders", path: "../..")],
    targets: [
        .executableTarget(
            name: "TremaPluginDemo",
            dependencies: [.product(name: "GirdersTrema", package: "Girders")],
            plugins: [.plugin(name: "TremaPlugin", package: "Girders")])
    ]
)
