"""The typed columnar JSON back end: model instances to and from columnar JSON.

Columnar JSON is JSON, so there is nothing to compile per field: a model
instance is written as its JSON-mode dump (``model_dump(mode="json",
by_alias=True)`` / ``msgspec.to_builtins``) through the columnar writer
(:mod:`eson._internal.wire.columnar`), and text is read back with the columnar reader
and validated by the framework, exactly as the untyped path would do.  The
compiled schema (:func:`eson._internal.schema.document_schema`) supplies the binding
(how to dump and validate) and the rule checks, so a class that has an ESON
layout has a columnar one and a class that breaks a rule fails the same way.

Validation failures are placed like the other back ends place them: the
section is the top-level field, the row the 1-based index in a record
array, the field the record's column.
"""

from __future__ import annotations

from typing import Any

from eson._internal.codecs.validation import Place, validation_error
from eson._internal.schema.binding import Binding, Problem, Validator
from eson._internal.schema.class_cache import cached
from eson._internal.schema.compile import document_schema
from eson._internal.schema.model import DocumentSchema, EntryKind
from eson._internal.wire.columnar import decode_columnar, encode_columnar
from eson._internal.wire.eson_reader import text_of
from eson._internal.wire.options import STRICT, ReadOptions
from eson._internal.wire.repairs import Repair
from eson.errors import EncodeError


class ColumnarCodec:
    """The columnar JSON writer and reader of one model class."""

    __slots__ = ("binding", "schema", "validate")

    def __init__(self, schema: DocumentSchema) -> None:
        self.schema = schema
        self.binding: Binding = schema.binding
        self.validate: Validator = schema.binding.validator(schema.model_type)

    def encode(self, obj: object) -> str:
        """Write ``obj`` (an instance of the class) as columnar JSON."""
        try:
            document = self.binding.dump(obj)
        except Exception as exc:
            raise EncodeError(f"cannot dump value: {type(exc).__name__}: {exc}") from exc
        return encode_columnar(document)

    def decode(
        self,
        data: str | bytes | bytearray | memoryview,
        read: ReadOptions = STRICT,
        repairs: list[Repair] | None = None,
        *,
        validation_strict: bool | None = None,
        context: Any = None,
    ) -> Any:
        """Read columnar JSON (or plain JSON) and validate it into an instance.

        Columnar JSON has one reading: ``read`` and ``repairs`` are taken as
        every compiled reader takes them, and change nothing.
        """
        document = decode_columnar(text_of(data, "columnar JSON"))
        return self.validate_document(document, validation_strict, context)

    def validate_document(
        self, document: Any, validation_strict: bool | None = None, context: Any = None
    ) -> Any:
        """Validate a plain document (blocks already rebuilt) into an instance.

        ``validation_strict`` and ``context`` are the framework's options, as
        ``model_validate(strict=..., context=...)`` takes them.
        """
        try:
            return self.validate(document, validation_strict, context)
        except Exception as exc:
            problems = self.binding.problems(exc)
            if problems is None:
                raise
            raise validation_error(problems, document, self._place) from exc

    def _place(self, problem: Problem) -> tuple[Place, int]:
        loc = problem.loc
        place: Place = {"line": None, "section": None, "row": None, "field": None}
        if not loc or not isinstance(loc[0], str):
            return place, 0
        place["section"] = loc[0]
        used = 1
        entry = self.schema.by_wire.get(loc[0])
        rest = loc[1:]
        if entry is None or not rest:
            return place, used
        if entry.entry in (EntryKind.RECORD_ARRAY, EntryKind.SCALAR_ARRAY) and isinstance(
            rest[0], int
        ):
            place["row"] = rest[0] + 1
            used += 1
            if entry.entry is EntryKind.RECORD_ARRAY and len(rest) > 1 and isinstance(rest[1], str):
                place["field"] = rest[1]
                used += 1
        elif entry.entry is EntryKind.RECORD and isinstance(rest[0], str):
            place["field"] = rest[0]
            used += 1
        return place, used




def codec_for(cls: type) -> ColumnarCodec:
    """The columnar codec of ``cls`` (compiled on first use, cached).

    Raises:
        TypeError: if ``cls`` is not a model type or breaks a schema rule.
    """
    return cached(cls, "columnar codec", lambda: ColumnarCodec(document_schema(cls)))
