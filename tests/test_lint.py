"""``eson.lint`` and ``eson lint``: the Wire Profile's W1/W4/W5/W6, as the reference checks them.

The differential tests run the reference linter (``js/lint.js`` beside the
spec, in node) on the same payloads -- the five reference documents in
every format, hand-written edge cases (JavaScript number and string
semantics, property order, carve-out spellings, damaged ESON) and
generated JSON values -- and require the same findings in the same order:
rule, level and message (for W4 only rule and level: the decode error
wording is each implementation's own).  The command line is compared too:
the same stderr lines and the same exit status as ``node cli.js lint``.

One documented difference (docs/eson.md): a raw U+2028/U+2029 inside an
ESON scalar line, which the JavaScript reference's line pattern cannot
read (W4) and this library's decoder reads as the character it is.
Without node these tests skip, except under CI, where they fail.
"""

from __future__ import annotations

import contextlib
import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import bench_datasets, have_shared, node_executable, shared_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eson
from eson import columnar, toon
from eson.agent.linter import LintFinding, LintReport, lint

BRIDGE = Path(__file__).resolve().parent / "interop" / "lint_bridge.js"


def _reference_js() -> Path:
    return shared_path("reference", "eson", "js", "lint.js").parent


def _need_node() -> str:
    node = node_executable()
    _reference_js()
    return node


def _units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return list(struct.unpack(f"<{len(data) // 2}H", data))


def _reference(texts: list[str]) -> list[list[tuple[str, str, str]]]:
    node = _need_node()
    done = subprocess.run(
        [node, str(BRIDGE), str(_reference_js())],
        input=json.dumps([_units(text) for text in texts]),
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    results = []
    for answer in json.loads(done.stdout):
        assert answer["ok"], answer
        results.append([(f["rule"], f["level"], f["message"]) for f in answer["findings"]])
    return results


def _ours(text: str) -> list[tuple[str, str, str]]:
    return [(f.rule, f.level, f.message) for f in lint(text)]


def _same(ours: list[tuple[str, str, str]], theirs: list[tuple[str, str, str]]) -> bool:
    if [f[:2] for f in ours] != [f[:2] for f in theirs]:
        return False
    return all(a == b for a, b in zip(ours, theirs) if a[0] != "W4")


def _documents() -> dict[str, Any]:
    """The five published documents (none in a bare clone without shared/: the rest still runs)."""
    if not have_shared("reference", "eson", "bench-datasets.json"):
        return {}
    return bench_datasets()


def _corpus() -> list[str]:
    texts: list[str] = []
    for value in _documents().values():
        eson_text = eson.encode(value, number=True)
        texts += [
            json.dumps(value, separators=(",", ":"), ensure_ascii=False),
            json.dumps(value, indent=2),
            json.dumps(value, indent=1, ensure_ascii=False),
            json.dumps(value),  # ", " and ": " separators
            " " + json.dumps(value, separators=(",", ":")) + "\n",
            columnar.encode(value),
            eson.encode(value),
            eson_text,
            eson_text.replace("\n", "\r\n"),
            toon.encode(value),  # neither ESON nor JSON for the reference
        ]
        lines = eson_text.splitlines(keepends=True)
        if len(lines) > 6:
            texts.append("".join(lines[:-1]))  # a row dropped: count mismatch
            texts.append("".join(lines[:4] + lines[5:]))
    texts += [
        '{"a":1.0}',
        '{"a":1e2,"b":-0,"c":0.10}',
        '{"a":12345678901234567890}',
        '{"a":1e400}',
        '{"a":"\\u00e9","b":"\\/"}',
        '{"a":"é"}',
        '{"a":"\\ud800","b":"\\ud83d\\ude00"}',
        "[1, 2]",
        "[]",
        "{}",
        "null",
        '"just a string"',
        '{"payment":{"#c":["a"],"#r":[[1]]}}',
        '{"items":{"#c":["payment"],"#r":[[1]]}}',
        '{"rows":[{"password":1},{"password":2},{"password":3}]}',
        '{"rows":[{"b":1,"1":2},{"1":3,"b":4},{"b":5,"1":6}]}',
        '{"2":{"x":[{"a":1},{"a":1},{"a":1}]},"1":[{"a":1},{"a":1},{"a":1}],"10":0}',
        '{"x":{"#c":["a"],"#r":[[1]],"payments":{"#c":[],"#r":[]}}}',
        '{"Auth_Tokens":{"#c":[],"#r":[]}}',
        '{"auth_tokens\\n":{"#c":[],"#r":[]}}',
        '{"\\u017fecret":{"#c":[],"#r":[]},"API-KEY":{"#c":[],"#r":[]},"apikeys":{"#c":[],"#r":[]}}',
        '{"a":{"#c":["x"],"#r":[[1],[2,3]]},"b":[{"a":1},{"a":2},{"a":3}]}',
        '[{"a":{"#c":["x"],"#r":[[1]]}},{"a":1},{"a":2}]',
        '[{"#c":["x"],"#r":[]},{"#c":["x"],"#r":[]},{"#c":["x"],"#r":[]}]',
        '{"a":[{},{},{}]}',
        '{"__proto__":[{"a":1},{"a":2},{"a":3}]}',
        "\u00a0{\"a\":1}\u3000",
        '{ "a" : 1 }',
        '{"a":[1,2,3]}\n\n',
        '{"a":NaN}',
        "",
        "   ",
        "hello",
        "!eson/1\napi_key=x\nrows[1]{Secret}\n1\n",
        '!eson/1\nx=[{"JWT":1,"drop":{"transfers":2}}]\nmigration{a}\n1\n',
        "!eson/1\nrows[2]{a}\n1\n",
        "!eson/1\nrows[2]{n,a}\n1\tx\n3\ty\n",
        "!eson/1\nrows[2]{a,b}\n1\n2\t3\n",
        "!eson/10\n",
        "!eson/1",
        "!eson/1\n\n",
        "!eson/1\r\na=1\r\n",
        "!eson/1\na=1\na=2\n",
        "!eson/1\nrows[01]{a}\nx\n",
    ]
    return texts


CORPUS = _corpus()


def test_corpus_matches_the_reference() -> None:
    theirs = _reference(CORPUS)
    mismatches = [
        (text[:60], ours, ref)
        for text, ours, ref in zip(CORPUS, map(_ours, CORPUS), theirs)
        if not _same(ours, ref)
    ]
    assert not mismatches, mismatches[:3]
    rules = {finding[0] for findings in theirs for finding in findings}
    assert rules == {"W1", "W4", "W5", "W6"}  # the corpus exercises every rule


def test_the_documented_difference() -> None:
    text = "!eson/1\na=x\u2028y\n"
    assert _reference([text])[0][0][:2] == ("W4", "error")
    assert _ours(text) == []
    assert eson.decode(text) == {"a": "x\u2028y"}


def test_the_documented_difference_a_leading_bom() -> None:
    # The reference reads a byte-order mark as part of the payload (neither
    # ESON nor JSON); this library's readers skip it, and so does its linter.
    for text in ("\ufeff!eson/1\na=1\n", '\ufeff{"a":1}'):
        assert _reference([text])[0][0][:2] == ("W1", "error")
        assert _ours(text) == _ours(text[1:])
    assert _ours("\ufeff!eson/1\na=1\n") == []
    assert eson.decode("\ufeff!eson/1\na=1\n") == {"a": 1}


keys = st.sampled_from(
    ["a", "b", "id", "name", "0", "1", "10", "#c", "#r", "payment", "Passwords", "api_key",
     "ACCESS_TOKEN", "drop", "dropped", "n", "caf\u00e9", ""]
)
leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)
records = st.lists(st.fixed_dictionaries({"a": leaves, "payment": leaves}), min_size=0, max_size=4)
payloads = st.one_of(
    values,
    st.dictionaries(keys, st.one_of(values, records), max_size=4),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(payloads, min_size=20, max_size=20), st.randoms(use_true_random=False))
