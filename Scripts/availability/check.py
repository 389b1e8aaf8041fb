#!/usr/bin/env python3
"""Girders' availability check, for the Apple platforms no SDK here can type-check: watchOS and visionOS.

macOS, iOS and tvOS are type-checked against real SDKs (Scripts/apple-sdk/check.sh, in .ci/run), which sees
everything this check can and more; this check answers only for the platforms without an SDK at hand (or, with
`--platforms all`, for all of them on a machine without the SDKs). It reads what the toolchain knows instead:
  * the Apple availability attributes in the toolchain's own .swiftinterface files (Swift, _Concurrency,
    Synchronization, ...): every type, global function and initialiser introduced after a package's floor;
  * RULES below, for the Apple SDK APIs this toolchain has no interface for (Foundation, Security, Darwin):
    symbols that are missing on some Apple platforms, or newer than the floor there.
Each file belongs to the nearest Package.swift above it; its `platforms:` give the floors (SwiftPM's defaults
when it declares none). `#if` branches are judged by the platforms they compile on (a Linux-only `#else` may use
Atomic), and `if #available` / `guard #available` / `@available` guard what they enclose.

Usage: check.py [--platforms watchOS,visionOS|all] [ROOT]
                                    check every package under ROOT (default: the repository) for those platforms
                                    (default: watchOS and visionOS); exit 1 on a finding
       check.py --count-apple-only [ROOT] [--max N]
                                    count the non-blank, non-comment lines of Sources/ and Plugins/ that compile
                                    only on Apple platforms; exit 1 above N
"""
import glob
import os
import re
import sys

APPLE = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
PLATFORMS = APPLE + ["Linux"]
# SwiftPM's deployment targets for a package that declares none (tools version 6.0).
DEFAULT_FLOORS = {"macOS": (10, 13), "iOS": (12, 0), "tvOS": (12, 0), "watchOS": (4, 0), "visionOS": (1, 0)}
# Which modules `canImport` finds where (None: not known, both branches are checked).
MODULES = {
    "Darwin": set(APPLE), "Security": set(APPLE), "CryptoKit": set(APPLE), "os": set(APPLE),
    "LocalAuthentication": set(APPLE), "CoreFoundation": set(PLATFORMS), "Foundation": set(PLATFORMS),
    "Dispatch": set(PLATFORMS), "Synchronization": set(PLATFORMS), "Testing": set(PLATFORMS),
    "XCTest": set(PLATFORMS), "UIKit": {"iOS", "tvOS", "visionOS"}, "AppKit": {"macOS"},
    "WatchKit": {"watchOS"}, "Network": set(APPLE),
    "Glibc": {"Linux"}, "Musl": set(), "FoundationNetworking": {"Linux"}, "FoundationXML": {"Linux"},
    "CGirdersCurl": {"Linux"}, "CGirdersOpenSSL": {"Linux"},
}
# The Apple SDK symbols no interface here describes: a regular expression, and per platform "unavailable" or
# the version that introduced it. Keep this list short and sourced (shared/notes/apple-platforms.md).
RULES = [
    (r"\bProcess\s*\(|\bProcess\.|:\s*Process\b", "Process (Foundation)",
     {"iOS": "unavailable", "tvOS": "unavailable", "watchOS": "unavailable", "visionOS": "unavailable"}),
    (r"\bLAContext\b", "LAContext (LocalAuthentication)", {"tvOS": "unavailable"}),
    (r"\.localizedReason\b", "LAContext.localizedReason", {"tvOS": "unavailable", "watchOS": "unavailable"}),
    (r"\bhomeDirectoryForCurrentUser\b", "FileManager.homeDirectoryForCurrentUser",
     {p: "unavailable" for p in ["iOS", "tvOS", "watchOS", "visionOS"]}),
    (r"\bSOCK_(STREAM|DGRAM|RAW)\.rawValue\b", "SOCK_*.rawValue (Glibc's spelling; Darwin imports an Int32)",
     {p: "unavailable" for p in APPLE}),
    (r"\bkSecImportToMemoryOnly\b", "kSecImportToMemoryOnly",
     {"macOS": (15, 0), "iOS": (18, 0), "tvOS": (18, 0), "watchOS": (11, 0), "visionOS": (2, 0)}),
    (r"\bString\s*\(\s*validating\s*:", "String(validating:as:)",
     {"macOS": (15, 0), "iOS": (18, 0), "tvOS": (18, 0), "watchOS": (11, 0), "visionOS": (2, 0)}),
]
INTERFACE_MODULES = ["Swift", "_Concurrency", "Synchronization", "_StringProcessing", "RegexBuilder", "Observation",
                     "Distributed"]


