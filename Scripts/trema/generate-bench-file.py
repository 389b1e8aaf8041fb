#!/usr/bin/env python3
"""Writes the trema file `trema convert` is measured on: 20,000 keys in de, en, fr and it (about 10 MB).

Every value has two placeholders, an entity, escaped quotes and a `\\n`; one base key in 20 is a plural text with
`one`, `many` and `other` forms (1,000 plurals, 3,000 of the keys; `many` is French's, the other languages drop it).
Usage: python3 Scripts/trema/generate-bench-file.py OUT.trm
"""
import sys


def main():
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<trema masterLang="de">\n']
    index = 0
    keys = 0
    while keys < 20000:
        if index % 20 == 19:
            for category in ["one", "many", "other"]:
                parts.append(f'  <text key="screen{index % 50}.count.{index}#{category}">\n'
                             f'    <context>Count {index} on screen {index % 50}</context>\n')
                for language in ["de", "en", "fr", "it"]:
                    parts.append(f'    <value lang="{language}" status="verified">{category} {index} in {language}: '
                                 '%1$@ has %2$d items &amp; \\"more\\"\\nline two</value>\n')
                parts.append('  </text>\n')
                keys += 1
        else:
            parts.append(f'  <text key="screen{index % 50}.item.{index}">\n'
                         f'    <context>Label {index} on screen {index % 50}</context>\n')
            for language in ["de", "en", "fr", "it"]:
                status = "initial" if index % 7 == 0 else "verified"
                parts.append(f'    <value lang="{language}" status="{status}">Text {index} in {language}: '
                             '%1$@ has %2$d items &amp; \\"more\\"\\nline two</value>\n')
            parts.append('  </text>\n')
            keys += 1
        index += 1
    parts.append('</trema>\n')
    with open(sys.argv[1], "w", encoding="utf-8") as out:
        out.write("".join(parts))


if __name__ == "__main__":
    main()
