"""Typed ESON (msgspec Structs and Pydantic models) against JSON and the slow path.

Run: ``python bench/bench_typed.py`` (add ``--records N`` to resize).

The payload is the handoff of :mod:`handoff` (``kind`` plus 2000 findings of
seven fields, fixed seed), declared once as msgspec Structs and once as
Pydantic models.  For each flavour it times:

- typed ESON: ``eson.encode(model)`` and ``eson.Decoder(T).decode(text)``;
- the JSON peer on the same model and data: ``msgspec.json.Encoder().encode``
  / ``msgspec.json.Decoder(T).decode``, ``model_dump_json()`` /
  ``model_validate_json()``;
- the introspection (slow) path typed ESON replaces:
  ``eson.encode(to_builtins(m))`` / ``eson.encode(m.model_dump(mode="json"))``
  and ``convert(eson.decode(text), T)`` / ``T.model_validate(eson.decode(text))``.

It prints the times, the ratios the issue sets targets for, and whether each
target is met on this machine.  Figures vary with the machine and its load;
compare ratios from one run, not times across runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Literal

import msgspec
import pydantic

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handoff import make_handoff
from timing import interleaved_best, machine, write_json

import eson
import eson.msgspec

Severity = Literal["high", "medium", "low"]


class MFinding(eson.msgspec.Record):
    id: int
    severity: Severity
    file: str
    line: int
    message: str
    score: float
    ok: bool


class MHandoff(eson.msgspec.Message):
    kind: str
    findings: list[MFinding]


class PFinding(eson.Record):
    id: int
    severity: Severity
    file: str
    line: int
    message: str
    score: float
    ok: bool


class PHandoff(eson.Message):
    kind: str
    findings: list[PFinding]


Timed = dict[str, float]
_time = interleaved_best


def bench_msgspec(records: int) -> Timed:
    value = make_handoff(records)
    model = msgspec.convert(value, MHandoff)
    text = eson.encode(model)
    json_bytes = msgspec.json.encode(model)
    decoder = eson.Decoder(MHandoff)
    json_encoder = msgspec.json.Encoder()
    json_decoder = msgspec.json.Decoder(MHandoff)
    assert text == eson.encode(value)
    assert decoder.decode(text) == model == json_decoder.decode(json_bytes)
    assert msgspec.convert(eson.decode(text), MHandoff) == model
    return _time(
        {
            "typed encode  eson.encode(struct)": lambda: eson.encode(model),
            "json encode   msgspec.json.Encoder": lambda: json_encoder.encode(model),
            "slow encode   encode(to_builtins)": lambda: eson.encode(msgspec.to_builtins(model)),
            "typed decode  eson.Decoder(T)": lambda: decoder.decode(text),
            "json decode   msgspec.json.Decoder(T)": lambda: json_decoder.decode(json_bytes),
            "slow decode   convert(decode(text))": lambda: msgspec.convert(
                eson.decode(text), MHandoff
            ),
        }
    )


def bench_pydantic(records: int) -> Timed:
    value = make_handoff(records)
    model = PHandoff.model_validate(value)
    text = eson.encode(model)
    json_text = model.model_dump_json()
    decoder = eson.Decoder(PHandoff)
    assert text == eson.encode(value)
    assert decoder.decode(text) == model == PHandoff.model_validate_json(json_text)
    assert PHandoff.model_validate(eson.decode(text)) == model
    return _time(
        {
            "typed encode  eson.encode(model)": lambda: eson.encode(model),
            "json encode   model_dump_json()": lambda: model.model_dump_json(),
            "slow encode   encode(model_dump())": lambda: eson.encode(
                model.model_dump(mode="json", by_alias=True)
            ),
            "typed decode  eson.Decoder(T)": lambda: decoder.decode(text),
            "json decode   model_validate_json()": lambda: PHandoff.model_validate_json(json_text),
            "slow decode   validate(decode(text))": lambda: PHandoff.model_validate(
                eson.decode(text)
            ),
        }
    )


def _report(title: str, timed: Timed, json_limits: tuple[float, float]) -> list[bool]:
    labels = list(timed)
    typed_enc, json_enc, slow_enc, typed_dec, json_dec, slow_dec = (
        timed[label] for label in labels
    )
    print(f"\n{title}")
    for label in labels:
        print(f"  {label:42s}{timed[label] * 1000:9.3f} ms")
    checks = [
        ("typed encode / JSON encode", typed_enc / json_enc, json_limits[0], "at most"),
        ("typed decode / JSON decode", typed_dec / json_dec, json_limits[1], "at most"),
        ("slow encode / typed encode", slow_enc / typed_enc, 5.0, "at least"),
        ("slow decode / typed decode", slow_dec / typed_dec, 5.0, "at least"),
    ]
    results = []
    for name, ratio, limit, sense in checks:
        met = ratio <= limit if sense == "at most" else ratio >= limit
        results.append(met)
        verdict = "met" if met else "NOT met"
        print(f"  {name:32s}{ratio:7.2f}x   (target: {sense} {limit:g}x: {verdict})")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = parser.parse_args()
    print(f"handoff: {args.records} records; {machine()}")
    print(f"msgspec {msgspec.__version__}, pydantic {pydantic.VERSION}")
    msgspec_times = bench_msgspec(args.records)
    pydantic_times = bench_pydantic(args.records)
    met = _report("msgspec Structs", msgspec_times, (4.0, 4.0))
    met += _report("Pydantic models", pydantic_times, (3.0, 2.0))
    print(f"\n{sum(met)} of {len(met)} targets met")
    write_json(
        args.json,
        "bench/bench_typed.py",
        {
            **{f"msgspec|{k}": v for k, v in msgspec_times.items()},
            **{f"pydantic|{k}": v for k, v in pydantic_times.items()},
        },
        records=args.records,
    )


if __name__ == "__main__":
    main()
