"""Run a long fuzz campaign against every decoder: ``python tools/fuzz.py --minutes N``.

The fuzzer is ``tests/fuzzing.py`` (seed-driven, grammar-aware mutations of
valid ESON and TOON documents; see its docstring for what is checked).  The
campaign runs cases ``0, 1, 2 ...`` of one seed until the time is up, on
``--jobs`` processes (each takes every ``jobs``-th case), and prints each new
kind of failure once, shrunk, with the ``(seed, case)`` that reproduces it::

    nice -n 19 python tools/fuzz.py --minutes 15 --jobs 2 --seed 7
    python tools/fuzz.py --replay 7 12345       # one case again, in detail

Exit status 0 when nothing new was found, 1 otherwise.  Known failures (work
that belongs to another change, see ``fuzzing._known``) are counted apart.

``--surface accel`` runs the C accelerator's differential fuzzer instead
(``tests/accel_fuzzing.py``: hostile objects and models, accelerated against
pure Python, each batch in a child process; a case that crashes its child is
saved as a script under ``.cache/accel-fuzz/`` and printed with its path)::

    nice -n 19 python tools/fuzz.py --surface accel --minutes 10 --jobs 1 --seed 7
    python tools/fuzz.py --surface accel --replay 7 123   # one case: source and result
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import accel_fuzzing
import fuzzing

BATCH = 200


def _worker(seed: int, start: int, step: int, deadline: float, queue: multiprocessing.Queue) -> None:
    if hasattr(os, "nice"):
        os.nice(5)  # leave the machine to others
    index = start
    while time.time() < deadline:
        batch = range(index, index + BATCH * step, step)
        report = fuzzing.run(seed, batch)
        queue.put((report.cases, report.decodes, report.failures))
        index += BATCH * step
    queue.put(None)


def _accel_worker(
    seed: int, start: int, step: int, deadline: float, queue: multiprocessing.Queue
) -> None:
    if hasattr(os, "nice"):
        os.nice(5)
    index = start
    while time.time() < deadline:
        report = accel_fuzzing.run_isolated(seed, range(index, index + BATCH * step, step))
        queue.put((report.cases, report.mismatches, report.crashes))
        index += BATCH * step
    queue.put(None)


def _accel_main(args: argparse.Namespace) -> int:
    if args.replay:
        case = accel_fuzzing.make_case(*args.replay)
        print(f"{case.kind}, {case.operation} (delimiter {case.delimiter!r}):\n{case.source}")
        problem = accel_fuzzing.check(case)
        print(problem or "accelerated and pure agree")
        return 1 if problem else 0
    deadline = time.time() + args.minutes * 60
    queue: multiprocessing.Queue = multiprocessing.Queue()
    workers = [
        multiprocessing.Process(
            target=_accel_worker, args=(args.seed, job, args.jobs, deadline, queue)
        )
        for job in range(args.jobs)
    ]
    for worker in workers:
        worker.start()
    cases = mismatches = crashes = 0
    running = len(workers)
    started = last = time.time()
    print(f"accel surface: seed {args.seed}, {args.jobs} job(s), {args.minutes} minutes", flush=True)
    while running:
        item = queue.get()
        if item is None:
            running -= 1
            continue
        batch_cases, batch_mismatches, batch_crashes = item
        cases += batch_cases
        for index, how, path in batch_crashes:
            crashes += 1
            print(f"\ncrash: seed {args.seed} case {index}: {how}; saved as {path}\n", flush=True)
        for index, problem in batch_mismatches:
            mismatches += 1
            print(f"\nmismatch: seed {args.seed} case {index}:\n  {problem}\n", flush=True)
        if time.time() - last > 60:
            last = time.time()
            print(f"... {cases} cases, {crashes} crashes, {mismatches} mismatches "
                  f"({last - started:.0f} s)", flush=True)
    for worker in workers:
        worker.join()
    print(f"done: accel surface, seed {args.seed}, {cases} cases in {time.time() - started:.0f} s; "
          f"{crashes} crashes, {mismatches} mismatches")
    return 1 if crashes or mismatches else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to run (default 10)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100000, help="campaign seed")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--replay", nargs=2, type=int, metavar=("SEED", "CASE"), help="check one case")
    parser.add_argument(
        "--surface",
        choices=["decoders", "accel"],
        default="decoders",
        help="decoders: the mutation fuzzer (default); accel: the C accelerator's differential fuzzer",
    )
    args = parser.parse_args(argv)

    if args.surface == "accel":
        return _accel_main(args)
    if args.replay:
        case = fuzzing.make_case(*args.replay)
        print(f"input: {case.data!r}")
        failures = fuzzing.check(case)
        for failure in failures:
            print(failure)
        return 1 if any(failure.known is None for failure in failures) else 0

    deadline = time.time() + args.minutes * 60
    queue: multiprocessing.Queue = multiprocessing.Queue()
    workers = [
        multiprocessing.Process(target=_worker, args=(args.seed, job, args.jobs, deadline, queue))
        for job in range(args.jobs)
    ]
    for worker in workers:
        worker.start()
    cases = decodes = 0
    seen: set[tuple[str, str]] = set()
    new = known = 0
    running = len(workers)
    started = time.time()
    last = started
    print(f"seed {args.seed}, {args.jobs} job(s), {args.minutes} minutes", flush=True)
    while running:
        item = queue.get()
        if item is None:
            running -= 1
            continue
        batch_cases, batch_decodes, failures = item
        cases += batch_cases
        decodes += batch_decodes
        for failure in failures:
            signature = (failure.decoder.split(" -> ")[0], failure.problem[:60])
            if signature in seen:
                continue
            seen.add(signature)
            if failure.known:
                known += 1
            else:
                new += 1
            print(f"\n{failure}\n", flush=True)
        if time.time() - last > 60:
            last = time.time()
            print(f"... {cases} cases, {decodes} decodes, {new} new and {known} known kinds "
                  f"of failure ({last - started:.0f} s)", flush=True)
    for worker in workers:
        worker.join()
    print(f"done: seed {args.seed}, {cases} cases, {decodes} decodes in {time.time() - started:.0f} s; "
          f"{new} new and {known} known kinds of failure")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
