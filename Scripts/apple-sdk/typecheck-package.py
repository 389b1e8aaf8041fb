#!/usr/bin/env python3
"""Type-checks a package that has package dependencies (Examples/*, Integrations) against the Apple SDKs.

`Scripts/apple-sdk/typecheck.sh` reads one package's own targets from `swift package dump-package` and
knows nothing of its dependencies. This script gives it a package it can read: a flat package in a cache folder
that holds, as local targets, the package's own targets and every target of its dependencies they reach (Girders'
modules, swift-openapi-runtime, ...), each a symbolic link to its real source folder, with the settings, language
mode, dependency conditions, resources and TremaPlugin use they have in their own manifests, and the root
package's platforms. Then it runs the tool in that folder, so every module is checked as SwiftPM would compile it
for the Apple platform (dependencies first; a dependency's test and executable targets are left out).

Usage: typecheck-package.py PACKAGE_DIR [--platforms "macos ios tvos"] [--tests]
Environment: as the tool's (APPLE_SDK_ROOT, APPLE_SDK_WORK, SWIFTC); APPLE_SDK_TOOL, the tool (default:
Scripts/apple-sdk/typecheck.sh beside this script); TREMA, the host `trema` for TremaPlugin
(default: this checkout's .build/debug/trema). Prints the tool's report; exits with its status (2: set-up).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.abspath(os.environ.get("APPLE_SDK_TOOL") or os.path.join(HERE, "typecheck.sh"))
SWIFT = os.path.join(os.path.dirname(os.environ.get("SWIFTC", "/opt/swift/usr/bin/swiftc")), "swift")
PLATFORM_NAMES = {"macos": ".macOS", "ios": ".iOS", "tvos": ".tvOS", "watchos": ".watchOS", "visionos": ".visionOS",
                  "linux": ".linux", "windows": ".windows", "android": ".android", "wasi": ".wasi",
                  "openbsd": ".openbsd", "maccatalyst": ".macCatalyst", "driverkit": ".driverKit"}


def run(args, cwd=None):
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        sys.exit(f"typecheck-package: {' '.join(args)} failed")
    return result.stdout


def packages_of(root):
    """Names a dependant may use for a package (its identity, its name, "<root>") -> (real path, dump)."""
    tree = json.loads(run([SWIFT, "package", "--package-path", root, "show-dependencies", "--format", "json"]))
    found, dumps = {}, {}

    def visit(node, is_root):
        path = os.path.realpath(node["path"])
        if path not in dumps:
            dumps[path] = json.loads(run([SWIFT, "package", "--package-path", path, "dump-package"]))
        entry = (path, dumps[path])
        for key in (["<root>"] if is_root else [node["identity"], node["name"].lower(), dumps[path]["name"].lower()]):
            found.setdefault(key, entry)
        for child in node.get("dependencies", []):
            visit(child, False)

    visit(tree, True)
    return found


def language_mode(dump):
    """The Swift language mode a target without its own setting compiles in, as SwiftPM chooses it."""
    tools = tuple(int(p) for p in dump["toolsVersion"]["_version"].split(".")[:2])
    declared = [str(v) for v in (dump.get("swiftLanguageVersions") or [])]
    if tools < (6, 0):
        return "5" if not declared or "5" in declared or "6" not in declared else "6"
    if declared:
        return "6" if "6" in declared else max(declared)
    return "6"


def swift_condition(condition):
    if not condition:
        return ""
    parts = []
    if condition.get("platformNames"):
        parts.append("platforms: [" + ", ".join(PLATFORM_NAMES[p] for p in condition["platformNames"]) + "]")
    if condition.get("config"):
        parts.append("configuration: ." + condition["config"])
    return ", .when(" + ", ".join(parts) + ")"


def swift_setting(setting, warn):
    (kind, value), = setting["kind"].items()
    v = value.get("_0") if isinstance(value, dict) else value
    when = swift_condition(setting.get("condition"))
    if kind in ("swiftLanguageMode", "swiftLanguageVersion"):
        return f".swiftLanguageMode(.v{v.split('.')[0]}{when})"
    if kind in ("enableUpcomingFeature", "enableExperimentalFeature", "define"):
        return f".{kind}({json.dumps(v)}{when})"
    if kind == "unsafeFlags":
        return f".unsafeFlags({json.dumps(list(v))}{when})"
    if kind == "interoperabilityMode":
        return f".interoperabilityMode(.Cxx{when})"
    warn(f"setting {kind} left out")
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("package")
    parser.add_argument("--platforms", default="macos ios tvos")
    parser.add_argument("--tests", action="store_true")
    args = parser.parse_args()
    root = os.path.realpath(args.package)
    packages = packages_of(root)
    root_path, root_dump = packages["<root>"]

    by_path = {path: (path, dump) for path, dump in packages.values()}

    def realpath_of(key):
        return packages["<root>"][0] if key == "<root>" else key

    def module_name(name):  # SwiftPM's c99name: a target's module name
        return re.sub(r"[^A-Za-z0-9_]", "_", name)

    def target_of(package_key, name):
        path, dump = packages[package_key] if package_key == "<root>" else by_path[package_key]
        return next(t for t in dump["targets"] if t["name"] == name), path, dump

    def product_targets(package, product):
        _, dump = packages[package.lower()]
        return next(p["targets"] for p in dump["products"] if p["name"] == product)

    # The closure of the root's targets: (package key, target name) -> its dependencies as (key, name, condition).
    chosen, order = {}, []

    def visit(key, name):
        if (key, name) in chosen:
            return
        target, _, dump = target_of(key, name)
        local = {t["name"] for t in dump["targets"]}
        deps = []
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            condition = value[-1]
            if kind in ("byName", "target") and value[0] in local:
                deps.append((key, value[0], condition))  # the same package
            elif kind == "product" or kind == "byName":
                package = value[1] if kind == "product" else value[0]
                for t in product_targets(package, value[0]):
                    deps.append((packages[package.lower()][0], t, condition))
        chosen[(key, name)] = deps
        for d in deps:
            visit(d[0], d[1])
        order.append((key, name))

    for t in root_dump["targets"]:
        if t["type"] in ("regular", "executable") or (t["type"] == "test" and args.tests):
            visit("<root>", t["name"])

    cache = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "girders-apple-sdk")
    flat = os.path.join(cache, "flat", os.path.basename(root).lower())
    shutil.rmtree(flat, ignore_errors=True)
    os.makedirs(os.path.join(flat, "T"))
    names = {}
    for key, name in order:
        if name in names and names[name] != key:
            sys.exit(f"typecheck-package: two targets are named {name}")
        names[name] = key
    warnings = []
    lines, plugins = [], set()
    for key, name in order:
        target, path, dump = target_of(key, name)
        if key != "<root>" and target["type"] not in ("regular", "system-target"):
            continue
        source = os.path.join(path, target.get("path") or os.path.join("Sources", name)) \
            if target["type"] != "test" or target.get("path") else os.path.join(path, "Tests", name)
        os.symlink(os.path.realpath(source), os.path.join(flat, "T", module_name(name)))
        deps = ", ".join(f'.target(name: "{module_name(n)}"{swift_condition(c).replace(", .when(", ", condition: .when(")})' for _, n, c in chosen[(key, name)])
        settings = [s for s in (swift_setting(s, lambda m: warnings.append(f"{name}: {m}"))
                                for s in target.get("settings", []) if s.get("tool") == "swift") if s]
        if not any(s.startswith(".swiftLanguageMode(") and ".when(" not in s for s in settings):
            settings.insert(0, f".swiftLanguageMode(.v{language_mode(dump)})")
        fields = [f'name: "{module_name(name)}"', f"dependencies: [{deps}]", f'path: "T/{module_name(name)}"']
        if target.get("exclude"):
            fields.append("exclude: " + json.dumps(target["exclude"]))
        if target.get("resources"):
            fields.append("resources: [" + ", ".join(f".copy({json.dumps(r['path'])})" for r in target["resources"])
                          + "]")
        if target.get("publicHeadersPath"):
            fields.append(f'publicHeadersPath: {json.dumps(target["publicHeadersPath"])}')
        if settings:
            fields.append("swiftSettings: [" + ", ".join(settings) + "]")
        used = [u["plugin"][0] for u in target.get("pluginUsages") or [] if "plugin" in u]
        if used:
            plugins |= set(used)
            fields.append("plugins: [" + ", ".join(f'.plugin(name: "{p}")' for p in used) + "]")
        kind = {"regular": "target", "executable": "executableTarget", "test": "testTarget"}[target["type"]]
        lines.append(f"        .{kind}({', '.join(fields)}),")
    for plugin in sorted(plugins):
        os.makedirs(os.path.join(flat, "P", plugin))
        lines.append(f'        .plugin(name: "{plugin}", capability: .buildTool(), path: "P/{plugin}"),')
    platforms = ", ".join(f'{PLATFORM_NAMES[p["platformName"]]}("{p["version"]}")'
                          for p in root_dump.get("platforms", []))
    with open(os.path.join(flat, "Package.swift"), "w") as f:
        f.write("// swift-tools-version: 6.0\n// Generated by Scripts/apple-sdk/typecheck-package.py from "
                f"{root}: do not edit.\nimport PackageDescription\n\n"
                f'let package = Package(\n    name: "{os.path.basename(root)}", platforms: [{platforms}],\n'
                "    targets: [\n" + "\n".join(lines) + "\n    ])\n")
    for w in warnings:
        print("typecheck-package: " + w)
    env = dict(os.environ, PLATFORMS=args.platforms, TESTS="1" if args.tests else "0")
    if not os.path.isfile(TOOL):
        sys.exit(f"typecheck-package: no type-check tool at {TOOL}")
    env.setdefault("TREMA", os.path.join(CHECKOUT, ".build", "debug", "trema"))
    print(f"== {os.path.relpath(root, CHECKOUT)}: {len(lines)} targets with its dependencies ({flat})", flush=True)
    # Third-party sources are checked too (our modules need theirs), but this compiler is newer than the SDKs'
    # Swift: a dependency's `#if compiler(>=6.3)` branch may use what only a newer SDK has (HTTPTypes' `Span`), where
    # Xcode's own compiler takes the other branch. Their failures are reported, not counted against Girders.
    def is_ours(path):  # in this repository, not a checkout of a dependency under some .build folder
        relative = os.path.relpath(path, CHECKOUT)
        return not relative.startswith("..") and not any(p.startswith(".build") for p in relative.split(os.sep))
    ours = {module_name(n) for k, n in order if is_ours(realpath_of(k))}
    process = subprocess.Popen(["bash", TOOL], cwd=flat, env=env, stdout=subprocess.PIPE, text=True)
    ok, failed, theirs, status_line = 0, [], [], None
    for line in process.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        m = re.match(r"^  (ok|FAIL)\s+(\S+)", line)
        if m:
            name = m.group(2)
            if name not in ours:
                if m.group(1) == "FAIL":
                    theirs.append(name)
            elif m.group(1) == "ok":
                ok += 1
            else:
                failed.append(name)
        if line.startswith("apple-sdk:"):
            status_line = line
    status = process.wait()
    if status == 2 or status_line is None:
        sys.exit(2)
    label = os.path.relpath(root, CHECKOUT)
    print(f"apple-sdk ({label}): {ok} checks of Girders modules pass, {len(failed)} fail"
          + (f" ({', '.join(failed)})" if failed else "")
          + (f"; not Girders' (third-party sources, this compiler newer than the SDK): {', '.join(sorted(set(theirs)))}"
             if theirs else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
