#if os(macOS) || os(Linux)
import Foundation

/// A tool some tests need that the Swift toolchain does not bring: a Python package from PyPI or a Debian command.
///
/// A test that needs one is enabled only where the tool is there (each test target's `.requires(_:)` trait), and
/// otherwise skips with ``skipNote``: one line naming the tool and the command that installs it. So `swift test` passes
/// on a machine with the toolchain alone. `Scripts/install-test-tools.sh` installs every tool at once; `.ci/run` runs
/// it, sets `GIRDERS_REQUIRE_TEST_TOOLS=1` (a missing tool then fails its tests instead of skipping them) and fails on
/// any line with ``skipMarker``, so CI can never go green by skipping.
public enum TestTool: String, CaseIterable, Sendable {
    /// PyPI's `websockets` 13.1: the third-party WebSocket server (`Server/websocket_server.py`).
    case websockets
    /// PyPI's `babel` 2.19.0: the plural rules' oracle and generator (CLDR's data, as babel carries it).
    case babel
    /// PyPI's `cryptography`: the storage tests' independent reader and writer of stores.
    case cryptography
    /// Debian's `nginx` (`nginx-light`): the HTTP/2 test's server.
    case nginx
    /// The `openssl` command: the TLS test server's certificates.
    case openssl
    /// Debian's `unicode-cldr-core`: CLDR's own `plurals.xml`, with the sample numbers of every rule.
    case cldr

    /// What every skip line starts with; `.ci/run` fails on it.
    public static let skipMarker = "missing tool:"

    /// Where `unicode-cldr-core` puts CLDR's plural rules.
    public static let cldrPluralsFile = "/usr/share/unicode/cldr/common/supplemental/plurals.xml"

    /// The tool as a person would name it.
    public var name: String {
        switch self {
        case .websockets: "Python's websockets 13.1"
        case .babel: "Python's babel 2.19.0"
        case .cryptography: "Python's cryptography"
        case .nginx: "nginx"
        case .openssl: "the openssl command"
        case .cldr: "CLDR's data (unicode-cldr-core)"
        }
    }

    /// The command that installs the tool alone.
    public var installCommand: String {
        switch self {
        case .websockets: "python3 -m pip install websockets==13.1"
        case .babel: "python3 -m pip install babel==2.19.0"
        case .cryptography: "python3 -m pip install cryptography"
        case .nginx: "apt-get install nginx-light"
        case .openssl: "apt-get install openssl"
        case .cldr: "apt-get install unicode-cldr-core"
        }
    }

    /// The one line a test that needs the tool skips with.
    public var skipNote: String {
        "\(Self.skipMarker) \(name) (\(installCommand); every tool: Scripts/install-test-tools.sh)"
    }

    /// Whether the tool is on this machine (checked once per process), or `GIRDERS_REQUIRE_TEST_TOOLS=1` asks every
    /// test to run whatever is missing.
    public func isAvailable() async -> Bool {
        if ProcessInfo.processInfo.environment["GIRDERS_REQUIRE_TEST_TOOLS"] == "1" { return true }
        return await Self.checks[self]?.value ?? false
    }

    private static let checks: [TestTool: Task<Bool, Never>] = Dictionary(
        uniqueKeysWithValues: allCases.map { tool in (tool, Task { await tool.check() }) })

    private func check() async -> Bool {
        switch self {
        case .websockets: await Self.python(imports: "websockets", version: "13.1")
        case .babel: await Self.python(imports: "babel", version: "2.19.0")
        case .cryptography: await Self.python(imports: "cryptography", version: nil)
        case .nginx:
            ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].contains {
                FileManager.default.isExecutableFile(atPath: $0)
            }
        case .openssl:
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/openssl")
            }
        case .cldr: FileManager.default.isReadableFile(atPath: Self.cldrPluralsFile)
        }
    }

    /// Whether the `python3` on the PATH imports `module` (at exactly `version`, when given).
    private static func python(imports module: String, version: String?) async -> Bool {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let check = version.map { "sys.exit(\(module).__version__ != '\($0)')" } ?? "sys.exit(0)"
        process.arguments = ["python3", "-c", "import sys, \(module); \(check)"]
        guard let run = try? await process.runToEnd() else { return false }
        return run.status == 0
    }
}
#endif
