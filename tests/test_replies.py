"""eson.extract, eson.parse_reply, Model.from_reply and ESONError.feedback."""

from __future__ import annotations

import pickle
import sys
from typing import Literal

import msgspec
import pytest

import eson
import eson.msgspec
import eson.toon
from eson import Repair

Severity = Literal["high", "medium", "low"]


class MFinding(eson.msgspec.Record):
    severity: Severity
    file: str
    line: int


class MReview(eson.msgspec.Message, number=True):
    kind: str
    findings: list[MFinding]


class PFinding(eson.Record):
    severity: Severity
    file: str
    line: int


class PReview(eson.Message, number=True):
    kind: str
    findings: list[PFinding]


DOC = "!eson/1\nkind=review\nfindings[2]{n,severity,file,line}\n1\thigh\ta.py\t3\n2\tlow\tb.py\t4\n"
VALUE = {
    "kind": "review",
    "findings": [
        {"severity": "high", "file": "a.py", "line": 3},
        {"severity": "low", "file": "b.py", "line": 4},
    ],
}
MODELS = [MReview, PReview]


def dump(value: object) -> object:
    if isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    return value.model_dump()  # type: ignore[attr-defined]


# -- extract --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        DOC,
        f"Here is the review:\n\n```eson\n{DOC}```\n\nLet me know if you need more.",
        f"```\n{DOC}```",
        f"~~~eson\n{DOC}~~~\n",
        f"Sure! The review follows.\n{DOC}\nThat covers both files.",
        f'The input looked like:\n```json\n{{"a": 1}}\n```\nMy answer:\n```eson\n{DOC}```',
        f"```python\nprint('x = 1')\n```\n```eson\n{DOC}```",
        f"Draft:\n```eson\n!eson/1\nkind=draft\n```\nFinal:\n```eson\n{DOC}```",
        f"I will use ``` fences and ~~~ too, like so:\n```eson\n{DOC}```\nsee? ```",
        f"~~~~eson\n{DOC}~~~~\n",
    ],
)
def test_extract_finds_the_document(reply: str) -> None:
    assert eson.extract(reply) == DOC


def test_extract_keeps_crlf_and_a_cut_last_line() -> None:
    crlf = DOC.replace("\n", "\r\n")
    assert eson.extract(f"Here:\r\n```eson\r\n{crlf}```\r\n") == crlf
    cut = "Here:\n```eson\n!eson/1\nkind=review\nfindings[3]{n,file}\n1\ta.py\n2\tb.p"
    assert eson.extract(cut).endswith("2\tb.p")  # no line break added: the line may be cut


def test_extract_of_an_indented_fence_reads_it_as_markdown_does() -> None:
    reply = "1. The result:\n   ```eson\n   !eson/1\n   kind=x\n   ```\n2. Done."
    assert eson.extract(reply) == "!eson/1\nkind=x\n"


@pytest.mark.parametrize(
    "reply", ["", "   \n", "I could not do that, sorry.", "```python\nx = 1\n```"]
)
def test_extract_without_a_payload_says_so(reply: str) -> None:
    with pytest.raises(
        eson.DecodeError, match=r"no ESON, TOON or JSON document|reply is empty"
    ) as info:
        eson.extract(reply)
    assert info.value.line == 1
    assert "could not be read" in info.value.feedback


def test_an_unfenced_document_keeps_rows_past_its_count() -> None:
    # The extra row stays in the payload, so reading fails instead of dropping it.
    reply = "!eson/1\nfindings[1]{n,file}\n1\ta.py\n2\tb.py\n\nThat's all."
    assert eson.extract(reply) == "!eson/1\nfindings[1]{n,file}\n1\ta.py\n2\tb.py\n"
    with pytest.raises(eson.DecodeError, match="line 4"):
        eson.parse_reply(reply)


def test_formats_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown reply format"):
        eson.parse_reply(DOC, formats=("yaml",))
    with pytest.raises(TypeError):
        eson.parse_reply(DOC, formats="eson")
    with pytest.raises(ValueError, match="at least one"):
        eson.parse_reply(DOC, formats=())


# -- parse_reply and from_reply ---------------------------------------------------------


@pytest.mark.parametrize("model", MODELS)
def test_parse_reply_reads_eson_toon_and_json(model: type) -> None:
    toon = eson.toon.encode(VALUE)
    assert dump(eson.parse_reply(f"Sure:\n```eson\n{DOC}```", model)) == VALUE
    assert dump(eson.parse_reply(f"Sure:\n```toon\n{toon}\n```", model)) == VALUE
    assert (
        dump(model.from_reply(f"Sure:\n```json\n{msgspec.json.encode(VALUE).decode()}\n```"))
        == VALUE
    )  # type: ignore[attr-defined]
    pretty = msgspec.json.format(msgspec.json.encode(VALUE), indent=2).decode()
    assert dump(model.from_reply(f"I used JSON instead:\n{pretty}\nHope that is fine.")) == VALUE  # type: ignore[attr-defined]


