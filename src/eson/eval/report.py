"""The report of an evaluation: a table per format and kind, JSON, an SVG chart.

Accuracy comes with a 95% **Wilson score interval**: for ``k`` correct of
``n`` questions, ``p = k/n`` and ``z = 1.96``, the interval is
``(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)``.  Unlike
``p ± z·sqrt(p(1-p)/n)`` it stays inside 0-100% and is not zero-width at
0/5 or 5/5, which is what small question counts give.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from html import escape
from typing import Any

__all__ = ["ComprehensionResult", "GenerationResult", "Report", "wilson"]

LABELS: dict[str, str] = {
    "json": "compact JSON",
    "pretty": "pretty JSON",
    "columnar": "columnar JSON",
    "toon": "TOON",
    "eson": "ESON",
}


def wilson(correct: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``correct`` of ``total`` (95% for the default ``z``)."""
    if total <= 0:
        return 0.0, 1.0
    p = correct / total
    denominator = 1 + z * z / total
    centre = p + z * z / (2 * total)
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


@dataclass(frozen=True)
class ComprehensionResult:
    """The questions of one kind about the document in one format.

    Attributes:
        format: The format the document was shown in.
        kind: The question kind.
        correct: Answers that matched.
        answered: Questions answered (the rest were not asked: a cap or error stopped the run).
        total: Questions of this kind.
        tokens_in: Prompt tokens of the answered questions (cached ones included).
        tokens_out: Completion tokens, likewise.
    """

    format: str
    kind: str
    correct: int
    answered: int
    total: int
    tokens_in: int
    tokens_out: int

    @property
    def accuracy(self) -> float | None:
        """``correct / answered``, ``None`` with nothing answered."""
        return self.correct / self.answered if self.answered else None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of the accuracy."""
        return wilson(self.correct, self.answered)


@dataclass(frozen=True)
class GenerationResult:
    """The documents written in one format.

    Attributes:
        format: The format asked for.
        outcomes: Tasks per outcome: ``valid`` (first reply, as written),
            ``repaired`` (first reply, after safe repairs), ``retried``
            (valid after one retry with the error's feedback), ``invalid``
            (still not valid), ``refused`` (no payload in the last reply).
        exact: Valid replies whose value equals the data asked for.
        answered: Tasks finished.
        total: Tasks of this format.
        tokens_in: Prompt tokens of all the requests (retries included).
        tokens_out: Completion tokens, likewise.
    """

    format: str
    outcomes: dict[str, int]
    exact: int
    answered: int
    total: int
    tokens_in: int
    tokens_out: int


@dataclass
class Report:
    """What :func:`eson.eval.run` measured; ``text()``, ``as_dict()``, ``svg()`` show it.

    Attributes:
        model: The model name asked.
        base_url: The endpoint.
        type_name: The data's model type.
        records: Rows of the document's longest record array.
        seed: The seed of the data and the questions.
        comprehension: One result per format and question kind.
        generation: One result per format written.
        document_tokens: The document's o200k tokens per format (``None``
            without the ``tokens`` extra).
        sent: Requests sent in this run.
        cached: Answers read from the cache.
        stopped: Why the run stopped early (a cap), or ``None``.
        prices: Price per million tokens ``(input, output)``, if given.
    """

    model: str
    base_url: str
    type_name: str
    records: int
    seed: int
    comprehension: list[ComprehensionResult] = field(default_factory=list)
    generation: list[GenerationResult] = field(default_factory=list)
    document_tokens: dict[str, int] | None = None
    sent: int = 0
    cached: int = 0
    stopped: str | None = None
    prices: tuple[float, float] | None = None

    @property
    def complete(self) -> bool:
        """Every task finished (no cap stopped the run)."""
        return all(r.answered == r.total for r in self.comprehension) and all(
            r.answered == r.total for r in self.generation
        )

    def cost(self, tokens_in: int, tokens_out: int) -> float | None:
        """The price of these tokens, with ``prices`` (per million in, out) given."""
        if self.prices is None:
            return None
        return (tokens_in * self.prices[0] + tokens_out * self.prices[1]) / 1_000_000

    def as_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data (``eson eval --json``)."""

        def money(tokens_in: int, tokens_out: int) -> float | None:
            value = self.cost(tokens_in, tokens_out)
            return None if value is None else round(value, 6)

        return {
            "schema": "typed-eson-eval/1",
            "model": self.model,
            "base_url": self.base_url,
            "type": self.type_name,
            "records": self.records,
            "seed": self.seed,
            "requests": {"sent": self.sent, "cached": self.cached},
            "stopped": self.stopped,
            "complete": self.complete,
            "document_tokens": self.document_tokens,
            "comprehension": [
                {
                    "format": r.format,
                    "kind": r.kind,
                    "correct": r.correct,
                    "answered": r.answered,
                    "total": r.total,
                    "accuracy": r.accuracy,
                    "interval": list(r.interval) if r.answered else None,
                    "tokens_in": r.tokens_in,
                    "tokens_out": r.tokens_out,
                    "cost": money(r.tokens_in, r.tokens_out),
                }
                for r in self.comprehension
            ],
            "generation": [
                {
                    "format": r.format,
                    **r.outcomes,
                    "exact": r.exact,
                    "answered": r.answered,
                    "total": r.total,
                    "tokens_in": r.tokens_in,
                    "tokens_out": r.tokens_out,
                    "cost": money(r.tokens_in, r.tokens_out),
                }
                for r in self.generation
            ],
        }

    def to_json(self) -> str:
        """:meth:`as_dict` as indented JSON text."""
        return json.dumps(self.as_dict(), indent=2) + "\n"

    def text(self) -> str:
        """The report as fixed-width tables."""
        priced = self.prices is not None
        lines = [
            f"eson eval: {self.model} at {self.base_url}",
            f"data: {self.type_name}, {self.records} records, seed {self.seed}; "
            f"requests: {self.sent} sent, {self.cached} from the cache",
        ]
        if self.comprehension:
            lines += ["", "Comprehension (exact match; 95% Wilson interval)"]
            head = f"{'format':<14} {'kind':<13} {'correct':>8} {'accuracy':>8} {'95% CI':>11} {'tokens in':>10} {'out':>6}"
            lines.append(head + (f" {'cost':>9}" if priced else ""))
            for r in self.comprehension:
                low, high = r.interval
                score = f"{r.correct}/{r.answered}" if r.answered else "not run"
                if 0 < r.answered < r.total:
                    score += f" of {r.total}"
                accuracy = f"{r.accuracy:.0%}" if r.accuracy is not None else "n/a"
                ci = f"{low:.0%}-{high:.0%}" if r.answered else "n/a"
                line = (
                    f"{LABELS.get(r.format, r.format):<14} {r.kind:<13} {score:>8} {accuracy:>8} "
                    f"{ci:>11} {r.tokens_in:>10} {r.tokens_out:>6}"
                )
                cost = self.cost(r.tokens_in, r.tokens_out)
                lines.append(line + (f" {cost:>9.4f}" if cost is not None else ""))
            if self.document_tokens:
                lines += [
                    "",
                    "Document tokens (o200k): "
                    + ", ".join(f"{LABELS.get(k, k)} {v}" for k, v in self.document_tokens.items()),
                ]
        if self.generation:
            lines += [
                "",
                "Generation (valid: first reply; repaired: after safe repairs; "
                "retried: after one retry with the feedback)",
            ]
            head = (
                f"{'format':<14} {'valid':>6} {'repaired':>9} {'retried':>8} {'invalid':>8} "
                f"{'refused':>8} {'exact':>6} {'tokens in':>10} {'out':>6}"
            )
            lines.append(head + (f" {'cost':>9}" if priced else ""))
            for g in self.generation:
                o = g.outcomes
                line = (
                    f"{LABELS.get(g.format, g.format):<14} {o['valid']:>6} {o['repaired']:>9} "
                    f"{o['retried']:>8} {o['invalid']:>8} {o['refused']:>8} "
                    f"{g.exact:>6} {g.tokens_in:>10} {g.tokens_out:>6}"
                )
                cost = self.cost(g.tokens_in, g.tokens_out)
                line += f" {cost:>9.4f}" if cost is not None else ""
                if g.answered != g.total:
                    line += f"  ({g.total - g.answered} of {g.total} not run)"
                lines.append(line)
        if self.stopped:
            lines += ["", f"stopped early: {self.stopped}; run again to continue from the cache"]
        return "\n".join(lines) + "\n"

    def svg(self) -> str:
        """A bar chart of accuracy per kind and format, with the intervals as whiskers."""
        return _chart(self)


