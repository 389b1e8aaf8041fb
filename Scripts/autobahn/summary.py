#!/usr/bin/env python3
"""Summarises Autobahn|Testsuite's client report (reports/index.json): per agent, how many cases ended OK,
NON-STRICT, INFORMATIONAL, UNIMPLEMENTED or FAILED (the worse of a case's behaviour and its close behaviour), as a
Markdown table, with each case that is neither OK nor INFORMATIONAL listed. Exits 1 if there is any such case.

Usage: summary.py REPORT_FOLDER
"""
import json
import sys
from pathlib import Path

ORDER = ["OK", "INFORMATIONAL", "NON-STRICT", "UNIMPLEMENTED", "WRONG CODE", "UNCLEAN", "FAILED"]


def verdict(result):
    behaviours = [result.get("behavior", "FAILED"), result.get("behaviorClose", "OK")]
    return max(behaviours, key=lambda name: ORDER.index(name) if name in ORDER else len(ORDER))


def main():
    index = json.loads((Path(sys.argv[1]) / "index.json").read_text())
    bad = []
    print("| agent | cases | " + " | ".join(ORDER) + " |")
    print("|---|---|" + "---|" * len(ORDER))
    for agent in sorted(index):
        counts = {name: 0 for name in ORDER}
        for case, result in index[agent].items():
            name = verdict(result)
            counts[name] = counts.get(name, 0) + 1
            if name not in ("OK", "INFORMATIONAL"):
                bad.append((agent, case, result.get("behavior"), result.get("behaviorClose")))
        print(f"| {agent} | {len(index[agent])} | " + " | ".join(str(counts[name]) for name in ORDER) + " |")
    for agent, case, behaviour, close in sorted(bad, key=lambda item: (item[0], [int(part) for part in
                                                                              item[1].split(".") if part.isdigit()])):
        print(f"  {agent} {case}: {behaviour} / close {close}")
    if bad:
        print(f"autobahn: {len(bad)} cases neither OK nor informational", file=sys.stderr)
        return 1
    print("autobahn: every case OK or informational")
    return 0


if __name__ == "__main__":
    sys.exit(main())
