"""Timing helpers shared by the benchmark scripts: best-of-repeats, ratios."""

from __future__ import annotations

import json
import platform
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any


def interleaved_best(
    cases: dict[str, Callable[[], object]], rounds: int = 15, batch: int | None = None
) -> dict[str, float]:
    """Best per-call seconds of each case, measured in interleaved rounds.

    Interleaving gives every case the same share of a busy machine's quiet
    moments, so the ratios between cases stay meaningful under load.  Each
    round times a batch of calls per case (a quarter of what ``autorange``
    picks, or ``batch`` calls: with ``batch=1`` and many rounds, every case
    gets many short chances at a quiet moment).
    """
    timers = {label: timeit.Timer(function) for label, function in cases.items()}
    if batch is None:
        sizes = {label: max(1, timer.autorange()[0] // 4) for label, timer in timers.items()}
    else:
        sizes = dict.fromkeys(timers, batch)
    batch_of = sizes
    best = dict.fromkeys(cases, float("inf"))
    for _ in range(rounds):
        for label, timer in timers.items():
            best[label] = min(best[label], timer.timeit(batch_of[label]) / batch_of[label])
    return best


def machine() -> str:
    """One line naming the interpreter and machine the figures come from."""
    return (
        f"Python {platform.python_version()} ({platform.python_implementation()}) "
        f"on {platform.machine()} {platform.system()}, {sys.platform}"
    )


def report(title: str, rows: list[tuple[str, float]], baselines: dict[str, float]) -> None:
    """Print timings in milliseconds and as ratios to each baseline."""
    print(f"\n{title}")
    names = list(baselines)
    head = f"{'':34s}{'ms':>9s}" + "".join(f"{'x ' + name:>22s}" for name in names)
    print(head)
    for label, seconds in rows:
        ratios = "".join(f"{seconds / baselines[name]:>22.2f}" for name in names)
        print(f"{label:34s}{seconds * 1000:>9.3f}{ratios}")


def write_json(path: str | None, script: str, times: dict[str, float], **extra: Any) -> None:
    """Write one run's results as JSON (the shape is documented in docs/benchmarks.md).

    ``times`` maps each case label to its best per-call seconds; ``extra``
    adds script-specific entries (options, ratios, targets).
    """
    if not path:
        return
    import eson

    versions: dict[str, str | None] = {"typed-eson": eson.__version__}
    for name in ("msgspec", "pydantic", "toon-format"):
        try:
            from importlib.metadata import version

            versions[name] = version(name)
        except Exception:
            versions[name] = None
    payload = {
        "schema": "typed-eson-bench/1",
        "script": script,
        "machine": machine(),
        "speedups": eson.speedups,
        "versions": versions,
        "times": times,
        **extra,
    }
    Path(path).write_text(json.dumps(payload, indent=2) + "\n")
    print(f"wrote {path}")
