"""SVG charts from benchmark results files: speed ratios and tokens per format.

Run: ``python bench/charts.py RESULTS.json [MORE.json ...] --out docs/charts``

Writes plain SVG (no dependencies, no scripts, no web fonts), one file per
chart, and prints the files it wrote:

- ``speed-<baseline>.svg`` for each baseline the speed rows name (for
  example ``speed-msgspec-json.svg``, ``speed-pydantic-json.svg``): one
  horizontal bar per row, the time of a case as a ratio to the baseline's
  time on the same data (``1.0`` = as fast; lower is faster), pure-Python and
  accelerated rows in two colours;
- ``tokens.svg``: one bar per document and format, the format's token count
  relative to the baseline format (``-28%`` = 28% fewer tokens), with the
  count itself, and a last group with the totals over all documents.

Results files (what ``bench/*.py --json PATH`` write)
-----------------------------------------------------

One JSON object per file; every key but ``schema`` is optional, and a file
may hold speed rows, token rows or both::

    {
      "schema": "typed-eson-bench/1",
      "bench": "bench_typed",                      # the script
      "command": "python bench/bench_typed.py --json out.json",
      "date": "2026-12-01",
      "machine": {"python": "3.11.7", "platform": "Linux-...-x86_64", "cpus": 2},
      "versions": {"typed-eson": "0.1.0", "msgspec": "0.23.0", "pydantic": "2.14.4"},
      "speed": {
        "rows": [
          {"case": "typed msgspec encode",         # the bar's label
           "baseline": "msgspec.json",              # what the ratio divides by
           "speedups": true,                        # the C accelerator in use?
           "ratio": 0.82,                           # case time / baseline time
           "seconds": 0.00023,                      # optional, per call
           "baseline_seconds": 0.00028}             # optional
        ]
      },
      "tokens": {
        "encoding": "o200k_base",
        "baseline": "json-compact",                 # the format others compare to
        "rows": [
          {"document": "small review", "format": "eson", "label": "ESON",
           "bytes": 357, "tokens": 106}
        ]
      }
    }

Several files are merged: their speed rows and token rows are concatenated
in the order given (token rows must agree on ``encoding`` and ``baseline``).
A row that breaks this shape stops the script with a message naming the
file and the row, so a change in a benchmark's output cannot go unnoticed.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

SCHEMA = "typed-eson-bench/1"

WIDTH = 760
LABEL_WIDTH = 250
RIGHT_MARGIN = 120
BAR_HEIGHT = 16
BAR_GAP = 4
GROUP_GAP = 12
TOP = 64
FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif\""

#: Colours of the speed series (pure Python, accelerated) and of token formats.
SPEED_COLOURS = {False: "#00897b", True: "#f59e0b"}
FORMAT_COLOURS = ["#00897b", "#f59e0b", "#5c6bc0", "#d81b60", "#6d4c41", "#546e7a", "#43a047"]


class ResultsError(ValueError):
    """A results file that does not have the documented shape."""


@dataclass(frozen=True)
class SpeedRow:
    case: str
    baseline: str
    speedups: bool
    ratio: float


@dataclass(frozen=True)
class TokenRow:
    document: str
    format: str
    label: str
    tokens: int


@dataclass
class Results:
    """The rows of one or more results files, checked."""

    speed: list[SpeedRow]
    tokens: list[TokenRow]
    token_baseline: str | None = None
    token_encoding: str | None = None


def _require(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise ResultsError(f"{where}: {message}")


def load(paths: list[Path]) -> Results:
    """Read and check results files, merged in order."""
    results = Results([], [])
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise ResultsError(f"{path}: cannot read results: {error}") from None
        merge(results, data, str(path))
    return results


def merge(results: Results, data: Any, where: str) -> None:
    """Add one results object's rows to ``results``, checking their shape."""
    _require(isinstance(data, dict), where, "a results file holds one JSON object")
    _require(data.get("schema") == SCHEMA, where, f'"schema" must be "{SCHEMA}"')
    speed = data.get("speed")
    if speed is not None:
        rows = speed.get("rows") if isinstance(speed, dict) else None
        if not isinstance(rows, list):
            raise ResultsError(f'{where}: "speed" must be {{"rows": [...]}}')
        for index, row in enumerate(rows):
            at = f"{where}: speed row {index + 1}"
            _require(isinstance(row, dict), at, "must be an object")
            _require(isinstance(row.get("case"), str) and row["case"], at, '"case" must be text')
            _require(
                isinstance(row.get("baseline"), str) and row["baseline"],
                at,
                '"baseline" must be text',
            )
            _require(isinstance(row.get("speedups"), bool), at, '"speedups" must be true or false')
            ratio = row.get("ratio")
            _require(
                isinstance(ratio, (int, float))
                and not isinstance(ratio, bool)
                and math.isfinite(ratio)
                and ratio > 0,
                at,
                '"ratio" must be a positive number',
            )
            results.speed.append(
                SpeedRow(row["case"], row["baseline"], row["speedups"], float(ratio))
            )
    tokens = data.get("tokens")
    if tokens is not None:
        _require(isinstance(tokens, dict), where, '"tokens" must be an object')
        rows = tokens.get("rows")
        _require(isinstance(rows, list), where, '"tokens" must hold "rows": [...]')
        baseline, encoding = tokens.get("baseline"), tokens.get("encoding")
        _require(isinstance(baseline, str), where, '"tokens" must name its "baseline" format')
        _require(isinstance(encoding, str), where, '"tokens" must name its "encoding"')
        if results.token_baseline is not None:
            _require(
                baseline == results.token_baseline, where, "token baselines differ between files"
            )
            _require(
                encoding == results.token_encoding, where, "token encodings differ between files"
            )
        results.token_baseline, results.token_encoding = baseline, encoding
        for index, row in enumerate(rows):
            at = f"{where}: tokens row {index + 1}"
            _require(isinstance(row, dict), at, "must be an object")
            for key in ("document", "format"):
                _require(isinstance(row.get(key), str) and row[key], at, f'"{key}" must be text')
            count = row.get("tokens")
            _require(
                isinstance(count, int) and not isinstance(count, bool) and count > 0,
                at,
                '"tokens" must be a positive integer',
            )
            label = row.get("label", row["format"])
            _require(isinstance(label, str), at, '"label" must be text')
            pair = (row["document"], row["format"])
            _require(
                all((old.document, old.format) != pair for old in results.tokens),
                at,
                f"a second {row['format']} row for the document {row['document']!r}",
            )
            results.tokens.append(TokenRow(row["document"], row["format"], label, count))
        documents = {row.document for row in results.tokens}
        with_baseline = {row.document for row in results.tokens if row.format == baseline}
        _require(documents == with_baseline, where, f'every document needs a "{baseline}" row')


