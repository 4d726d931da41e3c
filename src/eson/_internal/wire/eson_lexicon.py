"""The ESON lexicon: every character set, token grammar and literal, spelled once.

Readers, writers, the linter and the format detector build their regular
expressions and sets from these names, so a rule of ESON 1.1 changes in one
place.  The C accelerator (``src/eson/_speedups.c``) holds its own copies of
the sets it tests -- C cannot import them -- and exports them as module
attributes; ``tests/test_lexicon.py`` checks them against this module code
point by code point.

Regular-expression *sources* end in ``_SOURCE`` (a fragment to embed, never
compiled here); ``_CLASS`` names are the inside of a character class (to put
between ``[`` and ``]`` with other members).  ESON's numbers and literals
are JSON's; :mod:`eson._internal.wire.toon_lexicon` takes them from here too.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

# -- regular expressions compiled on first use ---------------------------------------

#: The methods of a compiled pattern that :class:`LazyPattern` hands on.
_PATTERN_METHODS = ("findall", "finditer", "fullmatch", "match", "search", "split", "sub")


class LazyPattern:
    """A regular expression compiled the first time it is used, not on import.

    The modules that ``import eson`` loads define their patterns as
    ``LazyPattern`` (``re.compile`` of them all would cost ``import eson``
    a few milliseconds; tests/test_startup.py counts the compilations).
    Its methods are ``re.Pattern``'s; the first call compiles the pattern
    and puts the compiled pattern's own bound methods on the holder, so
    every later call goes straight to them, as fast as the compiled
    pattern's.

    Args:
        pattern: The expression's source.
        flags: ``re`` flags, as for ``re.compile``.
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiled once; the methods then skip this holder)."""
        compiled = re.compile(self.pattern, self.flags)
        for name in _PATTERN_METHODS:
            setattr(self, name, getattr(compiled, name))
        return compiled

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.match``."""
        return self.compiled().match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        """``re.Pattern.fullmatch``."""
        return self.compiled().fullmatch(string, pos, endpos)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        """``re.Pattern.search``."""
        return self.compiled().search(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        """``re.Pattern.sub``."""
        return self.compiled().sub(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        """``re.Pattern.split``."""
        return self.compiled().split(string, maxsplit)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        """``re.Pattern.finditer``."""
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        """``re.Pattern.findall``."""
        return self.compiled().findall(string, pos, endpos)

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r})"


