"""Seeded data for ``eson eval``: the handoff shape, or values made up for the user's type.

:class:`Handoff` is the demo's reviewer-to-fixer handoff (:mod:`eson.demo`)
with two nested cells per finding, an ``owner`` object and a ``labels``
list, so that every question kind has something to ask about.
:func:`handoff` makes one with ``records`` findings from a seed;
:func:`generate` makes a document of any model type from its field types;
:func:`load` reads one the user supplies.  The same seed gives the same
document on every machine (``random.Random`` is stable across versions).
"""

from __future__ import annotations

import datetime
import enum
import random
from typing import Any, Literal

import msgspec

from eson._internal.schema.annotations import (
    NONE_TYPE,
    container_args,
    container_kind,
    is_any,
    literal_values,
    strip_none,
    union_members,
    unwrap,
)
from eson._internal.schema.binding import Binding
from eson._internal.schema.compile import document_schema, record_schema
from eson._internal.schema.model import EntryKind
from eson.errors import ESONError
from eson.msgspec import Message, Record

__all__ = ["DataError", "Finding", "Handoff", "Owner", "generate", "handoff", "load", "validate"]


class DataError(ValueError):
    """Data for an evaluation that cannot be made or read (one line)."""


class Owner(msgspec.Struct):
    """Who owns the code a finding is about (a nested object cell)."""

    team: str
    reviewer: str


class Finding(Record):
    """One finding of a review: the handoff's record array."""

    severity: Literal["high", "medium", "low"]
    file: str
    line: int
    message: str
    owner: Owner
    labels: list[str]
    fix: str | None = None


class Handoff(Message, number=True):
    """A reviewer agent's findings handed to a fixer agent (rows numbered, as in the demo)."""

    sender: str = msgspec.field(name="from")
    to: str
    kind: str
    id: str
    summary: str
    findings: list[Finding]


_DIRECTORIES = ("auth", "api", "billing", "search", "ui", "jobs", "storage", "mail")
_MODULES = ("token", "session", "routes", "errors", "cache", "models", "views", "queue", "client")
_PROBLEMS = (
    "refresh token never expires",
    "session id compared with ==",
    "no rate limit on login",
    "error text leaks a stack trace",
    "query built by string formatting",
    "retry loop never backs off",
    "file handle left open",
    "timezone-naive timestamp",
    "secret read from a world-readable file",
    "unbounded cache growth",
)
_FIXES = (
    "set the ttl from settings",
    "use hmac.compare_digest",
    "add a limiter",
    "log it, return a code",
    "use bound parameters",
    "add exponential backoff",
    "use a with block",
    "store UTC",
)
_TEAMS = ("core", "platform", "payments", "growth", "infra")
_REVIEWERS = ("ana", "bo", "chen", "dara", "eli", "fay", "gus", "hana")
_LABELS = ("security", "perf", "style", "tests", "docs", "bug")


def handoff(records: int = 50, seed: int = 0) -> Handoff:
    """A :class:`Handoff` with ``records`` findings made from ``seed``.

    Every finding has a distinct ``file`` and a distinct ``line``, so a
    record can be named by either.
    """
    if records < 1:
        raise DataError("records must be at least 1")
    rng = random.Random(seed)
    lines = rng.sample(range(1, 20 * records + 200), records)
    suffixes = rng.sample(range(1, 10 * records + 10), records)  # not the row number
    findings = []
    for index in range(records):
        path = f"src/{rng.choice(_DIRECTORIES)}/{rng.choice(_MODULES)}_{suffixes[index]}.py"
        findings.append(
            Finding(
                severity=rng.choice(("high", "medium", "medium", "low", "low")),
                file=path,
                line=lines[index],
                message=rng.choice(_PROBLEMS),
                owner=Owner(rng.choice(_TEAMS), rng.choice(_REVIEWERS)),
                labels=rng.sample(_LABELS, rng.randint(0, 3)),
                fix=rng.choice(_FIXES) if rng.random() < 0.7 else None,
            )
        )
    return Handoff(
        sender="reviewer",
        to="fixer",
        kind="code_review",
        id=f"review-{seed}-{records}",
        summary=f"{sum(f.severity == 'high' for f in findings)} blocking issues; tests pass",
        findings=findings,
    )


# -- values for any model type ---------------------------------------------------------


class _UnsupportedError(Exception):
    """No value of this annotation can be made up."""


