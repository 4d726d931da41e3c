"""Untyped ESON encode/decode against json and msgspec.json on the handoff.

Run: ``python bench/bench_eson.py`` (add ``--records N`` to resize).
Prints per-call times and ratios; lower is faster.  Targets (issue #2):
``eson.encode`` within 1.5x of ``json.dumps``, ``eson.decode`` within 2x of
``json.loads``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handoff import make_handoff
from timing import interleaved_best, machine, report, write_json

import eson


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()

    value = make_handoff(args.records)
    eson_text = eson.encode(value)
    json_text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    msgspec_bytes = msgspec.json.encode(value)
    assert eson.decode(eson_text) == value == json.loads(json_text)

    encoder = msgspec.json.Encoder()
    decoder = msgspec.json.Decoder()
    timed = interleaved_best(
        {
            "eson.encode": lambda: eson.encode(value),
            "json.dumps": lambda: json.dumps(value, separators=(",", ":"), ensure_ascii=False),
            "msgspec.json encode": lambda: encoder.encode(value),
            "eson.decode": lambda: eson.decode(eson_text),
            "json.loads": lambda: json.loads(json_text),
            "msgspec.json decode": lambda: decoder.decode(msgspec_bytes),
        }
    )
    enc = {"json.dumps": timed["json.dumps"], "msgspec.json": timed["msgspec.json encode"]}
    dec = {"json.loads": timed["json.loads"], "msgspec.json": timed["msgspec.json decode"]}
    eson_enc = timed["eson.encode"]
    eson_dec = timed["eson.decode"]

    print(f"handoff: {args.records} records; {machine()}")
    print(
        f"sizes: ESON {len(eson_text)} chars, compact JSON {len(json_text)} chars "
        f"({len(eson_text) / len(json_text):.0%})"
    )
    report("encode", [("eson.encode", eson_enc), *enc.items()], enc)
    report("decode", [("eson.decode", eson_dec), *dec.items()], dec)
    write_json(
        args.json,
        "bench/bench_eson.py",
        timed,
        records=args.records,
        ratios={
            "encode / json.dumps": eson_enc / enc["json.dumps"],
            "encode / msgspec.json": eson_enc / enc["msgspec.json"],
            "decode / json.loads": eson_dec / dec["json.loads"],
            "decode / msgspec.json": eson_dec / dec["msgspec.json"],
        },
    )


if __name__ == "__main__":
    main()