# --------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------


def slug(text: str) -> str:
    """A file-name part: ``msgspec.json`` -> ``msgspec-json``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _text(
    x: float,
    y: float,
    content: str,
    *,
    anchor: str = "start",
    size: int = 12,
    weight: str = "normal",
    fill: str = "#1f2933",
    css: str = "",
) -> str:
    klass = f' class="{css}"' if css else ""
    # A white halo keeps a label readable where it crosses a reference line.
    return (
        f'<text{klass} x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}" stroke="#ffffff" stroke-width="3" '
        f'paint-order="stroke">{escape(content)}</text>'
    )


def _frame(title: str, subtitle: str, height: float, body: list[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {WIDTH} {height:.0f}" role="img" aria-labelledby="title desc" {FONT}>',
            f'<title id="title">{escape(title)}</title>',
            f'<desc id="desc">{escape(subtitle)}</desc>',
            f'<rect width="{WIDTH}" height="{height:.0f}" fill="#ffffff"/>',
            _text(16, 26, title, size=16, weight="bold", css="chart-title"),
            _text(16, 46, subtitle, size=12, fill="#52606d"),
            *body,
            "</svg>",
            "",
        ]
    )


def _legend(x: float, y: float, entries: list[tuple[str, str]]) -> tuple[list[str], float]:
    """Colour keys from ``(x, y)``, wrapped at the right margin; the parts and the last line's y."""
    parts = []
    left = x
    for label, colour in entries:
        width = 17 + 7.2 * len(label)
        if x > left and x + width > WIDTH - 16:
            x, y = left, y + 20
        parts.append(f'<rect x="{x:.1f}" y="{y - 10:.1f}" width="12" height="12" fill="{colour}"/>')
        parts.append(_text(x + 17, y, label, size=12, css="legend"))
        x += width + 18
    return parts, y


