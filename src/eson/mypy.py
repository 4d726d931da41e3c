"""A mypy plugin that enforces ESON's schema rules at type-check time.

Enable it in the mypy configuration (``pyproject.toml``)::

    [tool.mypy]
    plugins = ["eson.mypy"]

or, in ``mypy.ini`` / ``setup.cfg``, ``plugins = eson.mypy``.  It works alongside
``pydantic.mypy`` in either order.

The plugin looks at every class derived, directly or through user subclasses, from
one of typed-eson's model bases (``eson.Message``/``eson.Record`` on Pydantic, and
``eson.msgspec.Message``/``eson.msgspec.Record`` on msgspec) and reports, at the line
of the offending annotation:

``eson-record-array``
    a record array of a Message whose element is not one concrete record type
    (``list[A | B]``, ``list[A] | list[B]``, ``list[Any]``, ``list[dict[str, Any]]``,
    a type variable, a protocol ...).
``eson-wire-name``
    a literal wire name (field name, alias, ``msgspec.field(name=...)``, ``rename=``)
    outside ESON's ``name`` production.
``eson-reserved-n``
    a record type whose first field is ``n``, which ESON reserves for row numbers.
``eson-duplicate-name``
    two fields of one class with the same wire name after aliasing.
``eson-unsupported-type``
    a field type that the schema compiler cannot encode.

The runtime enforces the same rules when a class is defined (``TypeError`` whose
message names the same code), so checkers without plugins (Pyright, ...) still get
them the first time the module is imported.  Both take the rule codes, their order,
the wording of every message and ESON's name production from one module,
:mod:`eson._internal.schema.rule_table`.

Besides mypy and the standard library this module imports only that table (and so
the ``eson`` package, which needs msgspec but never Pydantic); it never loads the
model bases or a framework binding.  The set of encodable types lives in
:data:`SCALAR_TYPES`, :data:`CONTAINER_TYPES` and :data:`ARRAY_TYPES`; a project
with its own codecs can extend it from the mypy configuration::

    [tool.eson-mypy]                       # pyproject.toml
    extra_supported_types = ["money.Money"]

    [eson-mypy]                            # mypy.ini / setup.cfg
    extra_supported_types = money.Money, geo.Point
"""

from __future__ import annotations

import ast
import configparser
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, TypeAlias

import mypy.types  # noqa: F401  (load first: mypy.expandtype and mypy.types import each other)
from mypy.errorcodes import ErrorCode
from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type_bare
from mypy.nodes import (
    AssignmentStmt,
    CallExpr,
    Context,
    DictExpr,
    Expression,
    NameExpr,
    RefExpr,
    StrExpr,
    TypeInfo,
    Var,
)
from mypy.options import Options
from mypy.plugin import ClassDefContext, Plugin, SemanticAnalyzerPluginInterface
from mypy.semanal_shared import has_placeholder
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    ProperType,
    TupleType,
    Type,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarLikeType,
    TypeVarType,
    UnboundType,
    UnionType,
    flatten_nested_unions,
    get_proper_type,
)

from eson._internal.schema import rule_table
from eson._internal.schema.rule_table import RULES, Hint, Why, capitalized

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10; mypy itself depends on tomli there
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "ARRAY_TYPES",
    "CHECK_ORDER",
    "CONTAINER_TYPES",
    "DUPLICATE_NAME",
    "ERROR_CODES",
    "FLAVOUR_SCALAR_PREFIXES",
    "FLAVOUR_SCALAR_TYPES",
    "RECORD_ARRAY",
    "RESERVED_N",
    "SCALAR_TYPES",
    "UNSUPPORTED_TYPE",
    "WIRE_NAME",
    "ESONPlugin",
    "plugin",
]

# --------------------------------------------------------------------------------------
# Error codes.  The runtime check at class definition uses the same five codes.
# --------------------------------------------------------------------------------------

def _code(name: str) -> ErrorCode:
    return ErrorCode(name, capitalized(RULES[name]), "ESON")


RECORD_ARRAY: Final = _code("eson-record-array")
WIRE_NAME: Final = _code("eson-wire-name")
RESERVED_N: Final = _code("eson-reserved-n")
DUPLICATE_NAME: Final = _code("eson-duplicate-name")
UNSUPPORTED_TYPE: Final = _code("eson-unsupported-type")
ERROR_CODES: Final[tuple[ErrorCode, ...]] = (
    RECORD_ARRAY,
    WIRE_NAME,
    RESERVED_N,
    DUPLICATE_NAME,
    UNSUPPORTED_TYPE,
)
"""Every error code the plugin reports, in rule order."""

CHECK_ORDER: Final[tuple[str, ...]] = rule_table.CHECK_ORDER
"""The order in which both enforcers check a class (:data:`eson._internal.schema.rule_table.CHECK_ORDER`).

A field breaking several rules is reported once, for the first of them in this order,
and so the first of a class's codes in this order is the one the runtime raises."""


def _rank(code: ErrorCode) -> int:
    return CHECK_ORDER.index(code.code)


# --------------------------------------------------------------------------------------
# What the schema compiler can encode.  Extend here (or, per project, through the
# ``extra_supported_types`` option) when the runtime learns a new type.
# --------------------------------------------------------------------------------------

SCALAR_TYPES: Final[frozenset[str]] = frozenset(
    {
        "builtins.str",
        "builtins.int",
        "builtins.float",
        "builtins.bool",
        "builtins.bytes",
        "datetime.datetime",
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "uuid.UUID",
        "decimal.Decimal",
        "_decimal.Decimal",  # where older typeshed versions define it
    }
)
"""Leaf types every flavour encodes; subclasses (and ``NewType``\\ s) of them count too.
``None``, ``Literal[...]``, enums, models and ``Any`` are handled structurally."""

