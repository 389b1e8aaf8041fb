#!/usr/bin/env python3
"""The availability check catches every API the Apple-platform issue names, and passes today's guarded uses.

Most cases run with `--platforms all` (what a contributor without the SDKs runs); by default the check answers only
for watchOS and visionOS, which no SDK here type-checks."""
import os
import subprocess
import sys
import tempfile
import unittest

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check.py")
PACKAGE = """// swift-tools-version: 6.0
import PackageDescription
let package = Package(name: "Planted", platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    targets: [.target(name: "Planted")])
"""


def run(source, package=PACKAGE, *arguments, platforms="all"):
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "Sources", "Planted"))
        with open(os.path.join(root, "Package.swift"), "w") as file:
            file.write(package)
        with open(os.path.join(root, "Sources", "Planted", "Planted.swift"), "w") as file:
            file.write(source)
        chosen = ["--platforms", platforms] if platforms and "--count-apple-only" not in arguments else []
        result = subprocess.run([sys.executable, CHECK, *chosen, *arguments, root], capture_output=True, text=True)
        return result.returncode, result.stdout


class PlantedUses(unittest.TestCase):
    def assertCaught(self, source, *platforms, package=PACKAGE):
        status, output = run(source, package)
        self.assertEqual(status, 1, output)
        for platform in platforms:
            self.assertIn(platform, output)

    def assertPasses(self, source, package=PACKAGE):
        status, output = run(source, package)
        self.assertEqual(status, 0, output)

    def test_string_validating_is_caught(self):
        self.assertCaught("let s = String(validating: bytes, as: UTF8.self)\n", "macOS 15.0", "iOS 18.0", "watchOS 11.0")

    def test_mutex_and_atomic_are_caught(self):
        self.assertCaught("import Synchronization\nlet m = Mutex<Int>(0)\n", "macOS 15.0", "tvOS 18.0")
        self.assertCaught("final class A { let value: Atomic<Int> }\n", "Atomic needs")

    def test_process_is_caught_outside_macos_and_linux(self):
        self.assertCaught("let p = Process()\n", "unavailable on iOS", "unavailable on watchOS")
        status, output = run("let p = Process()\n")
        self.assertNotIn("unavailable on macOS", output)

    def test_lacontext_and_localized_reason_are_caught(self):
        self.assertCaught("import LocalAuthentication\nlet c = LAContext()\n", "unavailable on tvOS")
        self.assertCaught("func f(c: AnyObject) { c.localizedReason = \"x\" }\n", "unavailable on watchOS")

    def test_home_directory_for_current_user_and_glibc_spellings_are_caught(self):
        self.assertCaught("let h = FileManager.default.homeDirectoryForCurrentUser\n", "unavailable on iOS")
        self.assertCaught("let t = Int32(SOCK_STREAM.rawValue)\n", "unavailable on macOS")

    def test_a_package_without_platforms_is_checked_at_swiftpms_defaults(self):
        package = PACKAGE.replace('platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],', "")
        self.assertCaught("func f() async { await withTaskGroup(of: Int.self) { _ in } }\n", "iOS 13.0", package=package)

    def test_guarded_uses_pass(self):
        self.assertPasses("#if canImport(Darwin)\nimport os\n#else\nimport Synchronization\nlet a = Atomic<Int>(0)\n#endif\n")
        self.assertPasses("#if os(macOS) || os(Linux)\nlet p = Process()\n#endif\n")
        self.assertPasses("#if canImport(LocalAuthentication) && !os(tvOS) && !os(watchOS)\n"
                          "func f(c: AnyObject) { let c = LAContext(); c.localizedReason = \"x\" }\n#endif\n")
        self.assertPasses("func f() {\n    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {\n"
                          "        let m = Mutex<Int>(0)\n    }\n}\n")
        self.assertPasses("@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)\nfunc f() {\n"
                          "    let m = Mutex<Int>(0)\n}\n")
        self.assertPasses("// String(validating: bytes, as: UTF8.self) in a comment\nlet s = \"Mutex<Int>(0)\"\n")

    def test_a_guard_too_low_is_still_caught(self):
        self.assertCaught("func f() {\n    if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *) {\n"
                          "        let m = Mutex<Int>(0)\n    }\n}\n", "macOS 15.0")

    def test_a_platform_the_package_raises_its_floor_for_passes(self):
        package = PACKAGE.replace(".macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)",
                                  ".macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)")
        self.assertPasses("let m = Mutex<Int>(0)\n", package=package)

    def test_by_default_only_the_platforms_without_an_sdk_are_checked(self):
        status, output = run("let s = String(validating: bytes, as: UTF8.self)\n", PACKAGE, platforms=None)
        self.assertEqual(status, 1, output)
        self.assertIn("watchOS 11.0", output)
        self.assertNotIn("macOS 15.0", output)
        self.assertNotIn("iOS 18.0", output)
        status, output = run("let p = Process()\n", PACKAGE, platforms="tvOS")
        self.assertIn("unavailable on tvOS", output)
        self.assertNotIn("unavailable on watchOS", output)

    def test_apple_only_lines_are_counted(self):
        source = "#if canImport(Security)\nimport Security\nlet a = 1\n\n// comment\n#else\nlet b = 2\n#endif\nlet c = 3\n"
        status, output = run(source, PACKAGE, "--count-apple-only", "--max", "1")
        self.assertEqual(status, 1, output)
        self.assertIn("apple-only lines no Linux test runs: 2", output)


if __name__ == "__main__":
    unittest.main()
