"""eson.eval against a fake OpenAI-compatible server on 127.0.0.1 (tests/eval_fake.py).

The fake "model" answers from the document it was shown, with scripted
slips, so the scores below are known in advance: scoring, retries with the
feedback, the cache, the caps, the rate limit and the report all run, and
so do the ways an endpoint breaks.  Without the ``eval`` extra (httpx) the
module skips (fails under ``CI=1``).  Every server is bound to 127.0.0.1,
started by the test and shut down after it; every wait is bounded.
"""

from __future__ import annotations

import json
import socket
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import under_ci

try:
    import httpx  # noqa: F401
except ImportError as exc:  # the extra is not installed
    if under_ci():
        pytest.fail(f"CI installs typed-eson[eval]: {exc}", pytrace=False)
    pytest.skip(f"needs typed-eson[eval] (httpx): {exc}", allow_module_level=True)

from eval_fake import FakeServer

import eson
from eson.cli import main
from eson.eval import EvalError

SMALL: dict[str, Any] = {"records": 20, "questions": 2, "timeout": 5, "retries": 1, "max_wait": 2}


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


def _by(report: eson.eval.Report) -> dict[tuple[str, str], Any]:
    return {(r.format, r.kind): r for r in report.comprehension}


def test_a_full_run_scores_the_scripted_slips(server: FakeServer) -> None:
    report = eson.eval.run(server.base_url, "fake", records=24, questions=3, timeout=5)
    rows = _by(report)
    questions = eson.eval.make_questions(
        eson.agent.formats.plain_value(eson.eval.datasets.handoff(24, 0)), per_kind=3
    )
    small_counts = sum(int(q.answer) <= 3 for q in questions if q.kind == "counting")
    for fmt in eson.eval.COMPREHENSION_FORMATS:
        for kind in ("key_lookup", "column_match", "nested_cell", "nested_array"):
            assert rows[fmt, kind].correct == 3, (fmt, kind)  # pretty JSON's "Answer: ..." too
        assert rows[fmt, "counting"].correct == small_counts  # a count above 3 comes back +1
    assert rows["eson", "positional"].correct == 3  # the n column
    assert all(
        rows[fmt, "positional"].correct < 3 for fmt in ("json", "pretty", "columnar", "toon")
    )
    generation = {g.format: g for g in report.generation}
    assert generation["eson"].outcomes == {
        "valid": 1,
        "repaired": 1,
        "retried": 1,
        "invalid": 0,
        "refused": 0,
    }
    assert generation["toon"].outcomes == {
        "valid": 1,
        "repaired": 0,
        "retried": 1,
        "invalid": 1,
        "refused": 0,
    }
    assert generation["json"].outcomes == {
        "valid": 2,
        "repaired": 0,
        "retried": 0,
        "invalid": 0,
        "refused": 1,
    }
    assert [generation[f].exact for f in ("eson", "toon", "json")] == [3, 2, 2]
    # 6 kinds x 3 questions x 5 formats, 3 tasks x 3 formats, plus the retries (1 ESON, 2 TOON, 1 JSON).
    assert server.requests == report.sent == 90 + 9 + 4
    assert report.cached == 0 and report.complete and report.stopped is None
    assert all(r.tokens_in > 0 and r.tokens_out > 0 for r in report.comprehension)
    assert (
        report.document_tokens is None
        or report.document_tokens["eson"] < report.document_tokens["pretty"]
    )


def test_an_interrupted_run_continues_from_the_cache(tmp_path: Path) -> None:
    cache = tmp_path / "answers.jsonl"
    settings = {**SMALL, "formats": ["json", "eson"], "cache": str(cache)}
    with FakeServer() as fake:
        first = eson.eval.run(fake.base_url, "fake", max_requests=15, **settings)
        assert fake.requests == 15
    assert first.stopped == "request cap reached (15 requests)"
    assert not first.complete
    assert len(cache.read_text().splitlines()) == 15
    with FakeServer() as fake:
        second = eson.eval.run(fake.base_url, "fake", **settings)
        rest = fake.requests
    assert second.complete and second.cached == 15 and second.sent == rest
    with FakeServer() as fake:
        fresh = eson.eval.run(fake.base_url, "fake", **{**settings, "cache": None})
        assert fake.requests == 15 + rest  # the same requests, none lost or repeated
    assert second.as_dict()["comprehension"] == fresh.as_dict()["comprehension"]
    assert second.as_dict()["generation"] == fresh.as_dict()["generation"]
    with FakeServer() as fake:
        third = eson.eval.run(fake.base_url, "fake", **settings)
        assert fake.requests == 0 and third.cached == 15 + rest


