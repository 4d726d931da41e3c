"""The typed public API: base classes, functional API, reusable Encoder/Decoder."""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import dataclasses
import linecache
import subprocess
import sys
import textwrap
import traceback
from typing import Any, Literal

import msgspec
import pydantic
import pytest
from pydantic import Field

import eson
import eson.msgspec as em
from eson._internal.codecs.eson_typed import reader_for, writer_for
from eson._internal.schema import document_schema


class Finding(eson.Record):
    file: str
    line: int
    severity: Literal["high", "medium", "low"]


class Review(eson.Message, number=True, frozen=True):
    from_: str = Field(alias="from")
    to: str
    kind: str
    findings: list[Finding]


class MFinding(em.Record, frozen=True):
    file: str
    line: int
    severity: Literal["high", "medium", "low"]


class MReview(em.Message, number=True, rename={"from_": "from"}, kw_only=True):
    from_: str
    to: str
    kind: str
    findings: list[MFinding]


class PlainModel(pydantic.BaseModel):
    title: str
    rows: list[Finding] = []


class PlainStruct(msgspec.Struct):
    title: str
    rows: list[MFinding] = []


@dataclasses.dataclass
class PlainData:
    title: str
    rows: list[MFinding] = dataclasses.field(default_factory=list)


@pydantic.dataclasses.dataclass
class PydanticData:
    title: str
    count: int = 0


EXPECTED = (
    "!eson/1\nfrom=reviewer\nto=fixer\nkind=code_review\n"
    "findings[2]{n,file,line,severity}\n1\tsrc/auth.py\t42\thigh\n2\tsrc/api.py\t18\tmedium\n"
)


def pydantic_review() -> Review:
    return Review.model_validate(
        {
            "from": "reviewer",
            "to": "fixer",
            "kind": "code_review",
            "findings": [
                {"file": "src/auth.py", "line": 42, "severity": "high"},
                {"file": "src/api.py", "line": 18, "severity": "medium"},
            ],
        }
    )


def msgspec_review() -> MReview:
    return MReview(
        from_="reviewer",
        to="fixer",
        kind="code_review",
        findings=[MFinding("src/auth.py", 42, "high"), MFinding("src/api.py", 18, "medium")],
    )


@pytest.mark.parametrize("make", [pydantic_review, msgspec_review], ids=["pydantic", "msgspec"])
def test_base_classes_round_trip(make: Any) -> None:
    review = make()
    assert review.to_eson() == EXPECTED
    again = type(review).from_eson(EXPECTED)
    assert again == review and type(again) is type(review)
    assert type(review).from_eson(EXPECTED.encode()) == review
    assert type(review).from_eson(bytearray(EXPECTED.encode())) == review
    assert type(review).from_eson(memoryview(EXPECTED.encode())) == review


def test_framework_class_options_keep_working() -> None:
    review = pydantic_review()
    with pytest.raises(pydantic.ValidationError):
        review.to = "x"  # type: ignore[misc]  # frozen=True
    with pytest.raises(TypeError):
        MReview("a", "b", "c", [])  # type: ignore[misc]  # kw_only=True
    finding = MFinding("a", 1, "low")
    with pytest.raises(AttributeError):
        finding.line = 2  # type: ignore[misc]  # frozen=True


def test_record_is_a_document_too() -> None:
    finding = Finding(file="a.py", line=3, severity="low")
    assert finding.to_eson() == "!eson/1\nfile=a.py\nline=3\nseverity=low\n"
    assert Finding.from_eson(finding.to_eson()) == finding
    mfinding = MFinding("a.py", 3, "low")
    assert MFinding.from_eson(mfinding.to_eson()) == mfinding


@pytest.mark.parametrize(
    "value",
    [
        PlainModel(title="t", rows=[Finding(file="x", line=1, severity="low")]),
        PlainStruct("t", [MFinding("x", 1, "low")]),
        PlainData("t", [MFinding("x", 1, "low")]),
        PydanticData("t", 3),
    ],
    ids=["pydantic", "msgspec", "dataclass", "pydantic-dataclass"],
)
def test_functional_api_without_subclassing(value: Any) -> None:
    text = eson.encode(value)
    assert eson.decode(text, type=type(value)) == value
    assert eson.Encoder().encode(value) == text
    decoder = eson.Decoder(type(value))
    assert decoder.decode(text) == value
    assert repr(decoder) == f"Decoder({type(value).__qualname__})"


def test_plain_models_follow_their_framework() -> None:
    assert eson.encode(PlainData("t")) == eson.encode(msgspec.to_builtins(PlainData("t")))
    dumped = pydantic.TypeAdapter(PydanticData).dump_python(PydanticData("t", 3), mode="json")
    assert eson.encode(PydanticData("t", 3)) == eson.encode(dumped)


def test_number_option_and_overrides() -> None:
    review = pydantic_review()
    unnumbered = EXPECTED.replace("{n,", "{").replace("\n1\t", "\n").replace("\n2\t", "\n")
    assert eson.encode(review) == EXPECTED
    assert eson.encode(review, number=False) == unnumbered
    assert eson.Encoder(number=False).encode(review) == unnumbered
    assert eson.Encoder(number=True).encode(PlainStruct("t", [MFinding("x", 1, "low")])) == (
        "!eson/1\ntitle=t\nrows[1]{n,file,line,severity}\n1\tx\t1\tlow\n"
    )
    # the reserved column is checked and dropped on typed decode, whichever the text has
    assert Review.from_eson(unnumbered) == review


