"""``eson.lint(text)``: the Wire Profile's per-message rules on one payload.

The Honey Wire Profile (``PROFILE.md``) numbers its rules W1-W8; four can be
checked on a single message, and this linter checks exactly those, with the
rule set, levels, messages and exit status of the reference linter
(``node cli.js lint``):

- **W1** (error): the payload is pretty-printed JSON (longer than its
  minified form), or neither ESON nor JSON at all;
- **W4** (error): an ESON payload (text starting with ``!eson/1``) fails to
  decode -- its counts, ``n`` sequence or cells do not check out, so nobody
  may answer from it;
- **W5** (suggestion): a JSON payload holds a uniform record array of three
  or more rows that repeats its keys (use columnar JSON or ESON);
- **W6** (error): a field named like an irreversible action (``payment``,
  ``password``, ``delete`` ...) travels densely -- anywhere in an ESON
  payload, or as or inside a columnar block of a JSON payload.

JSON payloads are read with JavaScript's number semantics (every number a
double) and measured in UTF-16 code units, as the reference measures them,
so the W1 percentages agree to the digit.  JSON nested deeper than 500
levels is reported as not valid JSON (W1): this linter bounds the depth it
reads, where the reference reads until its stack runs out.  ESON payloads are decoded with
this library's decoder (:func:`eson.decode`).  A leading byte-order mark is
skipped, as :func:`eson.decode` and :func:`eson.detect` skip it (the
reference reads it as part of the payload: W1).

Two additions, both off by default:

- ``toon=True`` treats a TOON payload (see :func:`eson.detect`) as a dense
  document: W4 if its strict decode fails, W6 for carve-out fields in it;
- ``type=T`` adds a ``type`` finding (error) when the payload -- ESON, TOON,
  columnar or plain JSON -- does not validate as the model ``T``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from eson._internal.wire.eson_lexicon import HEADER, JS_SPACE, MAX_JSON_DEPTH
from eson._internal.wire.eson_numbers import format_float
from eson.agent.profile import carve_out_keys, undeduped_arrays
from eson.errors import ESONError

__all__ = ["LintFinding", "LintReport", "lint"]

Level = Literal["error", "suggestion"]

_ESON_PREFIX = HEADER
# What String.prototype.trim removes: ECMAScript white space and line terminators.
_JS_WHITESPACE = JS_SPACE
_MAX_DEPTH = MAX_JSON_DEPTH


@dataclass(frozen=True, slots=True)
class LintFinding:
    """One finding: the rule (``"W1"``, ``"W4"``, ``"W5"``, ``"W6"`` or ``"type"``), level, message."""

    rule: str
    level: Level
    message: str

    def __str__(self) -> str:
        """The line the command prints: ``ERROR W1: ...`` or ``hint  W5: ...``."""
        label = "ERROR" if self.level == "error" else "hint "
        return f"{label} {self.rule}: {self.message}"


@dataclass(frozen=True, slots=True)
class LintReport:
    """What :func:`lint` found, in the reference linter's order."""

    findings: tuple[LintFinding, ...] = ()

    @property
    def ok(self) -> bool:
        """No error (MUST violation); suggestions may remain."""
        return not any(finding.level == "error" for finding in self.findings)

    @property
    def exit_code(self) -> int:
        """The command's exit status: 0 when :attr:`ok`, else 1."""
        return 0 if self.ok else 1

    def __iter__(self) -> Iterator[LintFinding]:
        return iter(self.findings)

    def __len__(self) -> int:
        return len(self.findings)

    def lines(self) -> list[str]:
        """The report as the command prints it (one line per finding, or the all-clear)."""
        if not self.findings:
            return ["ok \u2014 no wire-profile findings"]
        return [str(finding) for finding in self.findings]


# -- JSON as JavaScript reads and writes it ---------------------------------------------


def _js_number(text: str) -> float:
    return float(text)  # a double, as Number(text); overflow gives infinity


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_js_decoder = json.JSONDecoder(
    parse_float=_js_number, parse_int=_js_number, parse_constant=_reject_constant
)
_quote = json.JSONEncoder(ensure_ascii=False).encode


