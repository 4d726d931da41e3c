"""The accelerator's differential fuzzer, bounded, in the suite (see ``accel_fuzzing``).

``TYPED_ESON_ACCEL_FUZZ_CASES`` sets the number of cases (400 by default;
the sanitizer job in CI runs them under ASan and UBSan).  A case that
crashes the child is saved as a script under ``.cache/accel-fuzz/`` and the
test fails with its path; ``python <path>`` runs it again.
"""

from __future__ import annotations

import os
from collections import Counter

import accel_fuzzing
import pytest
from accel_fuzzing import make_case, run_isolated, run_script
from speedups_support import require_accelerator

CASES = int(os.environ.get("TYPED_ESON_ACCEL_FUZZ_CASES", "400"))
SEED = 17


@pytest.fixture(autouse=True)
def _accelerated() -> None:
    require_accelerator()


def test_accelerated_and_pure_agree_on_hostile_cases() -> None:
    report = run_isolated(SEED, range(CASES))
    assert report.cases == CASES
    crashes = [f"case {index}: {how}; saved as {path}" for index, how, path in report.crashes]
    assert not crashes, "\n".join(crashes)
    problems = [f"case {index}:\n  {problem}" for index, problem in report.mismatches[:5]]
    assert not problems, f"{len(report.mismatches)} mismatches, the first:\n" + "\n".join(problems)


def test_a_crashing_case_is_saved_and_the_rest_run(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(accel_fuzzing, "CRASH_DIR", tmp_path)
    report = run_isolated(SEED, range(4), crash_at=1)
    assert report.cases == 4
    # A segmentation fault; under AddressSanitizer an abort, or the sanitizer's
    # report and its exit status (1 for a signal faulthandler re-raised).
    assert [(index, how) for index, how, _ in report.crashes] in (
        [(1, "killed by signal SIGSEGV")],
        [(1, "killed by signal SIGABRT")],
        [(1, "stopped by the sanitizer (exit status 1)")],
    )
    saved = report.crashes[0][2]
    assert saved.parent == tmp_path and saved.name == f"crash-{SEED}-1.py"
    script = saved.read_text(encoding="utf-8")
    # The child's stderr is kept: faulthandler's report, or the sanitizer's.
    assert "Fatal Python error: Segmentation fault" in script or "AddressSanitizer" in script
    # The script runs the case again (here without the induced crash).
    rerun = run_script(script)
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.strip() == "same"


def test_cases_are_reproducible_and_hostile() -> None:
    assert make_case(3, 41) == make_case(3, 41)
    assert make_case(3, 41).source != make_case(3, 42).source
    cases = [make_case(SEED, index) for index in range(CASES)]
    sources = "\n".join(case.source for case in cases)
    # Every kind of hostile input the fuzzer promises appears in the campaign.
    for needle in ("H.HStr(", "H.HInt(", "H.HFloat(", "H.HDict(", "H.HList(", "'eq'", "'hash'",
                   "'index'", "'float'", "'str'", "'clear'", "'raise'", "model_construct",
                   "H.rekey(", "H.redict(", "float('nan')", "float('inf')", "-0x0.0p+0", "0x0.0000000000001p-1022",
                   "\\ud800", "\\x00", "\\U0010ffff", "MSubRow", "PSubRow", "0x"):
        assert needle in sources, needle
    kinds = Counter(case.kind for case in cases)
    operations = Counter(case.operation for case in cases)
    assert set(kinds) == {"untyped", "msgspec", "pydantic"}
    assert set(operations) == {"encode", "number", "toon", "roundtrip", "toon_roundtrip", "mutated"}


def test_a_child_exit_is_described_by_its_signal_or_its_sanitizer_report() -> None:
    assert accel_fuzzing.describe_exit(-11, "") == "killed by signal SIGSEGV"
    assert accel_fuzzing.describe_exit(-6, "==1==ERROR: AddressSanitizer: SEGV") == "killed by signal SIGABRT"
    report = "==42==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000"
    assert accel_fuzzing.describe_exit(1, report) == "stopped by the sanitizer (exit status 1)"
    assert accel_fuzzing.describe_exit(1, "x.c:3:5: runtime error: signed integer overflow") == (
        "stopped by the sanitizer (exit status 1)")
    # An ordinary failing exit is not taken for a sanitizer's.
    assert accel_fuzzing.describe_exit(1, "Traceback (most recent call last):\nValueError") == "exit status 1"
    assert accel_fuzzing.describe_exit(2, "") == "exit status 2"
