"""Validation failures, placed on the wire: shared by the ESON and TOON back ends.

Both typed decoders validate the plain document with the framework's own
validator in one call.  When that fails, :func:`validation_error` turns the
framework's problems (:class:`~eson._internal.schema.binding.Problem`) into one
:class:`eson.errors.ValidationError`: a short reason (showing the offending
value), and the line, section, row and field the value came from.  Where a
value came from is format-specific, so each back end passes a ``place``
function; the rest -- the wording -- is the same for both formats.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eson._internal.schema.binding import NO_CONTEXT, Binding, Problem
from eson.errors import ECHO_LIMIT, ValidationError, echo, echo_value, printable

#: Where a problem sits: ``line``, ``section``, ``row`` and ``field`` (each
#: possibly ``None``).
Place = dict[str, Any]

#: Returns the place of a problem and how many leading steps of its ``loc``
#: that place covers; the remaining steps are a path inside the value and are
#: named in the message (``at customer.email: ...``).
Placer = Callable[[Problem], tuple[Place, int]]

_MISSING = object()

_SHORT_MESSAGES = {
    "int_type": "expected int",
    "int_parsing": "expected int",
    "int_from_float": "expected int",
    "float_type": "expected float",
    "float_parsing": "expected float",
    "bool_type": "expected bool",
    "bool_parsing": "expected bool",
    "string_type": "expected str",
    "missing": "missing required field",
    "extra_forbidden": "unknown field (extra fields are forbidden)",
}


def check_options(binding: Binding, validation_strict: object, context: object) -> None:
    """Check the validation options of a typed decode before any text is read.

    Raises:
        TypeError: for a ``validation_strict`` other than ``True``, ``False`` or
            ``None``, or a ``context`` for a framework whose validation takes none.
    """
    if validation_strict is not None and not isinstance(validation_strict, bool):
        raise TypeError(
            f"validation_strict must be True, False or None, not {echo(validation_strict)}"
        )
    if context is not None and not binding.takes_context:
        raise TypeError(NO_CONTEXT.format(framework=binding.name))


def _value_at(document: Any, loc: Sequence[str | int]) -> Any:
    value = document
    for step in loc:
        try:
            if isinstance(value, Mapping):
                value = value[step]
            elif isinstance(value, (list, tuple)):
                value = value[int(step)]
            else:
                value = getattr(value, str(step))
        except (KeyError, IndexError, AttributeError, TypeError, ValueError):
            return _MISSING
    return value


def _reason(problem: Problem, document: Any) -> str:
    message = problem.message
    if problem.kind in _SHORT_MESSAGES:
        reason = _SHORT_MESSAGES[problem.kind]
    elif problem.kind == "literal_error" and message.startswith("Input should be "):
        reason = "expected " + message[len("Input should be ") :]
    else:
        reason = message.replace("`", "")
        if reason[1:2].islower():  # "Input should ..." -> "input should ...", "UUID ..." stays
            reason = reason[:1].lower() + reason[1:]
    if problem.kind in ("missing", "extra_forbidden"):
        return reason
    value = _value_at(document, problem.loc)
    if value is _MISSING or isinstance(value, Mapping):
        return reason  # nothing to show, or a whole record (e.g. a model validator)
    if isinstance(value, str) and value and f"'{value}'" in message:
        return reason  # the message quotes the value already
    head, sep, _ = reason.rpartition(", got ")
    if sep and head:
        reason = head
    return f"{reason}, got {echo_value(value)}"


def plain_place(problem: Problem, line: int | None = None) -> tuple[Place, int]:
    """Where a problem of a plain document is: its section, row (1-based) and field.

    A document's ``loc`` starts with the top-level name, then the index of a
    record array's row, then the record's field; the steps it covers are
    counted so that the rest is named as a path inside the value.  ``line``
    is the problem's line, when the caller knows it (TOON's positions do).
    Serves :func:`eson.validate`, JSON replies and the typed TOON reader.
    """
    loc = problem.loc
    place: Place = {"line": line, "section": None, "row": None, "field": None}
    if not loc or not isinstance(loc[0], str):
        return place, 0
    place["section"] = loc[0]
    used = 1
    rest = loc[1:]
    if rest and isinstance(rest[0], int):
        place["row"] = rest[0] + 1
        used += 1
        rest = rest[1:]
    if rest and isinstance(rest[0], str):
        place["field"] = rest[0]
        used += 1
    return place, used


def path_text(steps: Sequence[str | int]) -> str:
    """``('a', 0, 'b')`` -> ``a[0].b``: a path inside a nested value."""
    text = ""
    for step in steps:
        text += f"[{step}]" if isinstance(step, int) else f".{step}" if text else str(step)
    return text


def validation_error(problems: Sequence[Problem], document: Any, place: Placer) -> ValidationError:
    """Build the :class:`ValidationError` for a framework's validation failures.

    Args:
        problems: What the framework reported, in its order.
        document: The plain document that was validated (to show values).
        place: Locates one problem on the wire (see :data:`Placer`).
    """
    errors: list[dict[str, object]] = []
    for problem in problems:
        where, used = place(problem)
        reason = _reason(problem, document)
        inner = problem.loc[used:]
        if inner and problem.kind not in ("missing", "extra_forbidden"):
            reason = f"at {printable(path_text(inner), ECHO_LIMIT)}: {reason}"
        elif inner:
            reason = f"{reason} {echo(path_text(inner))}"
        errors.append(
            {
                "loc": problem.loc,
                "msg": reason,
                "type": problem.kind,
                "line": where.get("line"),
                "section": where.get("section"),
                "row": where.get("row"),
                "field": where.get("field"),
            }
        )
    first = errors[0] if errors else {"msg": "validation failed"}
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return ValidationError(
        f"{first['msg']}{more}",
        line=first.get("line"),  # type: ignore[arg-type]
        section=first.get("section"),  # type: ignore[arg-type]
        row=first.get("row"),  # type: ignore[arg-type]
        field=first.get("field"),  # type: ignore[arg-type]
        errors=errors,
    )