FLAVOUR_SCALAR_TYPES: Final[Mapping[str, frozenset[str]]] = {
    "pydantic": frozenset(
        {
            "pathlib.PurePath",
            "ipaddress.IPv4Address",
            "ipaddress.IPv6Address",
            "ipaddress.IPv4Network",
            "ipaddress.IPv6Network",
            "ipaddress.IPv4Interface",
            "ipaddress.IPv6Interface",
            "re.Pattern",
            "builtins.complex",
            "fractions.Fraction",
        }
    ),
    "msgspec": frozenset({"builtins.bytearray", "builtins.memoryview", "msgspec.Raw"}),
}
"""Further leaf types one flavour's framework writes as JSON (Pydantic's
``TypeAdapter``, ``msgspec.inspect``), keyed by the flavour of the ESON class."""

FLAVOUR_SCALAR_PREFIXES: Final[Mapping[str, tuple[str, ...]]] = {
    "pydantic": ("pydantic.networks.", "pydantic.types.", "pydantic_extra_types."),
    "msgspec": (),
}
"""Modules whose classes one flavour encodes as leaves (Pydantic's own URL, secret ... types)."""

CONTAINER_TYPES: Final[frozenset[str]] = frozenset(
    {
        "builtins.list",
        "builtins.tuple",
        "builtins.set",
        "builtins.frozenset",
        "builtins.dict",
        "typing.Iterable",
        "typing.Collection",
        "typing.Sequence",
        "typing.MutableSequence",
        "typing.AbstractSet",
        "typing.MutableSet",
        "typing.Mapping",
        "typing.MutableMapping",
    }
)
"""Generic containers whose type arguments must themselves be supported; subclasses
(``deque``, ``OrderedDict``, ``defaultdict`` ...) are mapped onto them."""

ARRAY_TYPES: Final[frozenset[str]] = CONTAINER_TYPES - {
    "builtins.dict",
    "typing.Mapping",
    "typing.MutableMapping",
}
"""Containers that a Message field writes as an ESON array (scalar or record)."""

_MAPPING_TYPES: Final = frozenset({"builtins.dict", "typing.Mapping", "typing.MutableMapping"})

# --------------------------------------------------------------------------------------
# The classes the plugin knows by name.
# --------------------------------------------------------------------------------------

_Flavour: TypeAlias = str  # "pydantic", "msgspec" or "dataclass"
_Kind: TypeAlias = str  # "message" or "record"

_ESON_BASES: Final[Mapping[str, tuple[_Flavour, _Kind]]] = {
    "eson.pydantic.Message": ("pydantic", "message"),
    "eson.pydantic.Record": ("pydantic", "record"),
    "eson.msgspec.Message": ("msgspec", "message"),
    "eson.msgspec.Record": ("msgspec", "record"),
}
_PYDANTIC_BASE: Final = "pydantic.main.BaseModel"
_MSGSPEC_BASE: Final = "msgspec.Struct"
_FRAMEWORK_CLASSES: Final = frozenset({_PYDANTIC_BASE, _MSGSPEC_BASE, "builtins.object"})
_PYDANTIC_FIELD: Final = "pydantic.fields.Field"
_MSGSPEC_FIELD: Final = "msgspec.field"
_METADATA_KEY: Final = "eson-mypy"

_RENAME_MODES: Final = frozenset({"lower", "upper", "camel", "pascal", "kebab"})
_DYNAMIC: Final = "<dynamic>"
_MAX_DEPTH: Final = 24

# A msgspec ``rename=`` value as far as it is known statically: no renaming, a mode
# name, a literal mapping, or ``_DYNAMIC`` (a callable or another run-time value).
_Rename: TypeAlias = str | dict[str, str | None] | None


def is_eson_name(name: str) -> bool:
    """Return whether *name* matches ESON's ``name`` production (ASCII only)."""
    return rule_table.is_name(name)


def rename_field(name: str, rename: _Rename) -> str | None:
    """Apply a msgspec ``rename=`` setting to a field name, as msgspec does.

    Returns ``None`` when the result is not known statically.
    """
    if rename is None:
        return name
    if isinstance(rename, dict):
        renamed = rename.get(name)
        return name if renamed is None else renamed
    if rename == "lower":
        return name.lower()
    if rename == "upper":
        return name.upper()
    if rename == "kebab":
        return name.strip("_").replace("_", "-")
    if rename in ("camel", "pascal"):
        out: list[str] = []
        started = False
        for part in name.split("_"):
            if not part:
                if not started:
                    out.append("_")
                continue
            out.append(part if not started and rename == "camel" else part.title())
            started = True
        return "".join(out)
    return None


# --------------------------------------------------------------------------------------
# Fields of a model class.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Field:
    """One field of a model class as the plugin sees it."""

    name: str
    wire: str | None  # None: not known statically (dynamic alias, alias generator ...)
    type: Type | None
    owner: TypeInfo
    context: Context


class _IncompleteError(Exception):
    """Raised when a type the check needs is not analysed yet (forward reference)."""


def _flavour(info: TypeInfo) -> _Flavour | None:
    for base in info.mro:
        if base.fullname == _PYDANTIC_BASE:
            return "pydantic"
        if base.fullname == _MSGSPEC_BASE:
            return "msgspec"
    if "dataclass" in info.metadata or "dataclass_tag" in info.metadata:
        # "dataclass_tag" is set during semantic analysis, "dataclass" only after it.
        return "dataclass"
    return None


