"""The lexicon modules are the one spelling of ESON's and TOON's tokens, and the C accelerator agrees.

* The Python sets are what the specs say (JavaScript's ``trim`` set is
  derived here from Unicode's space separators, not copied).
* The C module's character tests, read through ``char_classes`` for every
  code point, classify exactly as ``eson._internal.wire.eson_lexicon`` does.
* The C number matcher accepts exactly ``NUMBER_RE``'s strings, over every
  short string of number characters.
* The constants ``eson._internal.accelerator`` hands to the C functions are the C
  module's own.
* No module outside the lexicons spells a grammar the lexicons hold.
"""

from __future__ import annotations

import itertools
import pathlib
import re
import unicodedata

import pytest
from speedups_support import require_accelerator

from eson._internal import accelerator
from eson._internal.wire import eson_cells, eson_lexicon, toon_lexicon
from eson.errors import DecodeError

SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "eson"
EVERY_CODE_POINT = "".join(map(chr, range(0x110000)))


def _members(class_body: str) -> set[int]:
    """The code points a regular-expression character class holds, tried one by one."""
    return {match.start() for match in re.finditer(f"[{class_body}]", EVERY_CODE_POINT)}


def test_js_space_is_ecmascript_white_space_and_line_terminators() -> None:
    # ECMAScript WhiteSpace: TAB, VT, FF, ZWNBSP and every Zs; LineTerminator: LF, CR, LS, PS.
    expected = {"\t", "\v", "\f", "\ufeff", "\n", "\r", "\u2028", "\u2029"}
    expected |= {char for char in EVERY_CODE_POINT if unicodedata.category(char) == "Zs"}
    assert expected == eson_lexicon.JS_SPACE_CHARS
    assert len(eson_lexicon.JS_SPACE) == len(expected)  # no character twice
    assert _members(eson_lexicon.JS_SPACE_CLASS) == set(map(ord, expected))
    assert set(eson_lexicon.CELL_SPACE) == expected - {"\t", "\n"}
    assert set(eson_lexicon.HEAD_SPACE) == expected - {"\n"}


def test_the_sources_are_the_grammars() -> None:
    number = re.compile(eson_lexicon.NUMBER_SOURCE)
    for text in ["0", "-0", "12", "1.5", "-0.25e+3", "1E9", "10e-2"]:
        assert number.fullmatch(text), text
    for text in ["", "-", "01", "+1", "1.", ".5", "1e", "1e+", "0x1", "\u0661", "1_0", " 1"]:
        assert not number.fullmatch(text), text
    assert re.fullmatch(eson_lexicon.SHORT_INT_SOURCE, "-" + "9" * eson_lexicon.SHORT_INT_DIGITS)
    assert not re.fullmatch(
        eson_lexicon.SHORT_INT_SOURCE, "1" * (eson_lexicon.SHORT_INT_DIGITS + 1)
    )
    assert re.fullmatch(eson_lexicon.DECIMAL_SOURCE, "-3.25")
    assert not re.fullmatch(eson_lexicon.DECIMAL_SOURCE, "3.25e1")
    numeric_like = re.compile(toon_lexicon.NUMERIC_LIKE_SOURCE)
    assert all(numeric_like.fullmatch(text) for text in ["007", "+1", "1.5e3", "-0"])
    assert _members(eson_lexicon.NUMBER_START_CLASS) == set(map(ord, eson_lexicon.NUMBER_START))
    assert _members(eson_lexicon.JSON_START_CLASS) == set(map(ord, eson_lexicon.JSON_START))
    assert _members(eson_lexicon.NOT_BARE_FIRST_CLASS) == set(map(ord, eson_lexicon.NOT_BARE_FIRST))
    quoted = re.compile(toon_lexicon.QUOTED_SOURCE, re.S)
    assert quoted.fullmatch(r'"a\"b\\"') and not quoted.fullmatch(r'"a\"')
    assert re.fullmatch(toon_lexicon.QUOTED_REST_SOURCE, 'x\\"y"')
    assert set(eson_lexicon.LITERAL_SOURCE.split("|")) == eson_lexicon.LITERAL_WORDS


def test_the_header_is_a_version_header() -> None:
    assert eson_lexicon.HEADER.startswith(eson_lexicon.VERSION_PREFIX)
    assert re.fullmatch(eson_lexicon.VERSION_SOURCE, eson_lexicon.HEADER)
    assert re.fullmatch(eson_lexicon.VERSION_SOURCE, "!eson/2.0")
    assert not re.fullmatch(eson_lexicon.VERSION_SOURCE, "!eson/1 x")


