"""A differential fuzzer of the C accelerator, with a crash harness.

Each case is Python source, generated from ``(seed, index)``, that builds a
value -- a plain document or a msgspec / Pydantic model -- full of what the
accelerator's loops must survive: ``str``, ``int`` and ``float`` subclasses
whose ``__eq__``, ``__hash__``, ``__str__``, ``__repr__``, ``__index__`` or
``__float__`` empty, grow or edit the rows being written (or raise), model
instances whose ``__dict__`` was edited, rows of another class, huge ints,
subnormals, ``-0.0``, NaN and infinities, every kind of code point (NUL,
lone surrogates, U+2028, astral), long cells -- and one operation: encode
(ESON, numbered, TOON with each delimiter), encode then decode (untyped and
typed), or decode a mutated encoding.

:func:`check` runs the operation twice on fresh objects (the source runs
again, so a mutation in the first run does not reach the second): with the
accelerator and with it switched off (``speedups_support.pure``).  Both must
give the same text or value (``1`` vs ``1.0``, ``-0.0`` and NaN told apart)
or the same error (class, message, location).

:func:`run_isolated` runs cases in a child process.  When the child dies of
a signal (a segmentation fault, an ASan abort), the case it was running is
saved as a stand-alone script (``crash-<seed>-<index>.py`` in
:data:`CRASH_DIR`) and reported with its path; the remaining cases go on in
a new child.  ``tests/test_speedups_fuzz.py`` runs a bounded campaign in the
suite, ``tools/fuzz.py --surface accel`` long ones.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import contextlib
import json
import math
import os
import random
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import msgspec
import pydantic
from speedups_support import outcome, pure, same_value

import eson
import eson.msgspec as em
import eson.toon

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
#: Where crashing cases are saved (``TYPED_ESON_ACCEL_FUZZ_DIR`` overrides).
CRASH_DIR = Path(os.environ.get("TYPED_ESON_ACCEL_FUZZ_DIR", ROOT / ".cache" / "accel-fuzz"))

sys.setrecursionlimit(max(sys.getrecursionlimit(), 6000))


# -- running a script in a child ------------------------------------------------------


def run_script(source: str, *, pure: bool = False, timeout: float = 300) -> "subprocess.CompletedProcess[str]":
    """Run Python ``source`` in a child (accelerated, or pure with ``pure=True``).

    The child imports this directory's modules (``import accel_fuzzing``)
    after whatever ``PYTHONPATH`` already holds (the sanitizer build's
    package comes first there).
    """
    return subprocess.run(
        [sys.executable, "-c", source],
        env=_child_env(pure),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _child_env(pure: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TYPED_ESON_NO_SPEEDUPS", None)
    if pure:
        env["TYPED_ESON_NO_SPEEDUPS"] = "1"
    paths = [path for path in env.get("PYTHONPATH", "").split(os.pathsep) if path]
    env["PYTHONPATH"] = os.pathsep.join([*paths, str(TESTS)])
    env.setdefault("PYTHONFAULTHANDLER", "1")
    return env


# -- hostile objects --------------------------------------------------------------------


class HostileError(Exception):
    """What a hostile method raises when its action is ``raise``."""


class Target:
    """The object a hostile method changes, and how (set by the case's source).

    ``action`` is one of ``clear``, ``pop``, ``grow``, ``replace``,
    ``delete`` (a key of a dict, or a model attribute), ``raise`` or
    ``none``; ``limit`` is how many times it acts (then the method is
    plain again), so both runs of a case see the same number of calls act.
    """

    def __init__(self, action: str = "none", limit: int = 1) -> None:
        self.obj: Any = None
        self.action = action
        self.limit = limit
        self.calls = 0

    def fire(self, method: str) -> None:
        self.calls += 1
        if self.limit <= 0 or self.action == "none":
            return
        self.limit -= 1
        obj, action = self.obj, self.action
        if action == "raise":
            raise HostileError(f"hostile {method}")
        if obj is None:
            return
        if isinstance(obj, list):
            if action == "clear":
                obj.clear()
            elif action == "pop" and obj:
                obj.pop()
            elif action == "grow":
                obj.extend(obj[:1] * 50)
            elif action == "replace" and obj:
                obj[len(obj) // 2] = obj[0] if isinstance(obj[0], dict) else obj[-1]
                obj[0] = type(obj[0])() if isinstance(obj[0], dict) else obj[0]
            elif action == "delete" and obj:
                del obj[: len(obj) // 2]
        elif isinstance(obj, dict):
            if action in ("clear", "delete"):
                obj.clear()
            elif action == "pop" and obj:
                obj.popitem()
            elif action == "grow":
                obj[f"k{len(obj)}"] = 1
        else:  # a model instance
            names = list(getattr(obj, "__dict__", {})) or list(getattr(obj, "__struct_fields__", ()))
            if names and action in ("delete", "clear", "pop"):
                with contextlib.suppress(AttributeError, TypeError):
                    delattr(obj, names[0])
            elif names and action in ("grow", "replace"):
                with contextlib.suppress(AttributeError, TypeError, ValueError):
                    setattr(obj, names[0], HStr("replaced", Target()))


class HStr(str):
    """A ``str`` subclass whose special methods fire a :class:`Target`."""

    target: Target
    on: tuple[str, ...]

    def __new__(cls, text: str, target: Target, *on: str) -> "HStr":
        self = super().__new__(cls, text)
        self.target = target
        self.on = on
        return self

    def _fire(self, method: str) -> None:
        if method in self.on:
            self.target.fire(method)

    def __eq__(self, other: object) -> bool:
        self._fire("eq")
        return str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        self._fire("eq")
        return str.__ne__(self, other)

    def __hash__(self) -> int:
        self._fire("hash")
        return str.__hash__(self)

    def __str__(self) -> str:
        self._fire("str")
        return str.__str__(self)

    def __repr__(self) -> str:
        self._fire("repr")
        return str.__repr__(self)

    def __format__(self, spec: str) -> str:
        self._fire("str")
        return str.__format__(self, spec)

    def __len__(self) -> int:
        self._fire("len")
        return str.__len__(self)

    def __reduce__(self) -> Any:
        return (str, (str(self),))


class HInt(int):
    """An ``int`` subclass whose special methods fire a :class:`Target`."""

    target: Target
    on: tuple[str, ...]

    def __new__(cls, value: int, target: Target, *on: str) -> "HInt":
        self = super().__new__(cls, value)
        self.target = target
        self.on = on
        return self

    def _fire(self, method: str) -> None:
        if method in self.on:
            self.target.fire(method)

    def __eq__(self, other: object) -> bool:
        self._fire("eq")
        return int.__eq__(self, other)

    def __hash__(self) -> int:
        self._fire("hash")
        return int.__hash__(self)

    def __index__(self) -> int:
        self._fire("index")
        return int(int.__index__(self))

    def __int__(self) -> int:
        self._fire("index")
        return int.__int__(self)

    def __float__(self) -> float:
        self._fire("float")
        return int.__float__(self)

    def __str__(self) -> str:
        self._fire("str")
        return int.__repr__(self)

    def __repr__(self) -> str:
        self._fire("repr")
        return int.__repr__(self)

    def __format__(self, spec: str) -> str:
        self._fire("str")
        return int.__format__(self, spec)


class HFloat(float):
    """A ``float`` subclass whose special methods fire a :class:`Target`."""

    target: Target
    on: tuple[str, ...]

    def __new__(cls, value: float, target: Target, *on: str) -> "HFloat":
        self = super().__new__(cls, value)
        self.target = target
        self.on = on
        return self

    def _fire(self, method: str) -> None:
        if method in self.on:
            self.target.fire(method)

    def __eq__(self, other: object) -> bool:
        self._fire("eq")
        return float.__eq__(self, other)

    def __hash__(self) -> int:
        self._fire("hash")
        return float.__hash__(self)

    def __float__(self) -> float:
        self._fire("float")
        return float.__float__(self)

    def __str__(self) -> str:
        self._fire("str")
        return float.__repr__(self)

    def __repr__(self) -> str:
        self._fire("repr")
        return float.__repr__(self)

    def __format__(self, spec: str) -> str:
        self._fire("str")
        return float.__format__(self, spec)


class HDict(dict):  # type: ignore[type-arg]
    """A ``dict`` subclass whose ``__getitem__`` and ``keys`` fire a :class:`Target`."""

    def __init__(self, items: Any, target: Target, *on: str) -> None:
        super().__init__(items)
        self.target = target
        self.on = on

    def __getitem__(self, key: Any) -> Any:
        if "getitem" in self.on:
            self.target.fire("getitem")
        return dict.__getitem__(self, key)

    def keys(self) -> Any:
        if "keys" in self.on:
            self.target.fire("keys")
        return dict.keys(self)


class HList(list):  # type: ignore[type-arg]
    """A ``list`` subclass whose ``__iter__`` and ``__len__`` fire a :class:`Target`."""

    def __init__(self, items: Any, target: Target, *on: str) -> None:
        super().__init__(items)
        self.target = target
        self.on = on

    def __iter__(self) -> Any:
        if "iter" in self.on:
            self.target.fire("iter")
        return list.__iter__(self)

    def __len__(self) -> int:
        if "len" in self.on:
            self.target.fire("len")
        return list.__len__(self)


# -- the models -------------------------------------------------------------------------


class MRow(em.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float
    extra: Any


class MDoc(em.Message):
    title: str
    rows: list[MRow]


class MNumbered(em.Message, number=True):
    rows: list[MRow]


class MSubRow(MRow):
    pass


class PRow(eson.Record):
    id: int
    kind: Literal["a", "b", "c d", "1"]
    name: str
    score: float
    ok: bool
    note: str | None
    size: int | float
    extra: Any


class PDoc(eson.Message):
    title: str
    rows: list[PRow]


class PNumbered(eson.Message, number=True):
    rows: list[PRow]


class PSubRow(PRow):
    pass


class PItems(pydantic.BaseModel):
    items: list[PRow]


ROW_FIELDS = ("id", "kind", "name", "score", "ok", "note", "size", "extra")
#: Per framework: document classes, the row class, a subclass of it.
FRAMEWORKS: dict[str, tuple[tuple[type, ...], type, type]] = {
    "msgspec": ((MDoc, MNumbered), MRow, MSubRow),
    "pydantic": ((PDoc, PNumbered, PItems), PRow, PSubRow),
}


# -- the generator: Python source ---------------------------------------------------------


def _float_text(value: float) -> str:
    if math.isnan(value):
        return "float('nan')" if math.copysign(1.0, value) > 0 else "-float('nan')"
    if math.isinf(value):
        return "float('inf')" if value > 0 else "float('-inf')"
    return f"float.fromhex({value.hex()!r})"


_FLOATS = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-7, 1e-6, 0.1, 0.5, 1.0, 1e16,
           1e21, 1e22, 2.0**52, 2.0**53, 2.0**53 + 2, 1.7976931348623157e308, 0.1 + 0.2, 123.456,
           -1.5, 100.0, 1e300, float("nan"), float("inf"), float("-inf")]
_INTS = [0, 1, -1, 9, 10, 2**31, 2**53, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), -(2**63) - 1, 2**64,
         10**18, 10**19, -(10**18), 10**30]
_TEXTS = ["", " ", "a b", "a,b", "a|b", "a\tb", "a\nb", "a\rb", '"q"', '"', "\\", "\\u0041", "[x]",
          "{y}", "-", "- x", "null", "true", "false", "0", "01", "-0", "1e5", "1.5", "1.", ".5",
          "é", "日本", "\u2028", "\u2029", "\u00a0x", "x ", " x", "\ufeffb", "\x00", "\x7f", "😀",
          "\ud800", "\udfff", "\ud83d\ude00", "n", "a:b", "#", "x" * 40, "\x85", "\x0b\x0c"]
_PLAIN_TEXTS = [text for text in _TEXTS if not any(0xD800 <= ord(c) < 0xE000 for c in text)]
_METHODS = {"str": ("eq", "hash", "str", "repr", "len"), "int": ("eq", "hash", "index", "float",
            "str", "repr"), "float": ("eq", "hash", "float", "str", "repr")}
_ACTIONS = ("clear", "pop", "grow", "replace", "delete", "raise", "none")
_SHRINKING = ("clear", "pop", "delete", "replace")


def _code_point(rng: random.Random, surrogates: bool) -> str:
    pick = rng.random()
    if pick >= 0.4 and pick < 0.43 and not surrogates:
        pick = 0.2
    if pick < 0.3:
        return chr(rng.randrange(0x20, 0x7F))
    if pick < 0.4:
        return chr(rng.randrange(0, 0x20))
    if pick < 0.43:
        return chr(rng.randrange(0xD800, 0xE000))  # lone surrogates
    if pick < 0.6:
        return chr(rng.randrange(0x80, 0x100))
    if pick < 0.7:
        return chr(rng.choice([0x2028, 0x2029, 0xFEFF, 0xFFFF, 0x10FFFF, 0x3000, 0x1680]))
    if pick < 0.85:
        return chr(rng.randrange(0x100, 0x10000))
    return chr(rng.randrange(0x10000, 0x110000))


class _Source:
    """The lines of one case's source, with fresh names for its targets."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.targets: list[str] = []
        self.hostile = rng.random() < 0.6  # whether this case uses hostile objects at all
        # Strings with lone surrogates (the encoders refuse them, so a case
        # holding one mostly tests that refusal) in a fifth of the cases.
        self.surrogates = rng.random() < 0.2

    def target(self, actions: tuple[str, ...] = _ACTIONS) -> str:
        name = f"t{len(self.targets)}"
        action = self.rng.choice(actions)
        self.lines.append(f"{name} = H.Target({action!r}, {self.rng.choice([1, 1, 2, 1000])})")
        self.targets.append(name)
        return name

    def text(self) -> str:
        rng = self.rng
        pick = rng.random()
        texts = _TEXTS if self.surrogates else _PLAIN_TEXTS
        if pick < 0.35:
            return rng.choice(texts)
        if pick < 0.7:
            return "".join(_code_point(rng, self.surrogates) for _ in range(rng.randrange(0, 12)))
        if pick < 0.9:
            return "".join(rng.choice(texts) for _ in range(rng.randrange(1, 4)))
        return rng.choice("ab\"\\\t é\u4e2d\ud800"[: None if self.surrogates else -1]) * rng.choice(
            [17, 63, 300, 5000]
        )

    def float_value(self) -> float:
        rng = self.rng
        pick = rng.random()
        if pick < 0.4:
            return rng.choice(_FLOATS)
        if pick < 0.6:
            return float(struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0])
        if pick < 0.7:  # subnormals
            return float(struct.unpack("<d", struct.pack("<Q", rng.getrandbits(52)))[0])
        if pick < 0.85:
            return round(rng.uniform(-1e6, 1e6), rng.randrange(0, 10))
        return rng.randrange(-(10**6), 10**6) * 10.0 ** rng.randrange(-30, 30)

    def int_value(self) -> int:
        rng = self.rng
        pick = rng.random()
        if pick < 0.4:
            return rng.choice(_INTS) * rng.choice([1, -1])
        if pick < 0.8:
            return rng.randrange(-1000, 1000)
        if pick < 0.97:
            return rng.getrandbits(rng.choice([62, 63, 64, 65, 200]))
        return 10 ** rng.choice([4299, 4300, 5000]) + 1  # the int digit limit

    def scalar(self, kind: str | None = None) -> str:
        """A scalar's source: plain, or (sometimes) a hostile subclass."""
        rng = self.rng
        kind = kind or rng.choice(["str", "str", "int", "float", "bool", "none"])
        if kind == "bool":
            return rng.choice(["True", "False"])
        if kind == "none":
            return "None"
        if kind == "str":
            plain = repr(self.text())
        elif kind == "int":
            number = self.int_value()
            plain = hex(number) if number.bit_length() > 1000 else repr(number)
        else:
            plain = _float_text(self.float_value())
        if not (self.hostile and rng.random() < 0.12):
            return plain
        cls = {"str": "HStr", "int": "HInt", "float": "HFloat"}[kind]
        methods = rng.sample(_METHODS[kind], rng.randrange(1, 3))
        on = ", ".join(repr(method) for method in methods)
        return f"H.{cls}({plain}, {self.target()}, {on})"

    def value(self, depth: int = 0) -> str:
        rng = self.rng
        pick = rng.random()
        if depth > 2 or pick < 0.7:
            return self.scalar()
        if pick < 0.85:
            items = ", ".join(self.value(depth + 1) for _ in range(rng.randrange(0, 4)))
            if self.hostile and rng.random() < 0.1:
                return f"H.HList([{items}], {self.target()}, 'iter', 'len')"
            return f"[{items}]"
        keys = [rng.choice(["a", "b", "x", "n", "k"]) for _ in range(rng.randrange(0, 4))]
        items = ", ".join(f"{key!r}: {self.value(depth + 1)}" for key in keys)
        return "{" + items + "}"

    def key(self, name: str, row: int) -> str:
        # Row 1's keys are the field names (a str subclass there is refused
        # up front); a later row's key is looked up among the fields.
        if row and self.hostile and self.rng.random() < 0.25:
            methods = self.rng.sample(("eq", "eq", "hash", "str"), self.rng.randrange(1, 3))
            on = ", ".join(sorted(set(map(repr, methods))))
            actions = _SHRINKING if self.rng.random() < 0.7 else _ACTIONS
            return f"H.HStr({name!r}, {self.target(actions)}, {on})"
        return repr(name)

    def row_count(self) -> int:
        rng = self.rng
        return rng.choice([0, 1, 2, 3, 5, 8, 12]) if rng.random() < 0.85 else rng.choice([40, 300])

    def aim(self, container: str) -> None:
        """Point the targets not yet aimed at ``container`` (or leave them idle)."""
        for name in self.targets:
            if self.rng.random() < 0.8:
                self.lines.append(f"if {name}.obj is None: {name}.obj = {container}")


