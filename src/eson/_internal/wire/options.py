"""The reading options every ESON and TOON reader takes: :class:`ReadOptions`.

Every reader -- :func:`eson.decode`, :func:`eson.try_decode`,
:class:`eson.Decoder`, their :mod:`eson.toon` twins, :class:`eson.StreamDecoder`
and :func:`eson.parse_reply` -- builds one :class:`ReadOptions` from its
arguments with :func:`read_options` and passes that one object on.  The
object checks itself once, when it is made, and this module writes every
message of those checks (the test suite greps for copies elsewhere).

The **mode** names what a reading does:

``"strict"``
    The text exactly as the grammar says (ESON's grammar, TOON's strict mode).
``"lenient"``
    For text a language model wrote: the safe repairs, each recorded as an
    :class:`eson.Repair`; declared counts, row widths (and ESON's ``n``)
    are checked as in strict mode.  TOON's lenient reading is its strict
    one plus the typed text rule (a bare number or boolean in a string
    field is read as its token text); untyped TOON it is the strict one.
``"lax"``
    (TOON only) the TOON specification's non-strict reading: declared
    counts and row widths are not checked, duplicate keys resolve
    last-write-wins, indentation is rounded down, blank lines in arrays
    are ignored -- plus the typed text rule.  ESON has no such reading: a
    count that disagrees with the rows is an error in every ESON mode.

An option that switches behaviour must not be truthy by accident:
``strict="false"`` is a non-empty string, so a plain ``if strict:`` would
read it as *strict*.  :func:`strict_flag` refuses anything but a ``bool``.
"""

from __future__ import annotations

from typing import Any, Literal

Mode = Literal["strict", "lenient", "lax"]

#: The reading modes, in the order the documentation lists them.
MODES: tuple[Mode, ...] = ("strict", "lenient", "lax")

_Format = Literal["eson", "toon"]

_OPTION_NAMES = ("strict", "mode", "indent_size", "partial", "reply", "require_end")


def _shown(value: object) -> str:
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    return shown


def strict_flag(value: object, name: str = "strict") -> bool:
    """Return ``value`` when it is a ``bool``; raise ``TypeError`` otherwise.

    ``name`` is the option's name in the message.

    Raises:
        TypeError: for anything but ``True`` or ``False`` (``0``, ``1``,
            ``"false"``, ``None`` included).
    """
    if value is True or value is False:
        return value
    raise TypeError(
        f"{name} must be a bool (True or False), not {type(value).__name__} {_shown(value)}"
    )