def test_generated_payloads_match_the_reference(batch: list[Any], rng: Any) -> None:
    texts: list[str] = []
    for value in batch:
        texts.append(json.dumps(value, separators=(",", ":"), ensure_ascii=rng.random() < 0.3))
        texts.append(json.dumps(value, indent=rng.choice([None, 1, 2])))
        with contextlib.suppress(eson.EncodeError):
            texts.append(columnar.encode(value))
        if isinstance(value, dict):
            with contextlib.suppress(eson.EncodeError):
                texts.append(eson.encode(value, number=rng.random() < 0.5))
    theirs = _reference(texts)
    for text, ref in zip(texts, theirs):
        assert _same(_ours(text), ref), (text[:200], _ours(text), ref)


def test_report_api() -> None:
    report = lint('{\n  "a": [{"x": 1}, {"x": 2}, {"x": 3}]\n}')
    assert isinstance(report, LintReport) and not report.ok and report.exit_code == 1
    assert [f.rule for f in report] == ["W1", "W5"] and len(report) == 2
    assert str(report.findings[1]).startswith("hint  W5: uniform record array at $.a")
    clean = lint(b'{"a":1}')
    assert clean.ok and clean.exit_code == 0 and clean.lines() == ["ok \u2014 no wire-profile findings"]
    suggestion = lint('[{"x":1},{"x":2},{"x":3}]')
    assert suggestion.ok and suggestion.findings == (
        LintFinding("W5", "suggestion", suggestion.findings[0].message),
    )


