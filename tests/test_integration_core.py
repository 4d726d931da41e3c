"""The framework adapters' common ground, with or without the frameworks installed.

- ``import eson`` (and ``import eson.integrations``) imports none of the
  frameworks: checked in a fresh interpreter through ``sys.modules``;
- an adapter whose framework is missing fails with an ``ImportError`` that
  names the extra to install;
- :class:`eson.integrations.partial.PartialReply`, the incremental reading
  behind the streaming adapters, reads each piece of text once and agrees
  with the whole-text decode.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from typing import Any, Literal

import pytest
from pydantic import Field

import eson
import eson.msgspec
from eson import toon
from eson.integrations import require
from eson.integrations.partial import PartialReply

#: Top-level packages the adapters bring in (and what those bring in).
FRAMEWORKS = (
    "mcp",
    "mcp_types",
    "pydantic_ai",
    "pydantic_graph",
    "langchain_core",
    "langsmith",
    "anyio",
    "httpx",
    "starlette",
    "fastapi",
    "uvicorn",
    "a2a",
    "agents",
    "openai",
    "google",
    "grpc",
    "opentelemetry",
)

ADAPTERS = {
    "eson.integrations.mcp": ("mcp", "mcp"),
    "eson.integrations.pydantic_ai": ("pydantic_ai", "pydantic-ai"),
    "eson.integrations.langchain": ("langchain_core", "langchain"),
    "eson.integrations.http": ("starlette", "http"),
    "eson.integrations.a2a": ("a2a", "a2a"),
    "eson.integrations.openai_agents": ("agents", "openai-agents"),
}


def _run(script: str) -> Any:
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_import_eson_imports_no_framework() -> None:
    loaded = _run(
        f"""
        import json, sys
        import eson, eson.integrations, eson.integrations.partial
        from eson import toon
        class Row(eson.Record):
            a: int
        class Doc(eson.Message):
            rows: list[Row]
        doc = Doc(rows=[Row(a=1), Row(a=2)])
        assert eson.parse_reply(doc.to_eson(), Doc) == doc
        assert toon.decode(doc.to_toon(), type=Doc) == doc
        eson.prompt(Doc)
        found = sorted({{name.split(".")[0] for name in sys.modules}} & set({FRAMEWORKS!r}))
        print(json.dumps(found))
        """
    )
    assert loaded == []


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_an_adapter_imports_its_framework(adapter: str) -> None:
    package, extra = ADAPTERS[adapter]
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed (typed-eson[{extra}])")
    loaded = _run(
        f"""
        import json, sys
        import {adapter}
        print(json.dumps({package!r} in sys.modules))
        """
    )
    assert loaded is True


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_a_missing_framework_names_the_extra(adapter: str) -> None:
    package, extra = ADAPTERS[adapter]
    message = _run(
        f"""
        import json, sys
        sys.modules[{package!r}] = None  # as if it were not installed
        try:
            import {adapter}
        except ImportError as exc:
            print(json.dumps(str(exc)))
        else:
            print(json.dumps(None))
        """
    )
    assert message is not None
    assert f"pip install 'typed-eson[{extra}]'" in message


def test_require() -> None:
    assert require("json", "none").dumps([]) == "[]"
    with pytest.raises(ImportError, match=r"typed-eson\[thing\]"):
        require("surely_not_a_module_name_here", "thing")
    with pytest.raises(ImportError, match=r"typed-eson\[thing\]"):
        require("surely_not_a_module_name_here.sub", "thing")


# -- PartialReply -------------------------------------------------------------------------


class Finding(eson.Record):
    severity: Literal["high", "low"]
    file: str
    line: int


class Review(eson.Message):
    summary: str
    findings: list[Finding]
    notes: list[str] = Field(default_factory=list)


class MsgFinding(eson.msgspec.Record):
    file: str
    line: int


class MsgReview(eson.msgspec.Message):
    summary: str
    findings: list[MsgFinding]


def review(rows: int) -> Review:
    return Review(
        summary="s",
        findings=[
            Finding(severity="high" if i % 2 else "low", file=f"f{i}.py", line=i)
            for i in range(rows)
        ],
        notes=["a note", "another"],
    )


@pytest.mark.parametrize("format", ["eson", "toon"])
@pytest.mark.parametrize("step", [1, 3, 17])
def test_update_with_the_text_so_far_reads_each_piece_once(
    format: Literal["eson", "toon"], step: int
) -> None:
    expected = review(9)
    text = expected.to_eson() if format == "eson" else expected.to_toon() + "\n"
    reply = PartialReply(Review, format=format)
    events: list[eson.Event] = []
    partials: list[Review | None] = []
    for end in range(step, len(text) + step, step):
        events += reply.update(text[:end])  # the whole text so far, as pydantic-ai passes it
        partials.append(reply.partial())
    assert reply.close() == expected
    whole = eson.StreamDecoder(Review, format=format)
    assert events == list(whole.events([text]))  # no event twice: only new text was read
    seen = [value for value in partials if value is not None]
    assert seen[-1].findings == expected.findings
    for value in seen:
        assert value.findings == expected.findings[: len(value.findings)]


def test_update_with_a_different_text_starts_over() -> None:
    first = review(3).to_eson()
    second = review(5).to_eson()
    reply = PartialReply(Review)
    reply.update(first[:40])
    reply.update("!eson/1\nsummary=other\n")  # not an extension: a new reply
    reply.update(second.replace("summary=s", "summary=other"))
    value = reply.close()
    assert value.summary == "other" and len(value.findings) == 5


def test_partial_is_none_until_required_entries_arrive() -> None:
    reply = PartialReply(Review)
    assert reply.partial() is None
    reply.feed("!eson/1\n")
    assert reply.partial() is None
    reply.feed("summary=s\n")
    assert reply.partial() is None  # findings is required
    reply.feed("findings[2]{severity,file,line}\nlow\tf0.py\t0\n")
    assert reply.partial() == Review(summary="s", findings=review(1).findings)
    assert reply.snapshot()["findings"] == review(1).findings
    reply.feed("high\tf1.py\t1\n")
    assert reply.close() == Review(summary="s", findings=review(2).findings)


def test_an_error_stops_reading_and_is_raised_at_close() -> None:
    reply = PartialReply(Review)
    reply.feed("!eson/1\nsummary=s\nfindings[2]{severity,file,line}\nmedium\tf0.py\t0\n")
    # A bad row's error waits for the section's declared rows and the line
    # after them (a row past the count would be the error, as in the whole decode).
    assert reply.error is None
    assert reply.feed("high\tf1.py\t1\nnotes[1]\n") == []
    assert isinstance(reply.error, eson.ValidationError)
    assert reply.feed("n\n") == []
    assert reply.partial() is None
    with pytest.raises(eson.ValidationError) as caught:
        reply.close()
    assert caught.value is reply.error
    assert "high, low" in caught.value.feedback


def test_msgspec_partials() -> None:
    value = MsgReview(summary="m", findings=[MsgFinding(f"x{i}", i) for i in range(3)])
    text = toon.encode(value) + "\n"
    reply = PartialReply(MsgReview, format="toon")
    sizes = []
    for char in text:
        reply.feed(char)
        found = reply.partial()
        sizes.append(None if found is None else len(found.findings))
    assert reply.close() == value
    assert [size for size in dict.fromkeys(sizes) if size is not None] == [1, 2, 3]
