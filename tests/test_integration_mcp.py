"""eson.integrations.mcp against the real MCP Python SDK, end to end and in process.

A real ``MCPServer`` with tools returning results through ``ToolResults``, and
a real ``mcp.Client`` connected over the SDK's in-memory transport
(``InMemoryTransport``: JSON-RPC messages over memory streams), in both
protocol eras the SDK speaks (the ``initialize`` handshake of 2025-11-25 and
the per-request capabilities of 2026-07-28).  Without the ``mcp`` extra the
module skips (fails under ``CI=1``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

import pydantic
import pytest

try:
    from eson.integrations import mcp as eson_mcp
except ImportError as exc:  # the extra is not installed
    if os.environ.get("CI"):
        pytest.fail(f"CI installs typed-eson[mcp]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[mcp]: {exc}", allow_module_level=True)

import anyio
from mcp import Client
from mcp.client import ClientExtension
from mcp.client._memory import InMemoryTransport
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, ClientCapabilities, TextContent

import eson
import eson.msgspec
from eson import toon
from eson.integrations.mcp import (
    ToolResultError,
    ToolResults,
    accepted_by_client,
    advertise,
    call_tool,
    error_result,
    read_result,
)

R = TypeVar("R")


class Hit(eson.Record):
    path: str
    line: int
    severity: Literal["high", "medium", "low"]
    note: str | None = None


class Hits(eson.Message):
    """Search hits, one row each."""

    query: str
    total: int
    hits: list[Hit]


class MsgHit(eson.msgspec.Record):
    path: str
    line: int


class MsgHits(eson.msgspec.Message):
    query: str
    hits: list[MsgHit]


def hits(query: str, n: int) -> Hits:
    rows = [
        Hit(
            path=f"src/module_{i}.py",
            line=10 + 7 * i,
            severity=("high", "medium", "low")[i % 3],
            note=None if i % 4 else f"seen {i} times, 'quoted', tab\there",
        )
        for i in range(n)
    ]
    return Hits(query=query, total=n, hits=rows)


def build_server(results: ToolResults) -> MCPServer:
    server = MCPServer("search")

    @server.tool()
    def search(
        query: str, ctx: Context, n: int = 25, format: str | None = None
    ) -> Annotated[CallToolResult, Hits]:
        """Search the code base."""
        return results.result(hits(query, n), ctx, format=format)  # type: ignore[arg-type]

    @server.tool()
    def raw_rows(ctx: Context, n: int = 5) -> Annotated[CallToolResult, list[Hit]]:
        """Plain data at the root: a list of records."""
        rows = [hit.model_dump(mode="json") for hit in hits("raw", n).hits]
        return results.result(rows, ctx)

    @server.tool()
    def msgspec_hits(ctx: Context) -> CallToolResult:
        value = MsgHits(query="q", hits=[MsgHit(path=f"a{i}.py", line=i) for i in range(4)])
        return results.result(value, ctx)

    @server.tool()
    def broken(query: str) -> Annotated[CallToolResult, Hits]:
        raise RuntimeError(f"index for {query} is offline")

    @server.tool()
    def file_hits(document: str) -> CallToolResult:
        """Takes hits the model wrote in ESON; a bad document gets feedback."""
        try:
            value = eson.parse_reply(document, Hits)
        except eson.ESONError as error:
            return error_result(error)
        return results.result(value, ClientCapabilities(), format="json")

    return server


MODES = ["legacy", "auto"]  # the 2025-11-25 handshake; the 2026-07-28 per-request era


def run(
    server: MCPServer,
    body: Callable[[Client], Awaitable[R]],
    *,
    extensions: list[ClientExtension] | None = None,
    mode: str = "auto",
) -> R:
    async def main() -> R:
        transport = InMemoryTransport(server)
        async with Client(transport, mode=mode, extensions=extensions) as client:
            return await body(client)

    return anyio.run(main)


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


def note(result: CallToolResult) -> dict[str, Any]:
    assert result.meta is not None
    found = result.meta[eson_mcp.WIRE_EXTENSION]
    assert isinstance(found, dict)
    return found


def dump(value: Hits) -> dict[str, Any]:
    return value.model_dump(mode="json", by_alias=True)


# -- the happy path, end to end ------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_record_array_result_round_trips_through_a_real_client(mode: str) -> None:
    server = build_server(ToolResults())
    expected = hits("todo", 25)

    async def body(client: Client) -> tuple[CallToolResult, Hits, Any]:
        listed = await client.list_tools()
        schema = next(tool.output_schema for tool in listed.tools if tool.name == "search")
        result = await client.call_tool("search", {"query": "todo"})
        typed = await call_tool(client, "search", {"query": "todo"}, type=Hits)
        return result, typed, schema

    result, typed, schema = run(server, body, extensions=[advertise()], mode=mode)
    # the model reads the densest accepted format: ESON for a record array
    text = text_of(result)
    assert note(result)["format"] == "eson/1"
    assert text.startswith("!eson/1\nquery=todo\ntotal=25\nhits[25]{path,line,severity,note}\n")
    assert eson.decode(text, type=Hits) == expected
    assert note(result)["tokens"] == eson.count_tokens(text)
    # programs read JSON, checked by the SDK against the declared output schema
    assert result.structured_content == dump(expected)
    assert schema is not None and set(schema["required"]) == {"query", "total", "hits"}
    assert not result.is_error
    # the client side reads it back into the same model
    assert typed == expected
    assert read_result(result, Hits) == expected
    assert read_result(result) == dump(expected)


@pytest.mark.parametrize("mode", MODES)
def test_text_only_result_is_read_with_parse_reply(mode: str) -> None:
    server = build_server(ToolResults())
    expected = hits("todo", 9)

    async def body(client: Client) -> CallToolResult:
        return await client.call_tool("search", {"query": "todo", "n": 9})

    for accept, fmt in ((["eson/1"], "eson/1"), (["toon"], "toon"), (["columnar"], "columnar")):
        result = run(server, body, extensions=[advertise(accept)], mode=mode)
        assert note(result)["format"] == fmt
        # a server that sends no structured content: the text alone is read
        text_only = CallToolResult(content=result.content)
        assert read_result(text_only, Hits) == expected
        assert read_result(text_only) == dump(expected)


def test_auto_is_exactly_eson_choose_for_what_the_client_accepts() -> None:
    server = build_server(ToolResults())
    for accept in (["eson/1", "toon"], ["toon", "columnar"], ["columnar", "json"], ["json"]):
        for n in (1, 2, 30):
            result = run(
                server,
                lambda client, n=n: client.call_tool("search", {"query": "x", "n": n}),
                extensions=[advertise(accept)],
            )
            choice = eson.choose(hits("x", n), accept=accept)
            assert (note(result)["format"], text_of(result)) == (choice.format, choice.text)
            assert note(result)["tokens"] == choice.tokens


# -- negotiation: fallback, defaults, overrides --------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_unknown_capability_falls_back_to_compact_json(mode: str) -> None:
    server = build_server(ToolResults(format="eson", env=None))
    expected = hits("todo", 6)

    async def body(client: Client) -> tuple[CallToolResult, Hits]:
        result = await client.call_tool("search", {"query": "todo", "n": 6})
        return result, await call_tool(client, "search", {"query": "todo", "n": 6}, type=Hits)

    result, typed = run(server, body, extensions=None, mode=mode)
    assert note(result)["format"] == "json"
    assert text_of(result) == json.dumps(dump(expected), separators=(",", ":"), ensure_ascii=False)
    assert result.structured_content == dump(expected)
    assert typed == expected


def test_an_advertisement_without_known_tokens_is_json_too() -> None:
    server = build_server(ToolResults(format="toon", assume="toon"))
    result = run(
        server,
        lambda client: client.call_tool("search", {"query": "q", "n": 3}),
        extensions=[advertise(["eson/2", "yaml"])],  # said something, nothing we write
    )
    assert note(result)["format"] == "json"


def test_server_default_and_per_call_override() -> None:
    server = build_server(ToolResults(format="toon"))
    expected = hits("q", 12)

    def call(arguments: dict[str, Any]) -> CallToolResult:
        return run(
            server,
            lambda client: client.call_tool("search", arguments),
            extensions=[advertise(["json", "toon", "eson/1", "columnar"])],
        )

    default = call({"query": "q", "n": 12})
    assert note(default)["format"] == "toon"
    assert toon.decode(text_of(default), type=Hits) == expected
    assert "tokens" not in note(default)  # an explicit format is written, not weighed
    override = call({"query": "q", "n": 12, "format": "eson"})
    assert note(override)["format"] == "eson/1"
    assert eson.decode(text_of(override), type=Hits) == expected
    as_json = call({"query": "q", "n": 12, "format": "json"})
    assert json.loads(text_of(as_json)) == dump(expected)
    auto = call({"query": "q", "n": 12, "format": "auto"})
    choice = eson.choose(expected, accept=["json", "toon", "eson/1", "columnar"])
    assert text_of(auto) == choice.text


def test_an_explicit_format_the_client_does_not_read_is_never_sent() -> None:
    server = build_server(ToolResults(format="toon"))
    result = run(
        server,
        lambda client: client.call_tool("search", {"query": "q", "n": 8}),
        extensions=[advertise(["eson/1"])],
    )
    assert note(result)["format"] == "eson/1"
    assert eson.decode(text_of(result), type=Hits) == hits("q", 8)


def test_operator_switch_env_and_assume(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(eson_mcp.ACCEPT_ENV, "toon")
    from_env = build_server(ToolResults())
    result = run(from_env, lambda client: client.call_tool("search", {"query": "q", "n": 4}))
    assert note(result)["format"] == "toon"
    # the client's own advertisement wins over the server's assumption
    result = run(
        from_env,
        lambda client: client.call_tool("search", {"query": "q", "n": 4}),
        extensions=[advertise(["eson/1"])],
    )
    assert note(result)["format"] == "eson/1"
    # the argument wins over the environment; env=None ignores it
    assert ToolResults(assume=["eson/1"]).assume == ("eson/1",)
    assert ToolResults(env=None).assume == ()
    monkeypatch.setenv("MY_SERVER_FORMATS", "eson, columnar")
    assert ToolResults(env="MY_SERVER_FORMATS").assume == ("eson/1", "columnar")


def test_where_a_client_advertises() -> None:
    tokens = {"accept": ["toon", "json"]}
    assert accepted_by_client(None) is None
    assert accepted_by_client(ClientCapabilities()) is None
    assert accepted_by_client(ClientCapabilities(extensions={eson_mcp.WIRE_EXTENSION: tokens})) == (
        "toon",
        "json",
    )
    assert accepted_by_client(
        ClientCapabilities(experimental={eson_mcp.WIRE_EXTENSION: tokens})
    ) == ("toon", "json")
    assert accepted_by_client(
        ClientCapabilities(experimental={"wire": {"accept": "eson/1, json"}})
    ) == ("eson/1", "json")
    # malformed advertisements say nothing
    for bad in ({"accept": 3}, {"accept": [1, "toon"]}, {"formats": ["toon"]}):
        assert (
            accepted_by_client(ClientCapabilities(extensions={eson_mcp.WIRE_EXTENSION: bad}))
            is None
        )
    results = ToolResults(assume="toon")
    assert results.accepted(ClientCapabilities()) == ("toon",)
    value = hits("q", 3)
    direct = results.result(value, ClientCapabilities(extensions={eson_mcp.WIRE_EXTENSION: tokens}))
    assert note(direct)["format"] in ("toon", "json")
    assert results.result(value, accept=["eson/1"], format="eson").content == [
        TextContent(text=value.to_eson())
    ]


def test_a_tool_function_called_outside_a_request() -> None:
    results = ToolResults(assume="eson/1", format="eson")
    result = results.result(hits("q", 2), Context())
    assert text_of(result) == hits("q", 2).to_eson()


# -- plain values, msgspec ---------------------------------------------------------------


def test_plain_list_is_wrapped_for_structured_content_and_unwrapped_when_read() -> None:
    server = build_server(ToolResults())
    expected = [hit.model_dump(mode="json") for hit in hits("raw", 5).hits]

    async def body(client: Client) -> tuple[CallToolResult, Any]:
        result = await client.call_tool("raw_rows", {"n": 5})
        return result, await call_tool(client, "raw_rows", {"n": 5})

    result, plain = run(server, body, extensions=[advertise()])
    assert result.structured_content == {"result": expected}  # the SDK's output schema shape
    assert note(result)["wrapped"] is True
    assert note(result)["format"] != "eson/1"  # an ESON document is an object
    assert plain == expected
    text_only = CallToolResult(content=result.content, _meta=result.meta)
    assert read_result(text_only) == expected


def test_msgspec_models() -> None:
    server = build_server(ToolResults())
    expected = MsgHits(query="q", hits=[MsgHit(path=f"a{i}.py", line=i) for i in range(4)])

    async def body(client: Client) -> tuple[CallToolResult, MsgHits]:
        result = await client.call_tool("msgspec_hits", {})
        return result, await call_tool(client, "msgspec_hits", {}, type=MsgHits)

    result, typed = run(server, body, extensions=[advertise(["eson/1"])])
    assert text_of(result) == eson.encode(expected)
    assert typed == expected
    assert read_result(CallToolResult(content=result.content), MsgHits) == expected


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_a_raising_tool_is_an_error_result_not_a_crash(mode: str) -> None:
    server = build_server(ToolResults())

    async def body(client: Client) -> tuple[CallToolResult, ToolResultError, Hits]:
        failed = await client.call_tool("broken", {"query": "todo"})
        with pytest.raises(ToolResultError) as caught:
            await call_tool(client, "broken", {"query": "todo"}, type=Hits)
        # the session survives: the next call works
        after = await call_tool(client, "search", {"query": "todo", "n": 2}, type=Hits)
        return failed, caught.value, after

    failed, error, after = run(server, body, extensions=[advertise()], mode=mode)
    assert failed.is_error and failed.structured_content is None
    assert "Error executing tool broken" in text_of(failed)
    assert error.result.is_error and "Error executing tool broken" in str(error)
    assert after == hits("todo", 2)


def test_error_result_gives_a_model_the_feedback() -> None:
    server = build_server(ToolResults())
    damaged = "!eson/1\nquery=q\ntotal=2\nhits[3]{path,line,severity,note}\na.py\t1\thigh\tnull\n"

    async def body(client: Client) -> tuple[CallToolResult, Hits]:
        failed = await client.call_tool("file_hits", {"document": damaged})
        fixed = hits("q", 2).to_eson()
        return failed, await call_tool(client, "file_hits", {"document": fixed}, type=Hits)

    failed, fixed = run(server, body, extensions=[advertise()])
    assert failed.is_error
    feedback = text_of(failed)
    try:
        eson.parse_reply(damaged, Hits)
    except eson.ESONError as error:
        assert feedback == error.feedback
    else:  # pragma: no cover - the document is damaged
        raise AssertionError("the damaged document parsed")
    assert "hits[N]{path,line,severity,note}" in feedback
    assert fixed == hits("q", 2)
    assert text_of(error_result(ValueError("bad id"))) == "bad id"
    assert text_of(error_result("plain words")) == "plain words"
    assert text_of(error_result(KeyError())) == "KeyError"


def test_read_result_errors() -> None:
    with pytest.raises(ToolResultError, match="neither structured content nor text"):
        read_result(CallToolResult(content=[]), Hits)
    long = "x" * 5000
    with pytest.raises(ToolResultError) as caught:
        read_result(CallToolResult(content=[TextContent(text=long)], is_error=True))
    assert len(str(caught.value)) < 300 and caught.value.text == long
    # structured content that does not fit the model: a located library error
    bad = CallToolResult(content=[], structured_content={"query": "q", "total": "many", "hits": []})
    with pytest.raises(eson.ValidationError) as invalid:
        read_result(bad, Hits)
    assert invalid.value.section == "total" and "total" in invalid.value.feedback
    # damaged text: the reply reader's error, with feedback
    damaged = CallToolResult(
        content=[
            TextContent(
                text="!eson/1\nquery=q\ntotal=1\nhits[2]{path,line,severity,note}\na\t1\thigh\tnull\n"
            )
        ]
    )
    with pytest.raises(eson.DecodeError):
        read_result(damaged, Hits)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="format must be"):
        ToolResults(format="yaml")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="by must be"):
        ToolResults(by="words")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        advertise([1])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="format must be"):
        ToolResults().result({"a": 1}, format="xml")  # type: ignore[arg-type]
    with pytest.raises(eson.EncodeError):
        ToolResults().result({"a": float("nan")})
    assert advertise("toon").settings() == {"accept": ["toon"]}


def test_auto_falls_back_to_compact_json_when_no_format_writes_the_value_lint_clean() -> None:
    # JavaScript writes an integer past 2**53 shorter ("1e+30"), so eson.lint fails
    # our compact JSON of it and eson.choose, allowed JSON only, refuses it; a tool
    # result still goes out, as the compact JSON every client reads.
    value = {"id": 10**30, "rows": [{"a": 1}, {"a": 2}]}
    with pytest.raises(eson.EncodeError):
        eson.choose(value, accept=["json"])
    result = ToolResults(format="json").result(value, None, accept=["json"])
    assert json.loads(text_of(result)) == value
    result = ToolResults().result(value, None, accept=["json"])
    assert note(result)["format"] == "json"
    assert json.loads(text_of(result)) == value


class Stamped(eson.Message):
    """A model whose validator reads the validation context."""

    query: str
    total: int

    @pydantic.field_validator("query")
    @classmethod
    def _prefix(cls, value: str, info: pydantic.ValidationInfo) -> str:
        prefix = (info.context or {}).get("prefix", "")
        return f"{prefix}{value}"


def test_read_result_validates_structured_content_with_the_framework_options() -> None:
    result = CallToolResult(content=[], structured_content={"query": "q", "total": "3"})
    assert read_result(result, Stamped) == Stamped(query="q", total=3)  # lax by default
    assert read_result(result, Stamped, context={"prefix": "p:"}).query == "p:q"
    with pytest.raises(eson.ValidationError) as refused:
        read_result(result, Stamped, strict=True)  # the string "3" is not an int when strict
    assert refused.value.section == "total"
    text_only = CallToolResult(content=[TextContent(text=eson.encode({"query": "q", "total": 3}))])
    assert read_result(text_only, Stamped, context={"prefix": "t:"}).query == "t:q"
