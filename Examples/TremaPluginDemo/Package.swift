// swift-tools-version: 6.0
import PackageDescription

// Texts generated at build time from Texts.trm and Errors.trm by Girders' TremaPlugin.
let package = Package(
    name: "TremaPluginDemo",
    dependencies: [.package(name: "Girders", path: "../..")],
    targets: [
        .executableTarget(
            name: "TremaPluginDemo",
            dependencies: [.product(name: "GirdersTrema", package: "Girders")],
            plugins: [.plugin(name: "TremaPlugin", package: "Girders")])
    ]
)