def test_toon_option() -> None:
    text = toon.encode({"payment": {"amount": 5}, "rows": [{"a": 1}, {"a": 2}]})
    assert [f.message for f in lint(text)] == ["payload is neither ESON (!eson/1) nor valid JSON"]
    report = lint(text, toon=True)
    assert [(f.rule, f.level) for f in report] == [("W6", "error")]
    assert "not TOON" in report.findings[0].message
    damaged = "rows[3]{a}:\n  1\n  2"
    assert [(f.rule, f.level) for f in lint(damaged, toon=True)] == [("W4", "error")]
    assert lint("rows[2]{a}:\n  1\n  2", toon=True).ok


class Row(eson.Record):
    a: int


class Doc(eson.Message):
    rows: list[Row]


def test_type_option() -> None:
    good = Doc(rows=[Row(a=1), Row(a=2)])
    for text in (good.to_eson(), good.to_toon(), columnar.encode(good), good.model_dump_json()):
        assert lint(text, type=Doc, toon=True).ok, text
    report = lint('!eson/1\nrows[2]{a}\n1\nx\n', type=Doc)
    assert [(f.rule, f.level) for f in report] == [("type", "error")]
    assert report.findings[0].message == (
        'payload does not validate as Doc: line 4: rows row 2 (a): expected int, got "x"'
    )
    assert [f.rule for f in lint("hello", type=Doc)] == ["W1", "type"]


# -- the command line against `node cli.js lint` -------------------------------------------


CLI_CASES = [
    '{"a":1}',
    '{\n  "a": 1\n}',
    '[{"x":1},{"x":2},{"x":3}]',
    '{"payment":{"#c":["a"],"#r":[[1]]}}',
    "!eson/1\nrows[2]{a}\n1\n",
    "!eson/1\npassword=x\n",
    "not a payload",
]


@pytest.mark.parametrize("text", CLI_CASES)
def test_command_line_matches_the_reference(text: str) -> None:
    node = _need_node()
    theirs = subprocess.run(
        [node, str(_reference_js() / "cli.js"), "lint"],
        input=text.encode(),
        capture_output=True,
        timeout=60,
    )
    ours = subprocess.run(
        [sys.executable, "-m", "eson", "lint"], input=text.encode(), capture_output=True, timeout=60
    )
    assert ours.returncode == theirs.returncode
    assert ours.stdout == theirs.stdout == b""
    our_lines = ours.stderr.decode().splitlines()
    their_lines = theirs.stderr.decode().splitlines()
    assert len(our_lines) == len(their_lines)
    for mine, reference in zip(our_lines, their_lines):
        if " W4: " in reference:
            assert mine.startswith("ERROR W4: ESON payload fails integrity decode: ")
        else:
            assert mine == reference


def test_command_line_type_option(tmp_path: Path) -> None:
    (tmp_path / "lint_models.py").write_text(
        "import eson\n"
        "class Row(eson.Record):\n    a: int\n"
        "class Doc(eson.Message):\n    rows: list[Row]\n",
        encoding="utf-8",
    )
    payload = tmp_path / "payload.eson"
    payload.write_text("!eson/1\nrows[1]{a}\nx\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-m", "eson", "lint", str(payload), "--type", "lint_models:Doc"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr == (
        'ERROR type: payload does not validate as Doc: line 3: rows row 1 (a): expected int, got "x"\n'
    )
    payload.write_text("!eson/1\nrows[1]{a}\n7\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "eson", "lint", str(payload), "--type", "lint_models:Doc"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "ok \u2014 no wire-profile findings\n")
    bad = subprocess.run(
        [sys.executable, "-m", "eson", "lint", str(payload), "--type", "nowhere"],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60,
    )
    assert bad.returncode == 2 and "expected module:Model" in bad.stderr


@pytest.mark.parametrize("depth", [10, 499, 501, 5000])
def test_deep_payloads_never_crash(depth: int) -> None:
    array = "[" * depth + "]" * depth
    obj = '{"payment":' * depth + "1" + "}" * depth
    expected = [] if depth < 500 else ["W1"]
    assert [f.rule for f in lint(array)] == expected
    assert [f.rule for f in lint(obj)] == expected  # no columnar block: W6 does not apply
    assert eson.detect(array) == ("json" if depth < 500 else "prose")
    nested = "!eson/1\na=" + "[" * min(depth, 499) + "]" * min(depth, 499) + "\n"
    assert lint(nested).ok


@pytest.mark.parametrize(
    "payload",
    [
        "!eson/1\nkind=review\nfindings[1]{n,file}\n1\ta.py\n",
        '{"kind":"review","findings":[{"file":"a.py"}]}',
        '{\n  "kind": "review"\n}',
    ],
)
def test_a_leading_bom_is_skipped_as_decode_and_detect_skip_it(payload: str) -> None:
    import eson

    with_bom = "\ufeff" + payload
    assert eson.detect(with_bom) == eson.detect(payload)
    assert eson.lint(with_bom) == eson.lint(payload)
    assert eson.lint(with_bom.encode("utf-8")) == eson.lint(payload)
    if payload.startswith("!eson/"):
        assert eson.decode(with_bom) == eson.decode(payload)
        assert eson.lint(with_bom).ok