def eson_kind(info: TypeInfo) -> tuple[_Flavour, _Kind] | None:
    """Return the flavour and kind of an ESON model class, or ``None`` for other classes."""
    for base in info.mro:
        found = _ESON_BASES.get(base.fullname)
        if found is not None:
            return found
    return None


def _is_model(info: TypeInfo) -> bool:
    """Whether instances of *info* are records (a Pydantic, msgspec or dataclass model)."""
    return _flavour(info) is not None and not info.is_protocol


def _has_body(info: TypeInfo) -> bool:
    # Classes loaded from the incremental cache have no statements; their fields come
    # from the metadata the plugin (or mypy's dataclass support) stored earlier.
    return bool(info.defn.defs.body)


def _callee(expr: Expression) -> str | None:
    if isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr):
        return expr.callee.fullname or None
    return None


def _keyword(call: CallExpr, name: str) -> Expression | None:
    for arg_name, arg in zip(call.arg_names, call.args, strict=True):
        if arg_name == name:
            return arg
    return None


def _is_none(expr: Expression) -> bool:
    return isinstance(expr, NameExpr) and expr.fullname == "builtins.None"


def _literal_name(expr: Expression) -> str | None:
    """A literal wire name: the string, or ``_DYNAMIC`` for any other expression."""
    return expr.value if isinstance(expr, StrExpr) else _DYNAMIC


class _AnnotatedAliases:
    """Reads ``Annotated[T, Field(alias=...)]`` aliases from the source text.

    mypy drops the metadata of ``Annotated`` from the types it builds, so the alias is
    recovered from the annotation's syntax tree, parsed once per file.
    """

    def __init__(self) -> None:
        # path -> (modification stamp, {(line, target name): annotation})
        self._files: dict[str, tuple[object, dict[tuple[int, str], ast.expr]]] = {}

    def alias(self, path: str, line: int, name: str) -> str | None:
        """The literal alias (or ``_DYNAMIC``) in the annotation of *name* at *line*."""
        annotation = self._annotations(path).get((line, name))
        if annotation is None:
            return None
        return self._alias_in(annotation)

    def _annotations(self, path: str) -> dict[tuple[int, str], ast.expr]:
        try:
            stat = os.stat(path)
        except OSError:
            return {}
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = self._files.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        found: dict[tuple[int, str], ast.expr] = {}
        try:
            with open(path, encoding="utf-8") as source:
                tree = ast.parse(source.read(), filename=path)
        except (OSError, SyntaxError, ValueError):
            tree = None
        if tree is not None:
            for node in ast.walk(tree):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    found[(node.lineno, node.target.id)] = node.annotation
        self._files[path] = (stamp, found)
        return found

    @staticmethod
    def _alias_in(annotation: ast.expr) -> str | None:
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return None
        if not isinstance(annotation, ast.Subscript) or not isinstance(annotation.slice, ast.Tuple):
            return None
        head = annotation.value
        head_name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", "")
        if head_name != "Annotated":
            return None
        alias: str | None = None
        for extra in annotation.slice.elts[1:]:
            if not isinstance(extra, ast.Call):
                continue
            func = extra.func
            func_name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if func_name != "Field":
                continue
            keywords = {k.arg: k.value for k in extra.keywords if k.arg}
            for key in ("serialization_alias", "alias"):
                if key in keywords:
                    value = keywords[key]
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        alias = value.value
                    else:
                        alias = _DYNAMIC
                    break
        return alias


