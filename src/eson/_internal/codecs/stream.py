"""Typed streaming, format-neutral: events, record checks, the final message.

A streaming decode builds the same plain document a whole decode builds,
but one row at a time, and validates each record as its row completes so
that the row's :class:`Event` can carry a validated instance.  When the
stream ends, the document -- its record arrays now lists of those
instances -- is validated as a whole by the framework's own validator,
which takes already-validated instances as they are (Pydantic does not
revalidate model instances by default; msgspec passes Structs through), so
the message equals what decoding the whole text gives.

The ESON and TOON streaming builders (:mod:`eson._internal.codecs.eson_stream`,
:mod:`eson._internal.codecs.toon_stream`) share these pieces.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from eson._internal.codecs.validation import Place, validation_error
from eson._internal.schema.binding import Binding, Problem
from eson._internal.schema.model import DocumentSchema, RecordSchema
from eson.errors import ESONError, ValidationError


class Event(NamedTuple):
    """One entry or row of a streamed document, as soon as it is complete.

    Attributes:
        section: The top-level name it belongs to.
        row: The 1-based row of an array (record array rows, scalar array
            elements); ``None`` for a scalar entry or a single record.
        value: A record array row's (or single record's) validated
            instance (typed; its dict untyped), or a scalar entry's or
            scalar array element's value as decoded (the field's type is
            checked when the whole message is validated, at the end).
    """

    section: str
    row: int | None
    value: Any


@dataclass(slots=True)
class Lines:
    """Where each section and row of a streamed document was (for placing errors)."""

    heads: dict[str, int] = field(default_factory=dict)
    rows: dict[str, list[int]] = field(default_factory=dict)

    def place(self, problem: Problem) -> tuple[Place, int]:
        """Locate a problem of the final validation (a :data:`~eson._internal.codecs.validation.Placer`)."""
        loc = problem.loc
        place: Place = {"line": None, "section": None, "row": None, "field": None}
        if not loc or not isinstance(loc[0], str):
            return place, 0
        name = loc[0]
        place["section"] = name
        place["line"] = self.heads.get(name)
        used = 1
        rest = loc[1:]
        rows = self.rows.get(name)
        if rest and isinstance(rest[0], int) and rows is not None and 0 <= rest[0] < len(rows):
            place["row"] = rest[0] + 1
            place["line"] = rows[rest[0]]
            used += 1
            rest = rest[1:]
        if rest and isinstance(rest[0], str) and name in self.heads:
            place["field"] = rest[0]
            used += 1
        return place, used


class RecordCheck:
    """Validate one record's plain dict into an instance, placing a failure on its row."""

    __slots__ = ("binding", "context", "record", "validate", "validation_strict")

    def __init__(
        self, record: RecordSchema, validation_strict: bool | None = None, context: Any = None
    ) -> None:
        self.record = record
        self.binding: Binding = record.binding
        self.validate = record.binding.validator(record.model_type)
        self.validation_strict = validation_strict
        self.context = context

    def with_options(self, validation_strict: bool | None, context: Any) -> RecordCheck:
        """This check with the framework's validation options (see :func:`eson.decode`)."""
        if validation_strict is None and context is None:
            return self
        return RecordCheck(self.record, validation_strict, context)

    def __call__(self, plain: dict[str, Any], section: str, row: int | None, line: int) -> Any:
        """The validated instance.

        Raises:
            ValidationError: located at ``line``, ``section``, ``row`` and the field.
        """
        try:
            return self.validate(plain, self.validation_strict, self.context)
        except Exception as exc:
            problems = self.binding.problems(exc)
            if problems is None:
                raise
            raise _row_error(problems, plain, section, row, line) from exc


def _row_error(
    problems: list[Problem], plain: dict[str, Any], section: str, row: int | None, line: int
) -> ValidationError:
    def place(problem: Problem) -> tuple[Place, int]:
        where: Place = {"line": line, "section": section, "row": row, "field": None}
        loc = problem.loc
        if loc and isinstance(loc[0], str):
            where["field"] = loc[0]
            return where, 1
        return where, 0

    return validation_error(problems, plain, place)


def validate_document(
    schema: DocumentSchema,
    document: dict[str, Any],
    lines: Lines,
    validation_strict: bool | None = None,
    context: Any = None,
) -> Any:
    """Validate the assembled document into the message (errors placed by ``lines``).

    ``validation_strict`` and ``context`` go to the framework's validation
    (see :func:`eson.decode`).
    """
    validate = schema.binding.validator(schema.model_type)
    try:
        return validate(document, validation_strict, context)
    except ESONError:
        raise
    except Exception as exc:
        problems = schema.binding.problems(exc)
        if problems is None:
            raise
        raise validation_error(problems, document, lines.place) from exc