def test_an_interrupted_run_keeps_its_answers(tmp_path: Path) -> None:
    cache = tmp_path / "answers.jsonl"
    settings = {**SMALL, "formats": ["toon"], "cache": str(cache), "concurrency": 2}

    def interrupt(state: eson.eval.Progress) -> None:
        if state.done == 5:
            raise KeyboardInterrupt

    with FakeServer() as fake:
        with pytest.raises(KeyboardInterrupt):
            eson.eval.run(fake.base_url, "fake", progress=interrupt, **settings)
        asked = fake.answered
    kept = len(cache.read_text().splitlines())
    assert 5 <= kept == asked
    with FakeServer() as fake:
        report = eson.eval.run(fake.base_url, "fake", **settings)
        assert report.complete and report.cached == kept and fake.requests == report.sent
    assert report.sent + kept == 12 + 9 + 4  # 12 questions, 9 documents, 4 retries


def test_the_token_cap_stops_new_requests(server: FakeServer) -> None:
    report = eson.eval.run(server.base_url, "fake", max_tokens=3000, concurrency=1, **SMALL)
    assert report.stopped is not None and report.stopped.startswith("token cap reached")
    assert 0 < server.requests < 20
    assert "stopped early: token cap reached" in report.text()


def test_concurrency_bounds_requests_in_flight() -> None:
    with FakeServer(delay=0.05) as fake:
        eson.eval.run(
            fake.base_url,
            "fake",
            concurrency=3,
            formats=["json"],
            kinds=["key_lookup", "counting"],
            generation_formats=[],
            **SMALL,
        )
        assert fake.max_inflight == 3


def test_the_rate_limit_spaces_requests(server: FakeServer) -> None:
    start = time.monotonic()
    eson.eval.run(
        server.base_url,
        "fake",
        rate=600,
        formats=["json"],
        kinds=["key_lookup"],
        generation_formats=[],
        **{**SMALL, "questions": 5},
    )
    assert server.requests == 5
    assert time.monotonic() - start >= 0.4  # 5 starts, 0.1 s apart