class _FieldReader:
    """Collects the fields of model classes, in wire order, with their wire names."""

    def __init__(self, api: SemanticAnalyzerPluginInterface, final: bool) -> None:
        self.api = api
        self.final = final
        self.annotated = _ANNOTATED

    def incomplete(self) -> None:
        """Signal a type that is not ready; tolerated on mypy's final iteration."""
        if not self.final:
            raise _IncompleteError

    # -- class configuration ----------------------------------------------------------

    def rename(self, info: TypeInfo) -> _Rename:
        """The msgspec ``rename=`` in force for fields *info* defines itself."""
        for cls in info.mro:
            stored = cls.metadata.get(_METADATA_KEY)
            if stored is not None and "rename" in stored:
                value: _Rename = stored["rename"]
                return value
            expr = cls.defn.keywords.get("rename")
            if expr is not None:
                return _parse_rename(expr)
        return None

    def alias_generator(self, info: TypeInfo) -> bool:
        """Whether a Pydantic ``alias_generator`` applies to *info*'s fields."""
        for cls in info.mro:
            stored = cls.metadata.get(_METADATA_KEY)
            if stored is not None and "alias_generator" in stored:
                return bool(stored["alias_generator"])
            found = _own_alias_generator(cls)
            if found is not None:
                return found
        return False

    def number(self, info: TypeInfo) -> bool:
        """Whether a Message class numbers its record arrays (``number=True``)."""
        return self.class_flag(info, "number")

    def class_flag(self, info: TypeInfo, keyword: str) -> bool:
        """A boolean class keyword (``number=``, ``array_like=``), inherited as usual."""
        for cls in info.mro:
            expr = cls.defn.keywords.get(keyword)
            if expr is not None and _has_body(cls):
                return self.api.parse_bool(expr) is True
            stored = cls.metadata.get(_METADATA_KEY)
            if stored is not None and keyword in stored:
                return bool(stored[keyword])
        return False

    # -- fields -------------------------------------------------------------------------

    def own_fields(self, info: TypeInfo) -> list[_Field]:
        """The fields *info* declares itself, in declaration order."""
        flavour = _flavour(info)
        if _has_body(info):
            return self._fields_from_body(info, flavour)
        return self._fields_from_cache(info)

    def all_fields(self, info: TypeInfo) -> list[_Field]:
        """Every field of *info*, inherited ones first, as the model libraries order them."""
        merged: dict[str, _Field] = {}
        for cls in reversed(info.mro):
            if cls.fullname in _FRAMEWORK_CLASSES or _flavour(cls) is None:
                continue
            for field in self.own_fields(cls):
                merged[field.name] = field
        return list(merged.values())

    def _fields_from_body(self, info: TypeInfo, flavour: _Flavour | None) -> list[_Field]:
        rename = self.rename(info) if flavour == "msgspec" else None
        generator = self.alias_generator(info) if flavour == "pydantic" else False
        path = self._path(info)
        fields: list[_Field] = []
        for stmt in info.defn.defs.body:
            if not isinstance(stmt, AssignmentStmt) or not stmt.new_syntax:
                continue
            if len(stmt.lvalues) != 1 or not isinstance(stmt.lvalues[0], NameExpr):
                continue
            name = stmt.lvalues[0].name
            if name.startswith(_private_prefix(flavour)):
                continue
            sym = info.names.get(name)
            node = sym.node if sym is not None else None
            if not isinstance(node, Var) or node.is_classvar:
                continue
            typ = node.type if node.type is not None else stmt.type
            if typ is None or has_placeholder(typ):
                self.incomplete()
            if flavour == "pydantic" and _excluded(stmt):
                continue  # Field(exclude=True): never written
            explicit = _explicit_wire_name(stmt, flavour)
            if explicit is None and flavour == "pydantic" and path is not None:
                explicit = self.annotated.alias(path, stmt.line, name)
            if explicit is not None:
                wire = None if explicit == _DYNAMIC else explicit
            elif flavour == "msgspec":
                wire = None if rename == _DYNAMIC else rename_field(name, rename)
            elif generator:
                wire = None
            else:
                wire = name
            fields.append(_Field(name, wire, typ, info, stmt))
        return fields

    def _fields_from_cache(self, info: TypeInfo) -> list[_Field]:
        stored = info.metadata.get(_METADATA_KEY)
        pairs: list[tuple[str, object]]
        if stored is not None and "fields" in stored:
            pairs = [(str(name), wire) for name, wire in stored["fields"]]
        elif "dataclass" in info.metadata:
            # mypy's dataclass_transform support records every field in order, and the
            # literal ``alias=`` of Pydantic's Field (msgspec's ``name=`` is not kept).
            attributes = info.metadata["dataclass"].get("attributes", [])
            pairs = [(str(a["name"]), a.get("alias") or a["name"]) for a in attributes]
        else:
            pairs = [
                (name, name)
                for name, sym in info.names.items()
                if isinstance(sym.node, Var) and not sym.node.is_classvar
            ]
        private = _private_prefix(_flavour(info))
        fields: list[_Field] = []
        for name, wire in pairs:
            if name.startswith(private):
                continue
            sym = info.names.get(name)
            typ = sym.node.type if sym is not None and isinstance(sym.node, Var) else None
            fields.append(
                _Field(name, wire if isinstance(wire, str) else None, typ, info, info.defn)
            )
        return fields

    def _path(self, info: TypeInfo) -> str | None:
        module = self.api.modules.get(info.module_name)
        return module.path if module is not None and module.path else None


_ANNOTATED: Final = _AnnotatedAliases()


def _private_prefix(flavour: _Flavour | None) -> str:
    """Names with this prefix are not fields (Pydantic: private attributes)."""
    return "_" if flavour == "pydantic" else "__"


def _explicit_wire_name(stmt: AssignmentStmt, flavour: _Flavour | None) -> str | None:
    """The wire name a field's default expression sets: a literal, ``_DYNAMIC`` or None."""
    call = stmt.rvalue
    if not isinstance(call, CallExpr):
        return None
    callee = _callee(call)
    if flavour == "pydantic" and callee == _PYDANTIC_FIELD:
        for key in ("serialization_alias", "alias"):
            expr = _keyword(call, key)
            if expr is not None and not _is_none(expr):
                return _literal_name(expr)
    elif flavour == "msgspec" and callee == _MSGSPEC_FIELD:
        expr = _keyword(call, "name")
        if expr is not None and not _is_none(expr):
            return _literal_name(expr)
    return None


def _excluded(stmt: AssignmentStmt) -> bool:
    """Whether a Pydantic field is declared with ``Field(exclude=True)``."""
    call = stmt.rvalue
    if not isinstance(call, CallExpr) or _callee(call) != _PYDANTIC_FIELD:
        return False
    expr = _keyword(call, "exclude")
    return isinstance(expr, NameExpr) and expr.fullname == "builtins.True"


def _parse_rename(expr: Expression) -> _Rename:
    if _is_none(expr):
        return None
    if isinstance(expr, StrExpr) and expr.value in _RENAME_MODES:
        return expr.value
    if isinstance(expr, DictExpr):
        mapping: dict[str, str | None] = {}
        for key, value in expr.items:
            if not isinstance(key, StrExpr):
                return _DYNAMIC
            if isinstance(value, StrExpr):
                mapping[key.value] = value.value
            elif _is_none(value):
                mapping[key.value] = None
            else:
                return _DYNAMIC
        return mapping
    return _DYNAMIC