def version(text):
    parts = [int(p) for p in text.split(".") if p.isdigit()]
    return tuple((parts + [0, 0])[:2])


def availability(attribute):
    """{platform: version} of an @available / #available argument list; {} when it introduces nothing."""
    found = {}
    for platform, number in re.findall(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s+(\d+(?:\.\d+)*)", attribute):
        found[platform] = version(number)
    for platform, number in re.findall(r"\b(macOS|iOS|tvOS|watchOS|visionOS)\s*,\s*introduced:\s*(\d+(?:\.\d+)*)",
                                       attribute):
        found[platform] = version(number)
    return found


def interface_symbols():
    """(pattern, name, {platform: version}) for the types, global functions and initialisers the toolchain's
    interfaces mark with an Apple availability. Overloads count by their oldest declaration: a name any of
    whose declarations is always available is never reported."""
    root = os.path.join(os.path.dirname(os.path.realpath(shutil_which("swiftc") or "/opt/swift/usr/bin/swiftc")), "..",
                        "lib", "swift_static", "linux")
    declarations = {}  # key -> (pattern, name, [availability or None per declaration])
    for module in INTERFACE_MODULES:
        for path in glob.glob(os.path.join(root, module + ".swiftmodule", "*-linux-gnu.swiftinterface")):
            pending = None
            owner = None
            for line in open(path, encoding="utf-8", errors="replace"):
                stripped = line.strip()
                top_level = not line[:1].isspace()
                for attribute in re.findall(r"@available\(([^)]*)\)", stripped):
                    found = availability(attribute)
                    if found:
                        pending = found
                if stripped.startswith("@") and not re.search(
                        r"\b(struct|class|enum|protocol|actor|func|init|typealias|extension)\b", stripped):
                    continue
                declaration = re.sub(r"@\w+(\([^)]*\))?\s*", "", stripped)
                type_match = re.search(r"\b(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)", declaration)
                extension_match = re.match(r"(?:public\s+)?extension\s+(?:Swift\.)?(\w+)", declaration)
                func_match = re.search(r"\bfunc\s+(\w+)", declaration)
                init_match = re.search(r"\binit[?!]?(?:<[^>]*>)?\(\s*(\w+)", declaration)
                entry = None
                if top_level and (extension_match or type_match):
                    owner = (extension_match or type_match).group(1)
                if top_level and type_match and not type_match.group(1).startswith("_"):
                    name = type_match.group(1)
                    entry = (name, r"(?<![\w.])" + name + r"\s*[<(.]|:\s*" + name + r"\b", name)
                elif top_level and func_match and not func_match.group(1).startswith("_"):
                    name = func_match.group(1)
                    entry = (name + "()", r"(?<![\w.])" + name + r"\s*[<(]", name + "(...)")
                elif init_match and owner and not top_level and line.startswith("  ") and not line.startswith("   "):
                    label = init_match.group(1)
                    if label != "_" and not label.startswith("_"):
                        key = owner + "(" + label + ":"
                        entry = (key, r"(?<![\w.])" + owner + r"\s*\(\s*" + label + r"\s*:", key + ")")
                if entry and (type_match or func_match or init_match):
                    key, pattern, name = entry
                    declarations.setdefault(key, (pattern, name, []))[2].append(pending)
                if type_match or func_match or init_match or extension_match:
                    pending = None
    symbols = []
    for pattern, name, versions in declarations.values():
        if any(not v for v in versions):
            continue
        oldest = {}
        for platform in APPLE:
            known = [v[platform] for v in versions if platform in v]
            if len(known) == len(versions):
                oldest[platform] = min(known)
        if oldest:
            symbols.append((pattern, name, oldest))
    return symbols


def shutil_which(name):
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def package_floors(package_swift):
    """{platform: floor} of the Apple platforms a package is built for: every one at SwiftPM's defaults when it
    declares none; else those it declares, plus visionOS (at 1.0 unless declared) when it declares iOS, since
    Xcode builds iOS packages for visionOS too."""
    text = open(package_swift, encoding="utf-8").read()
    floors = dict(DEFAULT_FLOORS)
    block = re.search(r"platforms:\s*\[(.*?)\]", text, re.S)
    if block:
        declared = set(re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(", block.group(1)))
        if "iOS" in declared:
            declared.add("visionOS")
        floors = {p: v for p, v in floors.items() if p in declared}
        for platform, number in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\.v(\d+(?:_\d+)?)", block.group(1)):
            floors[platform] = version(number.replace("_", "."))
        for platform, number in re.findall(r"\.(macOS|iOS|tvOS|watchOS|visionOS)\(\s*\"(\d+(?:\.\d+)*)\"", block.group(1)):
            floors[platform] = version(number)
    return floors


def evaluate(condition, platform):
    """True, False or None (unknown) for a #if condition on `platform`."""
    tokens = re.findall(r"\|\||&&|!|\(|\)|[A-Za-z_]\w*\s*\([^()]*\)|[A-Za-z_]\w*", condition)
    position = 0

    def atom():
        nonlocal position
        token = tokens[position]
        position += 1
        if token == "!":
            value = atom()
            return None if value is None else not value
        if token == "(":
            value = disjunction()
            position += 1  # ")"
            return value
        call = re.match(r"(\w+)\s*\(\s*([^()]*?)\s*\)", token)
        if call:
            name, argument = call.groups()
            if name == "os":
                return argument == platform or (argument == "Linux" and platform == "Linux")
            if name == "canImport":
                where = MODULES.get(argument.split(".")[0])
                return None if where is None else platform in where
            if name in ("compiler", "swift", "hasFeature", "hasAttribute"):
                return True
            return None
        return None  # a custom flag: either

    def conjunction():
        nonlocal position
        value = atom()
        while position < len(tokens) and tokens[position] == "&&":
            position += 1
            right = atom()
            value = False if value is False or right is False else (None if value is None or right is None else True)
        return value

    def disjunction():
        nonlocal position
        value = conjunction()
        while position < len(tokens) and tokens[position] == "||":
            position += 1
            right = conjunction()
            value = True if value is True or right is True else (None if value is None or right is None else False)
        return value

    return disjunction()


def code_lines(path):
    """(number, code, platforms it may compile on) for each line of a Swift file, comments and strings blanked."""
    text = open(path, encoding="utf-8", errors="replace").read()
    # Blank block comments and string literals, keeping line breaks.
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', lambda m: '""' + re.sub(r"[^\n]", " ", m.group(1)) + '""', text, flags=re.S)
    stack = []  # (platforms of the enclosing branch, platforms taken by earlier branches)
    result = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = re.sub(r'"(?:\\.|[^"\\])*"', '""', raw)
        line = re.sub(r"//.*", "", line)
        stripped = line.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        outer = stack[-1][0] if stack else set(PLATFORMS)
        if directive:
            kind, condition = directive.groups()
            if kind == "if":
                taken = {p for p in outer if evaluate(condition, p) is not False}
                sure = {p for p in outer if evaluate(condition, p) is True}
                stack.append([taken, sure])
            elif kind in ("elseif", "else") and stack:
                parent = stack[-2][0] if len(stack) > 1 else set(PLATFORMS)
                before = stack[-1][1]
                remaining = parent - before
                if kind == "else":
                    stack[-1] = [remaining, parent]
                else:
                    taken = {p for p in remaining if evaluate(condition, p) is not False}
                    sure = before | {p for p in remaining if evaluate(condition, p) is True}
                    stack[-1] = [taken, sure]
            elif kind == "endif" and stack:
                stack.pop()
            result.append((number, "", set()))
            continue
        result.append((number, line, set(outer)))
    return result


def check_file(path, floors, symbols):
    findings = []
    guards = []  # (depth at which the guard ends, {platform: version})
    depth = 0
    pending = None
    for number, line, platforms in code_lines(path):
        apple = [p for p in platforms if p in APPLE]
        stripped = line.strip()
        attribute = re.search(r"[@#]available\s*\(([^)]*)\)", line)
        if attribute and not re.search(r"\b(unavailable|deprecated|renamed)\b", attribute.group(1)):
            found = availability(attribute.group(1))
            if found:
                if re.match(r"\s*guard\b", line):
                    guards.append((depth, found))
                else:
                    pending = found
        if apple and stripped:
            active = {}
            for _, versions in guards:
                for platform, number_ in versions.items():
                    active[platform] = max(active.get(platform, (0, 0)), number_)
            if pending is not None and "{" not in line:
                for platform, number_ in pending.items():
                    active[platform] = max(active.get(platform, (0, 0)), number_)
            for pattern, name, requirement in symbols:
                if not re.search(pattern, line):
                    continue
                for platform in apple:
                    if platform not in floors:
                        continue
                    need = requirement.get(platform)
                    if need is None:
                        continue
                    if need == "unavailable":
                        findings.append(f"{path}:{number}: {name} is unavailable on {platform}")
                    elif need > floors[platform] and need > active.get(platform, (0, 0)) and not (
                            pending and pending.get(platform, (0, 0)) >= need):
                        findings.append(
                            f"{path}:{number}: {name} needs {platform} {need[0]}.{need[1]}, above the package's "
                            f"{floors[platform][0]}.{floors[platform][1]}, outside an availability guard")
        for character in line:
            if character == "{":
                depth += 1
                if pending is not None:
                    guards.append((depth - 1, pending))
                    pending = None
            elif character == "}":
                depth -= 1
                guards = [g for g in guards if g[0] < depth or (g[0] == depth and not _closes(g, depth))]
        # A declaration with @available but no body on this line keeps its guard until its brace.
        if pending is not None and stripped and not stripped.startswith("@") and "{" not in line and not (
                re.search(r"\b(func|init|var|let|struct|class|enum|extension|actor|protocol)\b", line)):
            pending = None
    return findings


def _closes(guard, depth):
    return False


def packages(root):
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [s for s in subfolders if not s.startswith(".") and s not in ("node_modules",)]
        if "Package.swift" in files:
            found.append(folder)
    return sorted(found, key=len, reverse=True)


def owner(path, package_folders):
    for folder in package_folders:
        if path.startswith(folder + os.sep):
            return folder
    return None


def check(root, platforms):
    symbols = interface_symbols() + RULES
    package_folders = packages(root)
    findings = []
    files = 0
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [s for s in subfolders if not s.startswith(".") and s != "Fuzz"]
        for name in names:
            if not name.endswith(".swift") or name == "Package.swift":
                continue
            path = os.path.join(folder, name)
            package = owner(path, package_folders)
            if package is None:
                continue
            files += 1
            floors = package_floors(os.path.join(package, "Package.swift"))
            floors = {p: v for p, v in floors.items() if p in platforms}
            findings += check_file(path, floors, symbols)
    return findings, files, len(symbols)


def count_apple_only(root):
    total = 0
    per_file = {}
    for top in ("Sources", "Plugins"):
        for path in glob.glob(os.path.join(root, top, "**", "*.swift"), recursive=True):
            count = 0
            for _, line, platforms in code_lines(path):
                if line.strip() and platforms & set(APPLE) and "Linux" not in platforms:
                    count += 1
            if count:
                per_file[os.path.relpath(path, root)] = count
                total += count
    return total, per_file


def main(arguments):
    if arguments and arguments[0] == "--count-apple-only":
        rest = arguments[1:]
        limit = None
        if "--max" in rest:
            index = rest.index("--max")
            limit = int(rest[index + 1])
            rest = rest[:index] + rest[index + 2:]
        root = rest[0] if rest else os.path.join(os.path.dirname(__file__), "..", "..")
        total, per_file = count_apple_only(os.path.realpath(root))
        for path, count in sorted(per_file.items(), key=lambda item: -item[1]):
            print(f"{count:5} {path}")
        print(f"apple-only lines no Linux test runs: {total}" + (f" (at most {limit})" if limit is not None else ""))
        return 1 if limit is not None and total > limit else 0
    platforms = ["watchOS", "visionOS"]
    if arguments and arguments[0] == "--platforms":
        platforms = APPLE if arguments[1] == "all" else arguments[1].split(",")
        unknown = [p for p in platforms if p not in APPLE]
        if unknown:
            print(f"availability: unknown platforms {', '.join(unknown)} (known: {', '.join(APPLE)})")
            return 2
        arguments = arguments[2:]
    root = os.path.realpath(arguments[0] if arguments else os.path.join(os.path.dirname(__file__), "..", ".."))
    findings, files, symbols = check(root, platforms)
    for finding in findings:
        print(finding)
    print(f"availability ({', '.join(platforms)}): {files} files, {symbols} symbols checked, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