@pytest.mark.parametrize("model", MODELS)
def test_formats_limit_what_is_read(model: type) -> None:
    reply = f"```json\n{msgspec.json.encode(VALUE).decode()}\n```"
    with pytest.raises(eson.DecodeError, match="no ESON document"):
        eson.parse_reply(reply, model, formats=("eson",))
    both = f"```json\n{msgspec.json.encode({**VALUE, 'kind': 'json'}).decode()}\n```\n```eson\n{DOC}```"
    assert eson.parse_reply(both, model).kind == "review"
    assert eson.parse_reply(both, model, formats=("json", "eson")).kind == "json"


@pytest.mark.parametrize("model", MODELS)
def test_errors_and_repairs_count_lines_of_the_reply(model: type) -> None:
    reply = "Here you go:\n\n```eson\n" + DOC.replace("b.py\t4", "b.py\tfour") + "```\n"
    with pytest.raises(eson.ValidationError) as info:
        eson.parse_reply(reply, model)
    assert info.value.line == 8 and info.value.errors[0]["line"] == 8
    assert (info.value.section, info.value.row, info.value.field) == ("findings", 2, "line")
    log: list[Repair] = []
    eson.parse_reply(reply.replace("kind=", "kind = ").replace("four", "4"), model, repairs=log)
    assert [(repair.line, repair.kind) for repair in log] == [(5, "equals-space")]


@pytest.mark.parametrize("model", MODELS)
def test_json_errors_are_library_errors(model: type) -> None:
    for bad, message in [
        ('{"kind": "x", "findings": [}', "invalid JSON"),
        ('{"kind": "x", "kind": "y", "findings": []}', "duplicate key"),
        (
            '{"kind": "x", "findings": [{"severity": "high", "file": "a", "line": NaN}]}',
            "invalid JSON",
        ),
    ]:
        with pytest.raises(eson.DecodeError, match=message):
            eson.parse_reply(f"```json\n{bad}\n```", model)
    with pytest.raises(eson.ValidationError) as info:
        eson.parse_reply(
            '{"kind": "x", "findings": [{"severity": "mid", "file": "a", "line": 1}]}', model
        )
    assert (info.value.section, info.value.row, info.value.field) == ("findings", 1, "severity")


def test_untyped_parse_reply() -> None:
    assert eson.parse_reply(f"ok\n```eson\n{DOC}```") == eson.decode(DOC)
    assert eson.parse_reply('{"a": [1, 2]}') == {"a": [1, 2]}
    assert eson.parse_reply("```toon\na[2]: 1,2\n```") == {"a": [1, 2]}


@pytest.mark.parametrize("model", MODELS)
def test_parse_reply_of_encode_is_the_value(model: type) -> None:
    value = (
        msgspec.convert(VALUE, model)
        if issubclass(model, msgspec.Struct)
        else model.model_validate(VALUE)
    )
    assert eson.parse_reply(eson.encode(value), model) == value
    assert eson.parse_reply(eson.toon.encode(value), model) == value
    assert model.from_reply(value.to_eson()) == value  # type: ignore[attr-defined]


@pytest.mark.parametrize("model", MODELS)
def test_partial_replies(model: type) -> None:
    cut = "Sure:\n```eson\n!eson/1\nkind=review\nfindings[3]{n,severity,file,line}\n1\thigh\ta.py\t3\n2\tlow\tb.p"
    # The fence was never closed: the reply was cut off (it used to read as a count error).
    with pytest.raises(eson.TruncatedError, match="cut off after row 1 of 3 of 'findings'"):
        eson.parse_reply(cut, model)
    log: list[Repair] = []
    value = eson.parse_reply(cut, model, partial=True, repairs=log)
    assert len(value.findings) == 1
    assert [(repair.line, repair.kind) for repair in log] == [(5, "rows-missing"), (7, "cut-off")]


# -- feedback -------------------------------------------------------------------------


@pytest.mark.parametrize("model", MODELS)
def test_feedback_says_what_where_and_the_expected_layout(model: type) -> None:
    reply = "```eson\n" + DOC.replace("low", "minor") + "```"
    with pytest.raises(eson.ValidationError) as info:
        eson.parse_reply(reply, model)
    feedback = info.value.feedback
    assert "line 6: findings row 2 (severity)" in feedback
    assert "findings[N]{n,severity,file,line}" in feedback
    assert "severity: one of high, medium, low" in feedback
    assert "!eson/1" in feedback
    assert len(feedback) <= 800