def _own_alias_generator(info: TypeInfo) -> bool | None:
    """Whether *info* itself sets a Pydantic alias generator (None: says nothing)."""
    expr = info.defn.keywords.get("alias_generator")
    if expr is not None:
        return not _is_none(expr)
    for stmt in info.defn.defs.body:
        if (
            isinstance(stmt, AssignmentStmt)
            and len(stmt.lvalues) == 1
            and isinstance(stmt.lvalues[0], NameExpr)
            and stmt.lvalues[0].name == "model_config"
        ):
            config = stmt.rvalue
            if isinstance(config, CallExpr):
                value = _keyword(config, "alias_generator")
                return value is not None and not _is_none(value)
            if isinstance(config, DictExpr):
                for key, value in config.items:
                    if isinstance(key, StrExpr) and key.value == "alias_generator":
                        return not _is_none(value)
                return False
    return None


# --------------------------------------------------------------------------------------
# Types.
# --------------------------------------------------------------------------------------


def _arms(typ: Type) -> list[ProperType]:
    """The members of a field's type (itself when it is no union), ``None`` left out."""
    proper = get_proper_type(typ)
    items = flatten_nested_unions([proper]) if isinstance(proper, UnionType) else [proper]
    arms = [get_proper_type(item) for item in items]
    return [arm for arm in arms if not isinstance(arm, NoneType)]


def _array_element(typ: ProperType) -> list[Type] | None:
    """The element types of an array-like type, or ``None`` when it is not one."""
    if isinstance(typ, TupleType):
        return list(typ.items)
    if isinstance(typ, Instance) and not _is_mapping(typ) and not _is_leaf(typ.type):
        for base in typ.type.mro:
            if base.fullname in ARRAY_TYPES:
                mapped = map_instance_to_supertype(typ, base)
                if mapped.args:
                    return [mapped.args[0]]
                return [AnyType(TypeOfAny.implementation_artifact)]
    return None


def _is_leaf(
    info: TypeInfo, flavour: str | None = None, extra: frozenset[str] = frozenset()
) -> bool:
    """Whether instances of *info* are single cells (``str`` is no array of characters)."""
    names = SCALAR_TYPES | FLAVOUR_SCALAR_TYPES.get(flavour or "", frozenset()) | extra
    prefixes = FLAVOUR_SCALAR_PREFIXES.get(flavour or "", ())
    if flavour is None:  # any flavour's leaves
        names = names.union(*FLAVOUR_SCALAR_TYPES.values())
    return any(
        base.fullname in names or (prefixes and base.fullname.startswith(prefixes))
        for base in info.mro
    )


def _is_mapping(typ: ProperType) -> bool:
    if isinstance(typ, TypedDictType):
        return True
    return isinstance(typ, Instance) and any(b.fullname in _MAPPING_TYPES for b in typ.type.mro)


@dataclass(frozen=True)
class _Issue:
    """One diagnostic, held back until the whole class is checked."""

    message: str
    context: Context
    code: ErrorCode
    field: str | None  # the field it concerns; None for the class as a whole


_ROOT_MODEL: Final = "pydantic.root_model.RootModel"


def _is_base_class(info: TypeInfo) -> bool:
    """Whether *info* is a model base class (no fields; it stands for its subclasses)."""
    return info.fullname in rule_table.BASE_CLASS_NAMES


