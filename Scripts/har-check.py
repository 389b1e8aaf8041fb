#!/usr/bin/env python3
"""Checks a HAR file against the HAR 1.2 field list (http://www.softwareishard.com/blog/har-12-spec/).

Usage: har-check.py FILE...   prints one line per problem ("FILE: log.entries[2].timings.wait: ...") and exits 1
when there is any, 0 when every file holds a HAR 1.2 archive as the field list describes it:
  - every required field is present with its type, optional ones have their type when present;
  - a field the list does not name starts with "_" (the format's rule for custom fields);
  - startedDateTime and cookie expiry are ISO 8601 with a time zone; timings' send, wait and receive are >= 0,
    blocked, dns, connect and ssl >= -1; an entry's time is the sum of its timings (ssl is within connect);
  - postData holds text or params, not both; content.encoding, when present, is "base64" and the text decodes.
"""
import base64
import json
import re
import sys

STR, NUM, INT, BOOL = "string", "number", "integer", "boolean"

# field: (type, required). A dict type is an object with its own fields; a list of one element an array of it.
NAME_VALUE = {"name": (STR, True), "value": (STR, True), "comment": (STR, False)}
COOKIE = {
    "name": (STR, True), "value": (STR, True), "path": (STR, False), "domain": (STR, False),
    "expires": ("datetime", False), "httpOnly": (BOOL, False), "secure": (BOOL, False), "comment": (STR, False),
}
POST_DATA = {
    "mimeType": (STR, True), "text": (STR, False), "comment": (STR, False),
    "params": ([{"name": (STR, True), "value": (STR, False), "fileName": (STR, False),
                 "contentType": (STR, False), "comment": (STR, False)}], False),
}
REQUEST = {
    "method": (STR, True), "url": (STR, True), "httpVersion": (STR, True), "cookies": ([COOKIE], True),
    "headers": ([NAME_VALUE], True), "queryString": ([NAME_VALUE], True), "postData": (POST_DATA, False),
    "headersSize": (INT, True), "bodySize": (INT, True), "comment": (STR, False),
}
CONTENT = {
    "size": (INT, True), "compression": (INT, False), "mimeType": (STR, True), "text": (STR, False),
    "encoding": (STR, False), "comment": (STR, False),
}
RESPONSE = {
    "status": (INT, True), "statusText": (STR, True), "httpVersion": (STR, True), "cookies": ([COOKIE], True),
    "headers": ([NAME_VALUE], True), "content": (CONTENT, True), "redirectURL": (STR, True),
    "headersSize": (INT, True), "bodySize": (INT, True), "comment": (STR, False),
}
CACHE_STATE = {"expires": ("datetime", False), "lastAccess": ("datetime", True), "eTag": (STR, True),
               "hitCount": (INT, True), "comment": (STR, False)}
CACHE = {"beforeRequest": (CACHE_STATE, False), "afterRequest": (CACHE_STATE, False), "comment": (STR, False)}
TIMINGS = {
    "blocked": (NUM, False), "dns": (NUM, False), "connect": (NUM, False), "send": (NUM, True),
    "wait": (NUM, True), "receive": (NUM, True), "ssl": (NUM, False), "comment": (STR, False),
}
ENTRY = {
    "pageref": (STR, False), "startedDateTime": ("datetime", True), "time": (NUM, True), "request": (REQUEST, True),
    "response": (RESPONSE, True), "cache": (CACHE, True), "timings": (TIMINGS, True),
    "serverIPAddress": (STR, False), "connection": (STR, False), "comment": (STR, False),
}
PAGE = {
    "startedDateTime": ("datetime", True), "id": (STR, True), "title": (STR, True),
    "pageTimings": ({"onContentLoad": (NUM, False), "onLoad": (NUM, False), "comment": (STR, False)}, True),
    "comment": (STR, False),
}
CREATOR = {"name": (STR, True), "version": (STR, True), "comment": (STR, False)}
LOG = {
    "version": (STR, True), "creator": (CREATOR, True), "browser": (CREATOR, False), "pages": ([PAGE], False),
    "entries": ([ENTRY], True), "comment": (STR, False),
}
ARCHIVE = {"log": (LOG, True)}