def _untyped(src: _Source) -> str:
    """Lines building ``value``, a plain document; returns the operation."""
    rng = src.rng
    fields = rng.sample(["a", "b", "c", "id", "name", "x.y", "n"], rng.randrange(1, 5))
    column_kinds = {name: rng.choice(["str", "int", "float", "bool", "none", None, None]) for name in fields}
    count = src.row_count()
    src.lines.append("rows = []")
    long_first = rng.random() < 0.05
    for index in range(count):
        cells = []
        for name in fields:
            kind = column_kinds[name]
            if long_first and index == 0 and rng.random() < 0.5:
                cell = repr("x" * rng.choice([1000, 100_000]))
            elif kind is None or rng.random() < 0.1:
                cell = src.value()
            else:
                cell = src.scalar(kind)
            cells.append((name, cell))
        if rng.random() < 0.1:
            rng.shuffle(cells)
        if rng.random() < 0.04 and cells:
            cells.pop()
        items = ", ".join(f"{src.key(name, index)}: {cell}" for name, cell in cells)
        if src.hostile and rng.random() < 0.05:
            src.lines.append(f"rows.append(H.HDict({{{items}}}, {src.target()}, 'getitem', 'keys'))")
        else:
            src.lines.append(f"rows.append({{{items}}})")
    entries = ["'rows': rows"]
    for name in rng.sample(["title", "count", "tags", "meta", "z"], rng.randrange(0, 3)):
        entries.append(f"{name!r}: {src.value()}")
    rng.shuffle(entries)
    src.lines.append("value = {" + ", ".join(entries) + "}")
    src.aim(rng.choice(["rows", "rows", "value", "rows[0] if rows else None"]))
    return rng.choice(["encode", "encode", "number", "toon", "roundtrip", "toon_roundtrip", "mutated"])


