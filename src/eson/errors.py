"""The exception hierarchy of typed-eson.

Every error the library raises for bad text or an unencodable value is an
:class:`ESONError`, which is a :class:`ValueError`, so one ``except`` catches
them all::

    ESONError(ValueError)
    ├── DecodeError          malformed ESON text (bad header, count, cell ...)
    │   ├── CountError       a declared count [N] that the rows contradict
    │   ├── TruncatedError   a reply cut off before its end (output limit, open fence)
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

Messages are safe to print and to log whatever the input held: one line, at
most :data:`MESSAGE_LIMIT` characters, encodable as UTF-8.  Every piece of
input a message repeats (a name, a key, a cell, a header) goes through
:func:`echo` (or :func:`echo_value`), which clips it to :data:`ECHO_LIMIT`
characters with an ellipsis and escapes line breaks, control characters and
lone surrogates; the error itself passes its reason and location through
:func:`printable` as a last guard.  This module is the one place that
decides how input is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing_extensions import Self

# copy, json and typing_extensions are imported where they are used (an
# error's rare paths), not on ``import eson``: tests/test_startup.py.

__all__ = [
    "ECHO_LIMIT",
    "MESSAGE_LIMIT",
    "CountError",
    "DecodeError",
    "ESONError",
    "EncodeError",
    "TOONError",
    "TruncatedError",
    "ValidationError",
    "echo",
    "echo_value",
    "printable",
    "render_feedback",
]

#: Most characters of one echoed piece of input (a name, a key, a cell) in a message.
ECHO_LIMIT = 80

#: Most characters of a whole message (location and reason).
MESSAGE_LIMIT = 1000

# The reason gets what the location prefix (line, section, row, field) leaves.
_REASON_LIMIT = MESSAGE_LIMIT - 4 * ECHO_LIMIT
_ELLIPSIS = "..."


def _escaped(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char, f"\\x{code:02x}")
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Return free text made safe for a one-line message.

    Characters that are not printable (line breaks, tabs, other control
    characters, lone surrogates, U+2028 ...) are written as backslash
    escapes, and text longer than ``limit`` is cut with an ellipsis.  The
    work is bounded by ``limit``, not by the length of ``text``.  Applying
    it twice changes nothing.
    """
    if len(text) > limit:
        text = text[: limit - len(_ELLIPSIS)] + _ELLIPSIS
    if not text.isprintable():
        text = "".join(char if char.isprintable() else _escaped(char) for char in text)
        if len(text) > limit:
            text = text[: limit - len(_ELLIPSIS)] + _ELLIPSIS
    return text


def echo(text: object, limit: int = ECHO_LIMIT) -> str:
    """Return a piece of input quoted for an error message, as ``repr`` quotes it.

    The result is one line: ``repr`` escapes line breaks, control characters
    and lone surrogates.  When the quoted text would exceed ``limit``
    characters (quotes not counted), it is clipped and ends with ``...``
    inside the quotes.  A non-``str`` is shown by its ``repr()``, clipped.
    """
    if not isinstance(text, str):
        return printable(_repr_of(text), limit)
    if len(text) <= limit:
        shown = repr(text)
        if len(shown) <= limit + 2:
            return shown
    # The longest prefix whose quoted form, ellipsis included, fits (escapes
    # make a character take up to ten): a binary search over at most `limit`.
    low, high = 0, max(0, limit - len(_ELLIPSIS))
    while low < high:
        middle = (low + high + 1) // 2
        if len(repr(text[:middle] + _ELLIPSIS)) <= limit + 2:
            low = middle
        else:
            high = middle - 1
    return repr(text[:low] + _ELLIPSIS)


def echo_value(value: Any, limit: int = ECHO_LIMIT) -> str:
    """Return a decoded value shown as JSON for an error message (``"abc"``, ``[1,2]``).

    Clipped to ``limit`` characters with ``...``; escapes as :func:`printable`.
    """
    import json

    try:
        text = json.dumps(value, ensure_ascii=False, default=_text_of)
    except (TypeError, ValueError, RecursionError):
        text = _text_of(value)
    return printable(text, limit)


def _huge_int(value: object) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool):
        digits = int(value.bit_length() * 0.30103) + 1
        if digits > 1000:
            return f"<an integer of about {digits} digits>"
    return None


def _text_of(value: object) -> str:
    """``str(value)``, or a description when even that fails (a 5000-digit int ...)."""
    huge = _huge_int(value)
    if huge is not None:
        return huge
    try:
        return str(value)
    except Exception:
        return f"<{type(value).__name__}>"


