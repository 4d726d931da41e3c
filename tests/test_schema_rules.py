"""Every schema rule rejects at class definition (or first compile) with its code."""

# No "from __future__ import annotations": the classes below are defined inside
# test functions, and msgspec resolves annotations in module scope only.
import dataclasses
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

import msgspec
import pydantic
import pytest
from pydantic import Field, PlainSerializer, RootModel

import eson
import eson.msgspec as em
from eson._internal.schema import RULES, document_schema, record_schema
from eson._internal.schema.binding import FieldSpec
from eson._internal.schema.rules import (
    check_duplicate_names,
    check_record_array,
    check_reserved_n,
    check_supported_type,
    check_wire_name,
)


def rejects(code: str, *names: str) -> Any:
    """Expect a TypeError naming the class, the field and the rule code."""
    pattern = ".*".join([*names, rf"\[{code}\]"])
    return pytest.raises(TypeError, match=pattern)


class PRow(eson.Record):
    a: int


class POther(eson.Record):
    b: str


class MRow(em.Record):
    a: int


class MOther(em.Record):
    b: str


class Opaque:
    """An arbitrary class no framework can write as JSON."""


def test_rule_codes_are_documented() -> None:
    assert set(RULES) == {
        "eson-record-array",
        "eson-wire-name",
        "eson-reserved-n",
        "eson-duplicate-name",
        "eson-unsupported-type",
    }


# -- eson-record-array -------------------------------------------------------------------


@pytest.mark.parametrize(
    "annotation",
    [list[PRow | POther], list[Any], list[dict[str, int]], list[PRow | None], list[int | PRow], list[object], tuple[PRow, POther]],
    ids=["union", "any", "dict", "optional", "mixed", "object", "tuple"],
)
def test_pydantic_record_array_needs_one_concrete_type(annotation: Any) -> None:
    with rejects("eson-record-array", "Bad.items"):

        class Bad(eson.Message):
            items: annotation  # type: ignore[valid-type]


@pytest.mark.parametrize(
    "annotation",
    [list[MRow | MOther], list[Any], list[dict[str, int]], list[MRow | None], list[int | MRow]],
    ids=["union", "any", "dict", "optional", "mixed"],
)
def test_msgspec_record_array_needs_one_concrete_type(annotation: Any) -> None:
    with rejects("eson-record-array", "Bad.items"):

        class Bad(em.Message):
            items: annotation  # type: ignore[valid-type]


def test_record_array_rule_applies_to_plain_models_on_first_use() -> None:
    class Plain(pydantic.BaseModel):
        items: list[dict[str, int]]

    with rejects("eson-record-array", "Plain.items"):
        eson.encode(Plain(items=[]))
    with rejects("eson-record-array", "Plain.items"):
        eson.Decoder(Plain)


def test_record_array_rule_allows_never_record_elements() -> None:
    class Fine(eson.Message):
        ints: list[int]
        nested: list[list[dict[str, int]]]
        literals: list[Literal["a", "b"] | None]
        rows: list[PRow]
        fixed: tuple[PRow, PRow]
        serialized: list[Annotated[PRow, PlainSerializer(lambda row: row.a, return_type=int)]]

    kinds = {item.wire: item.entry.value for item in document_schema(Fine).fields if item.entry}
    assert kinds == {
        "ints": "scalar_array",
        "nested": "scalar_array",
        "literals": "scalar_array",
        "rows": "record_array",
        "fixed": "record_array",
        "serialized": "scalar_array",
    }


def test_serializer_without_return_type_is_ambiguous_in_a_list() -> None:
    with rejects("eson-record-array", "Bad.items", "custom serializer"):

        class Bad(eson.Message):
            items: list[Annotated[int, PlainSerializer(lambda value: {"v": value})]]


def test_lists_inside_record_rows_are_json_cells_not_record_arrays() -> None:
    class Row(eson.Record):
        anything: list[Any]
        mixed: list[PRow | POther]

    assert [item.cell.structured for item in record_schema(Row).fields] == [True, True]


# -- eson-wire-name ------------------------------------------------------------------------


