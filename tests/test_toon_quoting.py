"""TOON string quoting follows spec v4.0 §7.2, in the untyped writer and every typed column encoder.

The rule is restated here from the spec's list, independently of the code:
a string is quoted iff it is empty, starts or ends with U+0020 or U+0009,
is ``true``/``false``/``null``, is numeric-like (``/^[+-]?[0-9]+(\\.[0-9]+)?(e[+-]?[0-9]+)?$/i``),
holds ``:``, ``"``, ``\\``, a bracket or brace, a control character
U+0000-U+001F or the active delimiter, or starts with ``-`` or ``#``.  Any
other white space (NBSP, U+3000, U+FEFF, U+2028 ...) is data: the decoder
trims only U+0020 (§12).
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import re
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from curated_strings import WHITE_SPACE, curated_strings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eson import toon
from eson._internal.wire.toon_quoting import format_primitive, format_str_column, format_string

CURATED = curated_strings()
DELIMITERS = (",", "\t", "|")
_NUMERIC_LIKE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?", re.IGNORECASE)


def must_quote(text: str, delimiter: str) -> bool:
    """Spec v4.0 §7.2, bullet by bullet."""
    return (
        text == ""
        or text[0] in " \t"
        or text[-1] in " \t"
        or text in ("true", "false", "null")
        or _NUMERIC_LIKE.fullmatch(text) is not None
        or any(char in text for char in ':"\\')
        or any(char in text for char in "[]{}")
        or any(ord(char) < 0x20 for char in text)
        or delimiter in text
        or text.startswith(("-", "#"))
    )


@pytest.mark.parametrize("delimiter", DELIMITERS, ids=["comma", "tab", "pipe"])
def test_curated_strings_follow_section_7_2(delimiter: str) -> None:
    for text in CURATED:
        token = format_string(text, delimiter)
        assert (token != text) is must_quote(text, delimiter), repr(text)
        assert format_primitive(text, delimiter) == token
    assert format_str_column(CURATED, delimiter) == [format_string(t, delimiter) for t in CURATED]
    bare = [text for text in CURATED if not must_quote(text, delimiter)]
    assert format_str_column(bare, delimiter) == bare  # the one-scan path


@pytest.mark.parametrize("char", WHITE_SPACE, ids=lambda c: f"U+{ord(c):04X}")
def test_only_space_and_tab_at_an_edge_force_quotes(char: str) -> None:
    quoted = char in " \t" or ord(char) < 0x20
    for text in (char + "x", "x" + char, char + "x" + char):
        assert (format_string(text) != text) is quoted
        assert toon.decode(toon.encode({"k": text})) == {"k": text}
        assert toon.decode(toon.encode({"k": [text, text]})) == {"k": [text, text]}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(alphabet=st.sampled_from([*WHITE_SPACE, *'ab1-#:,|"\\[{e.+']), max_size=6)
    | st.text(max_size=8),
    delimiter=st.sampled_from(DELIMITERS),
)
def test_any_string_follows_section_7_2(text: str, delimiter: str) -> None:
    token = format_string(text, delimiter)
    assert (token != text) is must_quote(text, delimiter)
    assert format_str_column([text, "x"], delimiter) == [token, "x"]
    assert toon.decode(toon.encode({"k": [text]}, delimiter=delimiter)) == {"k": [text]}


# ------------------------------------------------------------ typed column encoders

SOME = [text for text in CURATED if text][:60]
Choice = Literal[tuple(SOME)]  # type: ignore[valid-type]


class PInner(pydantic.BaseModel):
    s: str


class PRow(pydantic.BaseModel):
    s: str
    n: int
    c: Choice | None = None


class PItem(pydantic.BaseModel):
    s: str
    tags: list[str]


class PDoc(pydantic.BaseModel):
    s: str
    c: Choice
    tags: list[str]
    rows: list[PRow]
    inner: PInner
    nested: list[PInner]
    keyed: dict[str, PInner]
    items: list[PItem]


class MInner(msgspec.Struct):
    s: str


class MRow(msgspec.Struct):
    s: str
    n: int
    c: Choice | None = None


class MItem(msgspec.Struct):
    s: str
    tags: list[str]


class MDoc(msgspec.Struct):
    s: str
    c: Choice
    tags: list[str]
    rows: list[MRow]
    inner: MInner
    nested: list[MInner]
    keyed: dict[str, MInner]
    items: list[MItem]


def data(text: str, choice: str) -> dict[str, Any]:
    return {
        "s": text,
        "c": choice,
        "tags": [text, "x", text],
        "rows": [{"s": text, "n": 1, "c": choice}, {"s": "y", "n": 2, "c": None}],
        "inner": {"s": text},
        "nested": [{"s": text}, {"s": "z"}],
        "keyed": {"a": {"s": text}, "b": {"s": "q"}},
        "items": [{"s": text, "tags": [text]}, {"s": "w", "tags": []}],
    }


def dumped(obj: Any) -> Any:
    if isinstance(obj, pydantic.BaseModel):
        return obj.model_dump(mode="json")
    return msgspec.to_builtins(obj)


@pytest.mark.parametrize("cls", [PDoc, MDoc])
@pytest.mark.parametrize("delimiter", DELIMITERS, ids=["comma", "tab", "pipe"])
def test_typed_encoders_quote_like_the_untyped_writer(cls: type[Any], delimiter: str) -> None:
    for index, text in enumerate(CURATED):
        plain = data(text, SOME[index % len(SOME)])
        obj = (
            cls.model_validate(plain)
            if issubclass(cls, pydantic.BaseModel)
            else msgspec.convert(plain, cls)
        )
        typed = toon.encode(obj, delimiter=delimiter)
        assert typed == toon.encode(dumped(obj), delimiter=delimiter), repr(text)
        assert toon.decode(typed, type=cls) == obj, repr(text)
