"""eson.integrations.http against real Starlette and FastAPI apps, and one real uvicorn server.

The framework's ``TestClient`` (in process) for negotiation, bodies, errors
and the OpenAPI document; one uvicorn server on 127.0.0.1 (an ephemeral
port, bounded in time) hit with httpx.  Without the ``http`` and ``fastapi``
extras the module skips (fails under ``CI=1``).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from typing import Annotated, Any, Literal

import pytest

try:
    from eson.integrations import http as eson_http  # noqa: F401
except ImportError as exc:  # the extra is not installed
    if os.environ.get("CI"):
        pytest.fail(f"CI installs typed-eson[http]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[http]: {exc}", allow_module_level=True)

try:
    import fastapi  # noqa: F401
    import httpx
    import uvicorn
except ImportError as exc:  # FastAPI needs Python 3.11+
    if os.environ.get("CI") and sys.version_info >= (3, 11):
        pytest.fail(f"CI installs typed-eson[fastapi]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[fastapi]: {exc}", allow_module_level=True)

from fastapi import Depends, FastAPI, Request
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient

import eson
import eson.msgspec
from eson import toon
from eson.agent.media import ESON_MEDIA_TYPE, TOON_MEDIA_TYPE, format_of, negotiate
from eson.integrations.http import BodyError, body, openapi, read_body, respond


class Hit(eson.Record):
    path: str
    line: int
    severity: Literal["high", "medium", "low"]


class Hits(eson.Message):
    query: str
    hits: list[Hit]


class Query(eson.Message):
    text: str
    limit: int


class MsgQuery(eson.msgspec.Message):
    text: str
    limit: int


def found(query: Query) -> Hits:
    return Hits(
        query=query.text,
        hits=[
            Hit(path=f"src/m{i}.py", line=i + 1, severity=("high", "medium", "low")[i % 3])
            for i in range(query.limit)
        ],
    )


def fastapi_app() -> FastAPI:
    app = FastAPI()

    @app.post("/search", openapi_extra=openapi(request=Query, response=Hits))
    async def search(request: Request, query: Annotated[Query, Depends(body(Query))]) -> Response:
        return respond(request, found(query))

    @app.get("/hits", openapi_extra=openapi(response=Hits))
    async def hits(request: Request) -> Response:
        return respond(request, found(Query(text="all", limit=3)))

    @app.get("/plain")
    async def plain(request: Request) -> Response:
        return respond(request, [1, 2, 3])  # no object: ESON cannot hold it

    return app


def starlette_app() -> Starlette:
    async def search(request: Request) -> Response:
        try:
            query = await read_body(request, MsgQuery, formats=("toon",))
        except BodyError as error:
            return Response(str(error.detail), status_code=error.status_code)
        return respond(request, found(Query(text=query.text, limit=query.limit)))

    return Starlette(routes=[Route("/search", search, methods=["POST"])])


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(fastapi_app()) as test_client:
        yield test_client


EXPECTED = found(Query(text="all", limit=3))


@pytest.mark.parametrize(
    ("accept", "media"),
    [
        (ESON_MEDIA_TYPE, "text/vnd.eson"),
        ("text/vnd.eson", "text/vnd.eson"),
        (TOON_MEDIA_TYPE, "text/toon"),
        ("text/toon;q=0.9, text/vnd.eson;version=1;q=0.5", "text/toon"),
        ("text/toon;q=0.5, text/vnd.eson;q=0.9, application/json;q=0.1", "text/vnd.eson"),
        ("application/json, text/toon", "text/toon"),  # a tie: the densest offered
        ("text/vnd.eson;q=0.5, */*", "application/json"),  # JSON (through */*) ranks higher
        ("text/vnd.eson;version=2", "application/json"),  # an unknown version names nothing
        (None, "application/json"),  # nothing said: JSON (W8)
        ("*/*", "application/json"),  # a wildcard advertises no ESON
        ("text/*", "application/json"),
        ("text/html, image/png", "application/json"),  # nothing matches: JSON
        ("text/toon;q=0, text/html", "application/json"),
    ],
)
def test_accept_negotiation(client: TestClient, accept: str | None, media: str) -> None:
    headers = {} if accept is None else {"accept": accept}
    answer = client.get("/hits", headers=headers)
    assert answer.status_code == 200
    assert answer.headers["content-type"].split(";")[0] == media
    assert answer.headers["vary"] == "Accept"
    read = {
        "text/vnd.eson": lambda text: eson.decode(text, type=Hits),
        "text/toon": lambda text: toon.decode(text, type=Hits),
        "application/json": lambda text: Hits.model_validate_json(text),
    }[media]
    assert read(answer.text) == EXPECTED


@pytest.mark.parametrize(
    "accept", ["application/json;q=0", "text/html, */*;q=0", "text/vnd.eson;q=0, */*;q=0"]
)
def test_406_only_when_json_is_refused_too(client: TestClient, accept: str) -> None:
    answer = client.get("/hits", headers={"accept": accept})
    assert answer.status_code == 406
    assert answer.headers["vary"] == "Accept"
    assert "text/vnd.eson; version=1, text/toon, application/json" in answer.text
    # JSON refused but ESON named: ESON
    named = client.get("/hits", headers={"accept": "application/json;q=0, text/vnd.eson"})
    assert named.status_code == 200 and named.text.startswith("!eson/1")


def test_a_value_eson_cannot_hold_goes_in_the_next_format(client: TestClient) -> None:
    answer = client.get("/plain", headers={"accept": "text/vnd.eson, text/toon;q=0.5"})
    assert answer.headers["content-type"].startswith("text/toon")
    assert toon.decode(answer.text) == [1, 2, 3]
    only_eson = client.get("/plain", headers={"accept": "text/vnd.eson"})
    assert only_eson.headers["content-type"].startswith("application/json")
    assert only_eson.json() == [1, 2, 3]


@pytest.mark.parametrize(
    ("media", "text"),
    [
        (ESON_MEDIA_TYPE, eson.encode(Query(text="auth", limit=2))),
        ("text/toon; charset=utf-8", toon.encode(Query(text="auth", limit=2))),
        ("application/json", Query(text="auth", limit=2).model_dump_json()),
        (None, '{"text": "auth", "limit": 2}'),  # no Content-Type: JSON
    ],
)
def test_request_bodies_by_content_type(client: TestClient, media: str | None, text: str) -> None:
    headers = {"accept": TOON_MEDIA_TYPE}
    if media is not None:
        headers["content-type"] = media
    answer = client.post("/search", content=text.encode(), headers=headers)
    assert answer.status_code == 200, answer.text
    assert toon.decode(answer.text, type=Hits) == found(Query(text="auth", limit=2))


@pytest.mark.parametrize(
    ("media", "text", "message"),
    [
        (ESON_MEDIA_TYPE, "!eson/1\ntext=auth\nlimit=two\n", "line 3"),
        ("text/toon", "text: auth\nlimit: two\n", "limit"),
        ("application/json", '{"text": "auth", "limit": "two"}', "limit: expected int"),
        ("application/json", '{"text": "auth", ', "invalid JSON"),
        (ESON_MEDIA_TYPE, "!eson/1\ntext=auth\n", "limit"),
    ],
)
def test_a_bad_body_is_422_with_the_located_message(
    client: TestClient, media: str, text: str, message: str
) -> None:
    answer = client.post("/search", content=text.encode(), headers={"content-type": media})
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert message in detail and "\n" not in detail and len(detail) < 300


def test_unknown_media_type_and_bytes_that_are_not_utf8(client: TestClient) -> None:
    answer = client.post("/search", content=b"x", headers={"content-type": "text/plain"})
    assert answer.status_code == 415 and "text/vnd.eson" in answer.json()["detail"]
    bad = client.post("/search", content=b"\xff\xfe", headers={"content-type": "application/json"})
    assert bad.status_code == 422 and "UTF-8" in bad.json()["detail"]


def test_openapi_lists_the_media_types(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/search"]["post"]
    media = [ESON_MEDIA_TYPE, TOON_MEDIA_TYPE, "application/json"]
    assert sorted(operation["requestBody"]["content"]) == sorted(media)
    assert sorted(operation["responses"]["200"]["content"]) == sorted(media)
    schema = operation["responses"]["200"]["content"][ESON_MEDIA_TYPE]["schema"]
    assert schema["properties"]["hits"]["items"]["properties"]["severity"]["enum"] == [
        "high",
        "medium",
        "low",
    ]
    assert "$ref" not in str(operation)  # definitions inlined: nothing dangles
    assert "406" in operation["responses"]


def test_plain_starlette_with_a_msgspec_model() -> None:
    with TestClient(starlette_app()) as test_client:
        text = toon.encode(MsgQuery(text="q", limit=1))
        answer = test_client.post(
            "/search", content=text, headers={"content-type": "text/toon", "accept": "text/toon"}
        )
        assert answer.status_code == 200
        assert toon.decode(answer.text, type=Hits).hits[0].path == "src/m0.py"
        refused = test_client.post(
            "/search",
            content=eson.encode({"text": "q", "limit": 1}),
            headers={"content-type": ESON_MEDIA_TYPE},
        )
        assert refused.status_code == 415  # this route reads TOON (and JSON) only
        bad = test_client.post(
            "/search", content="text: q\nlimit: x\n", headers={"content-type": "text/toon"}
        )
        assert bad.status_code == 422 and "limit" in bad.text


def test_media_type_labels() -> None:
    assert format_of("TEXT/VND.ESON ; Version=1; charset=utf-8") == "eson/1"
    assert format_of("text/vnd.eson; version=2") is None
    assert format_of("application/problem+json") == "json"
    assert format_of("text/plain") is None and format_of(None) is None
    assert negotiate("text/toon", offered=("eson/1", "json")) == "json"  # TOON not offered
    assert negotiate("text/toon;q=abc, text/vnd.eson") == "eson/1"  # a malformed q is skipped


def test_a_real_uvicorn_server_on_loopback() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(fastapi_app(), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start within 10 s"
            time.sleep(0.02)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
            answer = http.post(
                "/search",
                content=eson.encode(Query(text="live", limit=200)),
                headers={"content-type": ESON_MEDIA_TYPE, "accept": ESON_MEDIA_TYPE},
            )
            assert answer.status_code == 200 and answer.headers["vary"] == "Accept"
            assert eson.decode(answer.text, type=Hits) == found(Query(text="live", limit=200))
            assert http.get("/hits").headers["content-type"].startswith("application/json")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
    assert not thread.is_alive()