def _percent(change: float) -> str:
    """``-28%``, ``+8%``, and ``0%`` for anything that rounds to zero."""
    rounded = round(change)
    return f"{rounded:+d}%" if rounded else "0%"


def speed_chart(rows: list[SpeedRow], baseline: str) -> str:
    """Bars of ``ratio`` for the rows of one baseline, grouped by case."""
    cases = list(dict.fromkeys(row.case for row in rows))
    largest = max(max(row.ratio for row in rows), 1.0)
    scale = (WIDTH - LABEL_WIDTH - RIGHT_MARGIN) / (largest * 1.05)
    one = LABEL_WIDTH + scale
    height = sum(
        len([row for row in rows if row.case == case]) * (BAR_HEIGHT + BAR_GAP) + GROUP_GAP
        for case in cases
    )
    body: list[str] = [
        f'<line x1="{one:.1f}" y1="{TOP + 4}" x2="{one:.1f}" y2="{TOP + 14 + height - GROUP_GAP + 4:.1f}" '
        'stroke="#1f2933" stroke-width="1" stroke-dasharray="4 3"/>'
    ]
    y = TOP + 14
    for case in cases:
        group = [row for row in rows if row.case == case]
        body.append(_text(LABEL_WIDTH - 10, y + BAR_HEIGHT - 4, case, anchor="end", css="label"))
        for row in group:
            width = row.ratio * scale
            mode = "accelerated" if row.speedups else "pure Python"
            body.append(
                f'<rect class="bar" x="{LABEL_WIDTH}" y="{y:.1f}" width="{width:.1f}" '
                f'height="{BAR_HEIGHT}" fill="{SPEED_COLOURS[row.speedups]}">'
                f"<title>{escape(f'{case}, {mode}: {row.ratio:.2f}x {baseline}')}</title></rect>"
            )
            body.append(
                _text(LABEL_WIDTH + width + 6, y + BAR_HEIGHT - 4, f"{row.ratio:.2f}x", css="value")
            )
            y += BAR_HEIGHT + BAR_GAP
        y += GROUP_GAP
    body.append(_text(one, TOP, f"1.0 = {baseline}", anchor="middle", size=11, fill="#52606d"))
    modes = sorted({row.speedups for row in rows})
    legend = [("pure Python" if not m else "C accelerator", SPEED_COLOURS[m]) for m in modes]
    parts, bottom = _legend(LABEL_WIDTH, y + 12, legend)
    return _frame(
        f"Time relative to {baseline}",
        f"Each bar: the case's time over {baseline}'s on the same data, one run (lower is faster).",
        bottom + 16,
        body + parts,
    )