def test_untyped_api_is_unchanged() -> None:
    value = {"kind": "k", "rows": [{"a": 1}]}
    assert eson.encode(value) == "!eson/1\nkind=k\nrows[1]{a}\n1\n"
    assert eson.encode(value, number=True) == "!eson/1\nkind=k\nrows[1]{n,a}\n1\t1\n"
    assert eson.decode(eson.encode(value)) == value
    assert eson.Decoder().decode(eson.encode(value)) == value
    assert repr(eson.Decoder()) == "Decoder()"
    assert eson.Encoder(number=True).encode(value) == eson.encode(value, number=True)
    result = eson.try_decode("!eson/1\nx=1\n")
    assert result.ok and result.value == {"x": 1}


def test_decoder_compiles_when_made() -> None:
    class Broken(pydantic.BaseModel):
        items: list[Any]

    with pytest.raises(TypeError, match=r"\[eson-record-array\]"):
        eson.Decoder(Broken)
    with pytest.raises(TypeError, match="not a model type"):
        eson.Decoder(list)  # type: ignore[arg-type]


def test_encode_refuses_non_documents() -> None:
    with pytest.raises(eson.EncodeError, match="root must be a dict"):
        eson.encode([1, 2])
    with pytest.raises(eson.EncodeError):
        eson.encode(object())


def test_compiled_once_and_cached() -> None:
    assert document_schema(Review) is document_schema(Review)
    assert writer_for(Review) is writer_for(Review)
    assert reader_for(MReview) is reader_for(MReview)


def test_hot_path_does_not_introspect_instances(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed encode reads attributes; it never dumps an instance."""
    review = pydantic_review()
    mreview = msgspec_review()

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("per-instance introspection on the hot path")

    monkeypatch.setattr(pydantic.BaseModel, "model_dump", forbidden)
    monkeypatch.setattr("eson._internal.schema.msgspec_binding._to_builtins", forbidden)
    monkeypatch.setattr("eson._internal.codecs.eson_encode.write_entry", forbidden)
    monkeypatch.setattr("eson._internal.codecs.eson_encode.encode_document", forbidden)
    assert eson.encode(review) == EXPECTED
    assert eson.encode(mreview) == EXPECTED
    # and msgspec records are built from columns, without one dict per row
    monkeypatch.setattr("eson._internal.codecs.eson_decode.build_records", forbidden)
    assert MReview.from_eson(EXPECTED) == mreview


def test_generated_code_shows_in_tracebacks() -> None:
    class Boom(pydantic.BaseModel):
        ok: int = 1

        @pydantic.computed_field  # type: ignore[prop-decorator]
        @property
        def broken(self) -> int:
            raise RuntimeError("computed field failed")

    with pytest.raises(RuntimeError) as info:
        eson.encode(Boom())
    frames = traceback.extract_tb(info.value.__traceback__)
    generated = [frame for frame in frames if frame.filename.startswith("<eson generated")]
    assert generated, "the generated writer is not in the traceback"
    assert generated[0].line == "value = obj.broken"
    assert linecache.getline(generated[0].filename, generated[0].lineno).strip() == "value = obj.broken"


def test_import_without_pydantic() -> None:
    """``import eson`` and the msgspec flavour work when Pydantic is missing."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["pydantic"] = None  # make "import pydantic" fail
        import eson, eson.msgspec
        class Row(eson.msgspec.Record):
            a: int
        class Doc(eson.msgspec.Message, number=True):
            rows: list[Row]
        text = Doc([Row(1)]).to_eson()
        assert text == "!eson/1\\nrows[1]{n,a}\\n1\\t1\\n", text
        assert Doc.from_eson(text) == Doc([Row(1)])
        assert eson.decode(text, type=Doc) == Doc([Row(1)])
        assert "eson.pydantic" not in sys.modules
        try:
            eson.Message
        except ImportError:
            print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "ok", result.stderr


def test_lazy_exports() -> None:
    assert eson.Message is eson.pydantic.Message
    assert eson.Record is eson.pydantic.Record
    assert eson.msgspec.Message is em.Message
    assert {"Encoder", "Decoder", "Message", "Record"} <= set(eson.__all__)
    with pytest.raises(AttributeError):
        eson.nothing_here  # noqa: B018


def test_submodules_load_on_first_use() -> None:
    """``import eson`` alone gives ``eson.toon`` (as the README writes it) and the flavours."""
    script = textwrap.dedent(
        """
        import sys
        import eson
        assert "eson.toon" not in sys.modules
        print(eson.toon.encode({"a": [1, 2]}))
        print(eson.msgspec.Message.__name__, eson.pydantic.Message.__name__)
        try:
            eson.nothing
        except AttributeError as exc:
            print(exc)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.splitlines() == [
        "a[2]: 1,2",
        "Message Message",
        "module 'eson' has no attribute 'nothing'",
    ]