@pytest.mark.parametrize("alias", ["has space", "1leading", "caf\u00e9", "", "a/b", "x=y"])
def test_pydantic_alias_outside_name_production(alias: str) -> None:
    with rejects("eson-wire-name", "Bad.value", re.escape(f'"{alias}"')):

        class Bad(eson.Message):
            value: int = Field(alias=alias)


def test_pydantic_serialization_alias_is_the_wire_name() -> None:
    with rejects("eson-wire-name", "Bad.value"):

        class Bad(eson.Record):
            value: int = Field(serialization_alias="no good")


def test_msgspec_rename_outside_name_production() -> None:
    with rejects("eson-wire-name", "Bad.value"):

        class Bad(em.Message):
            value: int = msgspec.field(name="no good")


def test_msgspec_rename_option_is_applied() -> None:
    with rejects("eson-wire-name", "Bad.value"):

        class Bad(em.Record, rename={"value": "9lives"}):
            value: int


def test_wire_names_of_record_fields_are_checked_through_the_message() -> None:
    class Row(pydantic.BaseModel):
        value: int = Field(alias="not ok")

    with rejects("eson-wire-name", "Row.value"):

        class Bad(eson.Message):
            rows: list[Row]


def test_valid_names_pass() -> None:
    check_wire_name(PRow, "a", "from")
    check_wire_name(PRow, "a", "_x.y-z9")


# -- eson-reserved-n -----------------------------------------------------------------------


def test_pydantic_record_with_first_field_n() -> None:
    with rejects("eson-reserved-n", "Bad.n", "first field"):

        class Bad(eson.Record):
            n: int
            x: str


def test_msgspec_record_with_first_field_n() -> None:
    with rejects("eson-reserved-n", "Bad.n"):

        class Bad(em.Record):
            n: int
            x: str


def test_alias_n_counts_as_n() -> None:
    with rejects("eson-reserved-n", "Bad"):

        class Bad(eson.Record):
            number: int = Field(alias="n")


def test_plain_model_with_first_field_n_cannot_be_a_record_array() -> None:
    class Row(pydantic.BaseModel):
        n: int

    with rejects("eson-reserved-n", "Bad.rows", "Row"):

        class Bad(eson.Message):
            rows: list[Row]


def test_first_field_n_is_fine_for_a_single_record() -> None:
    class Meta(pydantic.BaseModel):
        n: int

    class Fine(eson.Message):
        meta: Meta

    assert eson.decode(Fine(meta=Meta(n=5)).to_eson(), type=Fine).meta.n == 5


@pytest.mark.parametrize("flavour", ["pydantic", "msgspec"])
def test_numbered_message_rejects_records_with_any_n_field(flavour: str) -> None:
    if flavour == "pydantic":

        class PRowN(eson.Record):
            x: int
            n: int

        with rejects("eson-reserved-n", "Bad.rows", "number=True"):

            class Bad(eson.Message, number=True):
                rows: list[PRowN]

    else:

        class MRowN(em.Record):
            x: int
            n: int

        with rejects("eson-reserved-n", "BadM.rows", "number=True"):

            class BadM(em.Message, number=True):
                rows: list[MRowN]


def test_n_after_the_first_field_is_data_when_not_numbered() -> None:
    class Row(eson.Record):
        x: int
        n: int

    class Fine(eson.Message):
        rows: list[Row]

    doc = Fine(rows=[Row(x=1, n=9)])
    assert doc.to_eson() == "!eson/1\nrows[1]{x,n}\n1\t9\n"
    assert Fine.from_eson(doc.to_eson()) == doc


# -- eson-duplicate-name --------------------------------------------------------------------


def test_pydantic_alias_collision() -> None:
    with rejects("eson-duplicate-name", "Bad.b", '"b"', '"a"'):

        class Bad(eson.Message):
            a: int = Field(alias="b")
            b: int


def test_pydantic_computed_field_collision() -> None:
    with rejects("eson-duplicate-name", "Bad.total"):

        class Bad(eson.Record):
            a: int = Field(alias="total")

            @pydantic.computed_field  # type: ignore[prop-decorator]
            @property
            def total(self) -> int:
                return 1


def test_msgspec_rename_collision() -> None:
    # msgspec refuses duplicate encoded names while creating the class; the base
    # classes turn its ValueError into the rule's TypeError, chained to it.
    with rejects("eson-duplicate-name", "Bad.b", '"b"', '"a"') as raised:

        class Bad(em.Message):
            a: int = msgspec.field(name="b")
            b: int = 0

    assert isinstance(raised.value.__cause__, ValueError)
    assert "same name" in str(raised.value.__cause__)


