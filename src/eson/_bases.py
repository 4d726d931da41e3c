"""The methods every model base shares, for both flavours: one mixin.

:class:`eson.Message`/:class:`eson.Record` (Pydantic) and
:class:`eson.msgspec.Message`/:class:`eson.msgspec.Record` all carry the
same thin methods -- ``to_eson``, ``from_eson``, ``to_toon``, ``from_toon``
``from_reply``, ``eson_prompt`` and ``toon_prompt`` -- which delegate to the
codecs and to the agent layer (:mod:`eson.agent`).  They live here once; each base class lists
:class:`ModelMethods` first among its bases.  The mixin has no fields and
empty ``__slots__``, so msgspec Structs accept it and Pydantic ignores it.

Only the ESON codecs load with a base class: the TOON back end and the
agent layer (replies, prompts) load when their first method is called, so
that ``import eson.msgspec`` stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from typing_extensions import Self

from eson._internal.api import check_reading
from eson._internal.codecs.eson_typed import decode_model, encode_model
from eson._internal.wire.options import read_options, strict_flag

if TYPE_CHECKING:
    from eson._internal.wire.repairs import Repair

Data = str | bytes | bytearray | memoryview


class ModelMethods:
    """ESON, TOON and reply methods of a model class (see the module documentation)."""

    __slots__ = ()

    def to_eson(self) -> str:
        """Write this instance as an ESON document (see :func:`eson.encode`)."""
        return encode_model(self)

    @classmethod
    def from_eson(
        cls,
        data: Data,
        *,
        strict: bool = True,
        repairs: list[Repair] | None = None,
        partial: bool = False,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> Self:
        """Read an ESON document into a validated instance (see :func:`eson.decode`).

        ``strict=False`` reads leniently, recording each repair in ``repairs``;
        ``partial`` accepts a document cut off inside its last array.
        ``validation_strict`` is the framework's strict mode for the
        validation (``model_validate(strict=...)``, ``msgspec.convert(strict=...)``;
        not called ``strict``, which is the wire option), ``context`` Pydantic's
        validation context (a ``TypeError`` for msgspec, which takes none).

        Raises:
            eson.DecodeError: for malformed text (with its line).
            eson.ValidationError: for well-formed text that fails validation,
                located at line, section, row and field.
        """
        read = check_reading(strict, partial)
        return decode_model(
            cls, data, read, repairs, validation_strict=validation_strict, context=context
        )

    def to_toon(self, *, delimiter: str = ",", indent_size: int = 2) -> str:
        """Write this instance as a TOON document (see :func:`eson.toon.encode`)."""
        from eson._internal.codecs import toon_typed

        return toon_typed.encode_model(self, delimiter, indent_size)

    @classmethod
    def from_toon(
        cls,
        data: Data,
        *,
        strict: bool = True,
        indent_size: int = 2,
        repairs: list[Repair] | None = None,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> Self:
        """Read a TOON document into a validated instance (see :func:`eson.toon.decode`).

        ``strict`` is TOON's strict mode; ``validation_strict`` and ``context``
        are those of :meth:`from_eson`.

        Raises:
            eson.TOONError: for malformed text (with its line).
            eson.ValidationError: for well-formed text that fails validation,
                located at line, section, row and field.
        """
        from eson._internal.codecs import toon_typed

        read = read_options(
            format="toon", strict=strict_flag(strict), indent_size=indent_size, loose="lax"
        )
        return toon_typed.decode_model(
            cls, data, read, repairs, validation_strict=validation_strict, context=context
        )

    @classmethod
    def from_reply(
        cls,
        text: Data,
        *,
        formats: Sequence[str] | None = None,
        partial: bool = False,
        repairs: list[Repair] | None = None,
        validation_strict: bool | None = None,
        context: Any = None,
        stop_reason: object = None,
        require_end: bool = False,
    ) -> Self:
        """Read a language model's reply into a validated instance (see :func:`eson.parse_reply`).

        Finds the ESON, TOON or JSON payload in the reply (code fences, prose
        around it), reads it leniently and validates it.  ``formats`` are
        those to look for, most preferred first (``None``: parse_reply's
        default, ESON, TOON, then JSON).  On failure the
        error's ``feedback`` is the text to send back to the model.
        ``validation_strict`` and ``context`` are those of :meth:`from_eson`;
        ``stop_reason`` (the provider's, in any spelling, or its response
        object) and ``require_end`` (the closing fence is required) are those
        of :func:`eson.parse_reply`: a reply cut off is never read as complete.

        Raises:
            eson.ESONError: (a ``DecodeError``, ``TOONError`` or
                ``ValidationError``) with lines counted in ``text``.
            eson.TruncatedError: the reply was cut off (unless ``partial``).
        """
        from eson.agent.formats import PAYLOAD_FORMATS
        from eson.agent.replies import parse_reply

        return parse_reply(
            text,
            cls,
            formats=PAYLOAD_FORMATS if formats is None else formats,
            partial=partial,
            repairs=repairs,
            validation_strict=validation_strict,
            context=context,
            stop_reason=stop_reason,
            require_end=require_end,
        )

    @classmethod
    def eson_prompt(cls, *, reader: bool = False, example: Any = True) -> str:
        """What a model needs to write this class as ESON (see :func:`eson.prompt`).

        Args:
            reader: Only the primer, for a model that reads such messages.
            example: ``True``: a made-up example that decodes into this
                class; ``False``: none; or an instance to show.
        """
        from eson.agent.prompts import prompt

        return prompt(cls, format="eson", reader=reader, example=example)

    @classmethod
    def toon_prompt(cls, *, reader: bool = False, example: Any = True, delimiter: str = ",") -> str:
        """What a model needs to write this class as TOON (see :func:`eson.prompt`)."""
        from eson.agent.prompts import prompt

        return prompt(cls, format="toon", reader=reader, example=example, delimiter=delimiter)
