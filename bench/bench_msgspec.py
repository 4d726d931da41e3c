"""Typed msgspec ESON against msgspec.json on the same Structs (issue 19's targets).

Run: ``python bench/bench_msgspec.py [--records 2000] [--rounds 41] [--json PATH]``.

Every ratio compares two cases timed in the same interleaved run
(:func:`timing.interleaved_best`), so a loaded machine slows both alike:
the ratios hold better than the absolute times, which are printed too.
The workload is ``bench_figures``'s handoff (``MHandoff`` / ``MFinding``:
int id, Literal severity, str file, int line, str message, float score,
bool ok) and its 20 x 10 000-character mixed strings (``MDocs``).  Peak
memory is traced (``tracemalloc``) for one call at ``--large`` rows.
"""

from __future__ import annotations

import argparse
import json
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_figures import MDocs, MHandoff, make_docs
from handoff import make_handoff
from timing import interleaved_best, machine

import eson

#: (figure, ours, peer, target ratio)
TARGETS = [
    ("typed msgspec encode / msgspec.json.Encoder().encode", "eson encode", "json encode", 0.8),
    ("typed msgspec decode / msgspec.json.Decoder(T).decode", "eson decode", "json decode", 0.9),
    (
        "20 x 10 000-char strings, encode / msgspec.json",
        "eson strings encode",
        "json strings encode",
        1.5,
    ),
    (
        "20 x 10 000-char strings, decode / msgspec.json",
        "eson strings decode",
        "json strings decode",
        None,
    ),
]


def _peak(call: Callable[[], object]) -> int:
    call()
    tracemalloc.start()
    result = call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del result
    return peak


def measure(records: int, large: int, rounds: int) -> dict[str, Any]:
    model = msgspec.convert(make_handoff(records), MHandoff)
    docs = msgspec.convert(make_docs(), MDocs)
    text, docs_text = eson.encode(model), eson.encode(docs)
    json_bytes, docs_json = msgspec.json.encode(model), msgspec.json.encode(docs)
    decoder, docs_decoder = eson.Decoder(MHandoff), eson.Decoder(MDocs)
    encoder = msgspec.json.Encoder()
    json_decoder, docs_json_decoder = msgspec.json.Decoder(MHandoff), msgspec.json.Decoder(MDocs)
    assert decoder.decode(text) == model and docs_decoder.decode(docs_text) == docs
    times = interleaved_best(
        {
            "eson encode": lambda: eson.encode(model),
            "json encode": lambda: encoder.encode(model),
            "eson decode": lambda: decoder.decode(text),
            "json decode": lambda: json_decoder.decode(json_bytes),
            "eson strings encode": lambda: eson.encode(docs),
            "json strings encode": lambda: encoder.encode(docs),
            "eson strings decode": lambda: docs_decoder.decode(docs_text),
            "json strings decode": lambda: docs_json_decoder.decode(docs_json),
        },
        rounds=rounds,
    )
    big = msgspec.convert(make_handoff(large), MHandoff)
    big_text, big_json = eson.encode(big), msgspec.json.encode(big)
    peaks = {
        "eson decode": _peak(lambda: decoder.decode(big_text)),
        "json decode": _peak(lambda: json_decoder.decode(big_json)),
        "eson encode": _peak(lambda: eson.encode(big)),
        "json encode": _peak(lambda: encoder.encode(big)),
    }
    return {"times": times, "peaks": peaks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--large", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=41)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    run = measure(args.records, args.large, args.rounds)
    times, peaks = run["times"], run["peaks"]
    print(f"{machine()}; msgspec {msgspec.__version__}; speedups {eson.speedups}")
    print(f"handoff {args.records} records, {args.rounds} interleaved rounds; lower is faster\n")
    print(f"{'figure':58s}{'ours ms':>9s}{'peer ms':>9s}{'ratio':>8s}{'target':>9s}")
    figures = []
    for what, ours, peer, target in TARGETS:
        ratio = times[ours] / times[peer]
        met = "" if target is None else ("  met" if ratio <= target else "  NOT met")
        shown = "" if target is None else f"<= {target:g}x"
        print(
            f"{what:58s}{times[ours] * 1e3:>9.3f}{times[peer] * 1e3:>9.3f}"
            f"{ratio:>7.2f}x{shown:>9s}{met}"
        )
        figures.append({"figure": what, "ratio": ratio, "target": target})
    for kind in ("decode", "encode"):
        ratio = peaks[f"eson {kind}"] / peaks[f"json {kind}"]
        target = 1.0 if kind == "decode" else None
        met = "" if target is None else ("  met" if ratio <= target else "  NOT met")
        print(
            f"{'peak memory, typed ' + kind + f' at {args.large} rows / msgspec.json':58s}"
            f"{peaks[f'eson {kind}'] / 1e6:>8.2f}M{peaks[f'json {kind}'] / 1e6:>8.2f}M"
            f"{ratio:>7.2f}x{'' if target is None else '<= 1x':>9s}{met}"
        )
        figures.append({"figure": f"peak memory {kind}", "ratio": ratio, "target": target})
    if args.json:
        payload = {"machine": machine(), "records": args.records, "figures": figures, **run}
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n")
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