def _repr_of(value: object) -> str:
    huge = _huge_int(value)
    if huge is not None:
        return huge
    try:
        return repr(value)
    except Exception:
        return f"<{type(value).__name__}>"


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
    #: The format of the text that failed (``"eson"``, ``"toon"``, ``"json"``),
    #: when a reader set it; see :attr:`feedback`.
    format: str | None = None
    #: For a typed decode: the layout the schema expects, as the lines a
    #: model should write (set by the typed readers); see :attr:`feedback`.
    expected: str | None = None

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        section: str | None = None,
        row: int | None = None,
        field: str | None = None,
    ) -> None:
        self.reason = printable(str(reason), _REASON_LIMIT)
        self.line = line
        self.section = section
        self.row = row
        self.field = field
        super().__init__(self._render())

    def _render(self) -> str:
        parts: list[str] = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        where = printable(self.section, ECHO_LIMIT) if self.section else ""
        if self.row is not None:
            where = f"{where} row {self.row}" if where else f"row {self.row}"
        if self.field is not None:
            field = printable(str(self.field), ECHO_LIMIT)
            where = f"{where} ({field})" if where else f"({field})"
        if where:
            parts.append(where)
        parts.append(self.reason)
        return ": ".join(parts)

    def _keywords(self) -> dict[str, Any]:
        """The keyword arguments that rebuild this error (for pickling)."""
        return {"line": self.line, "section": self.section, "row": self.row, "field": self.field}

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.reason, self._keywords()), self._extra_state())

    def _extra_state(self) -> dict[str, object]:
        return {key: self.__dict__[key] for key in ("format", "expected") if key in self.__dict__}

    def __setstate__(self, state: dict[str, object] | None) -> None:
        if state:
            self.__dict__.update(state)

    @property
    def feedback(self) -> str:
        """A short text (at most 800 characters) to send back to the model that wrote the text.

        It says what is wrong and where (as the message does), and for a
        typed decode the layout the schema expects (the exact head lines
        the encoder writes, and the allowed values of ``Literal`` and enum
        fields), so that one retry can fix the reply.  It never echoes more
        of the input than the message's clipped pieces.
        """
        return render_feedback(self)

    def moved(self, offset: int) -> Self:
        """The same error with its line numbers moved down by ``offset`` lines.

        Used when the text that failed was cut out of a larger one (a
        model's reply), so that lines point into the larger text.
        """
        if not offset:
            return self
        import copy

        moved = copy.copy(self)
        moved.__dict__.update(self.__dict__)
        if moved.line is not None:
            moved.line += offset
        moved._shift_details(offset)
        moved.args = (moved._render(),)
        moved.__traceback__ = None
        return moved

    def _shift_details(self, offset: int) -> None:
        """Move line numbers held beyond :attr:`line` (see :class:`ValidationError`)."""


def _rebuild(cls: type[ESONError], reason: str, keywords: dict[str, Any]) -> ESONError:
    return cls(reason, **keywords)


class DecodeError(ESONError):
    """The text is not a well-formed ESON document."""


class CountError(DecodeError):
    """A record or scalar array's declared count ``[N]`` disagrees with its lines.

    The count is a checksum: a reader that trusted it would take the next
    entry for a row (too high) or a row for an entry (too low), so the
    disagreement is an error of its own, placed at the header line.

    Attributes:
        declared: The count the header declares (``None`` when it has too
            many digits to be a count at all).
        actual: How many rows the text holds as far as the reader can tell
            (``None`` when it cannot).
        stray_line: The 1-based line that contradicts the count: an entry
            inside the declared rows, or a row after them.
    """

    declared: int | None
    actual: int | None
    stray_line: int | None

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        section: str | None = None,
        row: int | None = None,
        field: str | None = None,
        declared: int | None = None,
        actual: int | None = None,
        stray_line: int | None = None,
    ) -> None:
        self.declared = declared
        self.actual = actual
        self.stray_line = stray_line
        super().__init__(reason, line=line, section=section, row=row, field=field)

    def _keywords(self) -> dict[str, Any]:
        return {
            **super()._keywords(),
            "declared": self.declared,
            "actual": self.actual,
            "stray_line": self.stray_line,
        }

    def _shift_details(self, offset: int) -> None:
        if self.stray_line is not None:
            self.stray_line += offset


