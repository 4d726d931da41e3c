"""The corpus of model replies (tests/replies/*.reply): each read as its header says.

Every case runs for both flavours (Pydantic and msgspec models of the same
schema), through ``eson.parse_reply`` and ``Model.from_reply``, and -- unless
the case says otherwise -- through ``eson.StreamDecoder`` fed in small chunks,
which must give the same value or fail too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import msgspec
import pytest

import eson
import eson.msgspec
from eson import Repair

CORPUS = Path(__file__).resolve().parent / "replies"
SEPARATOR = "\n--- reply ---\n"

Severity = Literal["high", "medium", "low"]
Priority = Literal["p1", "p2", "p3"]


class PFinding(eson.Record):
    severity: Severity
    file: str
    line: int
    message: str


class PReview(eson.Message, number=True):
    kind: str
    summary: str
    findings: list[PFinding]


class PStep(eson.Record):
    id: str
    action: str
    done: bool


class PPlan(eson.Message):
    goal: str
    steps: list[PStep]
    retry: int = 0


class PTicket(eson.Message):
    id: str
    priority: Priority
    tags: list[str]
    assignee: str | None = None


class MFinding(eson.msgspec.Record):
    severity: Severity
    file: str
    line: int
    message: str


class MReview(eson.msgspec.Message, number=True):
    kind: str
    summary: str
    findings: list[MFinding]


class MStep(eson.msgspec.Record):
    id: str
    action: str
    done: bool


class MPlan(eson.msgspec.Message):
    goal: str
    steps: list[MStep]
    retry: int = 0


class MTicket(eson.msgspec.Message):
    id: str
    priority: Priority
    tags: list[str]
    assignee: str | None = None


SCHEMAS: dict[str, dict[str, type]] = {
    "pydantic": {"review": PReview, "plan": PPlan, "ticket": PTicket},
    "msgspec": {"review": MReview, "plan": MPlan, "ticket": MTicket},
}


def load(path: Path) -> tuple[dict[str, Any], str]:
    raw = path.read_bytes().decode("utf-8")
    header, found, reply = raw.partition(SEPARATOR)
    assert found, f"{path.name}: no '--- reply ---' line"
    return json.loads(header), reply


CASES = sorted(CORPUS.glob("*.reply"))


def test_the_corpus_is_there() -> None:
    names = [path.name for path in CASES]
    assert len(names) >= 30
    for prefix in ("eson-", "toon-", "json-", "none-"):
        assert any(name.startswith(prefix) for name in names), prefix
    crlf = [name for name in names if b"\r\n" in (CORPUS / name).read_bytes()]
    assert crlf, "a CRLF reply must survive checkout (see .gitattributes)"


def dump(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    return value.model_dump(mode="json")


def check_error(error: eson.ESONError, expected: dict[str, Any], name: str) -> None:
    assert type(error).__name__ == expected["type"], f"{name}: {error!r}"
    for key in ("line", "section", "row", "field"):
        if key in expected:
            assert getattr(error, key) == expected[key], f"{name}: {key} of {error!r}"
    if "match" in expected:
        assert expected["match"] in str(error), f"{name}: {error!r}"
    feedback = error.feedback
    assert len(feedback) <= 800
    assert str(error)[:200] in feedback or str(error)[:100] in feedback


@pytest.mark.parametrize("flavour", ["pydantic", "msgspec"])
@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_reply(path: Path, flavour: str) -> None:
    header, reply = load(path)
    model = SCHEMAS[flavour][header["schema"]]
    formats = tuple(header.get("formats", ("eson", "toon", "json")))
    partial = bool(header.get("partial", False))
    expect = header["expect"]
    log: list[Repair] = []
    if "value" in expect:
        value = eson.parse_reply(reply, model, formats=formats, partial=partial, repairs=log)
        assert type(value) is model
        assert dump(value) == expect["value"], path.name
        if "repairs" in header:
            assert [[repair.line, repair.kind] for repair in log] == header["repairs"], path.name
        again = model.from_reply(reply, formats=formats, partial=partial)  # type: ignore[attr-defined]
        assert again == value
    else:
        with pytest.raises(eson.ESONError) as info:
            eson.parse_reply(reply, model, formats=formats, partial=partial, repairs=log)
        check_error(info.value, expect["error"], path.name)
    check_stream(path, header, reply, model, partial)


def check_stream(
    path: Path, header: dict[str, Any], reply: str, model: type, partial: bool
) -> None:
    """The stream reads the reply as parse_reply does (chunks of 1, 5 and 64 characters)."""
    if not header.get("stream", True) or path.name.startswith("json-"):
        return
    fmt = "toon" if path.name.startswith("toon-") else "eson"
    expect = header["expect"]
    for size in (1, 5, 64):
        decoder = eson.StreamDecoder(model, format=fmt, partial=partial)  # type: ignore[call-overload]
        chunks = [reply[i : i + size] for i in range(0, len(reply), size)]
        if "value" in expect:
            for chunk in chunks:
                decoder.feed(chunk)
            assert dump(decoder.close()) == expect["value"], f"{path.name} streamed by {size}"
            if "repairs" in header:
                assert [[r.line, r.kind] for r in decoder.repairs] == header["repairs"], path.name
        else:
            with pytest.raises(eson.ESONError) as info:
                for chunk in chunks:
                    decoder.feed(chunk)
                decoder.close()
            error = expect["error"]
            if not path.name.startswith("none-"):
                check_error(info.value, error, f"{path.name} streamed by {size}")
