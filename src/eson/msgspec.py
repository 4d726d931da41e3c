"""The msgspec flavour: ``Message`` and ``Record`` Struct bases.

Subclass :class:`Message` for a document and :class:`Record` for the rows of
its record arrays::

    from typing import Literal
    import msgspec
    import eson.msgspec

    class Finding(eson.msgspec.Record):
        file: str
        line: int
        severity: Literal["high", "medium", "low"]

    class Review(eson.msgspec.Message, number=True):
        from_: str = msgspec.field(name="from")
        kind: str
        findings: list[Finding]

    text = review.to_eson()
    again = Review.from_eson(text)

Both are ``msgspec.Struct`` subclasses: ``rename=``, ``frozen=``,
``forbid_unknown_fields=``, ``kw_only=`` and the other Struct options, and
``msgspec.Meta`` constraints, work as usual.  The class is checked against
the ESON schema rules (:mod:`eson.schema.rules`) when it is defined -- or, if
it refers to a type defined later, on first use.

Class keywords (besides msgspec's own):
    number: (``Message`` only) record arrays carry the reserved ``n``
        row-number column; inherited by subclasses.

Needs msgspec 0.20 or later (for ``msgspec.StructMeta``).  Plain
``msgspec.Struct`` classes need no base class at all: use the functional API
(``eson.encode(obj)``, ``eson.decode(text, type=T)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import msgspec
from typing_extensions import Self

from eson.codecs.eson_typed import decode_model, encode_model
from eson.schema.compile import NUMBER_ATTRIBUTE, document_schema, record_schema
from eson.schema.rules import check_reserved_n

__all__ = ["Message", "Record"]

if TYPE_CHECKING:
    from msgspec import StructMeta as _StructMeta
else:
    _StructMeta = getattr(msgspec, "StructMeta", None)
    if _StructMeta is None:  # pragma: no cover - depends on the installed msgspec
        raise ImportError("eson.msgspec needs msgspec >= 0.20 (msgspec.StructMeta)")


def _check_now(cls: type, *, record: bool) -> None:
    if getattr(cls, "__parameters__", ()):
        return  # a generic Struct: its fields are only known per parametrization
    try:
        if record:
            schema = record_schema(cls)
            check_reserved_n(cls, None, cls, schema.wire_names)
        else:
            document_schema(cls)
    except NameError:
        return  # a forward reference: checked again on first use


class _MessageMeta(_StructMeta):
    """Accepts the ``number`` class keyword, then checks the new class."""

    def __new__(
        mcls,
        name: str,
        bases: tuple[type, ...],
        namespace: dict[str, Any],
        /,
        *,
        number: bool | None = None,
        **struct_config: Any,
    ) -> Any:
        if number is not None:
            if not isinstance(number, bool):
                raise TypeError(f"{name}: number must be True or False, not {number!r}")
            namespace[NUMBER_ATTRIBUTE] = number
        cls = super().__new__(mcls, name, bases, namespace, **struct_config)
        if bases and any(isinstance(base, _MessageMeta) for base in bases):
            _check_now(cls, record=False)
        return cls


class _RecordMeta(_StructMeta):
    """Checks each new record class."""

    def __new__(
        mcls,
        name: str,
        bases: tuple[type, ...],
        namespace: dict[str, Any],
        /,
        **struct_config: Any,
    ) -> Any:
        cls = super().__new__(mcls, name, bases, namespace, **struct_config)
        if bases and any(isinstance(base, _RecordMeta) for base in bases):
            _check_now(cls, record=True)
        return cls


class Message(msgspec.Struct, metaclass=_MessageMeta):
    """Base Struct of an ESON document (see the module documentation)."""

    __eson_number__: ClassVar[bool] = False

    if TYPE_CHECKING:  # the class keywords, as type checkers see them

        def __init_subclass__(cls, *, number: bool | None = None, **struct_config: Any) -> None: ...

    def to_eson(self) -> str:
        """Write this message as an ESON document."""
        return encode_model(self)

    @classmethod
    def from_eson(cls, data: str | bytes | bytearray | memoryview) -> Self:
        """Read an ESON document into a validated instance.

        Raises:
            eson.DecodeError: for malformed text (with its line).
            eson.ValidationError: for well-formed text that fails validation,
                located at line, section, row and field.
        """
        return decode_model(cls, data)


class Record(msgspec.Struct, metaclass=_RecordMeta):
    """Base Struct of the rows of a record array (see the module documentation)."""

    def to_eson(self) -> str:
        """Write this record as an ESON document of its own."""
        return encode_model(self)

    @classmethod
    def from_eson(cls, data: str | bytes | bytearray | memoryview) -> Self:
        """Read an ESON document into a validated instance (see :meth:`Message.from_eson`)."""
        return decode_model(cls, data)
