"""Typed TOON (msgspec Structs and Pydantic models) against the toon-format package.

Run: ``python bench/bench_toon.py`` (``--records N``, ``--orders N``, ``--rounds N``).

Two payloads, both flavours, one process:

- the 2000-record handoff of :mod:`handoff` (``kind`` plus findings of seven
  fields: one TOON table), models from :mod:`bench_typed`;
- 500 orders of :mod:`orders` (``id``, ``status``, a nested ``customer``
  object, a list of ``items``, ``total``: list items, each with a nested
  object and a small table).

For each it times

- typed TOON: ``eson.toon.encode(model)`` and ``eson.toon.Decoder(T).decode(text)``;
- the toon-format package on the same models: ``toon_format.encode(dump)``
  and ``validate(toon_format.decode(text))``, where ``dump`` is
  ``model.model_dump()`` / ``msgspec.to_builtins(model)`` and ``validate`` is
  ``T.model_validate`` / ``msgspec.convert(..., T)``;
- ``msgspec.json`` on the msgspec Structs of the same data
  (``msgspec.json.Encoder().encode`` / ``msgspec.json.Decoder(T).decode``),
  the yardstick both flavours are reported against;
- untyped: ``eson.toon.encode(value)`` / ``eson.toon.decode(text)`` against
  ``toon_format.encode(value)`` / ``toon_format.decode(text)``;
- for reference, Pydantic's own ``model_validate`` of the plain data, which
  both Pydantic decode figures include.

Before timing it checks that every encoder writes the same text and every
decoder reads back the same value.  Cases are timed in interleaved rounds
(best of each), so the ratios of one run are meaningful on a busy machine;
compare ratios, not times across runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pydantic
import toon_format

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_typed import MHandoff, PHandoff
from handoff import make_handoff
from orders import MOrders, POrders, make_orders
from timing import interleaved_best, machine, write_json

from eson import toon

TARGET = 5.0  # typed TOON at least this many times faster than toon-format


def _cases(
    value: dict[str, Any], mcls: type[Any], pcls: type[pydantic.BaseModel]
) -> dict[str, Callable[[], object]]:
    struct = msgspec.convert(value, mcls)
    model = pcls.model_validate(value)
    text = toon.encode(value)
    json_bytes = msgspec.json.encode(struct)
    json_encoder = msgspec.json.Encoder()
    json_decoder = msgspec.json.Decoder(mcls)
    struct_decoder = toon.Decoder(mcls)
    model_decoder = toon.Decoder(pcls)

    # The same text from every encoder, the same value from every decoder.
    assert toon.encode(struct) == text == toon.encode(model)
    assert toon_format.encode(msgspec.to_builtins(struct)) == text
    assert toon_format.encode(model.model_dump()) == text
    assert struct_decoder.decode(text) == struct == msgspec.convert(toon_format.decode(text), mcls)
    assert model_decoder.decode(text) == model == pcls.model_validate(toon_format.decode(text))
    assert toon.decode(text) == toon_format.decode(text) == value

    return {
        "msgspec  typed encode": lambda: toon.encode(struct),
        "msgspec  toon-format encode": lambda: toon_format.encode(msgspec.to_builtins(struct)),
        "msgspec  typed decode": lambda: struct_decoder.decode(text),
        "msgspec  toon-format decode": lambda: msgspec.convert(toon_format.decode(text), mcls),
        "pydantic typed encode": lambda: toon.encode(model),
        "pydantic toon-format encode": lambda: toon_format.encode(model.model_dump()),
        "pydantic typed decode": lambda: model_decoder.decode(text),
        "pydantic toon-format decode": lambda: pcls.model_validate(toon_format.decode(text)),
        "pydantic validate only": lambda: pcls.model_validate(value),
        "msgspec.json encode": lambda: json_encoder.encode(struct),
        "msgspec.json decode": lambda: json_decoder.decode(json_bytes),
        "untyped  eson.toon encode": lambda: toon.encode(value),
        "untyped  toon-format encode": lambda: toon_format.encode(value),
        "untyped  eson.toon decode": lambda: toon.decode(text),
        "untyped  toon-format decode": lambda: toon_format.decode(text),
    }


def _report(title: str, timed: dict[str, float]) -> list[bool]:
    print(f"\n{title}")
    json_times = {"encode": timed["msgspec.json encode"], "decode": timed["msgspec.json decode"]}
    print(
        f"  {'':30s}{'typed ms':>10s}{'toon-format ms':>16s}{'x faster':>10s}{'x msgspec.json':>16s}"
    )
    results = []
    for flavour in ("msgspec ", "pydantic", "untyped "):
        for direction in ("encode", "decode"):
            ours_label = (
                f"{flavour} {'eson.toon' if flavour == 'untyped ' else 'typed'} {direction}"
            )
            ours = timed[ours_label]
            theirs = timed[f"{flavour} toon-format {direction}"]
            faster = theirs / ours
            slower = ours / json_times[direction]
            line = (
                f"  {flavour.strip() + ' ' + direction:30s}{ours * 1000:10.3f}{theirs * 1000:16.3f}"
                f"{faster:9.1f}x{slower:15.1f}x"
            )
            if flavour != "untyped ":
                met = faster >= TARGET
                results.append(met)
                line += f"   target >= {TARGET:g}x: {'met' if met else 'NOT met'}"
            print(line)
    print(
        f"  {'msgspec.json (Structs)':30s}"
        f"  encode {json_times['encode'] * 1000:.3f} ms, decode {json_times['decode'] * 1000:.3f} ms"
    )
    print(
        f"  {'pydantic model_validate alone':30s}"
        f"  {timed['pydantic validate only'] * 1000:.3f} ms (of the plain data; part of both"
        " pydantic decode figures)"
    )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000, help="findings in the handoff")
    parser.add_argument("--orders", type=int, default=500, help="orders in the nested message")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved timing rounds")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    print(machine())
    print(
        f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}, "
        f"toon-format {getattr(toon_format, '__version__', '?')}"
    )
    handoff = _cases(make_handoff(args.records), MHandoff, PHandoff)
    nested = _cases(make_orders(args.orders), MOrders, POrders)
    cases = {f"handoff|{label}": case for label, case in handoff.items()}
    cases.update({f"orders|{label}": case for label, case in nested.items()})
    timed = interleaved_best(cases, rounds=args.rounds)
    met = _report(
        f"handoff: {args.records} records (one table)",
        {
            label.split("|", 1)[1]: seconds
            for label, seconds in timed.items()
            if label.startswith("handoff|")
        },
    )
    met += _report(
        f"orders: {args.orders} orders (list items, nested customer, items table)",
        {
            label.split("|", 1)[1]: seconds
            for label, seconds in timed.items()
            if label.startswith("orders|")
        },
    )
    print(
        f"\n{sum(met)} of {len(met)} targets met (typed TOON >= {TARGET:g}x faster than toon-format)"
    )
    write_json(
        args.json, "bench/bench_toon.py", timed, records=args.records, orders=args.orders
    )


if __name__ == "__main__":
    main()
