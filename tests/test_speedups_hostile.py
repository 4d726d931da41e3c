"""Hostile input for the C accelerator: Python code run in the middle of its loops.

A dict lookup among keys that are not exact ``str`` calls their ``__eq__``;
that code can empty the list the accelerator is walking or free the record
it is reading.  Each case runs in a child process (a segmentation fault then
fails the test instead of ending pytest), once accelerated and once as pure
Python, and the two must print the same thing.  Also: record arrays whose
first row is much longer than the rest encode without reserving memory for
as many long rows (issue 17, item 2).
"""

from __future__ import annotations

import textwrap

import pytest
from accel_fuzzing import run_script
from speedups_support import require_accelerator

import eson
import eson.msgspec
import eson.toon
from eson._internal import accelerator

pytestmark = pytest.mark.usefixtures("_accelerated")


@pytest.fixture
def _accelerated() -> None:
    require_accelerator()


def _same_in_a_child(source: str) -> str:
    """Run ``source`` accelerated and pure; assert no crash and the same output."""
    source = textwrap.dedent(source)
    fast = run_script(source)
    slow = run_script(source, pure=True)
    assert slow.returncode == 0, slow.stderr
    assert fast.returncode == 0, f"accelerated run died ({fast.returncode}):\n{fast.stderr[-2000:]}"
    assert fast.stdout == slow.stdout
    return fast.stdout


# A str subclass key, equal to the field name, whose __eq__ empties the rows.
_CLEARING_KEY = """
class ClearingKey(str):
    __hash__ = str.__hash__

    def __eq__(self, other):
        TARGET.clear()
        return str.__eq__(self, other)
"""


def test_a_key_whose_eq_empties_the_rows() -> None:
    out = _same_in_a_child(
        _CLEARING_KEY
        + """
import eson
rows = [{"a": 1, "b": "x"} for _ in range(50)]
TARGET = rows
rows[1] = {ClearingKey("a"): 1, "b": "x"}
print(repr(eson.encode({"rows": rows})))
"""
    )
    assert "rows[" in out


@pytest.mark.parametrize("number", [False, True])
def test_a_key_whose_eq_empties_the_rows_later_rows(number: bool) -> None:
    _same_in_a_child(
        _CLEARING_KEY
        + f"""
import eson
rows = [{{"a": i, "b": "x" * i}} for i in range(200)]
TARGET = rows
rows[150] = {{"b": "y", ClearingKey("a"): 2}}
print(repr(eson.encode({{"rows": rows, "tail": 1}}, number={number})))
"""
    )


@pytest.mark.parametrize("writer", ["eson.encode", "eson.toon.encode"])
def test_a_pydantic_instance_dict_key_whose_eq_empties_the_rows(writer: str) -> None:
    _same_in_a_child(
        _CLEARING_KEY
        + f"""
import eson, eson.toon

class Row(eson.Record):
    a: int
    b: str

class Doc(eson.Message):
    rows: list[Row]

doc = Doc(rows=[Row(a=i, b="x") for i in range(50)])
TARGET = doc.rows
record = doc.rows[1]
record.__dict__[ClearingKey("a")] = record.__dict__.pop("a")
try:
    print(repr({writer}(doc)))
except Exception as exc:
    print(type(exc).__name__, exc)
"""
    )


def test_a_key_whose_eq_frees_the_record_being_read() -> None:
    # The row is replaced in the list (its last reference dropped) while
    # its own key is compared.
    _same_in_a_child(
        """
import eson

class ReplacingKey(str):
    __hash__ = str.__hash__

    def __eq__(self, other):
        ROWS[1] = {"a": 0, "b": "fresh"}
        ROWS.extend({"a": 9, "b": "z"} for _ in range(100))
        return str.__eq__(self, other)

ROWS = [{"a": 1, "b": "x"} for _ in range(3)]
ROWS[1] = {ReplacingKey("a"): 1, "b": "y" * 100}
print(repr(eson.encode({"rows": ROWS})))
"""
    )


def test_a_field_name_key_of_a_str_subclass_is_left_to_python() -> None:
    # Only exact str keys are looked up in C; another key class takes the
    # Python path, which gives the same text.
    native = accelerator.native
    assert native is not None

    class Name(str):
        __hash__ = str.__hash__

    rows = [{"a": 1}, {"a": 2}]
    assert native.encode_rows(rows, None, 2, ("a",), (31,), False) == "1\n2"
    assert native.encode_rows(rows, None, 2, (Name("a"),), (31,), False) is None
    rows[1] = {Name("a"): 2}
    assert native.encode_rows(rows, None, 2, ("a",), (31,), False) is None


def test_build_dicts_takes_exact_str_keys_only() -> None:
    native = accelerator.native
    assert native is not None

    class Name(str):
        __hash__ = str.__hash__

    assert native.build_dicts(("a",), [[1, 2]]) == [{"a": 1}, {"a": 2}]
    with pytest.raises(TypeError, match="keys must be str"):
        native.build_dicts((Name("a"),), [[1, 2]])


# -- item 2: one long cell in row 1, many short rows --------------------------

LONG = 1_000_000
SHORT_ROWS = 200_000


def test_long_first_row_untyped() -> None:
    rows = [{"a": "x" * LONG, "b": 0}] + [{"a": "y", "b": i} for i in range(SHORT_ROWS)]
    text = eson.encode({"rows": rows})
    assert len(text) < LONG + 12 * SHORT_ROWS
    assert text.count("\n") == SHORT_ROWS + 3


class LongRow(eson.msgspec.Record):
    a: str
    b: int