def lazy_pattern(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile(pattern, flags)``, done on first use: see :class:`LazyPattern`."""
    return LazyPattern(pattern, flags)


# -- the header ---------------------------------------------------------------------

#: The first line of every ESON 1.x document.
HEADER = "!eson/1"
#: What any version header starts with (``!eson/2`` is a header, of another version).
VERSION_PREFIX = "!eson/"
#: A version header line: the prefix and the version, up to white space.
VERSION_SOURCE = r"!eson/\S*"

# -- white space --------------------------------------------------------------------

#: JavaScript's ``String.prototype.trim`` set (WhiteSpace and LineTerminator):
#: a bare cell neither starts nor ends with one of these.
JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
#: :data:`JS_SPACE` as a set, for ``char in`` tests on single characters.
JS_SPACE_CHARS = frozenset(JS_SPACE)
#: :data:`JS_SPACE` as the inside of a regular-expression character class.
JS_SPACE_CLASS = re.escape(JS_SPACE)
#: :data:`JS_SPACE` without TAB and LF (they are row structure): the slack a
#: lenient reader trims from a cell.
CELL_SPACE = JS_SPACE.replace("\t", "").replace("\n", "")
#: A head line holds no TAB between cells, so a TAB there is slack too.
HEAD_SPACE = CELL_SPACE + "\t"

# -- what keeps a string from being a bare cell -------------------------------------

#: Characters no bare cell holds anywhere but LF: TAB and CR (cell and line
#: structure), U+2028/U+2029 (line breaks to JavaScript) and lone surrogates.
#: A character-class inside.
UNSAFE_BESIDE_LF_CLASS = r"\t\r\u2028\u2029\ud800-\udfff"
#: Characters no bare cell holds anywhere (:data:`UNSAFE_BESIDE_LF_CLASS` and LF).
UNSAFE_INSIDE_CLASS = r"\n" + UNSAFE_BESIDE_LF_CLASS
#: The first characters of a quoted string or a JSON array or object cell.
JSON_START = frozenset('"[{')
#: The inside of a character class of :data:`JSON_START`.
JSON_START_CLASS = r'"\[{'
#: ASCII digits (the only digits of a number).
DIGITS = "0123456789"
#: The first characters of a JSON number.
NUMBER_START = frozenset("-" + DIGITS)
#: The inside of a character class of :data:`NUMBER_START`.
NUMBER_START_CLASS = r"\-0-9"
#: A cell starting with one of these is not a bare string (it may still be
#: one written quoted).
NOT_BARE_FIRST = JSON_START | NUMBER_START
#: The inside of a character class of :data:`NOT_BARE_FIRST`.
NOT_BARE_FIRST_CLASS = JSON_START_CLASS + NUMBER_START_CLASS

# -- literals -----------------------------------------------------------------------

#: JSON's three literal words and their values.
LITERALS: dict[str, Any] = {"null": None, "true": True, "false": False}
#: The words of :data:`LITERALS`.
LITERAL_WORDS = frozenset(LITERALS)
#: Any one literal word, as an alternation (group it before use).
LITERAL_SOURCE = "null|true|false"

# -- numbers (JSON's grammar, ASCII digits only) -----------------------------------

#: An integer: an optional minus, then ``0`` or digits without a leading zero.
INT_SOURCE = r"-?(?:0|[1-9][0-9]*)"
#: A fraction part.
FRACTION_SOURCE = r"\.[0-9]+"
#: An exponent part.
EXPONENT_SOURCE = r"[eE][+-]?[0-9]+"
#: A JSON number.
NUMBER_SOURCE = rf"{INT_SOURCE}(?:{FRACTION_SOURCE})?(?:{EXPONENT_SOURCE})?"
#: A JSON number with a fraction and no exponent (``12.5``: ``float`` reads it exactly).
DECIMAL_SOURCE = INT_SOURCE + FRACTION_SOURCE
#: Most digits of an integer the fast paths (Python and C) read as a machine
#: integer; longer ones go through ``int`` and its digit limit.
SHORT_INT_DIGITS = 18
#: An integer of at most :data:`SHORT_INT_DIGITS` digits.
SHORT_INT_SOURCE = rf"-?(?:0|[1-9][0-9]{{0,{SHORT_INT_DIGITS - 1}}})"
#: A count or index without a leading zero (``0``, ``17``).
COUNT_SOURCE = r"0|[1-9][0-9]*"
#: The digits of a record array's count or row number as ESON writes them.
DIGITS_SOURCE = "[0-9]+"
#: Compiled matcher for one whole number; use ``NUMBER_RE.fullmatch(text)``.
NUMBER_RE = lazy_pattern(NUMBER_SOURCE)

# -- strings ------------------------------------------------------------------------

#: A JSON string's extent, opening quote through closing quote, escapes skipped
#: (ESON's quoted cell; TOON's quoted strings have the same shape).  Compile
#: with ``re.S`` where an escaped line break must be skipped too.
QUOTED_SOURCE = r'"[^"\\]*(?:\\.[^"\\]*)*"'

# -- names --------------------------------------------------------------------------

#: ``name = (ALPHA / "_") *(ALPHA / DIGIT / "_" / "." / "-")``, ASCII only.
NAME_SOURCE = r"[A-Za-z_][A-Za-z0-9_.\-]*"

# -- limits -------------------------------------------------------------------------

#: Deepest nesting of a JSON cell (arrays and objects) the reader and the linter accept.
MAX_JSON_DEPTH = 500