# -- the chart (plain SVG, the benchmarks page's look: no scripts, no web fonts) ---------

_WIDTH = 760
_LABEL = 150
_RIGHT = 70
_BAR = 14
_GAP = 3
_GROUP = 14
_TOP = 78
_FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"'
_COLOURS = {
    "json": "#7b8794",
    "pretty": "#c4cdd5",
    "columnar": "#3e7cb1",
    "toon": "#e0a526",
    "eson": "#14917e",
}


def _text(
    x: float,
    y: float,
    content: str,
    *,
    anchor: str = "start",
    size: int = 12,
    weight: str = "normal",
    fill: str = "#1f2933",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'font-weight="{weight}" fill="{fill}" stroke="#ffffff" stroke-width="3" '
        f'paint-order="stroke">{escape(content)}</text>'
    )


def _chart(report: Report) -> str:
    rows = [r for r in report.comprehension if r.answered]
    kinds = list(dict.fromkeys(r.kind for r in rows))
    formats = list(dict.fromkeys(r.format for r in rows))
    scale = _WIDTH - _LABEL - _RIGHT
    body: list[str] = []
    y = float(_TOP)
    for tick in (0, 0.5, 1.0):
        x = _LABEL + tick * scale
        body.append(_text(x, _TOP - 8, f"{tick:.0%}", anchor="middle", size=11, fill="#52606d"))
    for kind in kinds:
        group = [r for r in rows if r.kind == kind]
        body.append(_text(_LABEL - 10, y + _BAR - 3, kind.replace("_", " "), anchor="end"))
        for r in group:
            accuracy = r.accuracy or 0.0
            low, high = r.interval
            colour = _COLOURS.get(r.format, "#52606d")
            label = LABELS.get(r.format, r.format)
            body.append(
                f'<rect x="{_LABEL}" y="{y:.1f}" width="{accuracy * scale:.1f}" height="{_BAR}" '
                f'fill="{colour}"><title>{escape(f"{kind}, {label}: {r.correct}/{r.answered}")}'
                "</title></rect>"
            )
            middle = y + _BAR / 2
            body.append(
                f'<line x1="{_LABEL + low * scale:.1f}" y1="{middle:.1f}" '
                f'x2="{_LABEL + high * scale:.1f}" y2="{middle:.1f}" stroke="#1f2933" stroke-width="1"/>'
            )
            body.append(_text(_LABEL + scale + 8, y + _BAR - 3, f"{accuracy:.0%}", size=11))
            y += _BAR + _GAP
        y += _GROUP
    x = float(_LABEL)
    for fmt in formats:
        label = LABELS.get(fmt, fmt)
        body.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="12" height="12" fill="{_COLOURS.get(fmt, "#52606d")}"/>'
        )
        body.append(_text(x + 17, y + 10, label))
        x += 35 + 7.2 * len(label)
    height = y + 30
    title = f"Comprehension: {report.model}"
    subtitle = (
        f"Exact-match accuracy per question kind and format, {report.type_name} with "
        f"{report.records} records; lines: 95% Wilson intervals."
    )
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height:.0f}" '
            f'viewBox="0 0 {_WIDTH} {height:.0f}" role="img" aria-labelledby="title desc" {_FONT}>',
            f'<title id="title">{escape(title)}</title>',
            f'<desc id="desc">{escape(subtitle)}</desc>',
            f'<rect width="{_WIDTH}" height="{height:.0f}" fill="#ffffff"/>',
            _text(16, 26, title, size=16, weight="bold"),
            _text(16, 46, subtitle, size=12, fill="#52606d"),
            *body,
            "</svg>",
            "",
        ]
    )
