"""Curated strings for the codec tests: the classes where quoting rules and hosts disagree.

White space of every kind at every position (JavaScript's ``trim`` set,
Python's ``str.strip`` set, TOON's U+0020/U+0009), control characters,
number and literal lookalikes, delimiters and structural characters.  Shared
by the TOON and ESON interop tests and the quoting tests.
"""

from __future__ import annotations

#: Every character JavaScript or Unicode calls white space, and a few that look like it.
WHITE_SPACE = [
    *"\t\n\v\f\r ",
    "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680", "\u180e",
    *map(chr, range(0x2000, 0x200C)),
    "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff",
]  # fmt: skip
CONTROLS = [*map(chr, range(0x20)), "\x7f", "\x80", "\x9f"]
NUMBER_LOOKALIKES = [
    "0", "42", "-7", "-3.14", "1.5000", "05", "-05", "0001", "+1", "-0", "0.0", "-0.0",
    "1e5", "1E+9", "1e-6", "-1E+03", "0e1", ".5", "1.", "0x10", "1_000", "NaN", "Infinity",
    "-Infinity", "1e400", "1e", "1e+", "--1", "- 1", "1 2", "12a", "\u0661\u0662", "\uff14\uff12", "\xb2",
    "9007199254740993", "1" * 30,
]  # fmt: skip
LITERAL_LOOKALIKES = [
    "true", "false", "null", "True", "FALSE", "Null", "nul", "undefined",
    "[]", "{}", "[", "]", "{", "}", "-", "- x", "-x", "#", "# x", "#x", "a#", "x -", "",
]  # fmt: skip
DELIMITER_STRINGS = [
    ",", "\t", "|", "a,b", "a|b", "a\tb", ", ", " |", "|x", "x,", ":", "a:b", "a: b",
    '"', '"a"', "\\", "a\\nb", "[x]", "{x}", "a[2]", "k[2]: x", "x]",
]  # fmt: skip
PLAIN = ["a", "x y", "é", "日本", "😀", "a-b", "a.b", "_", "x  y"]


def curated_strings() -> list[str]:
    """The curated string classes: white space at every position, controls, lookalikes, delimiters."""
    found: list[str] = []
    for char in WHITE_SPACE:
        found += [char, char + "x", "x" + char, "x" + char + "y", char + "x" + char, char * 2]
    for char in CONTROLS:
        found += [char, "a" + char + "b"]
    found += NUMBER_LOOKALIKES + LITERAL_LOOKALIKES + DELIMITER_STRINGS + PLAIN
    found += [f"{word} " for word in ("true", "42", "a")] + [
        f"\xa0{word}" for word in ("null", "7")
    ]
    return list(dict.fromkeys(found))