def _row_source(src: _Source, cls: str, framework: str) -> str:
    rng = src.rng
    values = {
        "id": src.scalar("int") if rng.random() < 0.9 else src.scalar(),
        "kind": repr(rng.choice(["a", "b", "c d", "1"])),
        "name": src.scalar("str"),
        "score": src.scalar("float"),
        "ok": rng.choice(["True", "False"]),
        "note": src.scalar(rng.choice(["str", "none"])),
        "size": src.scalar(rng.choice(["int", "float"])),
        "extra": src.value(),
    }
    if rng.random() < 0.03:  # a wrong type (msgspec does not check; Pydantic's construct neither)
        values[rng.choice(ROW_FIELDS)] = src.value()
    args = ", ".join(f"{name}={code}" for name, code in values.items())
    if framework == "pydantic":
        if rng.random() < 0.5:
            return f"{cls}.model_construct({args})"
        return f"H.validated({cls}, {args})"
    return f"{cls}({args})"


def _typed(src: _Source, framework: str) -> str:
    rng = src.rng
    docs, row_cls, sub_cls = FRAMEWORKS[framework]
    doc_cls = rng.choice(docs)
    src.lines.append(f"cls = H.{doc_cls.__name__}")
    src.lines.append("rows = []")
    for _ in range(src.row_count()):
        cls = f"H.{sub_cls.__name__}" if rng.random() < 0.03 else f"H.{row_cls.__name__}"
        src.lines.append(f"rows.append({_row_source(src, cls, framework)})")
    if rng.random() < 0.1:
        src.lines.append(f"rows[0:1] = [H.{row_cls.__name__}.__new__(H.{row_cls.__name__})] if rows else []")
    # Instances edited after construction: an attribute deleted, a __dict__
    # key replaced by a hostile str, a value set to another type.
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        edit = rng.choice(["delete", "key", "key", "dict", "set"])
        name = rng.choice(ROW_FIELDS)
        where = f"rows[{rng.randrange(0, 8)} % len(rows)]"
        if edit == "delete":
            src.lines.append(f"if rows: H.try_call(delattr, {where}, {name!r})")
        elif edit == "key" and framework == "pydantic":
            actions = _SHRINKING if rng.random() < 0.7 else _ACTIONS
            key = f"H.HStr({name!r}, {src.target(actions)}, 'eq', 'hash')"
            src.lines.append(f"if rows: H.rekey({where}, {name!r}, {key})")
        elif edit == "dict" and framework == "pydantic":
            src.lines.append(f"if rows: H.redict({where}, {src.target()})")
        else:
            src.lines.append(f"if rows: H.try_call(setattr, {where}, {name!r}, {src.value()})")
    fields = {"title": src.scalar("str")} if doc_cls in (MDoc, PDoc) else {}
    attr = "items" if doc_cls is PItems else "rows"
    fields[attr] = "rows"
    args = ", ".join(f"{name}={code}" for name, code in fields.items())
    if framework == "pydantic":
        src.lines.append(f"value = cls.model_construct({args})")
    else:
        src.lines.append(f"value = cls({args})")
    src.aim(rng.choice(["rows", "rows", "value", "rows[0] if rows else None"]))
    return rng.choice(["encode", "encode", "number", "toon", "roundtrip", "toon_roundtrip", "mutated"])


