"""What the schema compiler needs from a model framework.

A :class:`Binding` is the one place that knows a framework's API: how to list
a class's fields and wire names, which annotations it can serialize, how to
turn field values into their JSON-mode form, and how to validate a plain
document into an instance.  :mod:`eson._internal.schema.pydantic_binding`,
:mod:`eson._internal.schema.msgspec_binding` and :mod:`eson._internal.schema.dataclass_binding`
implement it; the compiler and the format back ends only talk to this
protocol, so neither needs Pydantic installed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

ModelShape = Literal["record", "array", "other"]


class CellChoices(Protocol):
    """What a binding reads of a compiled field's cell type (:class:`~eson._internal.schema.model.CellType`)."""

    @property
    def choices(self) -> frozenset[str] | None:
        """The strings of a ``Literal`` of strings, else ``None``."""


class CompiledField(Protocol):
    """A compiled field as a binding reads it: a :class:`~eson._internal.schema.model.FieldSchema`.

    A protocol, so that this module needs nothing from the schema model,
    which refers to the binding of each schema.
    """

    @property
    def attr(self) -> str:
        """The Python attribute name."""

    @property
    def wire(self) -> str:
        """The name on the wire."""

    @property
    def annotation(self) -> Any:
        """The declared annotation, metadata included."""

    @property
    def output_only(self) -> bool:
        """Written but never read back (a computed field)."""

    @property
    def cell(self) -> CellChoices:
        """The field's values as cells."""


@dataclass(frozen=True)
class FieldSpec:
    """A field as the framework declares it, before shape analysis.

    Attributes:
        attr: Python attribute name.
        wire: Name in the JSON-mode dump (alias / rename applied).
        annotation: Declared annotation, metadata included.
        required: Decoding fails without it (no default).
        output_only: Present in dumps, never read back (computed fields).
    """

    attr: str
    wire: str
    annotation: Any
    required: bool = True
    output_only: bool = False


class _NoDefault:
    """The marker of a field without a (plain) default value."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"


#: :attr:`FieldNotes.default` of a field that has no default, or only a factory
#: that is not a plain container.
NO_DEFAULT: object = _NoDefault()


@dataclass(frozen=True)
class FieldNotes:
    """What a framework knows about a field besides its type: for people and prompts.

    Attributes:
        description: ``Field(description=...)`` / ``msgspec.Meta(description=...)``.
        default: The default value (a factory's result for ``list``,
            ``dict``, ``set`` and ``tuple`` factories), or :data:`NO_DEFAULT`.
        examples: Declared example values, if any.
    """

    description: str | None = None
    default: Any = NO_DEFAULT
    examples: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Problem:
    """One validation failure reported by a framework.

    Attributes:
        loc: Path into the validated document (names and 0-based indexes).
        message: The framework's message.
        kind: The framework's error type code, when it has one.
    """

    loc: tuple[str | int, ...]
    message: str
    kind: str = ""


class SurrogateError(Exception):
    """Validation could not run because a string held a lone surrogate.

    Raised by a binding's validator when the framework failed on the
    surrogate itself (``UnicodeEncodeError``) and a surrogate-free copy of
    the document validates; :attr:`problems` places the strings.
    """

    def __init__(self, paths: Sequence[tuple[str | int, ...]]) -> None:
        self.problems = [
            Problem(path, "Invalid string: holds a lone surrogate", "string_unicode")
            for path in paths[:1] or [()]
        ]
        super().__init__("a string holds a lone surrogate")


_SURROGATES = re.compile("[\ud800-\udfff]")
_MAX_NESTING = 600


def replace_surrogates(document: Any) -> tuple[Any, list[tuple[str | int, ...]]]:
    """A copy of a plain document with every lone surrogate replaced by U+FFFD.

    Also returns the paths (keys and indexes) of the strings changed, in
    document order.  Only ``dict``, ``list`` and ``tuple`` are entered; other
    objects (already validated instances) are kept as they are.
    """
    paths: list[tuple[str | int, ...]] = []

    def clean(value: Any, path: tuple[str | int, ...]) -> Any:
        if isinstance(value, str):
            if _SURROGATES.search(value) is None:
                return value
            paths.append(path)
            return _SURROGATES.sub("\ufffd", value)
        if len(path) > _MAX_NESTING:
            return value
        if isinstance(value, dict):
            return {clean(key, path): clean(item, (*path, key)) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(item, (*path, index)) for index, item in enumerate(value)]
        return value

    return clean(document, ()), paths


#: Why a framework without validation context refuses ``context=`` (``{framework}``).
NO_CONTEXT = (
    "context= is a Pydantic validation option (model_validate(context=...)); "
    "{framework} validation (msgspec.convert) takes no context"
)


class Validator(Protocol):
    """Validates a plain document into an instance, with the framework's options.

    ``strict`` is the framework's own strict mode (``None``: its default);
    ``context`` is passed to Pydantic validators (``None``: none).
    """

    def __call__(self, document: Any, strict: bool | None = None, context: Any = None) -> Any:
        """Return the validated instance, or raise the framework's error."""


class PrebuiltValidator(Protocol):
    """Validates a plain document some of whose record arrays are already built.

    ``built`` names the entries (wire names) whose values are lists of
    instances of the declared row class, each made from values valid as
    they are (see :meth:`Binding.prebuilt_lists`).  The result, and any
    error, is what validating ``document`` itself gives.
    """

    def __call__(
        self, document: dict[str, Any], built: Collection[str], strict: bool | None = None
    ) -> Any:
        """Return the validated instance, or raise the framework's error."""


