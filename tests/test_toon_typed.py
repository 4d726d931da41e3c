"""Typed TOON: the API, what each schema shape becomes, errors and where they point.

The byte-for-byte equivalence with the untyped codec is property-tested in
``test_typed_equivalence`` (for ESON and TOON); these are the hand-written cases.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import contextlib
import dataclasses
import pickle
import threading
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ConfigDict, Field, field_validator

import eson
import eson.msgspec as em
from eson import toon
from eson._internal.codecs import toon_typed
from eson._internal.codecs.toon_decode import MismatchError
from eson._internal.schema import binding_for

# -- a shop, in both flavours ------------------------------------------------------------


class Customer(eson.Record):
    name: str
    country: str


class Line(eson.Record):
    sku: str
    qty: int


class Order(eson.Record):
    id: int
    customer: Customer
    note: str | None = None


class Basket(eson.Record):
    id: int
    lines: list[Line]


class Shop(eson.Message, number=True):
    kind: Literal["shop"] = "shop"
    orders: list[Order]
    baskets: list[Basket] = []  # noqa: RUF012 (the framework copies defaults)
    by_region: dict[str, Customer] = {}  # noqa: RUF012
    tags: list[str] = []  # noqa: RUF012
    owner: Customer | None = None


class MCustomer(em.Record):
    name: str
    country: str


class MLine(em.Record):
    sku: str
    qty: int


class MOrder(em.Record):
    id: int
    customer: MCustomer
    note: str | None = None


class MBasket(em.Record):
    id: int
    lines: list[MLine]


class MShop(em.Message, number=True, kw_only=True):
    kind: Literal["shop"] = "shop"
    orders: list[MOrder]
    baskets: list[MBasket] = []  # noqa: RUF012
    by_region: dict[str, MCustomer] = {}  # noqa: RUF012
    tags: list[str] = []  # noqa: RUF012
    owner: MCustomer | None = None


SHOP = {
    "kind": "shop",
    "orders": [
        {"id": 1, "customer": {"name": "Ada", "country": "UK"}, "note": None},
        {"id": 2, "customer": {"name": "Bob", "country": "FR"}, "note": "gift, wrapped"},
    ],
    "baskets": [
        {"id": 1, "lines": [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}]},
        {"id": 2, "lines": []},
    ],
    "by_region": {
        "north": {"name": "Cy", "country": "NO"},
        "south": {"name": "Di", "country": "ES"},
    },
    "tags": ["new", "sale"],
    "owner": {"name": "Eve", "country": "DE"},
}

TEXT = """kind: shop
orders[2]{id,customer{name,country},note}:
  1,Ada,UK,null
  2,Bob,FR,"gift, wrapped"
baskets[2]:
  - id: 1
    lines[2]{sku,qty}:
      A1,2
      B2,1
  - id: 2
    lines: []
by_region[2:]{name,country}:
  north: Cy,NO
  south: Di,ES
tags[2]: new,sale
owner:
  name: Eve
  country: DE"""

BOTH = pytest.mark.parametrize("cls", [Shop, MShop], ids=["pydantic", "msgspec"])


def make(cls: type[Any]) -> Any:
    if issubclass(cls, pydantic.BaseModel):
        return cls.model_validate(SHOP)
    return msgspec.convert(SHOP, cls)


# -- the API -------------------------------------------------------------------------------


@BOTH
def test_every_shape_in_one_document(cls: type[Any]) -> None:
    """Nested field groups, list items, a keyed table, inline values, a nested object."""
    shop = make(cls)
    assert shop.to_toon() == TEXT == toon.encode(shop) == toon.encode(SHOP)
    assert cls.from_toon(TEXT) == shop
    assert toon.decode(TEXT, type=cls) == shop
    assert type(toon.decode(TEXT, type=cls)) is cls


@BOTH
def test_options(cls: type[Any]) -> None:
    shop = make(cls)
    for delimiter, name in ((",", "comma"), ("\t", "tab"), ("|", "pipe")):
        for indent in (1, 2, 4):
            text = shop.to_toon(delimiter=delimiter, indent_size=indent)
            assert text == toon.encode(SHOP, delimiter=delimiter, indent_size=indent)
            assert toon.encode(shop, delimiter=name, indent_size=indent) == text
            assert toon.Encoder(delimiter=name, indent_size=indent).encode(shop) == text
            assert cls.from_toon(text, indent_size=indent) == shop
            assert toon.Decoder(cls, indent_size=indent).decode(text) == shop
    with pytest.raises(ValueError, match="delimiter"):
        shop.to_toon(delimiter=";")
    with pytest.raises(ValueError, match="indent_size"):
        shop.to_toon(indent_size=0)
    with pytest.raises(ValueError, match="indent_size"):
        cls.from_toon(TEXT, indent_size=0)
    with pytest.raises(ValueError, match="delimiter"):
        toon.Encoder(delimiter=";")


@BOTH
def test_bytes_input_and_strictness(cls: type[Any]) -> None:
    shop = make(cls)
    for data in (TEXT.encode(), bytearray(TEXT.encode()), memoryview(TEXT.encode())):
        assert cls.from_toon(data) == shop
    assert cls.from_toon(TEXT.replace("\n", "\r\n") + "\r\n") == shop
    assert cls.from_toon("\ufeff" + TEXT) == shop
    loose = TEXT.replace("orders[2]{", "orders[3]{")  # a wrong count: strict mode only
    with pytest.raises(eson.TOONError, match="line 2: table declares 3 rows but has 2"):
        cls.from_toon(loose)
    assert cls.from_toon(loose, strict=False) == shop
    assert toon.Decoder(cls, strict=False).decode(loose) == shop


def test_number_is_an_eson_option_only() -> None:
    """``number=True`` adds ESON's reserved ``n`` column; TOON rows have no such column."""
    shop = make(Shop)
    assert "orders[2]{n,id," in shop.to_eson()
    assert shop.to_toon() == TEXT  # orders[2]{id,customer{name,country},note}:
    assert "number" not in toon.encode.__code__.co_varnames


