"""The ``eson`` command line: conversions, files, exit codes and error lines."""

from __future__ import annotations

import io
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from eson.cli import main


class FakeStdio:
    """Binary stdin/stdout stand-ins for calling ``main`` in-process."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def run(monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    out = FakeStdio(b"")
    monkeypatch.setattr(sys, "stdin", FakeStdio(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(argv)
    return code, out.buffer.getvalue().decode("utf-8")


def test_encode_and_decode_through_stdio(monkeypatch: pytest.MonkeyPatch) -> None:
    big = 123456789012345678901234567890
    source = json.dumps({"id": big, "rows": [{"a": "x y", "b": 1.5}]}).encode()
    code, text = run(monkeypatch, ["encode", "--number"], source)
    assert code == 0
    assert text == f"!eson/1\nid={big}\nrows[1]{{n,a,b}}\n1\tx y\t1.5\n"
    code, out = run(monkeypatch, ["decode"], text.encode())
    assert code == 0
    assert out == f'{{"id":{big},"rows":[{{"n":1,"a":"x y","b":1.5}}]}}\n'
    code, out = run(monkeypatch, ["decode", "--json-indent", "2"], text.encode())
    assert json.loads(out) == {"id": big, "rows": [{"n": 1, "a": "x y", "b": 1.5}]}
    assert "\n  " in out


def test_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "in.json"
    target = tmp_path / "out.eson"
    source.write_text('{"a": "é", "s": "\\ud800"}', encoding="utf-8")
    assert run(monkeypatch, ["encode", str(source), "-o", str(target)]) == (0, "")
    assert target.read_text(encoding="utf-8") == '!eson/1\na=é\ns="\\ud800"\n'
    code, out = run(monkeypatch, ["decode", str(target)])
    assert code == 0 and out == '{"a":"é","s":"\\ud800"}\n'


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["decode"], b"!eson/1\nrows[2]{a}\n1\n", "error: line 2: rows: declares 2 rows"),
        (["decode"], b"!eson/1\na=\xff\n", "error: line 2: invalid UTF-8"),
        (["encode"], b"[1, 2]", "error: ESON documents are objects"),
        (["encode"], b"{", "error: invalid JSON: line 1"),
        (["encode"], b'{"a": NaN}', "error: invalid JSON: NaN"),
        (["encode"], b'{"bad name": 1}', "error: invalid name 'bad name'"),
        (["encode"], b'{"a": 1e999}', "error: a: non-finite number inf"),
        (["decode", "/no/such/file"], b"", "error: cannot read /no/such/file"),
    ],
)
def test_invalid_input_exits_1_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: bytes,
    message: str,
) -> None:
    code, out = run(monkeypatch, argv, stdin)
    err = capsys.readouterr().err
    assert code == 1 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "eson: error: the following arguments are required: COMMAND"),
        (["bogus"], "eson: error: argument COMMAND: invalid choice: 'bogus'"),
        (["decode", "--json-indent", "-1"], "eson decode: error: argument --json-indent: must be from 0 to 32"),
        (["decode", "--json-indent", "1000000000"], "eson decode: error: argument --json-indent: must be from 0 to 32"),
        (["toon", "encode", "--indent", "1000000000"], "eson toon encode: error: argument --indent: must be from 1 to 32"),
        (["toon", "decode", "--indent", "0"], "eson toon decode: error: argument --indent: must be from 1 to 32"),
        (["encode", "--nope"], "eson: error: unrecognized arguments: --nope"),
        (["toon"], "eson toon: error: the following arguments are required: COMMAND"),
        (["toon", "encode", "--delimiter", ";"], "eson toon encode: error: argument --delimiter"),
        # --indent is TOON's spaces per level in every command; JSON output has --json-indent.
        (["decode", "--indent", "2"], "eson decode: error: --indent is TOON's spaces per level; pretty-print JSON with --json-indent N"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1
    assert err.endswith("--help)\n")


def test_demo_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "eson", "demo"], capture_output=True, text=True, check=True
    )
    from eson.agent.tokens import token_backends

    unit = "tokens" if token_backends() else "characters"
    assert "--- ESON (" in done.stdout and "--- TOON (" in done.stdout
    assert f" {unit}, -" in done.stdout and "--- compact JSON (" in done.stdout
    assert "    def tour() -> dict[str, str]:" in done.stdout  # the code that ran
    assert 'line 9: findings row 2 (line): expected int, got "one-eighteen"' in done.stdout


def test_console_script_round_trip() -> None:
    value: dict[str, Any] = {"kind": "x", "rows": [{"a": 1}, {"a": 2}]}
    encoded = subprocess.run(
        [sys.executable, "-m", "eson", "encode"],
        input=json.dumps(value),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    decoded = subprocess.run(
        [sys.executable, "-m", "eson", "decode"],
        input=encoded,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(decoded) == value
    failed = subprocess.run(
        [sys.executable, "-m", "eson", "decode"], input="nope\n", capture_output=True, text=True
    )
    assert failed.returncode == 1
    assert failed.stderr == "error: line 1: expected the header !eson/1, got 'nope'\n"


def test_toon_commands(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    source = json.dumps({"items": [{"id": 1, "name": "a b"}, {"id": 2, "name": "c"}]}).encode()
    code, text = run(monkeypatch, ["toon", "encode"], source)
    assert code == 0 and text == "items[2]{id,name}:\n  1,a b\n  2,c\n"
    code, text = run(monkeypatch, ["toon", "encode", "--delimiter", "tab", "--indent", "4"], source)
    assert code == 0 and text == "items[2\t]{id\tname}:\n    1\ta b\n    2\tc\n"
    code, out = run(monkeypatch, ["toon", "decode", "--indent", "4"], text.encode())
    assert code == 0 and json.loads(out) == json.loads(source)
    code, out = run(monkeypatch, ["toon", "decode", "--json-indent", "2"], b"a: 1\n")
    assert code == 0 and out == '{\n  "a": 1\n}\n'
    # Strict decoding rejects a short table; --no-strict reads what is there.
    short = b"items[3]{id}:\n  1\n  2\n"
    code, out = run(monkeypatch, ["toon", "decode"], short)
    err = capsys.readouterr().err
    assert code == 1 and out == "" and err.startswith("error: line ")
    code, out = run(monkeypatch, ["toon", "decode", "--no-strict"], short)
    assert code == 0 and json.loads(out) == {"items": [{"id": 1}, {"id": 2}]}


# -- the real command in a subprocess: output that cannot be written, and signals ------

ESON_COMMAND = [sys.executable, "-m", "eson"]


def _big_document(tmp_path: Path) -> Path:
    """An ESON file whose JSON output is far larger than a pipe's buffer."""
    path = tmp_path / "big.eson"
    rows = "".join(f"{i}\tsome text to fill the pipe\n" for i in range(1, 40001))
    path.write_text(f"!eson/1\nrows[40000]{{id,text}}\n{rows}", encoding="utf-8")
    return path


