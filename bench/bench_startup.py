"""Start-up figures: fresh processes for ``import eson`` and ``eson encode small.json``.

Run: ``python bench/bench_startup.py [--rounds N] [--json PATH]``; ``bench/bench_figures.py``
reports the same rows.

Each case is a new interpreter, timed from spawn to exit (wall time, the
way a user or a shell script sees it); the cases take turns, round after
round, and each keeps its best.  ``python -c pass`` is measured with them,
so the import rows are also given with the bare interpreter subtracted.
Peers: ``import msgspec`` and ``import json``.  ``eson encode`` is the
console script next to this interpreter when there is one, else
``python -m eson``; its input is a small handoff (five findings).

The children run without ``PYTHONDONTWRITEBYTECODE``, after one round that
is not counted, so they read cached bytecode as an installed package does
(compiling the sources on every start would double the import figures).
The process figures swing with the load of the machine; ``-X importtime``'s
self times of the ``eson`` modules (``--importtime``) are steadier.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handoff import make_handoff

#: The issue's targets, in milliseconds of wall time (best of the rounds).
TARGETS = {"import eson": 40.0, "eson encode small.json": 70.0}


def _eson_command() -> tuple[list[str], str]:
    script = Path(sys.executable).with_name("eson")
    if script.exists():
        return [sys.executable, str(script)], "console script"
    return [sys.executable, "-m", "eson"], "python -m eson"


def cases(small: str) -> tuple[dict[str, list[str]], str]:
    """The commands timed, by label, and how ``eson encode`` is run."""
    command, how = _eson_command()
    python = sys.executable
    return (
        {
            "python -c pass": [python, "-c", "pass"],
            "import json": [python, "-c", "import json"],
            "import msgspec": [python, "-c", "import msgspec"],
            "import eson": [python, "-c", "import eson"],
            "eson encode small.json": [*command, "encode", small],
        },
        how,
    )


def child_environment() -> dict[str, str]:
    """This process's environment, letting the children cache bytecode."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def best_times(commands: dict[str, list[str]], rounds: int) -> dict[str, float]:
    """Best wall seconds of each command over ``rounds`` interleaved rounds (after a warm-up)."""
    env = child_environment()
    best = dict.fromkeys(commands, float("inf"))
    for round_no in range(rounds + 1):
        for label, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=env)
            if round_no:
                best[label] = min(best[label], time.perf_counter() - start)
    return best


def importtime(module: str = "eson") -> dict[str, int]:
    """``-X importtime`` self times (microseconds) of ``module`` and its submodules.

    Taken from the second of two runs, so that the bytecode is cached.
    """
    subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=child_environment())
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
        env=child_environment(),
    )
    selves: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        fields = line[len("import time:") :].split("|")
        name = fields[2].strip()
        if fields[0].strip().isdigit() and (name == module or name.startswith(module + ".")):
            selves[name] = int(fields[0])
    return selves


def measure(rounds: int = 5) -> dict[str, Any]:
    """The start-up rows: best wall times, ratios to the peers, the targets."""
    with tempfile.TemporaryDirectory() as folder:
        small = os.path.join(folder, "small.json")
        Path(small).write_text(json.dumps(make_handoff(5)))
        commands, how = cases(small)
        times = best_times(commands, rounds)
    bare = times["python -c pass"]
    rows = []
    for label, seconds in times.items():
        target = TARGETS.get(label)
        rows.append(
            {
                "case": label,
                "ms": seconds * 1000,
                "ms over python -c pass": (seconds - bare) * 1000,
                "x import msgspec": seconds / times["import msgspec"],
                "x import json": seconds / times["import json"],
                "target ms": target,
                "met": None if target is None else seconds * 1000 <= target,
            }
        )
    return {"rounds": rounds, "eson encode": how, "times": times, "rows": rows}


def print_rows(run: dict[str, Any]) -> None:
    """Print the start-up rows as a table."""
    print(
        f"start-up: best of {run['rounds']} fresh processes, wall time "
        f"(eson encode: {run['eson encode']})"
    )
    print(f"{'case':26s}{'ms':>8s}{'-pass':>8s}{'x msgspec':>11s}{'x json':>9s}{'target':>10s}")
    for row in run["rows"]:
        target = "" if row["target ms"] is None else f"<= {row['target ms']:g}"
        met = "" if row["met"] is None else ("  met" if row["met"] else "  NOT met")
        print(
            f"{row['case']:26s}{row['ms']:8.1f}{row['ms over python -c pass']:8.1f}"
            f"{row['x import msgspec']:11.2f}{row['x import json']:9.2f}{target:>10s}{met}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument(
        "--importtime", action="store_true", help="also print -X importtime self times"
    )
    args = parser.parse_args()
    run = measure(args.rounds)
    print_rows(run)
    if args.importtime:
        selves = importtime()
        run["importtime"] = selves
        print(f"\n-X importtime self times of import eson ({len(selves)} eson modules), us")
        for name, micros in sorted(selves.items(), key=lambda item: -item[1]):
            print(f"{micros:>8d}  {name}")
        print(f"{sum(selves.values()):>8d}  total")
    if args.json:
        Path(args.json).write_text(json.dumps(run, indent=2) + "\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