def test_c_character_tests_classify_every_code_point_as_the_lexicon() -> None:
    require_accelerator()
    native = accelerator.native
    assert native is not None
    bits = native.char_classes(0, 0x110000)
    assert len(bits) == 0x110000
    expected = {
        native.CLASS_JS_SPACE: set(map(ord, eson_lexicon.JS_SPACE)),
        native.CLASS_UNSAFE: _members(eson_lexicon.UNSAFE_INSIDE_CLASS),
        # The Latin-1 table covers code points below 256 only.
        native.CLASS_LINE_BREAK: {c for c in _members(eson_lexicon.UNSAFE_INSIDE_CLASS) if c < 256},
        native.CLASS_JSON_START: set(map(ord, eson_lexicon.JSON_START)),
        native.CLASS_NUMBER_START: set(map(ord, eson_lexicon.NUMBER_START)),
    }
    for bit, members in expected.items():
        found = {cp for cp, value in enumerate(bits) if value & bit}
        assert found == members, (bit, sorted(found ^ members)[:10])
    # The C tests and the Python class the bare-cell writer compiles agree too.
    unsafe_beside_lf = _members(eson_lexicon.UNSAFE_BESIDE_LF_CLASS)
    assert unsafe_beside_lf == expected[native.CLASS_UNSAFE] - {ord("\n")}
    with pytest.raises(ValueError, match="char_classes takes"):
        native.char_classes(0, 0x110001)


def test_c_number_grammar_is_number_re() -> None:
    """Every string of up to 5 number characters: C and Python agree on what is a number."""
    require_accelerator()
    native = accelerator.native
    assert native is not None
    alphabet = "01-.eE+9"
    checked = 0
    for size in range(6):
        batch = ["".join(chars) for chars in itertools.product(alphabet, repeat=size)]
        for text in batch:
            is_number = eson_lexicon.NUMBER_RE.fullmatch(text) is not None
            assert (native.parse_float(text) is not None) == is_number, text
            assert native.is_bare(text) == eson_cells.is_bare(text), text
        # decode_cells takes the Latin-1 one-pass reader (latin1_number) first;
        # it declines a whole batch holding a cell it leaves to Python.
        values = native.decode_cells(batch)
        if values is None:
            values = [native.decode_cells([text]) for text in batch]
            declined = [text for text, value in zip(batch, values) if value is None]
            for text in declined:  # only numbers beyond the float range: Python raises
                with pytest.raises(DecodeError, match="not finite"):
                    eson_cells.decode_cell(text)
            assert len(declined) < len(batch) // 100
            pairs = [(text, v[0]) for text, v in zip(batch, values) if v is not None]
        else:
            pairs = list(zip(batch, values))
        for text, value in pairs:
            expected = eson_cells.decode_cell(text)
            assert (type(value), value) == (type(expected), expected), text
        checked += len(batch)
    assert checked == sum(len(alphabet) ** size for size in range(6))


def test_c_short_integers_match_the_lexicon() -> None:
    require_accelerator()
    native = accelerator.native
    assert native is not None
    assert native.SHORT_INT_DIGITS == eson_lexicon.SHORT_INT_DIGITS
    longest = "9" * eson_lexicon.SHORT_INT_DIGITS
    # Up to SHORT_INT_DIGITS digits the C reader converts; one more it leaves to Python.
    assert native.decode_cells([longest, "-" + longest]) == [int(longest), -int(longest)]
    assert native.decode_cells([longest + "9"]) is None


def test_accelerator_constants_are_the_c_modules() -> None:
    require_accelerator()
    native = accelerator.native
    for name in ["ACCESS_SLOTS", "ACCESS_INSTANCE_DICT", "ACCESS_DICT"]:
        assert getattr(accelerator, name) == getattr(native, name)
    for name in ["MODE_GENERIC", "MODE_INT", "MODE_NUMBER", "MODE_STR", "RAW"]:
        assert getattr(accelerator, name) == getattr(native, name)
    masks = [accelerator.type_mask({kind}) for kind in (str, int, float, bool, type(None))]
    assert masks == [
        native.TYPE_STR,
        native.TYPE_INT,
        native.TYPE_FLOAT,
        native.TYPE_BOOL,
        native.TYPE_NONE,
    ]
    assert sorted(masks) == [1 << i for i in range(5)]  # distinct bits: masks combine


# Spellings only the lexicon modules may hold (each a grammar or set they define).
_SPELLINGS = {
    "an integer grammar": r"\[1-9\]\[0-9\]",
    "an exponent grammar": r"\[eE\]\[\+-\]",
    "the digit set": r"0123456789|\\-0-9|-0-9\]",
    "JavaScript white space": r"\\u205f|\\u3000",
    "the header": r"\"!eson/1\"|\"!eson/\"|r\"!eson/",
    "the literal words": r"true\|false|null\|true|\"null\": None",
    "a quoted-string grammar": r'"\[\^"\\\\\]\*|"\(\?:\[\^"\\\\\]',
}


@pytest.mark.parametrize("what", sorted(_SPELLINGS))
def test_only_the_lexicons_spell_it(what: str) -> None:
    pattern = re.compile(_SPELLINGS[what])
    found = [
        f"{path.relative_to(SRC)}:{number}"
        for path in sorted(SRC.rglob("*.py"))
        if not path.name.endswith("_lexicon.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == [], f"{what} spelled outside eson._internal.wire.*_lexicon: {found}"


@pytest.mark.parametrize("what", sorted(_SPELLINGS))
def test_the_spelling_patterns_find_the_lexicons(what: str) -> None:
    """Each pattern above finds its own spelling in a lexicon (so it can fail)."""
    pattern = re.compile(_SPELLINGS[what])
    lexicons = (SRC / "_internal" / "wire" / "eson_lexicon.py").read_text(encoding="utf-8")
    lexicons += (SRC / "_internal" / "wire" / "toon_lexicon.py").read_text(encoding="utf-8")
    assert pattern.search(lexicons), what