class Binding(Protocol):
    """The framework-specific operations the compiler and back ends use."""

    name: str

    #: Whether validation takes a ``context`` (Pydantic's ``model_validate(context=)``).
    takes_context: bool

    #: The framework's own model base classes (``pydantic.BaseModel``,
    #: ``msgspec.Struct``): classes without fields that stand for their
    #: subclasses, so no field may be declared with them.
    base_classes: frozenset[type]

    def model_shape(self, tp: object) -> ModelShape | None:
        """How instances of a model class ``tp`` dump, or ``None`` if ``tp`` is not one.

        ``"record"``: a JSON object with one fixed key set per class;
        ``"array"``: a JSON array (msgspec ``array_like``); ``"other"``:
        anything else (e.g. a Pydantic ``RootModel``).
        """

    def fields(self, cls: type) -> list[FieldSpec]:
        """The fields a JSON-mode dump of ``cls`` holds, in dump order."""

    def extras(self, cls: type) -> tuple[bool, Callable[[object], bool] | None]:
        """Whether every instance dumps exactly :meth:`fields`.

        Returns ``(True, None)`` when it does; else ``(False, check)`` where
        ``check(instance)`` says whether that instance deviates (``None``:
        assume every instance may).
        """

    def leaf_plain(self, owner: type, tp: type) -> frozenset[type] | None:
        """For a non-container, non-model class: the run-time types whose
        values need no conversion, or ``None`` when the framework cannot
        serialize ``tp`` at all."""

    def serialized_annotation(self, metadata: Sequence[object]) -> Any:
        """What a custom serializer in ``Annotated`` metadata returns.

        ``None`` when the metadata holds no custom serializer; the declared
        return annotation when it has one; ``typing.Any`` when unknown.
        """

    def column_converter(self, owner: type, spec: FieldSpec) -> Callable[[list[Any]], list[Any]]:
        """A function turning a list of this field's values into their JSON-mode forms."""

    def dump(self, obj: object) -> dict[str, Any]:
        """The JSON-mode dump of a whole instance (the slow, exact path)."""

    def validator(self, cls: type) -> Validator:
        """A function validating a plain document into an instance of ``cls``."""

    def notes(self, cls: type) -> dict[str, FieldNotes]:
        """Descriptions, defaults and examples of the fields of ``cls``, by attribute name."""

    def problems(self, exc: BaseException) -> list[Problem] | None:
        """The failures a validation exception carries, or ``None`` if it is not one."""

    def columns_reader(
        self, cls: type, attrs: Sequence[str]
    ) -> Callable[[list[Any]], Sequence[Sequence[Any]]] | None:
        """An optional fast way to read attributes off many instances of ``cls``.

        The function takes a list of instances (exactly of type ``cls``) and
        returns one sequence per attribute.  It may raise when an instance
        is not in the expected state; the caller then takes the slow path.
        ``None`` means: use plain attribute access.
        """

    def row_constructor(
        self, cls: type, fields: Sequence[CompiledField]
    ) -> Callable[..., Any] | None:
        """An optional fast path for one row: build an instance from its values, positionally.

        Only called with values that are already valid as they are for their
        fields (exactly typed); the result must equal validating the row's
        dict.  ``None`` when there is no such path (validators must see the
        dict).
        """

    def native_access(self, cls: type, attrs: Sequence[str]) -> tuple[int, tuple[object, ...]] | None:
        """How the C accelerator may read the attributes ``attrs`` of instances of ``cls``.

        ``(eson._internal.accelerator.ACCESS_SLOTS, descriptors)``: each attribute is
        an object slot, given by its member descriptor; ``(ACCESS_INSTANCE_DICT,
        names)``: each is an entry of the instance ``__dict__``.  ``None``
        means only :meth:`columns_reader` (or attribute access) reads them.
        The accelerator reads only instances exactly of ``cls`` and leaves
        anything else (a missing value, another class) to the Python code.
        """

    def record_builder(
        self, cls: type, fields: Sequence[CompiledField], within: tuple[type, str] | None = None
    ) -> Callable[[list[list[Any]], list[bool]], list[Any]] | None:
        """An optional fast path: build validated instances straight from
        decoded columns (one list per field, in ``fields`` order).

        ``within`` is the document class and the attribute whose value the
        records are, when they are a top-level entry of that document
        (``None`` elsewhere): the whole document is then validated with the
        built instances in place of the rows' dicts, which a framework may
        allow only where nothing on the way sees the dicts.

        The second argument flags the columns whose values are already known
        to be valid as they are for their field (no conversion needed).  The
        builder must give exactly what validating one dict per row gives, or
        raise any exception (the caller then takes the dict path, which
        reports the precise error).  ``None`` when there is no such path.
        """

    def row_slots(self, cls: type, fields: Sequence[CompiledField]) -> tuple[object, ...] | None:
        """The member descriptors through which the accelerator may make instances of ``cls``.

        An instance made by allocating ``cls`` and setting these slots (one
        per field, in ``fields`` order) to values valid as they are for
        their fields must be exactly what validating the row's dict gives
        (msgspec Structs without ``__post_init__``).  ``None`` when there is
        no such way.
        """

    def prebuilt_lists(
        self, cls: type, rows: dict[str, type]
    ) -> PrebuiltValidator | None:
        """An optional faster validation of documents whose record arrays are already built.

        ``rows`` maps wire names of record-array entries of ``cls`` to their
        row classes.  The validator need not look at the rows of the lists it
        is told are built (instances of exactly that class, made as
        :meth:`row_slots` allows); it must give exactly what validating the
        document gives.  ``None`` when there is no such validation.
        """