@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("class Bad(em.Record, rename='lower'):\n    Name: str\n    name: str", ("Bad.name", '"Name"')),
        (
            "class Base(em.Record, rename='upper'):\n    code: int\n"
            "class Bad(Base):\n    CODE: int = 0",
            ("Bad.CODE", '"CODE"', '"code"'),
        ),
        (
            "class Base(em.Message):\n    id: int\n"
            "class Bad(Base):\n    other: int = msgspec.field(name='id')",
            ("Bad.other", '"id"'),
        ),
    ],
    ids=["rename", "inherited-rename", "inherited-field"],
)
def test_msgspec_duplicate_names_name_class_and_field(source: str, names: tuple[str, ...]) -> None:
    with rejects("eson-duplicate-name", *names):
        exec(source, {"em": em, "msgspec": msgspec})


def test_msgspec_duplicate_names_through_a_plain_struct_base() -> None:
    # A plain Struct does not record its rename=: the class is still named.
    class Plain(msgspec.Struct, rename="upper"):
        code: int

    with rejects("eson-duplicate-name", "Bad:", "share a wire name"):

        class Bad(Plain, em.Record):
            CODE: int = 0


def test_other_msgspec_errors_pass_through() -> None:
    with pytest.raises(TypeError, match="rename"):

        class Bad(em.Record, rename=42):  # type: ignore[call-arg, unused-ignore]
            a: int


def test_plain_model_duplicates_on_first_use() -> None:
    class Plain(pydantic.BaseModel):
        a: int = Field(alias="b")
        b: int

    with rejects("eson-duplicate-name", "Plain.b"):
        eson.Decoder(Plain)


def test_duplicate_rule_function_directly() -> None:
    from eson._internal.schema.binding import FieldSpec

    with rejects("eson-duplicate-name", "PRow.second"):
        check_duplicate_names(PRow, [FieldSpec("first", "x", int), FieldSpec("second", "x", int)])


# -- eson-unsupported-type ------------------------------------------------------------------


def test_pydantic_callable_field() -> None:
    with rejects("eson-unsupported-type", "Bad.hook", "callable"):

        class Bad(eson.Message):
            hook: Callable[[int], int]


def test_pydantic_arbitrary_class() -> None:
    with rejects("eson-unsupported-type", "Bad.thing", "Opaque"):

        class Bad(eson.Message):
            model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
            thing: Opaque