def test_the_key_comes_from_the_environment(
    server: FakeServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FAKE_KEY", "sk-test")
    assert (
        main(
            [
                "eval",
                "--base-url",
                server.base_url,
                "--model",
                "fake",
                "--api-key-env",
                "FAKE_KEY",
                "--no-cache",
                "--formats",
                "json",
                "--kinds",
                "key_lookup",
                "--questions",
                "1",
                "--write-tasks",
                "0",
            ]
        )
        == 0
    )
    assert server.authorization == "Bearer sk-test"
    capsys.readouterr()
    monkeypatch.delenv("FAKE_KEY")
    assert (
        main(
            [
                "eval",
                "--base-url",
                server.base_url,
                "--model",
                "fake",
                "--api-key-env",
                "FAKE_KEY",
                "--no-cache",
                "--formats",
                "json",
                "--kinds",
                "key_lookup",
                "--questions",
                "1",
                "--write-tasks",
                "0",
            ]
        )
        == 0
    )
    assert server.authorization is None


def test_a_user_type_with_generated_data(server: FakeServer) -> None:
    from test_eval import Batch

    report = eson.eval.run(
        server.base_url,
        "fake",
        type=Batch,
        formats=["toon", "eson"],
        generation_formats=["eson"],
        **SMALL,
    )
    rows = _by(report)
    assert {kind for _, kind in rows} == {
        "key_lookup",
        "column_match",
        "nested_array",
        "positional",
        "counting",
    }
    assert rows["eson", "key_lookup"].correct == 1  # one top-level scalar: title
    assert report.generation[0].outcomes["valid"] == 3  # the fake's slips are for the handoff


# -- a broken endpoint: a clear message, the cache intact ----------------------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_refused_connection() -> None:
    with pytest.raises(EvalError, match=r"chat/completions: cannot connect"):
        eson.eval.run(f"http://127.0.0.1:{_closed_port()}/v1", "fake", **SMALL)


@pytest.mark.parametrize(
    "mode,message",
    [
        ("500", r"HTTP 500 after 2 attempts: \{\"error\""),
        ("429", r"HTTP 429 after 2 attempts"),
        ("malformed", r"the reply is not a chat completion: \{\"choices\": \[ not json"),
        ("hang", r"no reply within 0.5 s"),
    ],
)
def test_a_broken_endpoint_ends_with_one_line(mode: str, message: str, tmp_path: Path) -> None:
    with FakeServer(mode=mode) as fake:
        start = time.monotonic()
        with pytest.raises(EvalError, match=message) as failure:
            eson.eval.run(
                fake.base_url,
                "fake",
                concurrency=1,
                cache=str(tmp_path / "c.jsonl"),
                **{**SMALL, "timeout": 0.5, "max_wait": 1.5},
            )
        assert time.monotonic() - start < 10
    assert "\n" not in str(failure.value)
    assert "(0 answers cached in" in str(failure.value)


def test_content_given_as_parts_is_read() -> None:
    with FakeServer(mode="parts") as fake:
        report = eson.eval.run(
            fake.base_url,
            "fake",
            formats=["eson"],
            kinds=["key_lookup"],
            generation_formats=[],
            **SMALL,
        )
    assert report.comprehension[0].correct == 2


def test_429_waits_the_retry_after_and_goes_on() -> None:
    with FakeServer(mode="429-once") as fake:
        start = time.monotonic()
        report = eson.eval.run(
            fake.base_url,
            "fake",
            formats=["json"],
            kinds=["key_lookup"],
            generation_formats=[],
            concurrency=1,
            **SMALL,
        )
        assert time.monotonic() - start >= 1.0  # Retry-After: 1
    assert report.complete and fake.requests == 3  # the 429, then two answers


def test_a_retry_after_longer_than_max_wait_is_an_error() -> None:
    with (
        FakeServer(mode="429") as fake,
        pytest.raises(EvalError, match=r"asked to wait 1 s \(more than 0.5 s\)"),
    ):
        eson.eval.run(fake.base_url, "fake", **{**SMALL, "max_wait": 0.5})


def test_an_endpoint_failing_midway_keeps_its_answers(tmp_path: Path) -> None:
    cache = tmp_path / "answers.jsonl"
    settings = {
        **SMALL,
        "formats": ["eson"],
        "generation_formats": [],
        "cache": str(cache),
        "concurrency": 1,
    }
    with (
        FakeServer(fail_after=5) as fake,
        pytest.raises(EvalError, match=r"HTTP 500 .*\(5 answers cached in"),
    ):
        eson.eval.run(fake.base_url, "fake", **settings)
    assert len(cache.read_text().splitlines()) == 5
    with FakeServer() as fake:
        report = eson.eval.run(fake.base_url, "fake", **settings)
        assert fake.requests == 12 - 5 and report.cached == 5 and report.complete


# -- the command line ------------------------------------------------------------------------


def test_cli_full_run_text_json_and_svg(
    server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache, chart = tmp_path / "c.jsonl", tmp_path / "chart.svg"
    args = [
        "eval",
        "--base-url",
        server.base_url,
        "--model",
        "fake",
        "--records",
        "20",
        "--questions",
        "2",
        "--cache",
        str(cache),
        "--price-in",
        "0.5",
        "--price-out",
        "2",
        "--timeout",
        "5",
    ]
    assert main([*args, "--svg", str(chart)]) == 0
    out = capsys.readouterr()
    assert out.out.startswith(f"eson eval: fake at {server.base_url}\n")
    assert "ESON           positional         2/2     100%    34%-100%" in out.out
    assert "cost" in out.out and out.err == ""  # no progress bar off a terminal
    ET.fromstring(chart.read_text())
    sent = server.requests
    assert main([*args, "--json", "--progress"]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert server.requests == sent  # all from the cache
    assert data["requests"] == {"sent": 0, "cached": sent}
    assert data["complete"] is True
    assert "eval [" in out.err and out.err.endswith(f"({0} sent, {sent} cached)\n")


def test_cli_cap_and_endpoint_errors(
    server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "eval",
        "--model",
        "fake",
        "--records",
        "20",
        "--questions",
        "1",
        "--cache",
        str(tmp_path / "c.jsonl"),
    ]
    assert main([*args, "--base-url", server.base_url, "--max-requests", "3"]) == 1
    out = capsys.readouterr()
    assert "stopped early: request cap reached (3 requests)" in out.out
    assert (
        out.err
        == "error: stopped early: request cap reached (3 requests); run again to continue from the cache\n"
    )
    assert main([*args, "--base-url", f"http://127.0.0.1:{_closed_port()}/v1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: http://127.0.0.1:") and "cannot connect" in err
    assert "3 answers cached in" in err and err.count("\n") == 1


def test_cli_request_parameters_and_supplied_data(
    server: FakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_eval import Batch

    data = tmp_path / "batch.toon"
    data.write_text(eson.toon.encode(eson.eval.datasets.generate(Batch, records=6, seed=9)))
    args = [
        "eval",
        "--base-url",
        server.base_url,
        "--model",
        "fake",
        "--no-cache",
        "--formats",
        "eson",
        "--write-tasks",
        "0",
        "--kinds",
        "positional",
        "--questions",
        "2",
    ]
    assert (
        main(
            [
                *args,
                "--type",
                "tests.test_eval:Batch",
                "--data",
                str(data),
                "--param",
                "max_tokens=",
                "--param",
                "max_completion_tokens=64",
                "--param",
                "reasoning_effort=low",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "data: Batch, 6 records, seed 0" in out  # the supplied document
    assert (
        "ESON           positional         2/2" not in out
    )  # Batch is not numbered: the fake slips
    assert server.parameters == {
        "temperature": 0,
        "max_completion_tokens": 64,
        "reasoning_effort": "low",
    }
    with pytest.raises(SystemExit):
        main([*args, "--param", "=3"])
    assert "expected NAME=JSON" in capsys.readouterr().err