def _value(
    annotation: Any, binding: Binding, name: str, rng: random.Random, index: int, depth: int
) -> Any:
    if depth > 6:
        raise _UnsupportedError(name)
    rest, nullable = strip_none(annotation)
    bare, _ = unwrap(rest)
    if bare is NONE_TYPE or bare is None:
        return None
    if nullable and rng.random() < 0.2:
        return None
    if is_any(bare):
        return f"{name} {index}"
    values = literal_values(bare)
    if values is not None:
        return rng.choice(list(values))
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        members = list(bare)
        if not members:
            raise _UnsupportedError(name)
        return rng.choice(members).value
    members_of_union = union_members(bare)
    if members_of_union is not None:
        for member in members_of_union:
            try:
                return _value(member, binding, name, rng, index, depth + 1)
            except _UnsupportedError:
                continue
        raise _UnsupportedError(name)
    kind = container_kind(bare)
    if kind is not None:
        args = container_args(bare)
        if kind == "mapping":
            item = args[1] if len(args) == 2 else Any
            return {f"k{i}": _value(item, binding, "value", rng, i, depth + 1) for i in range(2)}
        if kind == "tuple" and not (len(args) == 2 and args[1] is Ellipsis):
            return [_value(arg, binding, name, rng, index, depth + 1) for arg in args]
        element = args[0] if args else Any
        return [
            _value(element, binding, name, rng, index * 10 + i, depth + 1)
            for i in range(rng.randint(0, 3))
        ]
    if binding.model_shape(bare) == "record":
        schema = record_schema(bare, binding)
        return {
            item.wire: _value(item.annotation, binding, item.wire, rng, index, depth + 1)
            for item in schema.fields
            if not item.output_only
        }
    if bare is bool:
        return rng.random() < 0.5
    if bare is int:
        return rng.randint(0, 10_000)
    if bare is float:
        return round(rng.uniform(0, 1000), 2)
    if bare is str:
        return f"{name.replace('_', ' ')} {index}"
    if isinstance(bare, type) and issubclass(bare, datetime.datetime):
        moment = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        return (moment + datetime.timedelta(minutes=rng.randint(0, 500_000))).isoformat()
    if isinstance(bare, type) and issubclass(bare, datetime.date):
        return (
            datetime.date(2026, 1, 1) + datetime.timedelta(days=rng.randint(0, 700))
        ).isoformat()
    raise _UnsupportedError(name)


def validate(cls: type, value: Any) -> Any:
    """``value`` (plain JSON-mode data) validated into an instance of ``cls``.

    Raises:
        DataError: when ``cls`` rejects it.
    """
    schema = document_schema(cls)
    try:
        return schema.binding.validator(schema.model_type)(value)
    except Exception as exc:
        problems = schema.binding.problems(exc)
        where = ".".join(str(step) for step in problems[0].loc) if problems else ""
        detail = problems[0].message if problems else str(exc).splitlines()[0]
        raise DataError(
            f"{cls.__name__} rejects the data{f' at {where}' if where else ''}: {detail}"
        ) from None


def generate(cls: type, records: int = 50, seed: int = 0) -> Any:
    """A seeded instance of ``cls``: ``records`` rows per record array, values from the field types.

    Strings are ``"<field> <row>"`` (distinct per row), numbers random,
    ``Literal`` and enum fields a random member.  Constraints beyond the
    types (patterns, bounds) are not read: a type with such fields needs its
    data supplied (:func:`load`).

    Raises:
        DataError: for a field whose values cannot be made up, or data the
            type rejects.
    """
    if records < 1:
        raise DataError("records must be at least 1")
    schema = document_schema(cls)
    binding = schema.binding
    rng = random.Random(seed)
    document: dict[str, Any] = {}
    for item in schema.fields:
        if item.output_only:
            continue
        try:
            if item.entry == EntryKind.RECORD_ARRAY and item.record is not None:
                document[item.wire] = [
                    {
                        column.wire: _value(column.annotation, binding, column.wire, rng, row, 1)
                        for column in item.record.fields
                        if not column.output_only
                    }
                    for row in range(1, records + 1)
                ]
            else:
                document[item.wire] = _value(item.annotation, binding, item.wire, rng, 1, 0)
        except _UnsupportedError:
            if item.required:
                raise DataError(
                    f"cannot make up values for {cls.__name__}.{item.wire}: supply the data"
                ) from None
    return validate(cls, document)


def load(cls: type, text: str) -> Any:
    """A document the user supplies (ESON, TOON, columnar or plain JSON), as an instance of ``cls``.

    Raises:
        DataError: for text in no known format, or one ``cls`` rejects.
    """
    from eson.agent.negotiation import detect_format

    wire = detect_format(text)
    if wire is None:
        raise DataError("the data is not ESON, TOON or JSON")
    try:
        return wire.read(text, cls)
    except ESONError as exc:
        raise DataError(f"the data does not read as {cls.__name__}: {exc}") from None