def test_pydantic_arbitrary_class_nested_in_a_cell_model() -> None:
    class Inner(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
        thing: list[Opaque]

    with rejects("eson-unsupported-type", "Bad.rows", "Inner.thing"):

        class Bad(eson.Record):
            rows: list[Inner]


def test_msgspec_arbitrary_class_and_callable() -> None:
    with rejects("eson-unsupported-type", "Bad.thing", "Opaque"):

        class Bad(em.Message):
            thing: Opaque

    with rejects("eson-unsupported-type", "BadToo.hook", "callable"):

        class BadToo(em.Record):
            hook: dict[str, Callable[[], None]]


def test_root_and_array_like_types_are_no_documents() -> None:
    class Root(RootModel[list[int]]):
        pass

    class Point(msgspec.Struct, array_like=True):
        x: int

    with rejects("eson-unsupported-type", "Root"):
        eson.encode(Root([1]))
    with rejects("eson-unsupported-type", "Point"):
        eson.Decoder(Point)


def test_non_model_types_are_refused() -> None:
    with pytest.raises(TypeError, match="not a model type"):
        eson.decode("!eson/1\n", type=int)
    with pytest.raises(TypeError, match="not a model type"):
        eson.Decoder(dict)


def test_supported_rule_function_directly() -> None:
    from eson._internal.schema.pydantic_binding import PYDANTIC

    check_supported_type(PRow, "a", list[dict[str, tuple[int, ...]]], PYDANTIC)
    with rejects("eson-unsupported-type", "PRow.a"):
        check_supported_type(PRow, "a", list[Opaque], PYDANTIC)


def test_record_array_rule_function_directly() -> None:
    from eson._internal.schema.msgspec_binding import MSGSPEC

    assert check_record_array(MRow, "rows", MRow, MSGSPEC) is MRow
    assert check_record_array(MRow, "rows", int, MSGSPEC) is None
    with rejects("eson-record-array", "MRow.rows"):
        check_record_array(MRow, "rows", dict[str, Any], MSGSPEC)


def test_reserved_n_rule_function_directly() -> None:
    fields = [FieldSpec("a", "a", int), FieldSpec("number", "n", int)]
    check_reserved_n(MRow, "rows", MRow, fields)
    with rejects("eson-reserved-n", "MRow.rows", 'rename field "number" \\(wire name "n"\\)'):
        check_reserved_n(MRow, "rows", MRow, fields, numbered=True)
    with rejects("eson-reserved-n", "MRow.rows", 'first field is "n" \\(the wire name of field "number"\\)'):
        check_reserved_n(MRow, "rows", MRow, fields[::-1])


# -- forward references and options ------------------------------------------------------------


class Later(eson.Message):
    items: "list[LaterRow]"


class LaterRow(eson.Record):
    value: int


class MLater(em.Message):
    items: "list[MLaterRow]"


class MLaterRow(em.Record):
    value: int


def test_forward_references_are_checked_on_first_use() -> None:
    doc = Later(items=[LaterRow(value=1)])
    assert Later.from_eson(doc.to_eson()) == doc
    mdoc = MLater([MLaterRow(1)])
    assert MLater.from_eson(mdoc.to_eson()) == mdoc


def test_number_is_inherited_and_overridable() -> None:
    class Base(eson.Message, number=True):
        rows: list[PRow] = []  # noqa: RUF012 (the framework copies defaults)

    class Child(Base):
        pass

    class Plain(Base, number=False):
        pass

    assert Child(rows=[PRow(a=1)]).to_eson() == "!eson/1\nrows[1]{n,a}\n1\t1\n"
    assert Plain(rows=[PRow(a=1)]).to_eson() == "!eson/1\nrows[1]{a}\n1\n"

    class MBase(em.Message, number=True):
        rows: list[MRow] = []  # noqa: RUF012 (the framework copies defaults)

    class MChild(MBase, frozen=True):
        pass

    assert MChild([MRow(1)]).to_eson() == "!eson/1\nrows[1]{n,a}\n1\t1\n"


def test_number_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match="number must be True or False"):

        class Bad(eson.Message, number="yes"):  # type: ignore[arg-type]
            pass

    with pytest.raises(TypeError, match="number must be True or False"):

        class BadM(em.Message, number=1):  # type: ignore[arg-type]
            pass


def test_records_take_no_number_keyword() -> None:
    with pytest.raises(TypeError):

        class Bad(em.Record, number=True):  # type: ignore[call-arg]
            a: int


def test_dataclass_records_follow_the_rules() -> None:
    @dataclasses.dataclass
    class Row:
        n: int

    class Bad(msgspec.Struct):
        rows: list[Row]

    with rejects("eson-reserved-n", "Bad.rows"):
        eson.Decoder(Bad)


class PNote(eson.Record):
    text: str


def test_union_of_record_arrays_is_one_array() -> None:
    with rejects("eson-record-array", "Bad.items"):

        class Bad(eson.Message):
            items: list[PRow] | list[PNote]

    class Fine(eson.Message):
        same: list[PRow] | tuple[PRow, ...] | None = None
        scalars: list[int] | list[str] = []  # noqa: RUF012 (the framework copies defaults)

    kinds = {item.wire: item.entry.value for item in document_schema(Fine).fields if item.entry}
    assert kinds == {"same": "record_array", "scalars": "scalar_array"}


def test_record_array_cannot_share_its_field() -> None:
    for annotation in (list[PRow] | PRow, PRow | list[PRow] | None, list[PRow] | int):
        with rejects("eson-record-array", "Bad.items", "cannot share its field"):

            class Bad(eson.Message):
                items: annotation  # type: ignore[valid-type]

    for annotation in (list[MRow] | MRow, list[MRow] | str):
        with rejects("eson-record-array", "BadM.items", "cannot share its field"):

            class BadM(em.Message):
                items: annotation  # type: ignore[valid-type]

    class Fine(eson.Message):
        scalars_or_record: list[int] | PRow
        records: list[PRow] | tuple[PRow, ...] | None

    kinds = {item.wire: item.entry.value for item in document_schema(Fine).fields if item.entry}
    assert kinds == {"scalars_or_record": "dynamic", "records": "record_array"}


