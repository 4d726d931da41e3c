"""The exception hierarchy of typed-eson.

Every error the library raises for bad text or an unencodable value is an
:class:`ESONError`, which is a :class:`ValueError`, so one ``except`` catches
them all::

    ESONError(ValueError)
    ├── DecodeError          malformed ESON text (bad header, count, cell ...)
    │   └── ValidationError  well-formed text whose values break the schema
    ├── EncodeError          a value ESON cannot represent
    └── TOONError            malformed TOON text, or a value TOON cannot hold

Each error carries where it happened, as attributes and in its message:
``line`` (1-based line of the text), ``section`` (the top-level name),
``row`` (1-based row within a section) and ``field`` (the field or column
name).  Any of them may be ``None`` when it does not apply.  The bare cause,
without the location prefix, is ``reason``::

    line 7: findings row 3: expected 5 cells, got 4
    line 12: findings row 4 (line): expected int, got "abc"
"""

from __future__ import annotations

__all__ = [
    "DecodeError",
    "ESONError",
    "EncodeError",
    "TOONError",
    "ValidationError",
]


class ESONError(ValueError):
    """Base class of every error typed-eson raises for bad text or values.

    Attributes:
        reason: The cause, without the location prefix.
        line: 1-based line number in the text, when known.
        section: Top-level name (section) the error belongs to, when known.
        row: 1-based row number within the section, when known.
        field: Field (column) name, when known.
    """

    reason: str
    line: int | None
    section: str | None
    row: int | None
    field: str | None

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        section: str | None = None,
        row: int | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = reason
        self.line = line
        self.section = section
        self.row = row
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        parts: list[str] = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        where = self.section or ""
        if self.row is not None:
            where = f"{where} row {self.row}" if where else f"row {self.row}"
        if self.field is not None:
            where = f"{where} ({self.field})" if where else f"({self.field})"
        if where:
            parts.append(where)
        parts.append(self.reason)
        return ": ".join(parts)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild,
            (type(self), self.reason, self.line, self.section, self.row, self.field),
        )


def _rebuild(
    cls: type[ESONError],
    reason: str,
    line: int | None,
    section: str | None,
    row: int | None,
    field: str | None,
) -> ESONError:
    return cls(reason, line=line, section=section, row=row, field=field)


class DecodeError(ESONError):
    """The text is not a well-formed ESON document."""


class EncodeError(ESONError):
    """A value cannot be written as ESON (bad name, non-finite float, cycle ...)."""


class ValidationError(DecodeError):
    """Well-formed text whose values fail the target type's validation.

    Raised by typed decoding.  ``errors`` lists every problem the validator
    reported, each a dict with ``loc`` (a tuple path), ``msg`` and, when it
    could be placed, ``line``/``section``/``row``/``field``; the exception's
    own location attributes describe the first of them.
    """

    errors: list[dict[str, object]]

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        section: str | None = None,
        row: int | None = None,
        field: str | None = None,
        errors: list[dict[str, object]] | None = None,
    ) -> None:
        self.errors = list(errors) if errors is not None else []
        super().__init__(reason, line=line, section=section, row=row, field=field)

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _rebuild_validation,
            (self.reason, self.line, self.section, self.row, self.field, self.errors),
        )


def _rebuild_validation(
    reason: str,
    line: int | None,
    section: str | None,
    row: int | None,
    field: str | None,
    errors: list[dict[str, object]],
) -> ValidationError:
    return ValidationError(
        reason, line=line, section=section, row=row, field=field, errors=errors
    )


class TOONError(ESONError):
    """The text is not well-formed TOON, or a value cannot be written as TOON."""
