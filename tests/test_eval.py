"""eson.eval without an endpoint: data, questions, the normaliser, intervals, cache, report, CLI checks.

Nothing here needs httpx; tests/test_eval_endpoint.py runs against the fake server.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Literal

import msgspec
import pytest

import eson
from eson.agent.formats import plain_value
from eson.cli import main
from eson.eval import datasets, is_correct, make_questions, normalize, wilson
from eson.eval.cache import Answer, AnswerCache, request_key
from eson.eval.report import ComprehensionResult, GenerationResult, Report


def test_import_eson_loads_neither_eval_nor_httpx() -> None:
    code = (
        "import sys, eson; assert 'eson.eval' not in sys.modules; assert 'httpx' not in sys.modules;"
        "eson.eval.run; assert 'eson.eval' in sys.modules; assert 'httpx' not in sys.modules;"
        "import eson.cli; eson.cli.build_parser(); assert 'httpx' not in sys.modules; print('ok')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "ok", result.stderr


# -- data -------------------------------------------------------------------------------


def test_handoff_is_seeded_with_unique_keys() -> None:
    first, again, other = datasets.handoff(40, 7), datasets.handoff(40, 7), datasets.handoff(40, 8)
    assert first == again
    assert first != other
    assert len(first.findings) == 40
    assert len({f.file for f in first.findings}) == 40
    assert len({f.line for f in first.findings}) == 40
    # The file name does not give the row number away (positional questions).
    assert not all(f.file.endswith(f"_{i}.py") for i, f in enumerate(first.findings, 1))
    assert eson.decode(eson.encode(first), type=datasets.Handoff) == first


class Item(msgspec.Struct):
    name: str
    size: int
    kind: Literal["a", "b"]
    tags: list[str]


class Batch(eson.msgspec.Message):
    title: str
    items: list[Item]


class PydanticRow(eson.Record):
    label: str
    score: float
    ok: bool


class PydanticBatch(eson.Message):
    owner: str
    rows: list[PydanticRow]


@pytest.mark.parametrize("cls,array", [(Batch, "items"), (PydanticBatch, "rows")])
def test_generate_makes_seeded_documents_of_a_user_type(cls: type, array: str) -> None:
    value = datasets.generate(cls, records=12, seed=3)
    assert isinstance(value, cls)
    assert len(getattr(value, array)) == 12
    assert datasets.generate(cls, records=12, seed=3) == value
    assert datasets.generate(cls, records=12, seed=4) != value


class Unmakeable(eson.msgspec.Message):
    value: uuid.UUID  # no made-up values for UUIDs


def test_generate_names_the_field_it_cannot_make() -> None:
    with pytest.raises(datasets.DataError, match=r"Unmakeable\.value: supply the data"):
        datasets.generate(Unmakeable)


@pytest.mark.parametrize("format", ["eson", "toon", "columnar", "json"])
def test_load_reads_supplied_data_in_each_format(format: str) -> None:
    value = datasets.generate(Batch, records=4, seed=1)
    text = eson.eval.render(value, format)
    assert datasets.load(Batch, text) == value


def test_load_rejects_data_the_type_rejects() -> None:
    with pytest.raises(datasets.DataError, match="does not read as Batch"):
        datasets.load(Batch, '{"title": "t", "items": [{"name": "x"}]}')
    with pytest.raises(datasets.DataError, match="not ESON, TOON or JSON"):
        datasets.load(Batch, "just some prose")


# -- questions --------------------------------------------------------------------------

DOCUMENT = {
    "id": "batch-1",
    "done": False,
    "items": [
        {"key": "a", "size": 10, "kind": "x", "owner": {"team": "core"}, "tags": ["t1", "t2"]},
        {"key": "b", "size": 20, "kind": "x", "owner": {"team": "ui"}, "tags": []},
        {"key": "c", "size": 30, "kind": "y", "owner": {"team": "core"}, "tags": ["t3"]},
    ],
}


def _all(kind: str) -> dict[str, str]:
    return {q.text: q.answer for q in make_questions(DOCUMENT, [kind], per_kind=1000)}  # type: ignore[list-item]


def test_questions_of_each_kind_have_the_right_answers() -> None:
    where = 'In the "items" records, '
    assert _all("key_lookup") == {
        'What is the value of the top-level field "id"?': "batch-1",
        'What is the value of the top-level field "done"?': "false",
    }
    column = _all("column_match")
    assert column[where + 'what is the "size" of the record whose "key" is "b"?'] == "20"
    assert column[where + 'what is the "kind" of the record whose "size" is 30?'] == "y"
    assert not any('"owner" of' in text or '"tags" of' in text for text in column)
    nested = _all("nested_cell")
    assert nested == {
        where + f'what is "owner.team" of the record whose "{key}" is {value}?': team
        for key, values in (("key", ['"a"', '"b"', '"c"']), ("size", ["10", "20", "30"]))
        for value, team in zip(values, ["core", "ui", "core"])
    }
    items = _all("nested_array")
    assert (
        items[
            where
            + 'what is item 2 (counting from 1) of the "tags" list of the record whose "key" is "a"?'
        ]
        == "t2"
    )
    assert len(items) == 6  # three tags, two key columns
    positional = _all("positional")
    assert positional[where + 'what is the "key" of record number 3 (counting from 1)?'] == "c"
    assert positional[where + 'what is the "size" of record number 1 (counting from 1)?'] == "10"
    counting = _all("counting")
    assert counting == {
        where + 'how many records have "kind" equal to "x"?': "2",
        where + 'how many records have "kind" equal to "y"?': "1",
    }


def test_questions_are_seeded_and_bounded_per_kind() -> None:
    value = plain_value(datasets.handoff(30, 1))
    first = make_questions(value, per_kind=4, seed=5)
    assert first == make_questions(value, per_kind=4, seed=5)
    assert first != make_questions(value, per_kind=4, seed=6)
    assert [q.kind for q in first] == [k for k in eson.eval.KINDS for _ in range(4)]
    assert len({q.text for q in first}) == len(first)


def test_a_kind_with_nothing_to_ask_gives_no_questions() -> None:
    flat = {"id": "x", "rows": [{"a": 1, "b": "u"}, {"a": 2, "b": "v"}]}
    assert make_questions(flat, ["nested_cell", "nested_array"]) == []
    with pytest.raises(ValueError, match="unknown question kind"):
        make_questions(flat, ["lookup"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    "reply,expected",
    [
        ('Answer: "src/auth/token.py".', "src/auth/token.py"),
        ("```\nhigh\n```", "high"),
        ("  `High`  ", "high"),
        ("118.0", "118"),
        ("1e2", "100"),
        ("set the   ttl\nfrom settings", "set the ttl from settings"),
        ("null", "null"),
        ("\u201ccore\u201d", "core"),
        ("<think>The row with line 42 says high.\nSo: low?</think>\nhigh", "high"),
    ],
)
def test_normaliser_accepts_the_same_answer_written_differently(reply: str, expected: str) -> None:
    assert is_correct(reply, expected)


@pytest.mark.parametrize(
    "reply,expected",
    [
        ("The file is src/a.py", "src/a.py"),
        ("119", "118"),
        ("src/a.py, line 3", "src/a.py"),
        ("", "null"),
        ("nan", "nan-x"),
        ("high <think>x</think>", "high"),
    ],
)
def test_normaliser_rejects_other_answers(reply: str, expected: str) -> None:
    assert not is_correct(reply, expected)


def test_normalize_is_documented_behaviour() -> None:
    assert normalize('Answer: "Reviewer".') == "reviewer"
    assert normalize("4.") == "4."  # a number keeps its point
    assert normalize("done.") == "done"


# -- intervals, cache, report -------------------------------------------------------------


def test_wilson_interval_values() -> None:
    assert wilson(5, 5) == pytest.approx((0.5655, 1.0), abs=1e-4)
    assert wilson(0, 5) == pytest.approx((0.0, 0.4345), abs=1e-4)
    assert wilson(81, 100) == pytest.approx((0.7222, 0.8749), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_cache_survives_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "cache.jsonl"
    cache = AnswerCache(path)
    messages = [{"role": "user", "content": "q"}]
    key = request_key("m", messages, {"temperature": 0})
    assert key != request_key("other", messages, {"temperature": 0})
    assert key != request_key("m", messages, {"temperature": 1})
    cache.put(key, Answer("42", 10, 2))
    cache.put("k2", Answer("x", 1, 1))
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('{"key": "k3", "text": "cut sh')
    again = AnswerCache(path)
    assert len(again) == 2
    assert again.get(key) == Answer("42", 10, 2, cached=True)
    assert len(path.read_text().splitlines()) == 3


def test_client_without_httpx_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from eson.eval.client import ChatClient

    monkeypatch.setitem(sys.modules, "httpx", None)
    with pytest.raises(ImportError, match=r"typed-eson\[eval\]"):
        ChatClient("http://127.0.0.1:9/v1", "m")
    with pytest.raises(eson.eval.EvalError, match=r"typed-eson\[eval\]"):
        eson.eval.run("http://127.0.0.1:9/v1", "m", questions=1)


def _report() -> Report:
    return Report(
        model="m",
        base_url="http://127.0.0.1:1/v1",
        type_name="Handoff",
        records=10,
        seed=0,
        comprehension=[
            ComprehensionResult("eson", "positional", 4, 5, 5, 1000, 10),
            ComprehensionResult("json", "positional", 1, 5, 5, 2000, 10),
            ComprehensionResult("json", "counting", 0, 2, 5, 800, 4),
        ],
        generation=[
            GenerationResult(
                "eson",
                {"valid": 1, "repaired": 1, "retried": 0, "invalid": 0, "refused": 1},
                2,
                3,
                3,
                500,
                100,
            )
        ],
        sent=12,
        cached=3,
        stopped="request cap reached (12 requests)",
        prices=(1.0, 4.0),
    )


def test_report_text_json_and_chart() -> None:
    report = _report()
    text = report.text()
    assert "ESON           positional         4/5      80%     38%-96%" in text
    assert "0/2 of 5" in text
    assert "stopped early: request cap reached" in text
    data = json.loads(report.to_json())
    assert data["complete"] is False
    assert data["comprehension"][0]["cost"] == pytest.approx((1000 * 1 + 10 * 4) / 1e6)
    assert data["generation"][0]["refused"] == 1
    svg = ET.fromstring(report.svg())
    bars = [
        e
        for e in svg.iter("{http://www.w3.org/2000/svg}rect")
        if e.find("{http://www.w3.org/2000/svg}title") is not None
    ]
    assert [b.find("{http://www.w3.org/2000/svg}title").text for b in bars] == [  # type: ignore[union-attr]
        "positional, ESON: 4/5",
        "positional, compact JSON: 1/5",
        "counting, compact JSON: 0/2",
    ]


# -- the command line, before any request ----------------------------------------------------


def test_cli_usage_and_setting_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as usage:
        main(["eval", "--model", "m"])
    assert usage.value.code == 2
    assert "--base-url" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["eval", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--kinds", "lookup"])
    assert usage.value.code == 2
    assert "'lookup': choose from" in capsys.readouterr().err
    data = tmp_path / "d.json"
    data.write_text("{}")
    assert (
        main(["eval", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--data", str(data)])
        == 1
    )
    assert capsys.readouterr().err == "error: --data needs --type module:Class\n"
    assert (
        main(["eval", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--price-in", "1"])
        == 1
    )
    assert capsys.readouterr().err == "error: give both --price-in and --price-out, or neither\n"
    assert (
        main(
            [
                "eval",
                "--base-url",
                "u",
                "--model",
                "m",
                "--type",
                "tests.test_eval:Batch",
                "--data",
                str(data),
            ]
        )
        == 1
    )
    assert "does not read as Batch" in capsys.readouterr().err