@dataclass
class Case:
    """One generated case: the source building ``value``, and what runs on it."""

    seed: int
    index: int
    kind: str
    source: str
    operation: str
    delimiter: str
    mutation_seed: int

    def script(self, note: str = "") -> str:
        """A stand-alone script: the case's outcome, accelerated, then pure."""
        return (
            f"# accel fuzz case: seed {self.seed} case {self.index} ({self.kind}, "
            f"{self.operation}){' -- ' + note if note else ''}\n"
            f"import sys\nsys.path.insert(0, {str(TESTS)!r})\n"
            "import accel_fuzzing\n"
            f"case = accel_fuzzing.make_case({self.seed}, {self.index})\n"
            "print(accel_fuzzing.check(case) or 'same')\n"
            "# The value it builds (run with H = accel_fuzzing):\n"
            + "".join(f"#   {line}\n" for line in self.source.splitlines())
        )


def make_case(seed: int, index: int) -> Case:
    """The case ``index`` of campaign ``seed`` (the same on every run)."""
    rng = random.Random(f"accel:{seed}:{index}")
    src = _Source(rng)
    kind = rng.choice(["untyped", "untyped", "msgspec", "pydantic"])
    operation = _untyped(src) if kind == "untyped" else _typed(src, kind)
    return Case(
        seed=seed,
        index=index,
        kind=kind,
        source="\n".join(src.lines),
        operation=operation,
        delimiter=rng.choice([",", "\t", "|"]),
        mutation_seed=rng.getrandbits(32),
    )