def test_type_variable_elements_are_not_one_record_type() -> None:
    from typing import Generic, TypeVar

    T = TypeVar("T")
    Row = TypeVar("Row", bound=PRow)
    Either = TypeVar("Either", PRow, POther)

    for element, why in ((T, "unbound"), (Row, 'bound to "PRow"'), (Either, "constrained")):
        with rejects("eson-record-array", "Bad.items", "one concrete record type", why):

            class Bad(eson.Message, Generic[element]):  # type: ignore[misc]
                items: list[element]  # type: ignore[valid-type]

    MT = TypeVar("MT")
    MRowT = TypeVar("MRowT", bound=MRow)
    for element in (MT, MRowT):
        with rejects("eson-record-array", "BadM.items", "type variable"):

            class BadM(em.Message, Generic[element]):  # type: ignore[misc]
                items: list[element]  # type: ignore[valid-type]

    with rejects("eson-record-array", "Nullable.items", 'type variable "T"'):

        class Nullable(eson.Message, Generic[T]):
            items: list[T | None]


def test_type_variables_that_are_never_records_make_scalar_arrays() -> None:
    from typing import Generic, TypeVar

    Text = TypeVar("Text", bound=str)
    Scalar = TypeVar("Scalar", int, str)

    class Fine(eson.Message, Generic[Text, Scalar]):
        labels: list[Text]
        values: list[Scalar]

    kinds = [item.entry.value for item in document_schema(Fine).fields if item.entry]
    assert kinds == ["scalar_array", "scalar_array"]
    doc = Fine[str, int](labels=["a"], values=[1])
    assert Fine[str, int].from_eson(doc.to_eson()) == doc


def test_rule_order_first_broken_rule_wins() -> None:
    from eson._internal.schema.rules import CHECK_ORDER

    assert set(CHECK_ORDER) == set(RULES)
    # record-array before unsupported-type, whatever the field order
    with rejects("eson-record-array", "Bad.items"):

        class Bad(eson.Message):
            hook: Callable[[], None]
            items: list[PRow | POther]

    # duplicate-name before wire-name (msgspec checks duplicates first, so both flavours do)
    with rejects("eson-duplicate-name", "BadNames.c"):

        class BadNames(eson.Record):
            a: int = Field(alias="not ok")
            b: int = Field(alias="dup")
            c: int = Field(alias="dup")

    with rejects("eson-duplicate-name", "BadM.c"):

        class BadM(em.Record):
            a: int = msgspec.field(name="not ok")
            b: int = msgspec.field(name="dup")
            c: int = msgspec.field(name="dup")

    # wire-name before unsupported-type before reserved-n
    with rejects("eson-wire-name", "Worse.x"):

        class Worse(eson.Record):
            model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
            n: Opaque
            x: int = Field(alias="not ok")

    with rejects("eson-unsupported-type", "Worst.n"):

        class Worst(eson.Record):
            model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
            n: Opaque


def test_protocol_elements_are_not_one_record_type() -> None:
    from typing import Protocol, runtime_checkable

    @runtime_checkable
    class HasId(Protocol):
        id: int

    with rejects("eson-record-array", "Bad.items", "protocol"):

        class Bad(eson.Message):
            model_config = pydantic.ConfigDict(arbitrary_types_allowed=True)
            items: list[HasId]


# -- base classes: no field may be declared with one (data would be lost) --------------