class _Checker:
    """Checks one ESON model class and reports through the semantic analyser.

    The rules are checked in :data:`CHECK_ORDER`, the order of the run-time check, and
    a field gets at most one diagnostic: the first rule it breaks in that order.  So
    the first of a class's codes in that order is the one the runtime raises.
    """

    def __init__(self, ctx: ClassDefContext, extra_types: frozenset[str]) -> None:
        self.ctx = ctx
        self.api = ctx.api
        self.info = ctx.cls.info
        self.reader = _FieldReader(ctx.api, ctx.api.final_iteration)
        self.extra_types = extra_types
        kind = eson_kind(self.info)
        self.flavour: _Flavour | None = kind[0] if kind is not None else None
        self.issues: list[_Issue] = []

    def run(self) -> None:
        kind = eson_kind(self.info)
        if kind is None:
            return
        flavour, model_kind = kind
        try:
            own = self.reader.own_fields(self.info)
            everything = self.reader.all_fields(self.info)
            self._remember(own, flavour)
            self._check_duplicates(everything, flavour)
            if flavour == "msgspec" and self.reader.class_flag(self.info, "array_like"):
                # No layout at all: the runtime refuses the class before its fields.
                self._report(
                    rule_table.no_layout(self.info.name, "array_like"),
                    self.ctx.cls,
                    UNSUPPORTED_TYPE,
                    None,
                )
            else:
                self._check_wire_names(everything, flavour)
                for field in own:
                    if model_kind == "message":
                        self._check_record_array(field)
                    self._check_supported(field)
                if model_kind == "record":
                    self._check_first_field(everything)
                else:
                    self._check_rows(everything, self.reader.number(self.info))
        except _IncompleteError:
            self.api.defer()
            return
        self._emit()

    # -- bookkeeping ----------------------------------------------------------------------

    def _remember(self, own: list[_Field], flavour: _Flavour) -> None:
        """Store what subclasses in other modules need (survives the incremental cache)."""
        data: dict[str, Any] = {"fields": [[f.name, f.wire] for f in own]}
        if flavour == "msgspec":
            data["rename"] = self.reader.rename(self.info)
            data["array_like"] = self.reader.class_flag(self.info, "array_like")
        if flavour == "pydantic":
            data["alias_generator"] = self.reader.alias_generator(self.info)
        if eson_kind(self.info) == (flavour, "message"):
            data["number"] = self.reader.number(self.info)
        self.info.metadata[_METADATA_KEY] = data

    def _report(
        self, message: str, context: Context, code: ErrorCode, field: _Field | None
    ) -> None:
        """Hold one diagnostic back; ``message`` is the rule table's (made a sentence here)."""
        self.issues.append(
            _Issue(capitalized(message), context, code, None if field is None else field.name)
        )

    def _emit(self) -> None:
        """Report the issues found: all of the class's, the first in order of each field's."""
        first: dict[str, _Issue] = {}
        for issue in self.issues:
            if issue.field is None:
                continue
            best = first.get(issue.field)
            if best is None or _rank(issue.code) < _rank(best.code):
                first[issue.field] = issue
        for issue in self.issues:
            if issue.field is None or first[issue.field] is issue:
                self.api.fail(issue.message, issue.context, code=issue.code)

    def _where(self, field: _Field) -> Context:
        """Report at the field's own line, or at the class for inherited fields."""
        return field.context if field.owner is self.info else self.ctx.cls

    def _fmt(self, typ: Type) -> str:
        return format_type_bare(typ, self.api.options)

    # -- rules 2 and 4: names -------------------------------------------------------------

    def _check_wire_names(self, fields: list[_Field], flavour: _Flavour) -> None:
        for field in fields:
            if field.wire is None or field.owner is not self.info or is_eson_name(field.wire):
                continue
            self._report(
                rule_table.wire_name(field.name, field.wire, flavour),
                field.context,
                WIRE_NAME,
                field,
            )

    def _check_duplicates(self, fields: list[_Field], flavour: _Flavour) -> None:
        seen: dict[str, _Field] = {}
        for field in fields:
            if field.wire is None:
                continue
            first = seen.get(field.wire)
            if first is None:
                seen[field.wire] = field
            elif field.owner is self.info or first.owner is self.info:
                later = field if field.owner is self.info else first
                other = first if later is field else field
                self._report(
                    rule_table.duplicate_name(later.name, field.wire, other.name, flavour),
                    self._where(later),
                    DUPLICATE_NAME,
                    later,
                )

    # -- rule 3: the reserved "n" ------------------------------------------------------------

    def _check_first_field(self, fields: list[_Field]) -> None:
        if not fields or fields[0].wire != "n":
            return
        first = fields[0]
        owner_kind = eson_kind(first.owner)
        if first.owner is not self.info and owner_kind is not None and owner_kind[1] == "record":
            return  # reported where the inherited field is declared
        self._report(
            rule_table.reserved_n_first(self.info.name, rule_table.first_n(first.name)),
            self._where(first),
            RESERVED_N,
            first,
        )

    def _check_rows(self, fields: list[_Field], numbered: bool) -> None:
        """Rule 3 for the record types of a Message's record arrays."""
        for field in fields:
            if field.type is None:
                continue
            if field.owner is not self.info and self.reader.number(field.owner) == numbered:
                continue  # reported where the inherited field is declared
            record = self._record_array_element(field.type)
            if record is None:
                continue
            record_fields = self.reader.all_fields(record.type)
            wires = [f.wire for f in record_fields]
            leading_n = bool(wires) and wires[0] == "n"
            if leading_n and eson_kind(record.type) is not None:
                continue  # an ESON Record with a leading n is reported where it is defined
            if numbered and "n" in wires:
                clash = record_fields[wires.index("n")]
                self._report(
                    rule_table.reserved_n_numbered(
                        field.name, record.type.name, rule_table.field_ref(clash.name, clash.wire)
                    ),
                    self._where(field),
                    RESERVED_N,
                    field,
                )
            elif leading_n:
                self._report(
                    rule_table.reserved_n_rows(
                        field.name, record.type.name, rule_table.first_n(record_fields[0].name)
                    ),
                    self._where(field),
                    RESERVED_N,
                    field,
                )

    def _record_array_element(self, typ: Type) -> Instance | None:
        """The record type of a field that is a record array (``None`` if it is not one)."""
        arms = _arms(typ)
        elements: list[Type] = []
        for arm in arms:
            found = _array_element(arm)
            if found is None:
                return None  # not an array, or an array sharing its field with other types
            elements.extend(found)
        return self._row_type(elements) if arms else None

    # -- rule 1: one schema per record array ------------------------------------------------
    #
    # This mirrors the run-time rule (eson._internal.schema.rules.check_record_array and the
    # union handling of eson._internal.schema.compile): the arrays of a field, None aside, are one
    # array whose element type is the union of theirs; that element type must be one
    # record type or never a record, and a record array has its field to itself.

    def _check_record_array(self, field: _Field) -> None:
        """Report a record array without one concrete record type."""
        if field.type is None:
            return
        arms = _arms(field.type)
        arrays = [elements for arm in arms if (elements := _array_element(arm)) is not None]
        if not arrays:
            return
        elements = [element for found in arrays for element in found]
        hint = self._element_problem(elements, 0)
        if hint is None and len(arrays) < len(arms) and self._row_type(elements) is not None:
            hint = Hint.SHARED  # list[A] | A, list[A] | int ...
        if hint is None:
            return
        self._report(
            rule_table.record_array(field.name, self._fmt(field.type), hint),
            field.context,
            RECORD_ARRAY,
            field,
        )

    def _row_type(self, elements: list[Type]) -> Instance | None:
        """The record type when *elements* are all one record type, else ``None``."""
        items = self._distinct(elements)
        if len(items) == 1 and isinstance(items[0], Instance) and self._is_row(items[0]):
            return items[0]
        return None

    def _distinct(self, elements: Iterable[Type]) -> list[ProperType]:
        """The element types as one flat union: nested unions opened, duplicates dropped."""
        found: dict[str, ProperType] = {}
        for element in elements:
            proper = get_proper_type(element)
            if isinstance(proper, UnionType):
                for item in self._distinct(proper.items):
                    found.setdefault(self._fmt(item), item)
            else:
                found.setdefault(self._fmt(proper), proper)
        return list(found.values())

    def _shape(self, typ: Instance) -> str | None:
        """How instances of a model class are written: "record", "array", "other" or None."""
        info = typ.type
        if not _is_model(info):
            return None
        if _flavour(info) == "msgspec" and self.reader.class_flag(info, "array_like"):
            return "array"
        if any(base.fullname == _ROOT_MODEL for base in info.mro):
            return "other"
        return "record"

    def _is_row(self, typ: ProperType) -> bool:
        return (
            isinstance(typ, Instance)
            and not _is_base_class(typ.type)
            and self._shape(typ) == "record"
        )

    def _element_problem(self, elements: list[Type], depth: int) -> str | None:
        """Why array elements are not one concrete record type (None: they are fine)."""
        items = self._distinct(elements)
        if not items or depth > _MAX_DEPTH:
            return None
        if len(items) == 1:
            return None if self._is_row(items[0]) else self._may_be_object(items[0], depth)
        problems = [(item, self._may_be_object(item, depth)) for item in items]
        for item, problem in problems:
            if problem is not None and isinstance(item, TypeVarLikeType):
                return problem
        if any(self._is_row(item) for item in items):
            if len(items) == 2 and any(isinstance(item, NoneType) for item in items):
                return Hint.NULL_ROWS
            return Hint.SPLIT
        return next((problem for _, problem in problems if problem is not None), None)

    def _may_be_object(self, typ: ProperType, depth: int) -> str | None:
        """Why values of *typ* (no union) may be JSON objects, else ``None``."""
        if isinstance(typ, AnyType) or _is_mapping(typ):
            return Hint.DECLARE
        if isinstance(typ, TypeVarType):
            stands_for = list(typ.values) or [typ.upper_bound]
            if self._element_problem(stands_for, depth + 1) is None and (
                self._row_type(stands_for) is None
            ):
                return None  # bound to (or constrained to) types that are never records
            return self._type_var_hint(typ)
        if isinstance(typ, TypeVarLikeType):
            return Hint.type_var(typ.name, None, ())
        if not isinstance(typ, Instance):
            return None
        if typ.type.fullname == "builtins.object":
            return Hint.DECLARE
        if _is_base_class(typ.type):
            return Hint.base_class(typ.type.name)
        shape = self._shape(typ)
        if shape == "record":
            return Hint.SPLIT  # a record type among other types
        if shape == "other":
            return Hint.DECLARE
        if typ.type.is_protocol:
            return Hint.PROTOCOL
        return None

    def _type_var_hint(self, typ: TypeVarType) -> str:
        bound = get_proper_type(typ.upper_bound)
        unbound = isinstance(bound, Instance) and bound.type.fullname == "builtins.object"
        return Hint.type_var(
            typ.name,
            None if unbound or typ.values else self._fmt(typ.upper_bound),
            [self._fmt(value) for value in typ.values],
        )

    # -- rule 5: encodable types --------------------------------------------------------------

    def _check_supported(self, field: _Field) -> None:
        if field.type is None:
            return
        problem = self._unsupported(field.type, frozenset(), 0)
        if problem is None:
            return
        whole = self._fmt(field.type)
        if problem.path:
            dotted = ".".join([problem.path[0][1]] + [name for name, _ in problem.path])
            message = rule_table.unsupported_nested(
                field.name, whole, dotted, problem.part, problem.what
            )
        else:
            message = rule_table.unsupported(field.name, whole, problem.part, problem.what)
        self._report(
            message,
            field.context,
            UNSUPPORTED_TYPE,
            field,
        )

    def _unsupported(self, typ: Type, seen: frozenset[str], depth: int) -> _Unsupported | None:
        """The first part of *typ* that has no cell codec, or ``None``."""
        if depth > _MAX_DEPTH:
            return None
        proper = get_proper_type(typ)
        if isinstance(proper, UnboundType):
            self.reader.incomplete()
            return None
        if isinstance(proper, TypeVarType):  # as the runtime: what the variable stands for
            if proper.values:
                return self._first_unsupported(proper.values, seen, depth)
            return self._unsupported(proper.upper_bound, seen, depth + 1)
        if isinstance(proper, (AnyType, NoneType, LiteralType, TypeVarLikeType)):
            return None
        if isinstance(proper, (UnionType, TupleType)):
            return self._first_unsupported(proper.items, seen, depth)
        if isinstance(proper, TypedDictType):
            return self._first_unsupported(proper.items.values(), seen, depth)
        if isinstance(proper, (CallableType, Overloaded)):
            return _Unsupported(self._fmt(proper), Why.CALLABLE)
        if isinstance(proper, TypeType):
            return _Unsupported(self._fmt(proper), Why.CLASS_OBJECT)
        if isinstance(proper, Instance):
            return self._unsupported_instance(proper, seen, depth)
        return None

    def _first_unsupported(
        self, items: Iterable[Type], seen: frozenset[str], depth: int
    ) -> _Unsupported | None:
        for item in items:
            found = self._unsupported(item, seen, depth + 1)
            if found is not None:
                return found
        return None

    def _unsupported_instance(
        self, typ: Instance, seen: frozenset[str], depth: int
    ) -> _Unsupported | None:
        info = typ.type
        if info.is_enum or info.fullname == "builtins.object":
            return None
        if _is_leaf(info, self.flavour, self.extra_types):
            return None
        if _is_base_class(info):
            return _Unsupported(self._fmt(typ), Why.BASE_CLASS)
        for base in info.mro:
            if base.fullname in CONTAINER_TYPES:
                mapped = map_instance_to_supertype(typ, base)
                return self._first_unsupported(mapped.args, seen, depth)
        if _is_model(info):
            return self._unsupported_in_model(typ, seen, depth)
        what = Why.PROTOCOL if info.is_protocol else Why.NO_CODEC
        return _Unsupported(self._fmt(typ), what)

    def _unsupported_in_model(
        self, typ: Instance, seen: frozenset[str], depth: int
    ) -> _Unsupported | None:
        """Look inside a nested model that no ESON base class checks itself."""
        info = typ.type
        if info.fullname in seen:
            return None
        if eson_kind(info) is not None and not typ.args:
            return None  # checked where it is defined; a parametrisation is checked here
        for field in self.reader.all_fields(info):
            if field.type is None:
                continue
            field_type = expand_type_by_instance(field.type, typ)
            found = self._unsupported(field_type, seen | {info.fullname}, depth + 1)
            if found is not None:
                return _Unsupported(found.part, found.what, ((field.name, info.name), *found.path))
        return None


