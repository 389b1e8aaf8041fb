#!/usr/bin/env python3
"""The oracle for GirdersTrema's plural rules: babel's CLDR category of every test number, for every locale babel has.

Prints one line per locale: `<locale> <categories>`, a category's first letter (z o t f m x for zero one two few
many other) per number, in the order of NUMBERS. The first line is `cldr <version> babel <version>`.
"""
from decimal import Decimal

import babel
import babel.core
from babel import Locale
from babel.localedata import locale_identifiers

DECIMALS = [
    "0.0", "0.1", "0.5", "1.0", "1.00", "1.5", "1.50", "2.0", "2.1", "2.5", "3.0", "3.7", "5.0", "10.0", "11.3",
    "12.2", "21.0", "21.1", "22.5", "100.1", "101.5", "0.01", "1.01", "1.10", "1000000.0", "0.000001",
]
BIG = ["1000000", "2000000", "10000000", "1000001", "100000000000000000000"]
NUMBERS = [str(number) for number in range(0, 1001)] + DECIMALS + BIG
LETTER = {"zero": "z", "one": "o", "two": "t", "few": "f", "many": "m", "other": "x"}


def main():
    print("cldr", babel.core.get_cldr_version(), "babel", babel.__version__)
    print("numbers", " ".join(NUMBERS))
    for identifier in sorted(locale_identifiers()):
        rule = Locale.parse(identifier).plural_form
        print(identifier, "".join(LETTER[rule(Decimal(number))] for number in NUMBERS))


if __name__ == "__main__":
    main()