# -- helpers the case sources call ----------------------------------------------------------


def validated(cls: type, **values: Any) -> Any:
    """``cls(**values)`` validated, or the unvalidated ``model_construct`` when it fails."""
    try:
        return cls(**values)
    except Exception:
        return cls.model_construct(**values)  # type: ignore[attr-defined]


def try_call(function: Callable[..., Any], *args: Any) -> None:
    """Call, ignoring what a model raises for an edit it refuses."""
    with contextlib.suppress(Exception):
        function(*args)


def rekey(instance: Any, name: str, key: str) -> None:
    """Put the instance ``__dict__`` entry ``name`` back under ``key`` (a str subclass)."""
    values = getattr(instance, "__dict__", None)
    if isinstance(values, dict) and name in values:
        values[key] = values.pop(name)


def redict(instance: Any, target: Target) -> None:
    """Give the instance a ``__dict__`` of a dict subclass whose methods fire ``target``."""
    with contextlib.suppress(AttributeError, TypeError):
        object.__setattr__(instance, "__dict__", HDict(vars(instance), target, "getitem", "keys"))


def mutate(text: str, seed: int) -> str:
    """A few random edits of an encoded document (what the decoders then get)."""
    rng = random.Random(seed)
    chars = list(text)
    for _ in range(rng.randrange(1, 4)):
        if not chars:
            break
        at = rng.randrange(len(chars))
        pick = rng.random()
        if pick < 0.3:
            chars.insert(at, rng.choice(["\t", "\n", '"', "\\", ",", "|", "\x00", "\ud800", " ", "-", "1"]))
        elif pick < 0.5:
            del chars[at]
        elif pick < 0.7:
            chars[at] = rng.choice(["\t", "\n", '"', "0", "e", "."])
        elif pick < 0.85:
            lines = "".join(chars).split("\n")
            line = rng.randrange(len(lines))
            lines.insert(line, lines[line])
            chars = list("\n".join(lines))
        else:
            chars = chars[:at]
    return "".join(chars)