class TruncatedError(DecodeError):
    """A model's reply was cut off before its end, so it is not read as complete.

    Raised by :func:`eson.parse_reply`, :class:`eson.StreamDecoder` and the
    framework adapters when a signal says the reply stopped early: the
    provider's stop reason (``finish_reason="length"``,
    ``stop_reason="max_tokens"``, ``MAX_TOKENS``), a code fence that was
    opened and never closed, or (with ``require_end=True``) a payload
    without its closing fence.  The text may even read as a valid document
    -- a last cell cut from ``zebra`` to ``zeb`` -- which is why it is refused.

    Its location is the last row read: :attr:`line`, :attr:`section` and
    :attr:`row` (the last complete row, ``0`` for none); :attr:`feedback`
    says the reply was cut off after row *k* of *N* and what to do.

    Attributes:
        declared: The row count the open array declares, when known.
        signal: What showed the cut: ``"stop-reason"``, ``"open-fence"``
            or ``"no-end-mark"``.
        stop_reason: The stop reason as the provider spelled it, when one was given.
    """

    declared: int | None
    signal: str
    stop_reason: str | None

    def __init__(
        self,
        reason: str,
        *,
        line: int | None = None,
        section: str | None = None,
        row: int | None = None,
        field: str | None = None,
        declared: int | None = None,
        signal: str = "stop-reason",
        stop_reason: str | None = None,
    ) -> None:
        self.declared = declared
        self.signal = signal
        self.stop_reason = None if stop_reason is None else printable(stop_reason, ECHO_LIMIT)
        super().__init__(reason, line=line, section=section, row=row, field=field)

    def _keywords(self) -> dict[str, Any]:
        return {
            **super()._keywords(),
            "declared": self.declared,
            "signal": self.signal,
            "stop_reason": self.stop_reason,
        }

    @property
    def feedback(self) -> str:
        """What to tell the model: its reply was cut off after row *k* of *N*, and what to do.

        Never "you wrote a bad row": nothing the model wrote was wrong, the
        reply ran out of room (or its end mark is missing).
        """
        fmt = self.format or "eson"
        name = _FORMAT_NAMES.get(fmt, fmt.upper())
        parts = [
            f"Your {name} reply ended too early: {_clipped(str(self), 300)}."
            " Nothing in it is wrong, but its end is missing."
        ]
        if self.signal == "no-end-mark":
            parts.append(
                f"Send the whole document again inside a ```{fmt} fence, closed by a line ```."
            )
        else:
            parts.append(
                "Send the whole document again so that it fits: fewer rows or shorter cells"
                " (or, if you are asked to continue, only what comes after the last complete"
                " row), inside a ```" + fmt + " fence closed by a line ```."
            )
        if self.expected:
            parts.append(_clipped(self.expected, 400))
        text = "\n".join(parts)
        return text if len(text) <= FEEDBACK_LIMIT else text[: FEEDBACK_LIMIT - 3] + "..."


class EncodeError(ESONError):
    """A value cannot be written as ESON (bad name, non-finite float, cycle ...)."""


class ValidationError(DecodeError):
    """Well-formed text whose values fail the target type's validation.

    Raised by typed decoding.  ``errors`` lists every problem the validator
    reported, each a dict with ``loc`` (a tuple path), ``msg`` and, when it
    could be placed, ``line``/``section``/``row``/``field``; the exception's
    own location attributes describe the first of them.  Each ``msg`` is
    one bounded line, like the exception's own message.
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
        self.errors = [_safe_entry(entry) for entry in errors] if errors is not None else []
        super().__init__(reason, line=line, section=section, row=row, field=field)

    def _keywords(self) -> dict[str, Any]:
        return {**super()._keywords(), "errors": self.errors}

    def _shift_details(self, offset: int) -> None:
        shifted = []
        for error in self.errors:
            line = error.get("line")
            if isinstance(line, int):
                error = {**error, "line": line + offset}
            shifted.append(error)
        self.errors = shifted


def _safe_entry(entry: dict[str, object]) -> dict[str, object]:
    message = entry.get("msg")
    if isinstance(message, str):
        safe = printable(message, _REASON_LIMIT)
        if safe is not message:
            entry = {**entry, "msg": safe}
    return entry


class TOONError(ESONError):
    """The text is not well-formed TOON, or a value cannot be written as TOON."""


# -- feedback for the model ----------------------------------------------------------

#: The longest :attr:`ESONError.feedback` text.
FEEDBACK_LIMIT = 800
_FORMAT_NAMES = {"eson": "ESON", "toon": "TOON", "json": "JSON"}


def _clipped(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def render_feedback(error: ESONError) -> str:
    """The :attr:`ESONError.feedback` text of ``error``."""
    fmt = error.format or ("toon" if isinstance(error, TOONError) else None)
    name = f"{_FORMAT_NAMES.get(fmt, fmt.upper())} " if fmt else ""
    if isinstance(error, EncodeError):
        what = f"The value could not be written as {name or 'ESON '}".rstrip()
    elif isinstance(error, ValidationError):
        what = f"Your {name}reply was read, but its values do not fit the schema"
    else:
        what = f"Your {name}reply could not be read"
    parts = [f"{what}: {_clipped(str(error), 300)}."]
    if isinstance(error, ValidationError) and len(error.errors) > 1:
        more = []
        for item in error.errors[1:4]:
            place = []
            if item.get("line") is not None:
                place.append(f"line {item['line']}")
            where = " ".join(str(item[key]) for key in ("section",) if item.get(key))
            if item.get("row") is not None:
                where = f"{where} row {item['row']}".strip()
            if item.get("field") is not None:
                where = f"{where} ({item['field']})".strip()
            if where:
                place.append(where)
            more.append(": ".join([*place, str(item.get("msg", ""))]))
        text = "; ".join(_clipped(entry, 100) for entry in more)
        remaining = len(error.errors) - 1 - len(more)
        if remaining > 0:
            text += f"; and {remaining} more"
        parts.append(_clipped(f"Also: {text}.", 330))
    if error.expected:
        parts.append(_clipped(error.expected, 400))
    if not isinstance(error, EncodeError):
        parts.append("Send the whole corrected document again, and nothing else.")
    text = "\n".join(parts)
    if len(text) > FEEDBACK_LIMIT:  # the parts are clipped; this only trims the joins
        text = text[: FEEDBACK_LIMIT - 3] + "..."
    return text