class LongDoc(eson.msgspec.Message):
    rows: list[LongRow]


class PLongRow(eson.Record):
    a: str
    b: int


class PLongDoc(eson.Message):
    rows: list[PLongRow]


def test_long_first_row_msgspec_and_toon() -> None:
    doc = LongDoc(rows=[LongRow("x" * LONG, 0)] + [LongRow("y", i) for i in range(SHORT_ROWS)])
    assert len(eson.encode(doc)) < LONG + 12 * SHORT_ROWS
    assert len(eson.encode(doc, number=True)) < LONG + 20 * SHORT_ROWS
    assert len(eson.toon.encode(doc)) < LONG + 16 * SHORT_ROWS


def test_long_first_row_pydantic() -> None:
    rows = [PLongRow(a="x" * LONG, b=0)] + [PLongRow(a="y", b=i) for i in range(SHORT_ROWS)]
    doc = PLongDoc(rows=rows)
    assert len(eson.encode(doc)) < LONG + 12 * SHORT_ROWS
    assert len(eson.toon.encode(doc)) < LONG + 16 * SHORT_ROWS


def test_rows_emptied_before_the_accelerator_is_asked() -> None:
    # Row 1's keys() empties the list after the writer saw it non-empty:
    # the accelerator must not write an (empty) body line of its own
    # (fuzz seed 1 case 106).
    _same_in_a_child(
        """
import eson

class Emptying(dict):
    def keys(self):
        ROWS.clear()
        return dict.keys(self)

ROWS = [Emptying({"a": 1, "b": 2}), {"a": 3, "b": 4}]
print(repr(eson.encode({"rows": ROWS, "z": 1})))
"""
    )


def test_modes_and_masks_are_exact_ints() -> None:
    # An int subclass's __index__ is Python code; the C functions take only
    # exact ints (the codecs pass nothing else) and say so.
    native = accelerator.native
    assert native is not None

    class Mode(int):
        def __index__(self) -> int:
            raise AssertionError("__index__ ran")

    assert native.decode_rows(["1\tx"], 2, (1, 0), 0) is not None
    with pytest.raises(TypeError, match="a mode is an int or a dict"):
        native.decode_rows(["1\tx"], 2, (Mode(1), 0), 0)
    with pytest.raises(TypeError, match="a mode is an int or a dict"):
        native.toon_rows("1,x", "\n  ", ",", 2, (1, Mode(0)))
    with pytest.raises(TypeError, match="masks must be int"):
        native.encode_rows([{"a": 1}], None, 2, ("a",), (Mode(31),), False)


# A finalizer run by a collection inside a C function (CPython 3.11 collects
# in the allocating call) empties the list the function reads and frees its
# items.  The collection is set to come at the n-th allocation of a tracked
# object after the call begins, for each n in turn.
_FINALIZER_EMPTIES = """
import gc, sys
from eson._internal import accelerator
native = accelerator.native
items = {items}
expected = {call}
items = {items}

class Finalizer:
    def __del__(self):
        items.clear()
        junk = [str(i) * 30 for i in range(400)]  # reuses the freed memory

for extra in range(8):
    items = {items}
    gc.disable()
    gc.collect()
    a, b = Finalizer(), Finalizer()
    a.other, b.other = b, a
    del a, b
    gc.set_threshold(gc.get_count()[0] + extra)
    gc.enable()
    got = {call}
    gc.disable()
    gc.set_threshold(700)
    # The result of the list as passed, of the emptied list, or None.
    assert got in (expected, {emptied}, None), (extra, repr(got)[:200])
print("ok")
"""


@pytest.mark.parametrize(
    ("items", "call", "emptied"),
    [
        (
            '[f"{{i}}\\tname {{i}} " + "z" * 50 for i in range(1, 200)]',
            "native.decode_rows(items, 2, (1, 3), 0)",
            "([[], []], [1, 1], [0, 0])",
        ),
        ('[f"text {{i}} " + "z" * 50 for i in range(200)]', "native.decode_cells(items)", "[]"),
        ('[f"text {{i}}\\t" + "z" * 50 for i in range(200)]', "native.encode_cells(items)", "[]"),
    ],
    ids=["decode_rows", "decode_cells", "encode_cells"],
)
def test_a_finalizer_empties_the_list_being_read(items: str, call: str, emptied: str) -> None:
    script = _FINALIZER_EMPTIES.format(items=items, call=call, emptied=emptied)
    done = run_script(textwrap.dedent(script))
    assert done.returncode == 0, f"({done.returncode}):\n{done.stderr[-2000:]}"
    assert done.stdout == "ok\n"


def test_a_pydantic_instance_dict_of_a_dict_subclass_is_left_to_python() -> None:
    # The Python path calls the subclass's methods (which here replace a
    # field); the C code read the dict directly and wrote the old value
    # (fuzz seed 2026 case 8735).
    _same_in_a_child(
        """
import eson

class Row(eson.Record):
    a: int
    b: str

class Doc(eson.Message):
    rows: list[Row]

class Replacing(dict):
    def __getitem__(self, key):
        dict.__setitem__(self, "a", 99)
        return dict.__getitem__(self, key)

    def keys(self):
        dict.__setitem__(self, "a", 99)
        return dict.keys(self)

doc = Doc(rows=[Row(a=i, b="x") for i in range(5)])
object.__setattr__(doc.rows[0], "__dict__", Replacing(vars(doc.rows[0])))
try:
    print(repr(eson.encode(doc)))
except Exception as exc:
    print(type(exc).__name__, exc)
"""
    )
