"""Where the TOON decoder says each value came from (``Positions``), and typed errors placed by it.

``Positions`` keys containers by identity.  Non-strict decoding of a repeated
key drops the first value; a dropped container's identity could then be
reused by a later one and lend it a stale record (a ``KeyError`` or a wrong
line).  These tests pin the lines against independent readings of the text.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import gc
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eson
import eson.msgspec as em
from eson import toon
from eson._internal.wire.toon_parser import Positions, decode_text
from eson._internal.wire.toon_quoting import format_key


def paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every key and index path inside ``value`` (containers and their members)."""
    found: list[tuple[str | int, ...]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((*prefix, key))
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.append((*prefix, index))
            found += paths(item, (*prefix, index))
    return found


def decoded_with_positions(text: str, strict: bool = True) -> tuple[Any, Positions]:
    positions = Positions()
    return decode_text(text, strict=strict, positions=positions), positions


def line_fits(text: str, line: int, step: str | int) -> bool:
    """Whether line ``line`` of ``text`` can be where ``step`` was read (read from the text alone)."""
    content = text.split("\n")[line - 1].lstrip(" ")
    if isinstance(step, str):
        if content.startswith("- "):
            content = content[2:]
        key = format_key(step)
        return content.startswith((key + ":", key + "["))
    # A list element: a list item, or a row of a table (any other line below a header).
    return content.startswith("- ") or content == "-" or ":" not in content or '"' in content


# ---------------------------------------------------------------- the reported case


class PStep(eson.Record):
    id: int
    path: str


class PPlan(eson.Message):
    steps: list[PStep]


class MStep(em.Record):
    id: int
    path: str


class MPlan(em.Message):
    steps: list[MStep]


REPEATED_STEPS = "steps[1]:\n  - id: 1\n    path: a\nsteps[1]:\n  - path: b"


@pytest.mark.parametrize("cls", [PPlan, MPlan])
def test_repeated_key_in_non_strict_mode_is_placed_on_the_later_value(cls: type[Any]) -> None:
    with pytest.raises(eson.ValidationError) as caught:
        cls.from_toon(REPEATED_STEPS, strict=False)
    error = caught.value
    assert (error.line, error.section, error.row, error.field) == (5, "steps", 1, "id")
    assert "missing required field" in error.reason
    # strict mode refuses the document before validation
    with pytest.raises(eson.TOONError) as strict:
        cls.from_toon(REPEATED_STEPS)
    assert strict.value.line == 4 and "duplicate key 'steps'" in strict.value.reason


@pytest.mark.parametrize("cls", [PPlan, MPlan])
@pytest.mark.parametrize(
    ("text", "line"),
    [
        # a table replaced by a list: the second table's bad cell
        ("steps[1]{id,path}:\n  1,a\nsteps[2]{id,path}:\n  2,b\n  x,c", 5),
        # a list replaced by a table
        ("steps[1]:\n  - id: 1\n    path: a\nsteps[1]{id,path}:\n  x,b", 5),
        # three times, the middle one dropped too
        (
            "steps[1]:\n  - id: 1\n    path: a\nsteps[1]:\n  - id: 2\nsteps[1]:\n  - id: q\n    path: c",
            7,
        ),
        # the same key inside one list item
        ("steps[1]:\n  - id: 1\n    id: x\n    path: a", 3),
    ],
)
def test_repeated_keys_place_the_error_on_the_value_that_was_kept(
    cls: type[Any], text: str, line: int
) -> None:
    with pytest.raises(eson.ValidationError) as caught:
        cls.from_toon(text, strict=False)
    assert caught.value.line == line
    assert eson.toon.try_decode(text, type=cls, strict=False).ok is False


def test_line_of_survives_reused_identities() -> None:
    """Many replaced containers in one document: every lookup stays on a live container."""
    blocks = [f"k[1]:\n  - id: {n}\n    sub:\n      deep: {n}" for n in range(200)]
    text = "\n".join(blocks)
    document, positions = decoded_with_positions(text, strict=False)
    gc.collect()
    last = 1 + 4 * 199
    assert positions.line_of(document, ["k"]) == last
    assert positions.line_of(document, ["k", 0]) == last + 1
    assert positions.line_of(document, ["k", 0, "id"]) == last + 1
    assert positions.line_of(document, ["k", 0, "sub", "deep"]) == last + 3
    assert positions.line_of(document, ["k", 0, "missing"]) == last + 1
    assert positions.line_of(document, ["k", 5]) == last
    assert positions.line_of(document, ["nope"]) is None
    assert positions.line_of(document, []) is None


def test_line_of_ignores_a_foreign_container_with_a_recorded_identity() -> None:
    document, positions = decoded_with_positions("a:\n  b: 1")
    inner = document["a"]
    impostor: dict[str, Any] = {}
    # the record belongs to the decoded container, not to whatever has the same id later
    assert positions.line_of({"a": impostor}, ["a", "b"]) is None
    assert positions.line_of({"a": inner}, ["a", "b"]) is None  # outer dict unknown
    assert positions.line_of(document, ["a", "b"]) == 2
    inner.pop("b")
    assert positions.line_of(document, ["a", "b"]) == 1  # changed since: no KeyError


# ---------------------------------------------------------------- properties

keys = st.sampled_from(["a", "b", "id", "x y", "k:1", "n"])
leaves = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["s", "t u", "-"]))
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(keys, inner, min_size=1, max_size=3)
        | st.lists(st.fixed_dictionaries({"id": leaves, "name": leaves}), min_size=1, max_size=3)
    ),
    max_leaves=12,
)
objects = st.dictionaries(keys, values, min_size=1, max_size=4)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=objects, indent=st.sampled_from([1, 2, 4]))
def test_every_recorded_line_holds_its_key_or_item(document: dict[str, Any], indent: int) -> None:
    text = toon.encode(document, indent_size=indent)
    positions = Positions()
    decoded = decode_text(text, indent_size=indent, positions=positions)
    for path in paths(decoded):
        line = positions.line_of(decoded, path)
        assert line is not None
        if positions.line_of(decoded, path[:-1]) != line:  # recorded for this step itself
            assert line_fits(text, line, path[-1]), (text, path, line)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=objects, second=objects)
def test_repeated_root_keys_point_into_the_document_that_won(
    first: dict[str, Any], second: dict[str, Any]
) -> None:
    """Two documents back to back, read non-strict: keys of the second win, lines follow them."""
    # a primitive first entry keeps each root a plain object (not the keyed table form)
    text_a, text_b = toon.encode({"p": 1, **first}), toon.encode({"p": 2, **second})
    offset = text_a.count("\n") + 1
    merged, positions = decoded_with_positions(text_a + "\n" + text_b, strict=False)
    alone_a, positions_a = decoded_with_positions(text_a)
    alone_b, positions_b = decoded_with_positions(text_b)
    assert merged == {**alone_a, **alone_b}
    for path in paths(merged):
        line = positions.line_of(merged, path)
        if path[0] in alone_b:
            expected = positions_b.line_of(alone_b, path)
            assert expected is not None
            expected += offset
        else:
            expected = positions_a.line_of(alone_a, path)
        assert line == expected, path
