"""eson.integrations.a2a against the real A2A SDK: a server and a client in one process.

A real A2A server built with the SDK's classes (``DefaultRequestHandler``, an
``AgentExecutor``, the JSON-RPC and agent-card routes in a Starlette app)
and the SDK's client (``ClientFactory``) talking to it through httpx's
in-process ``ASGITransport``: no socket, no network.  Without the ``a2a``
extra the module skips (fails under ``CI=1``).
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterable
from typing import Any, Literal

import pytest

try:
    from eson.integrations import a2a as eson_a2a  # noqa: F401
except ImportError as exc:  # the extra is not installed
    if os.environ.get("CI"):
        pytest.fail(f"CI installs typed-eson[a2a]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[a2a]: {exc}", allow_module_level=True)

import httpx
from a2a.client import ClientConfig, ClientFactory
from a2a.helpers.proto_helpers import get_artifact_text, new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    Message,
    Part,
    Role,
    SendMessageRequest,
    Task,
    TaskState,
)
from starlette.applications import Starlette

import eson
import eson.msgspec
from eson import toon
from eson.agent.media import ESON_MEDIA_TYPE, MEDIA_TYPES, TOON_MEDIA_TYPE
from eson.integrations.a2a import (
    WIRE_EXTENSION,
    agent_extension,
    modes,
    payload_part,
    read_artifact,
    read_message,
    read_part,
    read_task,
    refusal,
    reply_part,
)


class Hit(eson.Record):
    path: str
    line: int
    severity: Literal["high", "medium", "low"]
    note: str | None = None


class Hits(eson.Message):
    query: str
    total: int
    hits: list[Hit]


class Query(eson.Message):
    text: str
    limit: int


class MsgQuery(eson.msgspec.Message):
    text: str
    limit: int


def search(query: Query) -> Hits:
    rows = [
        Hit(
            path=f"src/module_{i}.py",
            line=10 + 7 * i,
            severity=("high", "medium", "low")[i % 3],
            note=None if i % 4 else f"check call {i}",
        )
        for i in range(query.limit)
    ]
    return Hits(query=query.text, total=len(rows), hits=rows)


class SearchAgent(AgentExecutor):
    """Reads a typed query, answers with a typed artifact; refuses a damaged query."""

    def __init__(self, format: str = "auto") -> None:
        self.format = format

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        await event_queue.enqueue_event(new_task_from_user_message(context.message))
        updater = TaskUpdater(event_queue, context.task_id or "", context.context_id or "")
        try:
            query = read_message(context.message, Query)
        except eson.ESONError as error:
            await updater.reject(message=refusal(error, context))
            return
        part = reply_part(search(query), context, format=self.format)  # type: ignore[arg-type]
        await updater.add_artifact([part], name="hits")
        await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


URL = "http://agent.test/"


def card() -> AgentCard:
    return AgentCard(
        name="code-search",
        description="Finds places in the code",
        version="1.0.0",
        supported_interfaces=[
            AgentInterface(url=URL, protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        capabilities=AgentCapabilities(streaming=False, extensions=[agent_extension()]),
        default_input_modes=modes(),
        default_output_modes=modes(),
        skills=[AgentSkill(id="search", name="search", description="code search", tags=["code"])],
    )


def app(format: str = "auto") -> Starlette:
    agent_card = card()
    handler = DefaultRequestHandler(
        agent_executor=SearchAgent(format), task_store=InMemoryTaskStore(), agent_card=agent_card
    )
    return Starlette(
        routes=[*create_jsonrpc_routes(handler, "/"), *create_agent_card_routes(agent_card)]
    )


def ask(part: Part, accepted: Iterable[str], *, format: str = "auto") -> Task:
    """Send one message from a real SDK client; the task it ends in."""

    async def run() -> Task:
        transport = httpx.ASGITransport(app=app(format))
        async with httpx.AsyncClient(transport=transport, base_url=URL) as http:
            config = ClientConfig(
                httpx_client=http, streaming=False, accepted_output_modes=list(accepted)
            )
            client = ClientFactory(config).create(card())
            request = SendMessageRequest(
                message=Message(message_id="m1", role=Role.ROLE_USER, parts=[part])
            )
            tasks = [event.task async for event in client.send_message(request)]
            return tasks[-1]

    return asyncio.run(asyncio.wait_for(run(), timeout=20))


QUERY = Query(text="auth", limit=200)
EXPECTED = search(QUERY)


def test_a_typed_artifact_of_200_records_read_typed() -> None:
    task = ask(payload_part(QUERY, ["eson/1"]), modes())
    assert task.status.state == TaskState.TASK_STATE_COMPLETED
    (artifact,) = task.artifacts
    (part,) = artifact.parts
    assert part.media_type in (ESON_MEDIA_TYPE, TOON_MEDIA_TYPE)
    assert part.media_type == MEDIA_TYPES[eson.choose(EXPECTED).format]
    assert read_task(task, Hits) == EXPECTED
    assert read_artifact(artifact, Hits) == EXPECTED
    assert read_task(task, Hits, name="hits").total == 200


@pytest.mark.parametrize(
    ("accepted", "format", "media"),
    [
        ([ESON_MEDIA_TYPE], "auto", ESON_MEDIA_TYPE),
        ([TOON_MEDIA_TYPE, "application/json"], "auto", TOON_MEDIA_TYPE),
        (modes(), "eson", ESON_MEDIA_TYPE),
        (modes(), "toon", TOON_MEDIA_TYPE),
        ([TOON_MEDIA_TYPE], "eson", TOON_MEDIA_TYPE),  # ESON not accepted: never sent
        (["text/vnd.eson; version=2"], "eson", "application/json"),  # unknown version
    ],
)
def test_the_format_follows_what_the_client_accepts(
    accepted: list[str], format: str, media: str
) -> None:
    task = ask(payload_part(Query(text="q", limit=5), ["toon"]), accepted, format=format)
    part = task.artifacts[0].parts[0]
    assert part.media_type == media
    assert read_task(task, Hits) == search(Query(text="q", limit=5))


@pytest.mark.parametrize("accepted", [[], ["text/plain"], ["*/*"]])
def test_a_client_that_advertises_nothing_gets_json(accepted: list[str]) -> None:
    task = ask(Part(text='{"text": "q", "limit": 3}', media_type="application/json"), accepted)
    part = task.artifacts[0].parts[0]
    assert part.media_type == "application/json"
    # what a client knowing nothing of ESON does: the SDK's own helper and json
    assert json.loads(get_artifact_text(task.artifacts[0])) == EXPECTED_PLAIN(3)
    assert read_task(task, Hits) == search(Query(text="q", limit=3))


def EXPECTED_PLAIN(limit: int) -> Any:  # noqa: N802
    return search(Query(text="q", limit=limit)).model_dump(mode="json")


@pytest.mark.parametrize(
    ("part", "fragment"),
    [
        (Part(text="!eson/1\ntext=q\nlimit=x\n", media_type=ESON_MEDIA_TYPE), "limit"),
        # the count says 2 values, 1 follows: corrupt, never answered from (W4)
        (
            Part(text="text: q\nlimit: 5\nextra[2]: 1\n", media_type=TOON_MEDIA_TYPE),
            "declares 2 values but has 1",
        ),
        (Part(text="!eson/1\ntext=q\n", media_type=ESON_MEDIA_TYPE), "limit"),
        (Part(text="just some words", media_type="text/plain"), "no ESON, TOON or JSON"),
    ],
)
def test_a_damaged_payload_is_refused_with_feedback(part: Part, fragment: str) -> None:
    task = ask(part, modes())
    assert task.status.state == TaskState.TASK_STATE_REJECTED
    assert not task.artifacts  # nothing was answered from it
    feedback = task.status.message.parts[0].text
    assert fragment in feedback


def test_a_damaged_artifact_raises_on_the_client() -> None:
    task = ask(payload_part(Query(text="q", limit=4), ["eson"]), [ESON_MEDIA_TYPE])
    part = task.artifacts[0].parts[0]
    damaged = Part(text=part.text.replace("hits[4]", "hits[5]"), media_type=part.media_type)
    with pytest.raises(eson.CountError) as caught:
        read_part(damaged, Hits)
    assert "hits" in caught.value.feedback
    toon_text = toon.encode(search(Query(text="q", limit=4))).replace("hits[4]", "hits[3]")
    with pytest.raises(eson.TOONError):
        read_part(Part(text=toon_text, media_type=TOON_MEDIA_TYPE), Hits)
    # a labelled part is read in its format only: ESON labelled as TOON is refused
    with pytest.raises(eson.ESONError):
        read_part(Part(text=part.text, media_type=TOON_MEDIA_TYPE), Hits)
    with pytest.raises(eson.DecodeError, match="media type"):
        read_part(Part(text=part.text, media_type="image/png"), Hits)


def test_the_agent_card_advertises_media_types_and_tokens() -> None:
    async def fetch() -> dict[str, Any]:
        transport = httpx.ASGITransport(app=app())
        async with httpx.AsyncClient(transport=transport, base_url=URL) as http:
            answer = await http.get("/.well-known/agent-card.json")
            return answer.json()  # type: ignore[no-any-return]

    published = asyncio.run(fetch())
    assert published["defaultOutputModes"] == [ESON_MEDIA_TYPE, TOON_MEDIA_TYPE, "application/json"]
    (extension,) = published["capabilities"]["extensions"]
    assert extension["uri"] == WIRE_EXTENSION
    assert extension["params"] == {"accept": ["eson/1", "toon", "json"]}


def test_parts_without_a_label_data_parts_and_msgspec() -> None:
    value = search(Query(text="q", limit=3))
    assert read_part(Part(text=value.to_toon()), Hits) == value  # detected
    assert read_part(Part(text=value.to_eson(), media_type="text/plain"), Hits) == value
    data = Part()
    data.data.struct_value.update({"text": "q", "limit": 2})
    assert read_part(data, Query) == Query(text="q", limit=2)  # 2.0 from protobuf: lax
    assert read_part(Part(text=eson.encode({"text": "m", "limit": 1})), MsgQuery) == MsgQuery(
        text="m", limit=1
    )
    with pytest.raises(eson.DecodeError, match="raw part"):
        read_part(Part(raw=b"x"), Query)
    message = Message(
        parts=[Part(text="hello", media_type="text/plain"), payload_part(value, ["toon"])]
    )
    assert read_message(message, Hits) == value  # the labelled part is the payload


def test_the_token_figures_of_one_artifact() -> None:
    """The docs page's size table is what this artifact of 200 records measures."""
    from conftest import REPO_ROOT, token_backends_or_skip

    token_backends_or_skip()
    page = (REPO_ROOT / "docs" / "integrations" / "a2a.md").read_text(encoding="utf-8")
    for format, label in (("eson", "ESON"), ("toon", "TOON"), ("json", "compact JSON")):
        text = payload_part(EXPECTED, [format], format=format).text  # type: ignore[arg-type]
        row = f"| {label} | {eson.count_tokens(text)} | {len(text.encode())} |"
        assert row in page
