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
the ESON schema rules (:mod:`eson._internal.schema.rules`) when it is defined -- or, if
it refers to a type defined later, on first use.

Class keywords (besides msgspec's own):
    number: (``Message`` only) record arrays carry the reserved ``n``
        row-number column; inherited by subclasses.

Needs msgspec 0.20 or later (for ``msgspec.StructMeta``).  Plain
``msgspec.Struct`` classes need no base class at all: use the functional API
(``eson.encode(obj)``, ``eson.decode(text, type=T)``).
"""

from __future__ import annotations

import typing
import weakref
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from eson._bases import ModelMethods
from eson._internal.schema.binding import FieldSpec
from eson._internal.schema.compile import NUMBER_ATTRIBUTE, document_schema, record_schema
from eson._internal.schema.rules import check_duplicate_names, check_reserved_n

__all__ = ["Message", "Record"]

if TYPE_CHECKING:
    from msgspec import StructMeta as _StructMeta
else:
    _StructMeta = getattr(msgspec, "StructMeta", None)
    if _StructMeta is None:  # pragma: no cover - depends on the installed msgspec
        raise ImportError("eson.msgspec needs msgspec >= 0.20 (msgspec.StructMeta)")


def _check_now(cls: type, *, record: bool) -> None:
    # A generic Struct is checked too, its type parameters standing for their bounds
    # (or Any); a parametrisation (Page[int]) is compiled where it is used.
    try:
        if record:
            schema = record_schema(cls)
            check_reserved_n(cls, None, cls, schema.fields)
        else:
            document_schema(cls)
    except NameError:
        return  # a forward reference: checked again on first use


#: The ``rename=`` each class made by these metaclasses was given (``_INHERIT``: none).
_RENAMES: weakref.WeakKeyDictionary[type, object] = weakref.WeakKeyDictionary()
_INHERIT = object()
_UNKNOWN = object()
_DUPLICATES = "Multiple fields rename to the same name"


def _create(
    mcls: type,
    name: str,
    bases: tuple[type, ...],
    namespace: dict[str, Any],
    struct_config: dict[str, Any],
) -> Any:
    """Create the Struct class; msgspec's duplicate-name error becomes the ESON rule's."""
    try:
        cls: type = _StructMeta.__new__(mcls, name, bases, namespace, **struct_config)
    except ValueError as exc:
        if _DUPLICATES not in str(exc):
            raise
        qualname = str(namespace.get("__qualname__", name))
        raise _duplicate_error(qualname, bases, namespace, struct_config) from exc
    _RENAMES[cls] = struct_config.get("rename", _INHERIT)
    return cls


def _duplicate_error(
    qualname: str, bases: tuple[type, ...], namespace: dict[str, Any], config: dict[str, Any]
) -> TypeError:
    """The ``eson-duplicate-name`` error of a class msgspec refused to create."""
    specs = _wire_names(bases, namespace, config)
    if specs is not None:
        try:
            check_duplicate_names(qualname, specs, "msgspec")
        except TypeError as error:
            return error
    return TypeError(
        f"{qualname.rsplit('<locals>.', 1)[-1]}: two fields share a wire name after "
        "renaming; give one of them a distinct wire name with msgspec.field(name=...) "
        "[eson-duplicate-name]"
    )


def _wire_names(
    bases: tuple[type, ...], namespace: dict[str, Any], struct_config: dict[str, Any]
) -> list[FieldSpec] | None:
    """The wire names msgspec would give a class's fields (inherited ones first).

    ``None`` when they cannot be worked out (a renaming inherited from a plain
    Struct, annotations not in the namespace ...).
    """
    specs: dict[str, FieldSpec] = {}
    for base in reversed(bases):
        if isinstance(base, _StructMeta):
            for attr, wire in zip(base.__struct_fields__, base.__struct_encode_fields__):
                specs[attr] = FieldSpec(attr, wire, Any)
    annotations = _own_annotations(namespace)
    if annotations is None:
        return None
    rename: Any = struct_config["rename"] if "rename" in struct_config else _inherited_rename(bases)
    for attr, annotation in annotations.items():
        if _is_class_var(annotation):
            continue
        default = namespace.get(attr)
        explicit = getattr(default, "name", None) if isinstance(default, _FIELD) else None
        if explicit is not None:
            wire = str(explicit)
        elif rename is None:
            wire = attr
        elif rename is _UNKNOWN:
            return None
        else:
            try:
                probe = msgspec.defstruct("_Probe", [(attr, object)], rename=rename)
            except Exception:
                return None
            wire = probe.__struct_encode_fields__[0]
        specs.pop(attr, None)
        specs[attr] = FieldSpec(attr, wire, Any)
    return list(specs.values())


_FIELD = type(msgspec.field())


def _inherited_rename(bases: tuple[type, ...]) -> object:
    for base in bases:
        for cls in base.__mro__:
            if cls is msgspec.Struct or not isinstance(cls, _StructMeta):
                continue
            if cls not in _RENAMES:
                return _UNKNOWN  # a plain Struct: its renaming is not recorded anywhere
            rename = _RENAMES[cls]
            if rename is not _INHERIT:
                return rename
    return None


def _own_annotations(namespace: dict[str, Any]) -> dict[str, Any] | None:
    """The annotations of a class body that is not a class yet."""
    annotations = namespace.get("__annotations__")
    if isinstance(annotations, dict):
        return annotations
    annotate = namespace.get("__annotate__")  # Python 3.14: annotations are lazy
    if not callable(annotate):
        return {} if "__annotate__" not in namespace else None
    try:
        import annotationlib  # type: ignore[import-not-found, unused-ignore]

        found = annotationlib.call_annotate_function(annotate, annotationlib.Format.FORWARDREF)
    except Exception:
        return None
    return found if isinstance(found, dict) else None


def _is_class_var(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))
    return annotation is ClassVar or typing.get_origin(annotation) is ClassVar


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
        cls = _create(mcls, name, bases, namespace, struct_config)
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
        cls = _create(mcls, name, bases, namespace, struct_config)
        if bases and any(isinstance(base, _RecordMeta) for base in bases):
            _check_now(cls, record=True)
        return cls


class Message(ModelMethods, msgspec.Struct, metaclass=_MessageMeta):
    """Base Struct of an ESON document (see the module documentation)."""

    __eson_number__: ClassVar[bool] = False
    __eson_base__: ClassVar[bool] = True  # the base itself is no model (see schema.rules)

    if TYPE_CHECKING:  # the class keywords, as type checkers see them

        def __init_subclass__(cls, *, number: bool | None = None, **struct_config: Any) -> None: ...


class Record(ModelMethods, msgspec.Struct, metaclass=_RecordMeta):
    """Base Struct of the rows of a record array (see the module documentation)."""

    __eson_base__: ClassVar[bool] = True  # the base itself is no model (see schema.rules)