def _one_error_line(stderr: bytes) -> str:
    text = stderr.decode("utf-8")
    assert "Traceback" not in text and text.count("\n") == 1, text
    assert text.startswith("error: ") or ": error: " in text, text
    return text


def test_a_full_disk_is_an_error(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    source = _big_document(tmp_path)
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*ESON_COMMAND, "decode", str(source)], stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1
    assert _one_error_line(done.stderr) == "error: cannot write standard output: No space left on device\n"
    done = subprocess.run(
        [*ESON_COMMAND, "decode", str(source), "-o", "/dev/full"], capture_output=True
    )
    assert done.returncode == 1
    assert _one_error_line(done.stderr) == "error: cannot write /dev/full: No space left on device\n"


def test_a_broken_pipe_is_an_error(tmp_path: Path) -> None:
    """``eson decode big.eson | head -1``: the lost output is reported, not hidden."""
    reader, writer = os.pipe()
    process = subprocess.Popen(
        [*ESON_COMMAND, "decode", str(_big_document(tmp_path))], stdout=writer, stderr=subprocess.PIPE
    )
    os.close(writer)
    assert os.read(reader, 1) == b"{"  # the command is writing: now stop reading
    os.close(reader)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 1
    assert _one_error_line(stderr) == (
        "error: standard output was closed before all output was written (broken pipe)\n"
    )


@pytest.mark.parametrize(
    ("redirect", "message"),
    [
        (">&-", "error: cannot write standard output: it is closed\n"),
        ("<&-", "error: cannot read standard input: it is closed\n"),
    ],
)
def test_closed_standard_streams(redirect: str, message: str, tmp_path: Path) -> None:
    source = tmp_path / "a.eson"
    source.write_text("!eson/1\na=1\n", encoding="utf-8")
    argument = "" if redirect == "<&-" else shlex.quote(str(source))
    command = " ".join(shlex.quote(part) for part in ESON_COMMAND) + f" decode {argument} {redirect}"
    done = subprocess.run(["sh", "-c", command], capture_output=True)
    assert done.returncode == 1
    assert _one_error_line(done.stderr) == message


def test_closed_standard_error_still_sets_the_status() -> None:
    command = " ".join(shlex.quote(part) for part in ESON_COMMAND) + " decode 2>&-"
    done = subprocess.run(["sh", "-c", command], input=b"not eson", capture_output=True)
    assert done.returncode == 1 and done.stdout == b""


def test_ctrl_c_is_one_line_and_status_130() -> None:
    process = subprocess.Popen(
        [*ESON_COMMAND, "decode"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdin is not None
    process.stdin.write(b"!eson/1\n")
    process.stdin.flush()
    time.sleep(2)  # let it start and block on reading the rest of its input
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert _one_error_line(stderr) == "error: interrupted\n"


def test_huge_indent_is_refused_before_any_output(tmp_path: Path) -> None:
    source = tmp_path / "a.eson"
    source.write_text("!eson/1\na=[[[1]]]\n", encoding="utf-8")
    for argv in (["decode", "--json-indent", "1000000000"], ["toon", "decode", "--json-indent", "99"]):
        done = subprocess.run([*ESON_COMMAND, *argv, str(source)], capture_output=True)
        assert done.returncode == 2 and done.stdout == b""
        assert "must be from 0 to 32" in _one_error_line(done.stderr)
