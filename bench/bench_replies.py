"""Reading model replies: parse_reply and the stream against whole-document decode.

Run: ``python bench/bench_replies.py`` (``--records N`` to resize).

The payload is the handoff of :mod:`handoff` (``kind`` plus 2000 findings of
seven fields), as msgspec Structs and as Pydantic models, written
canonically -- a *clean* reply, needing no repair.  One interleaved run
times, per flavour:

- ``eson.decode(text, type=T)``: the whole-document decode, the baseline;
- ``eson.decode(text, type=T, strict=False)``: lenient reading of the same text;
- ``eson.parse_reply(text, T)`` on the bare document, and on the document in
  a ```` ```eson ```` fence between two lines of prose;
- ``eson.StreamDecoder(T)`` fed the text in 64-byte chunks, then closed;

and the untyped path likewise.  Targets (issue 9): ``parse_reply`` within
1.2x of ``decode``, the 64-byte stream within 1.5x.  Then the time to the
first row event: a stream fed 64-byte chunks of a 200-, 2000- and
20000-row document until the first ``findings`` row comes out; it must not
grow with the document.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pydantic

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_typed import MHandoff, PHandoff
from handoff import make_handoff
from timing import interleaved_best, machine

import eson

CHUNK = 64


def chunks_of(text: str, size: int = CHUNK) -> list[str]:
    return [text[start : start + size] for start in range(0, len(text), size)]


def streamer(model: type | None, chunks: list[str]) -> Callable[[], Any]:
    def stream() -> Any:
        decoder = eson.StreamDecoder(model)
        feed = decoder.feed
        for chunk in chunks:
            feed(chunk)
        return decoder.close()

    return stream


def cases(label: str, model: type | None, text: str) -> dict[str, Callable[[], Any]]:
    fenced = (
        f"Here is the review you asked for:\n\n```eson\n{text}```\n\nLet me know if you need more."
    )
    chunks = chunks_of(text)
    if model is None:
        whole = eson.decode(text)
        found = {
            f"{label} decode": lambda: eson.decode(text),
            f"{label} decode strict=False": lambda: eson.decode(text, strict=False),
            f"{label} parse_reply": lambda: eson.parse_reply(text),
            f"{label} parse_reply fenced": lambda: eson.parse_reply(fenced),
            f"{label} stream 64 B": streamer(None, chunks),
        }
    else:
        whole = eson.decode(text, type=model)
        found = {
            f"{label} decode": lambda: eson.decode(text, type=model),
            f"{label} decode strict=False": lambda: eson.decode(text, type=model, strict=False),
            f"{label} parse_reply": lambda: eson.parse_reply(text, model),
            f"{label} parse_reply fenced": lambda: eson.parse_reply(fenced, model),
            f"{label} stream 64 B": streamer(model, chunks),
        }
    for name, function in found.items():
        assert function() == whole, name
    return found


def first_row_seconds(model: type, records: int, repeats: int = 50) -> float:
    """Best time from a fresh decoder to the first row event, fed 64-byte chunks."""
    text = eson.encode(msgspec.convert(make_handoff(records), MHandoff))
    chunks = chunks_of(text)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        decoder = eson.StreamDecoder(model)
        for chunk in chunks:
            if any(event.section == "findings" for event in decoder.feed(chunk)):
                break
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=80, help="interleaved rounds (one call each)")
    args = parser.parse_args()
    value = make_handoff(args.records)
    text = eson.encode(value)
    print(f"handoff: {args.records} records, {len(text)} characters; {machine()}")
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}")
    all_cases: dict[str, Callable[[], Any]] = {}
    all_cases.update(cases("msgspec", MHandoff, text))
    all_cases.update(cases("pydantic", PHandoff, text))
    all_cases.update(cases("untyped", None, text))
    timed = interleaved_best(all_cases, rounds=args.rounds, batch=1)
    targets = {"parse_reply": 1.2, "parse_reply fenced": 1.2, "stream 64 B": 1.5}
    met = []
    for label in ("msgspec", "pydantic", "untyped"):
        base = timed[f"{label} decode"]
        print(f"\n{label}")
        for name, seconds in timed.items():
            if not name.startswith(label + " "):
                continue
            case = name[len(label) + 1 :]
            ratio = seconds / base
            line = f"  {case:24s}{seconds * 1000:9.3f} ms {ratio:6.2f}x decode"
            if case in targets:
                ok = ratio <= targets[case]
                met.append(ok)
                line += f"   (target: at most {targets[case]:g}x: {'met' if ok else 'NOT met'})"
            print(line)
    print("\ntime to the first row event, 64-byte chunks (best of 50)")
    for model, label in ((MHandoff, "msgspec"), (PHandoff, "pydantic")):
        figures = {records: first_row_seconds(model, records) for records in (200, 2000, 20000)}
        shown = "  ".join(
            f"{records} rows: {seconds * 1e6:7.1f} us" for records, seconds in figures.items()
        )
        spread = figures[20000] / figures[200]
        ok = spread <= 2.0
        met.append(ok)
        print(
            f"  {label:9s}{shown}   20000/200: {spread:.2f}x (independent of length: {'met' if ok else 'NOT met'})"
        )
    print(f"\n{sum(met)} of {len(met)} targets met")


if __name__ == "__main__":
    main()