def test_functional_api_on_plain_classes() -> None:
    class Row(msgspec.Struct):
        a: int
        b: str = "x"

    class Doc(msgspec.Struct):
        rows: list[Row]

    @dataclasses.dataclass
    class Data:
        title: str
        count: int = 0

    @pydantic.dataclasses.dataclass
    class PData:
        title: str
        rows: list[int] = dataclasses.field(default_factory=list)

    class Model(pydantic.BaseModel):
        rows: list[PData]

    doc = Doc([Row(1), Row(2, "y")])
    assert toon.encode(doc) == "rows[2]{a,b}:\n  1,x\n  2,y"
    assert toon.decode(toon.encode(doc), type=Doc) == doc
    assert toon.decode(toon.encode(Data("t", 3)), type=Data) == Data("t", 3)
    model = Model(rows=[PData("a", [1, 2]), PData("b")])
    assert (
        toon.encode(model) == "rows[2]:\n  - title: a\n    rows[2]: 1,2\n  - title: b\n    rows: []"
    )
    assert toon.decode(toon.encode(model), type=Model) == model
    assert toon.decode(toon.encode(PData("x")), type=PData) == PData("x")
    decoder = toon.Decoder(Doc)
    assert decoder.decode(b"rows[1]{a,b}:\n  5,z") == Doc([Row(5, "z")])
    assert repr(decoder) == "toon.Decoder(test_functional_api_on_plain_classes.<locals>.Doc)"
    assert repr(toon.Decoder()) == "toon.Decoder()"
    assert toon.Decoder().decode("a: 1") == {"a": 1}


def test_plain_values_still_work() -> None:
    assert toon.encode({"a": [1, 2]}) == "a[2]: 1,2"
    assert toon.encode([1, "x"]) == "[2]: 1,x"
    assert toon.encode("text") == "text"
    assert toon.decode("a[2]: 1,2") == {"a": [1, 2]}
    assert toon.try_decode("a: [").ok
    assert toon.try_decode('a: "x').error is not None
    with pytest.raises(eson.TOONError, match="type set"):
        toon.encode({1, 2})


def test_empty_documents() -> None:
    class Nothing(pydantic.BaseModel):
        pass

    class Scalar(msgspec.Struct):
        value: int = 0

    assert toon.encode(Nothing()) == ""
    assert toon.decode("", type=Nothing) == Nothing()
    assert toon.encode(Scalar()) == "value: 0"
    assert toon.decode("", type=Scalar) == Scalar()


def test_not_a_model_type() -> None:
    with pytest.raises(TypeError, match="not a model type"):
        toon.decode("a: 1", type=int)
    with pytest.raises(TypeError, match="not a model type"):
        toon.Decoder(dict)


def test_schema_rules_apply_to_toon_too() -> None:
    """The same compiled schema: a class with no ESON layout has no typed TOON one."""

    class Spaced(pydantic.BaseModel):
        value: int = Field(alias="two words")

    with pytest.raises(TypeError, match="eson-wire-name"):
        toon.encode(Spaced.model_validate({"two words": 1}))
    with pytest.raises(TypeError, match="eson-wire-name"):
        toon.decode("x: 1", type=Spaced)