@pytest.mark.parametrize(
    ("base", "annotation", "code"),
    [
        (eson.Message, list[eson.Record], "eson-record-array"),
        (eson.Message, list[pydantic.BaseModel], "eson-record-array"),
        (eson.Message, pydantic.BaseModel, "eson-unsupported-type"),
        (eson.Message, dict[str, pydantic.BaseModel], "eson-unsupported-type"),
        (eson.Message, list[list[eson.Record]], "eson-unsupported-type"),
        (em.Message, list[em.Record], "eson-record-array"),
        (em.Message, list[msgspec.Struct], "eson-record-array"),
        (em.Message, msgspec.Struct, "eson-unsupported-type"),
        (em.Message, msgspec.Struct | None, "eson-unsupported-type"),
    ],
)
def test_base_classes_are_rejected_as_field_types(base: type, annotation: Any, code: str) -> None:
    with rejects(code, "Bad.items", "base class with no fields"):
        if base is eson.Message:

            class Bad(eson.Message):
                items: annotation  # type: ignore[valid-type]

        else:

            class Bad(em.Message):  # type: ignore[no-redef]
                items: annotation  # type: ignore[valid-type]


def test_base_classes_are_rejected_in_plain_models_on_first_use() -> None:
    class Child(pydantic.BaseModel):
        a: int

    class Plain(pydantic.BaseModel):
        item: pydantic.BaseModel

    class PlainRows(msgspec.Struct):
        rows: list[msgspec.Struct]

    with rejects("eson-unsupported-type", "Plain.item", "base class"):
        eson.encode(Plain(item=Child(a=1)))
    with rejects("eson-record-array", "PlainRows.rows", "base class"):
        eson.decode("!eson/1\nrows[1]{a}\n1\n", type=PlainRows)
    with rejects("eson-record-array", "PlainRows.rows", "base class"):
        eson.toon.decode("rows[1]{a}:\n  1", type=PlainRows)


@pytest.mark.parametrize("base", [pydantic.BaseModel, msgspec.Struct, eson.Record, em.Message])
def test_a_base_class_is_no_document_type(base: type) -> None:
    with rejects("eson-unsupported-type", "is a base class with no fields of its own"):
        eson.Decoder(base)
    with rejects("eson-unsupported-type", "is a base class with no fields of its own"):
        eson.toon.decode("a: 1", type=base)


def test_records_without_fields_of_their_own_still_round_trip() -> None:
    """A concrete record class without fields is no base class: its rows are empty."""

    class Marker(eson.Record):
        pass

    class MMarker(em.Record):
        pass

    class Doc(eson.Message):
        marks: list[Marker]

    class MDoc(em.Message):
        marks: list[MMarker]

    for cls, row in ((Doc, Marker), (MDoc, MMarker)):
        value = cls(marks=[row(), row()])
        assert eson.encode(value) == "!eson/1\nmarks[2]{}\n\n\n"
        assert eson.decode(eson.encode(value), type=cls) == value


def test_rule_messages_are_bounded_lines() -> None:
    """Echoed names are clipped and escaped like every other message's."""
    for alias in ("x y" * 300_000, "bad\nname", "a\rb\u2028\x00"):
        with pytest.raises(TypeError, match=r"\[eson-wire-name\]") as info:

            class Bad(eson.Message):
                value: int = Field(alias=alias)

        message = str(info.value)
        assert len(message) < 1000 and "\n" not in message and "\r" not in message
        message.encode("utf-8")


def test_the_plugin_and_the_runtime_share_one_table() -> None:
    from eson import mypy as plugin
    from eson._internal.schema import rule_table, rules

    assert rules.CHECK_ORDER is rule_table.CHECK_ORDER is plugin.CHECK_ORDER
    assert rules.RULES is rule_table.RULES
    assert {code.code: code.description for code in plugin.ERROR_CODES} == {
        code: summary[:1].upper() + summary[1:] for code, summary in rule_table.RULES.items()
    }
    assert plugin.is_eson_name("a.b-c_1") and not plugin.is_eson_name("1a")


def test_the_mypy_plugin_names_the_runtime_leaf_types() -> None:
    # One leaf table (eson._internal.schema.annotations.LEAVES) for the TOON shapes, the
    # prompt layouts and examples; the mypy plugin's names are held to it.
    from eson._internal.schema.annotations import LEAVES
    from eson.mypy import FLAVOUR_SCALAR_TYPES, SCALAR_TYPES

    shared = {leaf.fullname for leaf in LEAVES if leaf.cls is not bytearray}
    assert SCALAR_TYPES - {"_decimal.Decimal"} == shared
    assert "builtins.bytearray" in FLAVOUR_SCALAR_TYPES["msgspec"]
    assert "builtins.bytearray" not in FLAVOUR_SCALAR_TYPES["pydantic"]