# -- checking -------------------------------------------------------------------------------


def _normal(value: Any) -> Any:
    """Models as (class name, fields) so values compare field by field."""
    if isinstance(value, msgspec.Struct):
        return (type(value).__name__, {name: _normal(getattr(value, name, "<unset>"))
                                       for name in value.__struct_fields__})
    if isinstance(value, pydantic.BaseModel):
        return (type(value).__name__, {name: _normal(item) for name, item in vars(value).items()})
    if isinstance(value, dict):
        return {key: _normal(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(map(_normal, value))
    return value


def _operate(case: Case, value: Any, cls: type | None) -> Any:
    operation = case.operation
    if operation == "encode":
        return eson.encode(value)
    if operation == "number":
        return eson.encode(value, number=True)
    if operation == "toon":
        return eson.toon.encode(value, delimiter=case.delimiter)
    if operation == "roundtrip":
        text = eson.encode(value)
        return text, _normal(eson.decode(text, type=cls)), _normal(eson.decode(text))
    if operation == "toon_roundtrip":
        text = eson.toon.encode(value, delimiter=case.delimiter)
        return text, _normal(eson.toon.decode(text, type=cls)), _normal(eson.toon.decode(text))
    if operation == "mutated":
        text = mutate(eson.encode(value), case.mutation_seed)
        return text, outcome(lambda: _normal(eson.decode(text, type=cls)))
    raise ValueError(f"unknown operation {operation}")


def _attempt(case: Case) -> tuple[str, Any]:
    warnings.simplefilter("ignore")  # Pydantic warns about the wrong types it serializes
    namespace: dict[str, Any] = {"H": sys.modules[__name__], "cls": None}
    for name in ("MRow", "MSubRow", "PRow", "PSubRow"):
        namespace[name] = globals()[name]
    try:
        exec(case.source, namespace)
    except Exception as exc:  # the generator built something a model refused
        return "build", (type(exc).__name__, str(exc))
    return outcome(lambda: _operate(case, namespace["value"], namespace["cls"]))


def _same(fast: tuple[str, Any], slow: tuple[str, Any]) -> bool:
    if fast[0] != slow[0]:
        return False
    if fast[0] == "error":
        return bool(fast[1] == slow[1])
    return same_value(fast[1], slow[1])


def check(case: Case) -> str | None:
    """Run the case accelerated and pure; the difference, or ``None`` when they agree."""
    fast = _attempt(case)
    with pure():
        slow = _attempt(case)
    if _same(fast, slow):
        return None
    return f"accelerated {_short(fast)}\n  pure        {_short(slow)}"


def _short(result: tuple[str, Any]) -> str:
    text = repr(result)
    return text if len(text) <= 1500 else text[:1500] + "..."


# -- the crash harness ------------------------------------------------------------------------


@dataclass
class Report:
    """What a run found: counts, the cases that differed and those that crashed."""

    cases: int = 0
    mismatches: list[tuple[int, str]] = field(default_factory=list)
    crashes: list[tuple[int, str, Path]] = field(default_factory=list)  # index, how, saved script

    def merge(self, other: "Report") -> None:
        self.cases += other.cases
        self.mismatches.extend(other.mismatches)
        self.crashes.extend(other.crashes)


def run(seed: int, indices: Iterable[int]) -> Report:
    """Check the cases in this process (a crash ends it: see :func:`run_isolated`)."""
    report = Report()
    for index in indices:
        problem = check(make_case(seed, index))
        report.cases += 1
        if problem is not None:
            report.mismatches.append((index, problem))
    return report


def _child(seed: int, indices: list[int], crash_at: int | None) -> None:
    """The child's loop: announce each case, then report a difference."""
    out = sys.stdout
    for index in indices:
        out.write(json.dumps({"start": index}) + "\n")
        out.flush()
        if index == crash_at:  # the harness's own test: die as a segfault does
            os.kill(os.getpid(), signal.SIGSEGV)
        try:
            problem = check(make_case(seed, index))
        except BaseException:  # the checker itself failed: a finding too
            problem = "the checker raised:\n" + traceback.format_exc(limit=8)
        if problem is not None:
            out.write(json.dumps({"mismatch": index, "problem": problem}) + "\n")
    out.write(json.dumps({"done": len(indices)}) + "\n")
    out.flush()


def save_crash(case: Case, how: str, stderr: str) -> Path:
    """Write the crashing case as a stand-alone script; its path."""
    CRASH_DIR.mkdir(parents=True, exist_ok=True)
    path = CRASH_DIR / f"crash-{case.seed}-{case.index}.py"
    tail = "".join(f"# {line}\n" for line in stderr[-6000:].splitlines())
    path.write_text(case.script(how) + "# The child's last output on stderr:\n" + tail,
                    encoding="utf-8", errors="backslashreplace")
    return path


def run_isolated(
    seed: int,
    indices: Iterable[int],
    *,
    timeout: float = 600,
    crash_at: int | None = None,
) -> Report:
    """Check the cases in child processes; a child's death is a crash, saved.

    After a crash the cases after it run in a new child.  ``timeout`` bounds
    each child (a hang is reported as a crash of the case it was running).
    ``crash_at`` makes the child kill itself at that case (to test this).
    """
    pending = list(indices)
    report = Report()
    while pending:
        command = [
            sys.executable,
            "-c",
            "import sys, accel_fuzzing as f; "
            "f._child(int(sys.argv[1]), list(map(int, sys.argv[2].split(','))), "
            "None if sys.argv[3] == '-' else int(sys.argv[3]))",
            str(seed),
            ",".join(map(str, pending)),
            "-" if crash_at is None else str(crash_at),
        ]
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errors:
            child = subprocess.Popen(
                command, env=_child_env(False), stdout=subprocess.PIPE, stderr=errors, text=True,
                errors="replace",
            )
            killed: list[bool] = []
            timer = threading.Timer(timeout, _kill, (child, killed))
            timer.start()
            started: int | None = None
            done = False
            assert child.stdout is not None
            for line in child.stdout:
                message = json.loads(line)
                if "start" in message:
                    if started is not None:
                        report.cases += 1
                    started = message["start"]
                elif "mismatch" in message:
                    report.mismatches.append((message["mismatch"], message["problem"]))
                elif "done" in message:
                    done = True
            code = child.wait()
            timer.cancel()
            if done and code == 0:
                report.cases += 1 if started is not None else 0
                return report
            errors.seek(0)
            stderr = errors.read()
        if started is None:
            raise RuntimeError(f"the fuzz child failed before its first case ({code}):\n{stderr[-3000:]}")
        how = describe_exit(code, stderr)
        if killed:
            how = f"still running after {timeout:.0f} s (a hang, or a loop that is not linear)"
        report.cases += 1
        report.crashes.append((started, how, save_crash(make_case(seed, started), how, stderr)))
        pending = pending[pending.index(started) + 1:]
    return report


SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")


def describe_exit(code: int, stderr: str) -> str:
    """How a child ended: a signal, a sanitizer's report, or a plain exit status.

    Under AddressSanitizer a fault is caught by the sanitizer, which reports it
    and then aborts (``abort_on_error=1``) or exits with status 1 (its default,
    and what it does for a signal another handler re-raised); the report on
    stderr is what tells that exit from an ordinary failing one.
    """
    if code < 0:
        return f"killed by signal {signal.Signals(-code).name}"
    if any(mark in stderr for mark in SANITIZER_REPORTS):
        return f"stopped by the sanitizer (exit status {code})"
    return f"exit status {code}"


def _kill(child: "subprocess.Popen[str]", killed: list[bool]) -> None:
    killed.append(True)
    child.kill()


def campaign(seed: int, minutes: float, *, batch: int = 200, start: int = 0, step: int = 1,
             progress: Callable[[Report, float], None] | None = None) -> Report:
    """Isolated batches of cases ``start, start + step, ...`` until the time is up."""
    deadline = time.time() + minutes * 60
    total = Report()
    index = start
    while time.time() < deadline:
        indices = range(index, index + batch * step, step)
        total.merge(run_isolated(seed, indices))
        index += batch * step
        if progress is not None:
            progress(total, deadline - time.time())
    return total