ISO_8601 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$")


def check_value(value, kind, path, problems):
    if isinstance(kind, dict):
        if not isinstance(value, dict):
            problems.append(f"{path}: an object was expected")
            return
        check_object(value, kind, path, problems)
    elif isinstance(kind, list):
        if not isinstance(value, list):
            problems.append(f"{path}: an array was expected")
            return
        for index, item in enumerate(value):
            check_value(item, kind[0], f"{path}[{index}]", problems)
    elif kind == STR and not isinstance(value, str):
        problems.append(f"{path}: a string was expected")
    elif kind == BOOL and not isinstance(value, bool):
        problems.append(f"{path}: a boolean was expected")
    elif kind == INT and (isinstance(value, bool) or not isinstance(value, int)):
        problems.append(f"{path}: an integer was expected")
    elif kind == NUM and (isinstance(value, bool) or not isinstance(value, (int, float))):
        problems.append(f"{path}: a number was expected")
    elif kind == "datetime" and not (isinstance(value, str) and ISO_8601.match(value)):
        problems.append(f"{path}: an ISO 8601 date with a time zone was expected, not {value!r}")


def check_object(value, fields, path, problems):
    for name, (kind, required) in fields.items():
        if name not in value:
            if required:
                problems.append(f"{path}.{name}: missing")
            continue
        check_value(value[name], kind, f"{path}.{name}", problems)
    for name in value:
        if name not in fields and not name.startswith("_"):
            problems.append(f"{path}.{name}: not a HAR 1.2 field (custom fields start with '_')")


def check_semantics(archive, problems):
    log = archive.get("log", {})
    if log.get("version") not in ("1.1", "1.2"):
        problems.append(f"log.version: {log.get('version')!r}, not 1.2")
    for index, entry in enumerate(log.get("entries", []) if isinstance(log.get("entries"), list) else []):
        path = f"log.entries[{index}]"
        timings = entry.get("timings") if isinstance(entry, dict) else None
        if isinstance(timings, dict):
            for name in ("send", "wait", "receive"):
                if isinstance(timings.get(name), (int, float)) and timings[name] < 0:
                    problems.append(f"{path}.timings.{name}: {timings[name]} is negative")
            for name in ("blocked", "dns", "connect", "ssl"):
                if isinstance(timings.get(name), (int, float)) and timings[name] < -1:
                    problems.append(f"{path}.timings.{name}: {timings[name]} is below -1")
            phases = [timings.get(n, -1) for n in ("blocked", "dns", "connect", "send", "wait", "receive")]
            total = sum(p for p in phases if isinstance(p, (int, float)) and p >= 0)
            if isinstance(entry.get("time"), (int, float)) and abs(entry["time"] - total) > 0.01 + total * 1e-9:
                problems.append(f"{path}.time: {entry['time']} is not the sum of its timings ({total})")
        request = entry.get("request") if isinstance(entry, dict) else None
        post = request.get("postData") if isinstance(request, dict) else None
        if isinstance(post, dict) and "text" in post and "params" in post:
            problems.append(f"{path}.request.postData: holds both text and params")
        response = entry.get("response") if isinstance(entry, dict) else None
        content = response.get("content") if isinstance(response, dict) else None
        if isinstance(content, dict) and "encoding" in content:
            if content["encoding"] != "base64":
                problems.append(f"{path}.response.content.encoding: {content['encoding']!r}, not base64")
            else:
                try:
                    base64.b64decode(content.get("text", ""), validate=True)
                except ValueError:
                    problems.append(f"{path}.response.content.text: not base64")


def check(path):
    try:
        with open(path, "rb") as file:
            archive = json.loads(file.read().decode("utf-8"))
    except (OSError, ValueError) as error:
        return [f"{path}: {error}"]
    problems = []
    if not isinstance(archive, dict):
        return [f"{path}: the archive is not a JSON object"]
    check_object(archive, ARCHIVE, "", problems)
    check_semantics(archive, problems)
    return [f"{path}: {problem.lstrip('.')}" for problem in problems]


def main(arguments):
    if not arguments:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    problems = [problem for path in arguments for problem in check(path)]
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