def _utf16_length(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def _js_string_length(text: str) -> int:
    quoted = _quote(text)
    length = _utf16_length(quoted)
    # JSON.stringify escapes lone surrogates as \udxxx (six units for one).
    return length + 5 * sum(1 for char in text if 0xD800 <= ord(char) <= 0xDFFF)


def _js_number_length(number: float) -> int:
    if math.isinf(number) or math.isnan(number):
        return 4  # JSON.stringify writes null
    text = format_float(number)
    if text.endswith(".0"):
        text = text[:-2]
    if text == "-0":
        text = "0"
    return len(text)


def _minified_length(value: Any) -> int:
    """``JSON.stringify(value).length`` for a value :data:`_js_decoder` produced.

    Iterative, so any depth the parser accepted is measured without recursion.
    """
    total = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if item is None or item is True:
            total += 4
        elif item is False:
            total += 5
        elif isinstance(item, float):
            total += _js_number_length(item)
        elif isinstance(item, str):
            total += _js_string_length(item)
        elif isinstance(item, list):
            total += 2 + max(len(item) - 1, 0)
            stack.extend(item)
        else:
            total += 2 + max(len(item) - 1, 0) + sum(_js_string_length(key) + 1 for key in item)
            stack.extend(item.values())
    return total


def _js_round(number: float) -> int:
    """``Math.round``: the nearest integer, halves toward positive infinity."""
    floor = math.floor(number)
    return floor + 1 if number - floor >= 0.5 else floor


def _too_deep(text: str) -> bool:
    if text.count("[") + text.count("{") <= _MAX_DEPTH:
        return False
    from eson._internal.wire.columnar import nested_too_deep

    return nested_too_deep(text)


# -- the rules --------------------------------------------------------------------------


def _eson_findings(text: str) -> list[LintFinding]:
    from eson._internal.wire.eson_line_reader import decode_document

    try:
        value = decode_document(text)
    except ESONError as exc:
        return [LintFinding("W4", "error", f"ESON payload fails integrity decode: {exc}")]
    return [
        LintFinding(
            "W6",
            "error",
            f'field "{key}" looks like an irreversible-action payload; carry it as '
            "schema-validated JSON, not ESON",
        )
        for key in carve_out_keys(value, True)
    ]


def _toon_findings(text: str) -> list[LintFinding]:
    from eson import toon

    try:
        value = toon.decode(text)
    except ESONError as exc:
        return [LintFinding("W4", "error", f"TOON payload fails integrity decode: {exc}")]
    return [
        LintFinding(
            "W6",
            "error",
            f'field "{key}" looks like an irreversible-action payload; carry it as '
            "schema-validated JSON, not TOON",
        )
        for key in carve_out_keys(value, True)
    ]


def _json_findings(text: str, value: Any) -> list[LintFinding]:
    findings: list[LintFinding] = []
    minified = _minified_length(value)
    trimmed = _utf16_length(text.strip(_JS_WHITESPACE))
    if trimmed > minified:
        percent = _js_round((trimmed / minified - 1) * 100)
        findings.append(
            LintFinding(
                "W1",
                "error",
                f"pretty-printed JSON: +{percent}% characters vs minified \u2014 emit "
                "JSON.stringify(value) with no indent",
            )
        )
    findings.extend(
        LintFinding(
            "W5",
            "suggestion",
            f"uniform record array at {path} repeats its keys per row; use columnar JSON "
            '({"#c":[cols],"#r":[rows]}) or ESON',
        )
        for path in undeduped_arrays(value)
    )
    findings.extend(
        LintFinding(
            "W6",
            "error",
            f'field "{key}" looks like an irreversible-action payload; carry it as plain '
            "schema-validated JSON, not columnar",
        )
        for key in carve_out_keys(value, False)
    )
    return findings


_NEITHER = LintFinding("W1", "error", f"payload is neither ESON ({HEADER}) nor valid JSON")


def _profile_findings(text: str, toon: bool) -> list[LintFinding]:
    if text.startswith(_ESON_PREFIX):
        return _eson_findings(text)
    try:
        if _too_deep(text):
            raise ValueError("nested too deeply")
        value = _js_decoder.decode(text)
    except (ValueError, RecursionError):
        if toon:
            from eson.agent.negotiation import detect

            if detect(text) == "toon":
                return _toon_findings(text)
        return [_NEITHER]
    return _json_findings(text, value)


def _type_findings(text: str, model: type) -> list[LintFinding]:
    from eson.agent.negotiation import decode_as

    try:
        decode_as(text, model)
    except ESONError as exc:
        name = getattr(model, "__qualname__", repr(model))
        return [LintFinding("type", "error", f"payload does not validate as {name}: {exc}")]
    return []


def lint(
    text: str | bytes | bytearray | memoryview,
    *,
    type: type | None = None,
    toon: bool = False,
) -> LintReport:
    """Check one payload against the Wire Profile's per-message rules (W1, W4, W5, W6).

    Args:
        text: The payload (``bytes`` are read as UTF-8, invalid sequences
            replaced, as the reference's reader does); a leading byte-order
            mark is skipped, as :func:`eson.decode` and :func:`eson.detect`
            skip it.
        type: Also check that the payload validates as this model class
            (any of ESON, TOON, columnar or plain JSON); a failure is a
            ``type`` error naming the line, section, row and field.
        toon: Lint a TOON payload as a dense document instead of reporting
            it as neither ESON nor JSON (the reference's behaviour).

    Returns:
        A :class:`LintReport`; ``report.ok`` is ``False`` exactly when a MUST
        rule is broken, and ``report.exit_code`` is what ``eson lint`` exits
        with.

    Raises:
        TypeError: for a ``type`` that is not a model class.
    """
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8", "replace")
    # A leading byte-order mark is no part of the payload: eson.decode and
    # eson.detect skip it, and the linter reads what they read.
    text = text.removeprefix("\ufeff")
    findings = _profile_findings(text, toon)
    if type is not None:
        findings.extend(_type_findings(text, type))
    return LintReport(tuple(findings))