def test_concurrent_first_use() -> None:
    class Row(msgspec.Struct):
        a: int

    class Doc(msgspec.Struct):
        rows: list[Row]

    doc = Doc([Row(i) for i in range(50)])
    text = toon.encode({"rows": [{"a": i} for i in range(50)]})
    results: list[Any] = []

    def work() -> None:
        results.append((toon.encode(doc), toon.decode(text, type=Doc)))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [(text, doc)] * 8


# -- the fast paths are taken --------------------------------------------------------------


@BOTH
def test_uniform_schemas_never_dump_whole_instances(
    cls: type[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typed encode reads fields off the instances; the framework dump is for odd ones."""
    shop = make(cls)
    binding = binding_for(cls)

    def refuse(obj: object) -> dict[str, Any]:
        raise AssertionError("the slow path was taken")

    monkeypatch.setattr(binding, "dump", refuse)
    assert toon.encode(shop) == TEXT


@BOTH
def test_canonical_text_is_read_by_the_template(cls: type[Any]) -> None:
    reader = toon_typed.reader_for(cls)
    document = reader.fast(TEXT)
    assert validate(cls, document) == make(cls)
    for odd in (TEXT.replace("\n  1,Ada", "\n  # c\n  1,Ada"), TEXT.replace("tags", "bags")):
        with pytest.raises(MismatchError):
            reader.fast(odd)


def validate(cls: type[Any], document: Any) -> Any:
    if issubclass(cls, pydantic.BaseModel):
        return cls.model_validate(document)
    return msgspec.convert(document, cls)


# -- errors --------------------------------------------------------------------------------


class PFinding(eson.Record):
    id: int
    severity: Literal["high", "medium", "low"]
    file: str
    line: int


class PReview(eson.Message):
    model_config = ConfigDict(extra="forbid")

    kind: str
    owner: Customer | None = None
    findings: list[PFinding] = []  # noqa: RUF012
    baskets: list[Basket] = []  # noqa: RUF012

    @field_validator("kind")
    @classmethod
    def no_spaces(cls, value: str) -> str:
        if " " in value:
            raise ValueError("no spaces allowed")
        return value


class MFinding(em.Record):
    id: int
    severity: Literal["high", "medium", "low"]
    file: str
    line: int


class MReview(em.Message, forbid_unknown_fields=True):
    kind: str
    owner: MCustomer | None = None
    findings: list[MFinding] = []  # noqa: RUF012
    baskets: list[MBasket] = []  # noqa: RUF012


REVIEW = """kind: review
owner:
  name: Ada
  country: UK
findings[3]{id,severity,file,line}:
  1,high,src/a.py,10
  2,low,src/b.py,20
  3,medium,src/c.py,30
baskets[1]:
  - id: 7
    lines[2]{sku,qty}:
      A1,2
      B2,1"""

REVIEWS = pytest.mark.parametrize("cls", [PReview, MReview], ids=["pydantic", "msgspec"])


def error_of(cls: type[Any], text: str) -> eson.ESONError:
    with pytest.raises(eson.ESONError) as info:
        toon.decode(text, type=cls)
    return info.value


@REVIEWS
def test_the_review_decodes(cls: type[Any]) -> None:
    review = toon.decode(REVIEW, type=cls)
    assert review.findings[2].line == 30 and review.baskets[0].lines[1].qty == 1


@REVIEWS
def test_a_bad_cell_names_line_section_row_and_field(cls: type[Any]) -> None:
    error = error_of(cls, REVIEW.replace("src/b.py,20", "src/b.py,twenty"))
    assert isinstance(error, eson.ValidationError) and isinstance(error, eson.DecodeError)
    assert str(error) == 'line 7: findings row 2 (line): expected int, got "twenty"'
    assert (error.line, error.section, error.row, error.field) == (7, "findings", 2, "line")
    assert error.errors[0]["loc"] == ("findings", 1, "line")


@REVIEWS
def test_a_literal_cell(cls: type[Any]) -> None:
    error = error_of(cls, REVIEW.replace("3,medium", "3,urgent"))
    assert (error.line, error.section, error.row, error.field) == (8, "findings", 3, "severity")
    assert "urgent" in str(error)


@REVIEWS
def test_inside_list_items_and_their_tables(cls: type[Any]) -> None:
    error = error_of(cls, REVIEW.replace("B2,1", "B2,one"))
    assert str(error) == 'line 13: baskets row 1 (lines): at [1].qty: expected int, got "one"'
    error = error_of(cls, REVIEW.replace("id: 7", "id: seven"))
    assert (error.line, error.section, error.row, error.field) == (10, "baskets", 1, "id")


@REVIEWS
def test_nested_object_field(cls: type[Any]) -> None:
    error = error_of(cls, REVIEW.replace("country: UK", "country: 44"))
    assert (error.line, error.section, error.field) == (4, "owner", "country")


@REVIEWS
def test_missing_and_unknown_fields(cls: type[Any]) -> None:
    error = error_of(cls, REVIEW.replace("kind: review\n", ""))
    assert str(error) == "kind: missing required field"
    error = error_of(cls, REVIEW + "\nbogus: 1")
    assert (error.line, error.section) == (14, "bogus")
    assert "unknown field" in str(error) or "unknown" in str(error).lower()


def test_validator_messages_and_all_problems() -> None:
    error = error_of(PReview, REVIEW.replace("kind: review", "kind: a review"))
    assert str(error) == 'line 1: kind: value error, no spaces allowed, got "a review"'
    error = error_of(PReview, REVIEW.replace("1,high", "x,high").replace("2,low", "y,low"))
    assert str(error).endswith("(and 1 more)")
    assert [item["row"] for item in error.errors] == [1, 2]  # type: ignore[union-attr]


@REVIEWS
def test_malformed_text_is_a_toon_error(cls: type[Any]) -> None:
    error = error_of(cls, REVIEW.replace("  2,low,src/b.py,20", "  2,low,src/b.py"))
    assert type(error) is eson.TOONError
    assert str(error) == "line 7: findings row 2: expected 4 cells, got 3"
    error = error_of(cls, REVIEW.replace("  name: Ada", "   name: Ada"))
    assert str(error) == "line 3: indentation of 3 spaces is not a multiple of 2"
    error = error_of(cls, b"kind: \xff")
    assert type(error) is eson.TOONError and error.line == 1


@REVIEWS
def test_try_decode(cls: type[Any]) -> None:
    assert toon.try_decode(REVIEW, type=cls).ok
    result = toon.try_decode(REVIEW.replace("1,high", "x,high"), type=cls)
    assert not result.ok and isinstance(result.error, eson.ValidationError)
    result = toon.try_decode("kind: [", type=cls)
    assert result.ok or isinstance(result.error, eson.ESONError)
    bad = toon.try_decode('kind: "x', type=cls)
    assert not bad.ok and type(bad.error) is eson.TOONError
    with pytest.raises(TypeError):
        toon.try_decode("a: 1", type=list)


def test_validation_errors_pickle_and_keep_their_cause() -> None:
    error = error_of(PReview, REVIEW.replace("1,high", "x,high"))
    assert isinstance(error.__cause__, pydantic.ValidationError)
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.errors == error.errors  # type: ignore[attr-defined]


def test_encode_errors_are_toon_errors() -> None:
    class Blob(msgspec.Struct):
        value: Any

    with pytest.raises(eson.TOONError, match=r"cannot convert .*Blob: TypeError"):
        toon.encode(Blob(object()))
    with pytest.raises(eson.TOONError, match="surrogate"):
        toon.encode(Blob("\ud800"))
    with pytest.raises(eson.TOONError, match="surrogate"):
        toon.encode(MShop(orders=[MOrder(1, MCustomer("\udfff", "x"))]))


# -- hostile text ------------------------------------------------------------------------

HOSTILE = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
pieces = st.sampled_from(
    [
        "kind: x\n",
        "owner:\n",
        "  name: a\n",
        "findings[2]{id,severity,file,line}:\n",
        "  1,high,a,2\n",
        '  "1",low,"b,c",3\n',
        "baskets[1]:\n",
        "  - id: 1\n",
        "    lines[1|]{sku|qty}:\n",
        "      a|1\n",
        "\t\n",
        "\n",
        "# c\n",
        "x[99999999999999999999]:\n",
        '"k": "\\u12\n',
        "- \n",
        "[1]: 1\n",
    ]
)


@HOSTILE
@given(st.lists(pieces, max_size=12).map("".join) | st.text(max_size=60), st.booleans())
def test_hostile_text_only_raises_eson_errors(text: str, strict: bool) -> None:
    for cls in (PReview, MReview, Shop, MShop):
        with contextlib.suppress(eson.ESONError):
            toon.decode(text, type=cls, strict=strict)


# -- the documentation -----------------------------------------------------------------


def test_typed_toon_docs_examples_run(tmp_path: Any) -> None:
    """The examples of the "Typed TOON" section of docs/toon.md run as written."""
    import re
    import runpy
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "toon.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Typed TOON") : doc.index("## Differences from the reference")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    assert len(blocks) >= 2
    script = tmp_path / "typed_toon_docs_example.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    namespace = runpy.run_path(str(script), run_name="typed_toon_docs_example")
    assert namespace["shop"].baskets[0].lines[1].sku == "B2"