def tokens_chart(rows: list[TokenRow], baseline: str, encoding: str) -> str:
    """Bars of each format's tokens relative to ``baseline``, per document and in total."""
    documents = list(dict.fromkeys(row.document for row in rows))
    formats = list(dict.fromkeys(row.format for row in rows if row.format != baseline))
    labels = {row.format: row.label for row in rows}
    colours = {fmt: FORMAT_COLOURS[i % len(FORMAT_COLOURS)] for i, fmt in enumerate(formats)}
    base = {row.document: row.tokens for row in rows if row.format == baseline}
    groups: list[tuple[str, list[tuple[str, int, int]]]] = []
    for document in documents:
        entries = [
            (row.format, row.tokens, base[document])
            for row in rows
            if row.document == document and row.format != baseline
        ]
        groups.append((document, entries))
    totals = [
        (fmt, sum(r.tokens for r in rows if r.format == fmt), sum(base.values()))
        for fmt in formats
        if all(any(r.document == d and r.format == fmt for r in rows) for d in documents)
    ]
    if len(documents) > 1 and totals:
        groups.append((f"all {len(documents)} documents", totals))
    changes = [100 * (tokens - ref) / ref for _, entries in groups for _, tokens, ref in entries]
    low, high = min([0.0, *changes]), max([0.0, *changes])
    span = (high - low) or 1.0
    area = WIDTH - LABEL_WIDTH - RIGHT_MARGIN
    scale = area / span
    zero = LABEL_WIDTH + (-low) * scale
    height = sum(len(entries) * (BAR_HEIGHT + BAR_GAP) + GROUP_GAP for _, entries in groups)
    body: list[str] = [
        f'<line x1="{zero:.1f}" y1="{TOP + 4}" x2="{zero:.1f}" y2="{TOP + 14 + height - GROUP_GAP + 4:.1f}" '
        'stroke="#1f2933" stroke-width="1"/>'
    ]
    y = TOP + 14
    for name, entries in groups:
        body.append(_text(LABEL_WIDTH - 10, y + BAR_HEIGHT - 4, name, anchor="end", css="label"))
        for fmt, tokens, ref in entries:
            change = 100 * (tokens - ref) / ref
            width = abs(change) * scale
            x = zero if change >= 0 else zero - width
            body.append(
                f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
                f'height="{BAR_HEIGHT}" fill="{colours[fmt]}">'
                f"<title>{escape(f'{name}, {labels[fmt]}: {tokens} tokens ({_percent(change)})')}"
                "</title></rect>"
            )
            value = f"{_percent(change)} ({tokens})"
            if change >= 0:
                body.append(_text(zero + width + 6, y + BAR_HEIGHT - 4, value, css="value"))
            else:
                body.append(_text(zero + 6, y + BAR_HEIGHT - 4, value, css="value"))
            y += BAR_HEIGHT + BAR_GAP
        y += GROUP_GAP
    body.append(
        _text(
            zero,
            TOP,
            f"0 = {labels.get(baseline, baseline)}",
            anchor="middle",
            size=11,
            fill="#52606d",
        )
    )
    parts, bottom = _legend(LABEL_WIDTH, y + 12, [(labels[fmt], colours[fmt]) for fmt in formats])
    return _frame(
        f"Tokens relative to {labels.get(baseline, baseline)}, {encoding}",
        "Each bar: a format's token count over the baseline's for the same document; "
        "left of the line is fewer tokens.",
        bottom + 16,
        body + parts,
    )


def charts(results: Results) -> dict[str, str]:
    """Every chart the results hold, as ``{file name: SVG text}``."""
    out: dict[str, str] = {}
    for baseline in dict.fromkeys(row.baseline for row in results.speed):
        rows = [row for row in results.speed if row.baseline == baseline]
        out[f"speed-{slug(baseline)}.svg"] = speed_chart(rows, baseline)
    if results.tokens:
        assert results.token_baseline is not None and results.token_encoding is not None
        out["tokens.svg"] = tokens_chart(
            results.tokens, results.token_baseline, results.token_encoding
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """Read the results files, write the charts, print their paths."""
    parser = argparse.ArgumentParser(description="SVG charts from benchmark results files.")
    parser.add_argument("results", nargs="+", type=Path, metavar="RESULTS.json")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where to write")
    args = parser.parse_args(argv)
    try:
        results = load(args.results)
    except ResultsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    drawn = charts(results)
    if not drawn:
        print("error: the results hold no speed or token rows", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for name, svg in drawn.items():
        (args.out / name).write_text(svg, encoding="utf-8")
        print(args.out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