@dataclass(frozen=True)
class _Unsupported:
    """Where a type has no codec: the part's text, what it is, and the fields leading there."""

    part: str
    what: str
    path: tuple[tuple[str, str], ...] = ()


# --------------------------------------------------------------------------------------
# The plugin.
# --------------------------------------------------------------------------------------


def _load_extra_types(options: Options) -> frozenset[str]:
    """Read ``extra_supported_types`` from the ``eson-mypy`` section of the mypy config."""
    path = options.config_file
    if not path:
        return frozenset()
    values: list[str] = []
    try:
        if path.endswith(".toml"):
            with open(path, "rb") as handle:
                section = tomllib.load(handle).get("tool", {}).get("eson-mypy", {})
            raw = section.get("extra_supported_types", section.get("extra-supported-types", []))
            values = [raw] if isinstance(raw, str) else [str(v) for v in raw]
        else:
            parser = configparser.ConfigParser()
            parser.read(path, encoding="utf-8")
            if parser.has_section("eson-mypy"):
                values = [parser.get("eson-mypy", "extra_supported_types", fallback="")]
    except (OSError, ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return frozenset()
    return frozenset(name.strip() for value in values for name in value.split(",") if name.strip())


class ESONPlugin(Plugin):
    """mypy plugin for typed-eson; see the module docstring for what it reports."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.extra_types: frozenset[str] = _load_extra_types(options)

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        """Claim class definitions whose base derives from an ESON model base."""
        if self._is_eson_class(fullname):
            return partial(self._check_class, fullname)
        return None

    def get_customize_class_mro_hook(
        self, fullname: str
    ) -> Callable[[ClassDefContext], None] | None:
        """Move this plugin ahead of others that would claim ESON classes first.

        mypy asks plugins for a base-class hook in configuration order and uses only the
        first answer; ``pydantic.mypy`` answers for every ``BaseModel`` subclass.  This
        hook runs just before the base-class hooks of the same class, so it can make
        ``plugins = ["pydantic.mypy", "eson.mypy"]`` behave like the opposite order.
        """
        if self._is_eson_class(fullname):
            return partial(self._put_first, fullname)
        return None

    def _is_eson_class(self, fullname: str) -> bool:
        sym = self.lookup_fully_qualified(fullname)
        return (
            sym is not None and isinstance(sym.node, TypeInfo) and eson_kind(sym.node) is not None
        )

    def _others(self, api: SemanticAnalyzerPluginInterface) -> Iterator[Plugin]:
        chain = getattr(api, "plugin", None)
        for other in getattr(chain, "_plugins", ()):
            if other is not self and isinstance(other, Plugin):
                yield other

    def _put_first(self, fullname: str, ctx: ClassDefContext) -> None:
        chain = getattr(ctx.api, "plugin", None)
        plugins = getattr(chain, "_plugins", None)
        if isinstance(plugins, list) and self in plugins and plugins[0] is not self:
            plugins.remove(self)
            plugins.insert(0, self)
        for other in self._others(ctx.api):
            hook = other.get_customize_class_mro_hook(fullname)
            if hook is not None:
                hook(ctx)
                break

    def _check_class(self, fullname: str, ctx: ClassDefContext) -> None:
        _Checker(ctx, self.extra_types).run()
        # mypy uses the first plugin that claims a base class; pass the class on to the
        # next one (pydantic.mypy, typically) so that its own hook still runs.
        for other in self._others(ctx.api):
            hook = other.get_base_class_hook(fullname)
            if hook is not None:
                hook(ctx)
                break


def plugin(version: str) -> type[Plugin]:
    """Entry point mypy calls to load the plugin (``plugins = ["eson.mypy"]``)."""
    del version  # the plugin API used here is stable across mypy 1.10+ and 2.x
    return ESONPlugin
