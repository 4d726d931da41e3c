"""The reference's five-document format table, with this library's encoders and counter.

Run: ``python bench/format_table.py`` (``--encoding E``).  Needs the
``typed-eson[tokens]`` extra and ``../shared/reference/eson/bench-datasets.json``
(the five handoff documents behind FORMATS.md).

Prints, as Markdown:

1. the totals over the five documents per format (compact, pretty and
   columnar JSON, TOON, ESON): bytes, tokens, change vs compact JSON;
2. the per-document table, as FORMATS.md lays it out;
3. the same documents through ``eson.choose`` (all four wire formats
   accepted): the format chosen per document and the total, which must be
   below every single format's total, with no document above compact JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import eson
from eson.agent.formats import pretty_json, render

DATASETS = Path(__file__).resolve().parent.parent.parent / "shared" / "reference" / "eson" / "bench-datasets.json"
ROWS = (
    ("json", "JSON (compact)"),
    ("pretty", "JSON (pretty)"),
    ("columnar", "JSON (columnar)"),
    ("toon", "TOON"),
    ("eson/1", "ESON"),
)
NAMES = {"json": "compact JSON", "columnar": "columnar JSON", "toon": "TOON", "eson/1": "ESON"}


def _change(value: int, base: int) -> str:
    percent = round((value / base - 1) * 100)
    return f"{percent:+d}%" if percent else "0%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--encoding", default="o200k_base")
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    args = parser.parse_args()
    documents = json.loads(args.datasets.read_text(encoding="utf-8"))
    table: dict[str, dict[str, tuple[int, int]]] = {}
    for name, value in documents.items():
        table[name] = {}
        for key, _ in ROWS:
            text = pretty_json(value) if key == "pretty" else render(value, key)  # type: ignore[arg-type]
            table[name][key] = (len(text.encode()), eson.count_tokens(text, args.encoding))
    unit = f"{args.encoding} tokens"
    totals = {key: tuple(map(sum, zip(*(table[n][key] for n in table)))) for key, _ in ROWS}
    base_tokens = totals["json"][1]
    print(f"### Total ({len(table)} documents)\n")
    print(f"| Format | Bytes | {unit} | vs compact JSON |\n|---|---:|---:|---:|")
    for key, label in ROWS:
        size, tokens = totals[key]
        print(f"| {label} | {size} | {tokens} | {_change(tokens, base_tokens)} |")
    print(f"\n### Per document ({unit})\n")
    print(f"| Document | Format | Bytes | {unit} | vs compact JSON |\n|---|---|---:|---:|---:|")
    for name, row in table.items():
        for key, label in ROWS:
            size, tokens = row[key]
            print(f"| {name} | {label} | {size} | {tokens} | {_change(tokens, row['json'][1])} |")
    print(f"\n### `eson.choose` per document ({unit})\n")
    print(f"| Document | Chosen | Bytes | {unit} | vs compact JSON | why |\n|---|---|---:|---:|---:|---|")
    chosen_bytes = chosen_tokens = 0
    for name, value in documents.items():
        choice = eson.choose(value, encoding=args.encoding)
        assert choice.tokens is not None
        size = len(choice.text.encode())
        chosen_bytes += size
        chosen_tokens += choice.tokens
        json_tokens = table[name]["json"][1]
        assert choice.tokens <= json_tokens, name
        print(
            f"| {name} | {NAMES[choice.format]} | {size} | {choice.tokens} | "
            f"{_change(choice.tokens, json_tokens)} | {choice.reason} |"
        )
    print(f"| **total** | | {chosen_bytes} | {chosen_tokens} | {_change(chosen_tokens, base_tokens)} | |")
    best_single = min(totals[key][1] for key in ("json", "columnar", "toon", "eson/1"))
    print(f"\nchosen total {chosen_tokens} vs best single format {best_single}")
    if chosen_tokens >= best_single:
        sys.exit("choose did not beat every single format")


if __name__ == "__main__":
    main()
