"""Timing helpers shared by the benchmark scripts: best-of-repeats, ratios."""

from __future__ import annotations

import platform
import sys
import timeit
from collections.abc import Callable


def best_seconds(function: Callable[[], object], *, repeat: int = 7, number: int = 0) -> float:
    """Best per-call time of ``function`` over ``repeat`` timed batches."""
    timer = timeit.Timer(function)
    if number <= 0:
        number, _ = timer.autorange()
        number = max(1, number // 2)
    return min(timer.repeat(repeat=repeat, number=number)) / number


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