@pytest.mark.parametrize("model", MODELS)
def test_feedback_for_toon_and_json_uses_their_layout(model: type) -> None:
    with pytest.raises(eson.ESONError) as info:
        eson.parse_reply(
            "```toon\nkind: x\nfindings[3]{severity,file,line}:\n  high,a,1\n```", model
        )
    assert "TOON" in info.value.feedback
    assert "findings[N]{severity,file,line}:" in info.value.feedback
    with pytest.raises(eson.ESONError) as info:
        eson.parse_reply('{"kind": 1, "findings": []}', model)
    assert "JSON" in info.value.feedback and '"findings": [{"severity"' in info.value.feedback


def test_feedback_never_echoes_unbounded_input() -> None:
    huge = "x" * 100_000
    for reply in [
        f"!eson/1\n{huge}\n",
        f'!eson/1\nkind="{huge}\n',
        f"!eson/1\nrows[2]{{{huge}}}\n",
        f'```json\n{{"kind": "{huge}", "findings": 3}}\n```',
    ]:
        with pytest.raises(eson.ESONError) as info:
            eson.parse_reply(reply, PReview)
        feedback = info.value.feedback
        assert len(feedback) <= 800
        assert huge[:200] not in feedback


def test_feedback_travels_with_pickle() -> None:
    with pytest.raises(eson.ValidationError) as info:
        eson.parse_reply("```eson\n" + DOC.replace("low", "minor") + "```", MReview)
    again = pickle.loads(pickle.dumps(info.value))
    assert again.feedback == info.value.feedback
    assert again.line == info.value.line and again.errors == info.value.errors


def test_every_error_has_feedback() -> None:
    errors: list[eson.ESONError] = []
    for attempt in [
        lambda: eson.decode("!eson/1\nx[2]{a}\n1\n"),
        lambda: eson.toon.decode("a[2]: 1"),
        lambda: eson.encode({"bad key": 1}),
        lambda: eson.decode("!eson/1\nkind=x\n", type=MReview),
    ]:
        with pytest.raises(eson.ESONError) as info:
            attempt()
        errors.append(info.value)
    for error in errors:
        assert str(error) in error.feedback and len(error.feedback) <= 800


def test_an_empty_record_keeps_its_empty_row_in_a_fence() -> None:
    doc = "!eson/1\nkind=x\nmeta{}\n\n"
    for reply in (f"```eson\n{doc}```", f"```eson\n{doc}\n\n```", f"Here:\n{doc}", doc):
        assert eson.parse_reply(reply) == {"kind": "x", "meta": {}}
        decoder = eson.StreamDecoder(None)
        for char in reply:
            decoder.feed(char)
        assert decoder.close() == {"kind": "x", "meta": {}}


def test_a_fence_keeps_the_payloads_lone_crs() -> None:
    # Fuzz seed 4004, case 29197: a "\r\r\n" line end is a CR of data and a
    # CRLF; inside a fence, in a reply whose other lines end with LF, the CR
    # must stay data (the whole-text reader's reading).
    body = "items[1]{id,tag}:\r\n  1,c\r\r\ninner: null\r\r\nok: true\r\n"
    expected = eson.toon.decode(body)
    assert expected == {"items": [{"id": 1, "tag": "c\r"}], "inner": "null\r", "ok": True}
    assert eson.parse_reply(body, formats=("toon",)) == expected
    fenced = f"Here is the result:\n\n```toon\n{body}```\n\nAnything else?"
    assert eson.parse_reply(fenced, formats=("toon",)) == expected
    assert eson.toon.decode(eson.extract(fenced)) == expected


# -- payloads outside fences: depth, and payloads inside payloads ----------------------


class Deep(eson.Message):
    data: list[int]


@pytest.mark.parametrize("times", [1, 5, 20])
def test_an_unfenced_json_reply_nested_too_deeply_is_a_decode_error(times: int) -> None:
    # Past the parser's limit, read at run time: hypothesis and tests/fuzzing.py raise it.
    depth = sys.getrecursionlimit() * times + 10
    nested = "[" * depth + "]" * depth
    reply = f"Here it is\n{nested}\nDone."
    assert eson.extract(reply) == nested
    fenced = f"```json\n{nested}\n```"
    with pytest.raises(eson.DecodeError) as whole:
        eson.parse_reply(fenced)
    for read in (
        lambda: eson.parse_reply(reply),
        lambda: eson.parse_reply(reply, formats=("json",)),
        lambda: Deep.from_reply(reply),
    ):
        with pytest.raises(eson.DecodeError) as caught:
            read()
        assert "nested too deeply" in str(caught.value)
        assert caught.value.line == 2
    assert "nested too deeply" in str(whole.value)