def indent_size_of(value: object) -> int:
    """Return ``value`` when it is a whole number of spaces (1 or more); raise otherwise.

    The one check of ``indent_size`` for every TOON reader and writer.

    Raises:
        ValueError: for a ``bool``, a non-``int`` or an ``int`` below 1.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    raise ValueError(f"indent_size must be a positive int, not {_shown(value)}")


def _mode_of(value: object) -> Mode:
    for mode in MODES:
        if value == mode and type(value) is str:
            return mode
    message = f"mode must be 'strict', 'lenient' or 'lax', not {_shown(value)}"
    if isinstance(value, str):
        raise ValueError(message)
    raise TypeError(message)


def untyped_options(validation_strict: object, context: object) -> None:
    """Refuse the validation options of a typed decode when no type is given.

    Raises:
        TypeError: for a ``validation_strict`` or ``context`` without ``type``.
    """
    if validation_strict is not None or context is not None:
        raise TypeError(
            "validation_strict= and context= are options of typed decoding; pass type= too"
        )


_FIELDS = ("mode", "indent_size", "partial", "reply", "require_end")


class ReadOptions:
    """How a reader reads: one value, checked once, passed to every ESON and TOON reader.

    Pass it as ``options=`` to :func:`eson.decode`, :func:`eson.try_decode`,
    :class:`eson.Decoder`, :func:`eson.toon.decode`, :func:`eson.toon.try_decode`,
    :class:`eson.toon.Decoder` and :class:`eson.StreamDecoder`, instead of
    their loose keywords (``strict=``, ``mode=``, ``indent_size=``,
    ``partial=``, ``reply=``, ``require_end=``); a reader given both refuses
    the call.  See the "Reading modes" table in the documentation.

    Attributes:
        mode: ``"strict"`` (the default), ``"lenient"`` (repairs recorded,
            counts checked) or ``"lax"`` (TOON only: the spec's non-strict
            reading, counts and widths unchecked); see :mod:`eson._internal.wire.options`.
        indent_size: (TOON) spaces per indentation level; ESON has none and
            takes only the default.
        partial: (ESON, lenient) accept a document cut off inside its last
            array, keeping the rows present (a ``rows-missing`` repair).
        reply: The text is a model's reply: prose and a code fence around
            the document are skipped (:class:`eson.StreamDecoder`; whole
            replies are read by :func:`eson.parse_reply`, which always sets it).
        require_end: (``reply``) the document must end with the closing line
            of its code fence, or the reply counts as cut off.

    Raises:
        TypeError: for an option of the wrong type (a ``mode`` that is not a
            string; ``partial``, ``reply`` or ``require_end`` not a ``bool``).
        ValueError: for an unknown ``mode``, a bad ``indent_size``,
            ``partial=True`` outside lenient mode and ``require_end=True``
            without ``reply=True``.
    """

    # A plain slotted class, frozen by hand: a dataclass would load dataclasses
    # and inspect on ``import eson`` (tests/test_startup.py counts the modules).
    __slots__ = _FIELDS
    __match_args__ = ("mode", "indent_size", "partial", "reply", "require_end")

    mode: Mode
    indent_size: int
    partial: bool
    reply: bool
    require_end: bool

    def __init__(
        self,
        mode: Mode = "strict",
        indent_size: int = 2,
        partial: bool = False,
        reply: bool = False,
        require_end: bool = False,
    ) -> None:
        for name, value in zip(_FIELDS, (mode, indent_size, partial, reply, require_end)):
            object.__setattr__(self, name, value)
        self._check()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"ReadOptions is frozen: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"ReadOptions is frozen: cannot delete {name!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _FIELDS)
        return f"ReadOptions({shown})"

    def __reduce__(self) -> tuple[type[ReadOptions], tuple[object, ...]]:
        return (ReadOptions, self._values())

    def _check(self) -> None:
        _mode_of(self.mode)
        indent_size_of(self.indent_size)
        strict_flag(self.partial, "partial")
        strict_flag(self.reply, "reply")
        strict_flag(self.require_end, "require_end")
        if self.partial and self.mode != "lenient":
            raise ValueError(
                "partial=True reads a cut-off document leniently: it needs strict=False"
                f" (mode='lenient'), not mode={self.mode!r}"
            )
        if self.require_end and not self.reply:
            raise ValueError(
                "require_end=True reads a reply's code fence: it needs reply=True"
                " (a StreamDecoder's strict=False)"
            )

    @property
    def strict(self) -> bool:
        """Whether the mode is ``"strict"``: no repairs, every check of the grammar."""
        return self.mode == "strict"

    @property
    def checks_counts(self) -> bool:
        """Whether declared counts and row widths are checked (every mode but ``"lax"``)."""
        return self.mode != "lax"

    def for_format(self, format: _Format) -> ReadOptions:
        """These options, checked against what ``format`` can read.

        Raises:
            ValueError: for ``mode="lax"`` or an ``indent_size`` other than 2
                with ESON, and for ``partial=True`` with TOON outside a reply.
        """
        if format == "eson":
            if self.mode == "lax":
                raise ValueError(
                    "mode='lax' is TOON's non-strict reading (counts and widths unchecked);"
                    " ESON checks its counts in every mode: use mode='lenient'"
                )
            if self.indent_size != 2:
                raise ValueError(
                    f"indent_size={self.indent_size!r} is a TOON option: ESON has no indentation"
                    " levels"
                )
        elif self.partial and not self.reply:
            raise ValueError(
                "partial=True keeps the rows of a cut-off ESON array; TOON has no such reading"
            )
        return self

    def replace(
        self,
        *,
        mode: Mode | None = None,
        indent_size: int | None = None,
        partial: bool | None = None,
        reply: bool | None = None,
        require_end: bool | None = None,
    ) -> ReadOptions:
        """A copy with the options given changed (checked as a new :class:`ReadOptions` is)."""
        changes: dict[str, Any] = {
            "mode": mode,
            "indent_size": indent_size,
            "partial": partial,
            "reply": reply,
            "require_end": require_end,
        }
        current: dict[str, Any] = dict(zip(_FIELDS, self._values()))
        current.update({key: value for key, value in changes.items() if value is not None})
        return ReadOptions(**current)


#: The default reading: strict, every check of the grammar.
STRICT = ReadOptions()


def read_options(
    options: object = None,
    *,
    format: _Format,
    strict: object = None,
    mode: object = None,
    indent_size: object = None,
    partial: object = None,
    reply: object = None,
    require_end: object = None,
    loose: Mode = "lenient",
    default_strict: bool = True,
    replies: bool = False,
) -> ReadOptions:
    """The one :class:`ReadOptions` of a reader's call, from ``options=`` or its keywords.

    A keyword left ``None`` was not given.  ``loose`` is what ``strict=False``
    means at this entry point (``"lenient"`` for ESON's readers and the
    stream, ``"lax"`` for :func:`eson.toon.decode`, as the TOON spec's
    non-strict mode); ``default_strict`` is the mode when neither
    ``strict`` nor ``mode`` is given; ``replies`` says the reader reads
    replies (:class:`eson.StreamDecoder`), where a non-strict reading is a
    reply's unless ``reply=False`` says otherwise.

    Raises:
        TypeError: for an ``options`` that is not a :class:`ReadOptions`, and
            as :class:`ReadOptions` does.
        ValueError: for ``options=`` together with any keyword, for a
            ``strict`` and a ``mode`` that disagree, for ``reply=True`` at a
            reader of one document, and as :class:`ReadOptions` and
            :meth:`ReadOptions.for_format` do.
    """
    given = {
        name: value
        for name, value in zip(
            _OPTION_NAMES, (strict, mode, indent_size, partial, reply, require_end)
        )
        if value is not None
    }
    if options is not None:
        if not isinstance(options, ReadOptions):
            raise TypeError(
                f"options must be an eson.ReadOptions, not {type(options).__name__}"
                f" {_shown(options)}"
            )
        if given:
            names = ", ".join(f"{name}=" for name in given)
            raise ValueError(
                f"pass the reading options either as options= or as keywords, not both"
                f" (options= and {names})"
            )
        chosen = options
    else:
        flag = None if strict is None else strict_flag(strict)
        named = None if mode is None else _mode_of(mode)
        if flag is not None and named is not None and flag != (named == "strict"):
            raise ValueError(
                f"strict={flag!r} and mode={named!r} disagree: pass one of them"
            )
        if named is None:
            if flag is None:
                flag = default_strict
            named = "strict" if flag else loose
        if reply is None:
            reply = replies and named != "strict"
        chosen = ReadOptions(
            mode=named,
            indent_size=2 if indent_size is None else indent_size,  # type: ignore[arg-type]
            partial=False if partial is None else partial,  # type: ignore[arg-type]
            reply=reply,  # type: ignore[arg-type]
            require_end=False if require_end is None else require_end,  # type: ignore[arg-type]
        )
    if chosen.reply and not replies:
        raise ValueError(
            "reply=True reads a model's reply: use eson.parse_reply or eson.StreamDecoder"
        )
    return chosen.for_format(format)
