"""The mutation fuzzer (``tests/fuzzing.py``) in the suite: a bounded, seeded run.

``FUZZ_CASES`` (default 2000, a few seconds) and ``FUZZ_SEED`` (default: a
fixed seed, so CI is reproducible) choose the run; ``tools/fuzz.py
--minutes N`` runs long campaigns.  A failure prints the shrunk input and the
``(seed, case)`` that reproduces it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzing

import eson

CASES = int(os.environ.get("FUZZ_CASES", "2000"))
SEED = int(os.environ.get("FUZZ_SEED", "20240801"))


def test_fuzz_every_decoder() -> None:
    report = fuzzing.run(SEED, range(CASES))
    assert report.cases == CASES
    assert not report.new, "\n\n".join(map(str, report.new))


def test_the_oracle_catches_each_kind_of_failure() -> None:
    """The properties the fuzzer checks fail when they should (no oracle that cannot fail)."""

    class Loud(eson.ESONError):
        pass

    assert fuzzing.message_problems(KeyError("x"))[0].startswith("foreign exception KeyError")
    long_line = eson.DecodeError("x", line=1)
    long_line.args = ("x" * 2000,)
    assert any("2000 characters" in p for p in fuzzing.message_problems(long_line))
    two_lines = eson.DecodeError("x", line=1)
    two_lines.args = ("a\nb",)
    assert any("spans lines" in p for p in fuzzing.message_problems(two_lines))
    unplaced = Loud("somewhere")
    assert any("without a line" in p for p in fuzzing.message_problems(unplaced))
    assert fuzzing.message_problems(eson.DecodeError("fine", line=3)) == []


def test_a_case_is_reproducible() -> None:
    assert fuzzing.make_case(7, 123) == fuzzing.make_case(7, 123)
    assert {fuzzing.make_case(7, index).data for index in range(50)}.__len__() > 40


def test_issue_8_item_3_stays_fixed() -> None:
    """Once the fuzzer's one known failure (lenient TOON, a key twice), now fixed."""
    case = fuzzing.Case(0, 0, "toon", "items[1]:\n  - id: 1\n    name: a\nitems[1]:\n  - name: b")
    assert fuzzing.check(case) == []


def test_the_replies_oracle_catches_each_kind_of_failure(monkeypatch: Any) -> None:
    """check_replies (issue 9's readers) fails when a reader lies (no oracle that cannot fail)."""
    case = fuzzing.Case(0, 0, "eson", "!eson/1\nkind=x\nrows[1]{a}\n1\n")
    assert fuzzing.check_replies(case, case.data) == []  # type: ignore[arg-type]

    def problems() -> set[str]:
        return {failure.problem for failure in fuzzing.check_replies(case, case.data)}  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(eson.StreamDecoder, "close", lambda self: {"kind": "y"})
        assert "the stream gives another value" in problems()
    decode = eson.decode
    with monkeypatch.context() as patch:
        patch.setattr(
            eson, "decode", lambda text, **o: {"kind": "z"} if o.get("strict") is False else decode(text, **o)
        )
        assert "lenient reading differs from strict" in problems()

    def repairing(text: str, **options: Any) -> Any:
        if options.get("strict") is False and options.get("repairs") is not None:
            options["repairs"].append(eson.Repair(1, "blank-line", "made up"))
        return decode(text, **options)

    with monkeypatch.context() as patch:
        patch.setattr(eson, "decode", repairing)
        assert "lenient reading repaired what strict reading accepts" in problems()
    with monkeypatch.context() as patch:
        patch.setattr(eson, "parse_reply", lambda *a, **o: (_ for _ in ()).throw(KeyError("boom")))
        assert any(problem.startswith("foreign exception KeyError") for problem in problems())


def test_the_agent_oracle_catches_each_kind_of_failure(monkeypatch: Any) -> None:
    """check_agent (issue 17: lint, columnar, choose, the CLI) fails when a surface misbehaves."""
    case = fuzzing.Case(0, 3, "eson", "!eson/1\nkind=x\nrows[2]{a}\n1\n2\n")
    text: str = case.data  # type: ignore[assignment]

    def problems() -> set[str]:
        return {failure.problem for failure in fuzzing.check_agent(case, text)}

    assert problems() == set()
    with monkeypatch.context() as patch:
        patch.setattr(eson, "lint", lambda text: (_ for _ in ()).throw(IndexError("x")))
        assert "lint raised IndexError" in problems()
    with monkeypatch.context() as patch:
        patch.setattr(eson.columnar, "decode", lambda text: {"kind": "y"})
        assert "columnar does not read back what it wrote" in problems()
    with monkeypatch.context() as patch:
        patch.setattr(eson.columnar, "encode", lambda value: (_ for _ in ()).throw(ValueError("x")))
        assert "columnar.encode raised ValueError" in problems()
    with monkeypatch.context() as patch:
        patch.setattr(eson, "choose", lambda value, **o: (_ for _ in ()).throw(ValueError("x")))
        assert "choose raised ValueError" in problems()
    with monkeypatch.context() as patch:
        original = eson.choose
        patch.setattr(eson, "choose", lambda value, **o: _with_text(original(value, **o), "x=1\n"))
        assert any(problem.startswith("the ") and "does not read back" in problem for problem in problems())
    with monkeypatch.context() as patch:
        patch.setattr(fuzzing, "cli_main", lambda argv: (_ for _ in ()).throw(KeyError("x")))
        seen = {fuzzing.check_agent(fuzzing.Case(0, index, "eson", text), text).__len__() for index in range(12)}
        assert max(seen) > 0  # a quarter of the cases run the CLI


def _with_text(choice: Any, text: str) -> Any:
    import dataclasses

    return dataclasses.replace(choice, text=text)