class Pair(eson.Message):
    a: list[int]
    b: str
    c: dict[str, int] | None = None


@pytest.mark.parametrize("model", [Pair])
@pytest.mark.parametrize(
    ("fmt", "formats"),
    [
        ("eson", ("json", "eson")),
        ("eson", ("json", "toon", "eson")),
        ("toon", ("json", "toon")),
        ("toon", ("json", "eson", "toon")),
    ],
)
def test_json_inside_a_document_never_wins_over_the_document(
    model: type[Pair], fmt: str, formats: tuple[str, ...]
) -> None:
    value = model(a=[1, 2], b="x", c={"k": 1})
    text = eson.encode(value) if fmt == "eson" else eson.toon.encode(value)
    assert eson.parse_reply(text, model, formats=formats) == value
    assert eson.agent.payload.locate(text, formats).format == fmt
    # A JSON value outside the document is still preferred when listed first.
    reply = 'An example: {"a": [3], "b": "y"}\n\n' + text
    assert eson.parse_reply(reply, model, formats=formats) == model(a=[3], b="y")


def test_an_eson_row_of_json_cells_is_not_a_json_payload() -> None:
    text = "!eson/1\nrows[2]{v}\n[1,2]\n[3]\n"
    assert eson.parse_reply(text, formats=("json", "eson")) == {"rows": [{"v": [1, 2]}, {"v": [3]}]}


@pytest.mark.parametrize("fmt", ["eson", "toon"])
def test_json_inside_a_document_of_a_format_not_accepted_is_no_payload(fmt: str) -> None:
    """The document's own format left out of ``formats``: its ``[N]`` or JSON cell is not JSON."""
    value = {"a": [1, 2], "b": "x", "rows": [{"v": [5, 6]}, {"v": [7]}]}
    text = eson.encode(value) if fmt == "eson" else eson.toon.encode(value)
    formats = ("json", "toon") if fmt == "eson" else ("json", "eson")
    with pytest.raises(eson.DecodeError) as caught:
        eson.parse_reply(text, formats=formats)
    assert str(caught.value).startswith("line 1: no JSON or ")
    if fmt == "eson":  # a headed ESON document is named as what the reply holds
        assert "it holds an ESON document" in caught.value.feedback
    # JSON outside the document is still found, and a count glued to a name is never JSON.
    assert eson.parse_reply(text + '\nAs JSON: {"q": [1]}\n', formats=("json",)) == {"q": [1]}
    assert eson.parse_reply("the list is [1,2]", formats=("json",)) == [1, 2]
    with pytest.raises(eson.DecodeError):
        eson.parse_reply("items[3]: a,b,c", formats=("json",))


def test_the_key_lines_of_a_json_object_are_not_a_toon_block() -> None:
    reply = 'Here you go\n{\n"a": [1,2],\n"b": "x"\n}\n'
    assert eson.parse_reply(reply) == {"a": [1, 2], "b": "x"}
    assert eson.agent.payload.locate(reply).first_line == 2


# -- a well-formed reply takes the strict reader -------------------------------------


def test_parse_reply_reads_what_strict_reading_accepts_as_strict_reading_does() -> None:
    """parse_reply reads an ESON payload strictly first (its C fast paths), leniently if refused.

    That is exact only while a text strict reading accepts has the same
    reading leniently, with nothing repaired (``number=True`` types aside:
    their missing ``n`` column is a recorded repair, so they are always read
    leniently).  Checked here on the fuzzer's mutated documents, typed and
    untyped: where strict reading succeeds, lenient reading gives the same
    value and no repair, and parse_reply gives that value with no repair.
    """
    import fuzzing

    checked = 0
    for index in range(3000):
        case = fuzzing.make_case(4242, index)
        if case.fmt != "eson" or not isinstance(case.data, str):
            continue
        for cls in (None, *fuzzing.MODELS):
            typed = {} if cls is None else {"type": cls}
            try:
                strict = eson.decode(case.data, **typed)
            except eson.ESONError:
                continue
            log: list[Repair] = []
            lenient = eson.decode(case.data, strict=False, repairs=log, **typed)
            assert fuzzing._same(lenient, strict), case  # NaN equals NaN here
            numbered = cls is not None and bool(getattr(cls, "__eson_number__", False))
            assert log == [] or (numbered and {r.kind for r in log} == {"missing-n"}), (case, log)
            replied: list[Repair] = []
            try:
                value = eson.parse_reply(case.data, cls, formats=("eson",), repairs=replied)
            except eson.ESONError:
                continue  # a payload other than the whole text (prose-like lines around it)
            if eson.agent.payload.locate(case.data, ("eson",)).first_line == 1:
                assert fuzzing._same(value, strict) and replied == [], (case, replied)
            checked += 1
    assert checked > 500
