"""Questions with one right answer about a document, and how a reply is scored.

Six kinds, the access patterns the format's authors measured:

==================  ===============================================================
kind                asks for
==================  ===============================================================
``key_lookup``      a top-level scalar, by name
``column_match``    a cell of the record whose unique key column has a given value
``nested_cell``     a field inside an object cell of the record found by key
``nested_array``    the k-th item of a list cell of the record found by key
``positional``      a cell of the k-th record ("record number 7")
``counting``        how many records have a given value in a column
==================  ===============================================================

Questions are made from the plain (JSON-mode) value, so they are the same
whichever format shows the document.  A kind with nothing to ask about in
the document (no object cells, say) yields no questions.

The answer check (:func:`normalize`, :func:`is_correct`) is an exact match
after a documented normalisation: a leading ``<think>...</think>`` block
(reasoning models served by vLLM or llama.cpp) is dropped; a reply that is
one code fence is unwrapped; if a line starts with ``Answer:`` the text after it is taken;
white space at the ends is stripped, and runs of white space become one
space; quotes or backticks around the whole answer and one trailing period
are dropped; letters are compared case-folded; and two answers that both
read as decimal numbers are compared as numbers (``118`` = ``118.0``).
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["KINDS", "Kind", "Question", "answer_text", "is_correct", "make_questions", "normalize"]

Kind = Literal[
    "key_lookup", "column_match", "nested_cell", "nested_array", "positional", "counting"
]

#: Every question kind, in report order.
KINDS: tuple[Kind, ...] = (
    "key_lookup",
    "column_match",
    "nested_cell",
    "nested_array",
    "positional",
    "counting",
)


@dataclass(frozen=True)
class Question:
    """One question about a document.

    Attributes:
        kind: Which access pattern it measures (:data:`KINDS`).
        text: The question as the model sees it.
        answer: The right answer, as text (:func:`answer_text`).
    """

    kind: Kind
    text: str
    answer: str


def answer_text(value: Any) -> str:
    """A scalar as the answer a model should give: ``null``, ``true``, ``42``, bare strings."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _key_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _record_arrays(document: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    return [
        (name, value)
        for name, value in document.items()
        if isinstance(value, list) and value and all(isinstance(row, dict) for row in value)
    ]


def _key_columns(rows: list[dict[str, Any]]) -> list[str]:
    """Columns whose values are distinct non-empty strings or integers in every row."""
    columns = [name for name in rows[0] if name != "n"]
    found = []
    for name in columns:
        values = [row.get(name) for row in rows]
        if all(
            (isinstance(v, str) and v.strip()) or (isinstance(v, int) and not isinstance(v, bool))
            for v in values
        ) and len({json.dumps(v) for v in values}) == len(values):
            found.append(name)
    return found


def _scalar_columns(rows: list[dict[str, Any]], exclude: str) -> list[str]:
    return [
        name
        for name in rows[0]
        if name not in (exclude, "n") and all(_scalar(row.get(name)) for row in rows)
    ]


def _candidates(document: dict[str, Any], kind: Kind) -> list[tuple[str, str]]:
    """Every question of ``kind`` the document allows, as ``(text, answer)``."""
    found: list[tuple[str, str]] = []
    if kind == "key_lookup":
        for name, value in document.items():
            if _scalar(value):
                found.append(
                    (f'What is the value of the top-level field "{name}"?', answer_text(value))
                )
        return found
    for array, rows in _record_arrays(document):
        keys = _key_columns(rows)
        where = f'In the "{array}" records'
        for number, row in enumerate(rows, 1):
            for key in keys:
                named = f'the record whose "{key}" is {_key_text(row[key])}'
                for field, value in row.items():
                    if field in (key, "n"):
                        continue
                    if kind == "column_match" and _scalar(value):
                        found.append(
                            (f'{where}, what is the "{field}" of {named}?', answer_text(value))
                        )
                    elif kind == "nested_cell" and isinstance(value, dict):
                        for sub, inner in value.items():
                            if _scalar(inner):
                                found.append(
                                    (
                                        f'{where}, what is "{field}.{sub}" of {named}?',
                                        answer_text(inner),
                                    )
                                )
                    elif kind == "nested_array" and isinstance(value, list):
                        for position, inner in enumerate(value, 1):
                            if _scalar(inner):
                                found.append(
                                    (
                                        f"{where}, what is item {position} (counting from 1) "
                                        f'of the "{field}" list of {named}?',
                                        answer_text(inner),
                                    )
                                )
            if kind == "positional":
                for field in _scalar_columns(rows, ""):
                    found.append(
                        (
                            f'{where}, what is the "{field}" of record number {number} '
                            "(counting from 1)?",
                            answer_text(row[field]),
                        )
                    )
        if kind == "counting":
            for field in _scalar_columns(rows, ""):
                values = {json.dumps(row.get(field)): row.get(field) for row in rows}
                if len(values) > max(2, len(rows) // 2):
                    continue  # a near-unique column makes a dull count
                for value in values.values():
                    count = sum(
                        row.get(field) == value and type(row.get(field)) is type(value)
                        for row in rows
                    )
                    found.append(
                        (
                            f'{where}, how many records have "{field}" equal to {_key_text(value)}?',
                            str(count),
                        )
                    )
    return found


def make_questions(
    document: dict[str, Any], kinds: Sequence[Kind] = KINDS, per_kind: int = 5, seed: int = 0
) -> list[Question]:
    """Up to ``per_kind`` distinct questions of each kind about ``document`` (plain values).

    The choice is seeded: the same document and seed give the same questions.
    """
    rng = random.Random(seed)
    questions: list[Question] = []
    for kind in kinds:
        if kind not in KINDS:
            raise ValueError(f"unknown question kind {kind!r}: choose from {', '.join(KINDS)}")
        found = _candidates(document, kind)
        for text, answer in rng.sample(found, min(per_kind, len(found))):
            questions.append(Question(kind, text, answer))
    return questions


_THINKING = re.compile(r"\A\s*<think>.*?</think>", re.DOTALL)
_FENCE = re.compile(r"\A```[^\n]*\n(.*?)\n?```\Z", re.DOTALL)
_ANSWER = re.compile(r"^\s*answer\s*:\s*(.*)$", re.IGNORECASE | re.MULTILINE)
_NUMBER = re.compile(r"\A[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\Z")
_QUOTES = (('"', '"'), ("'", "'"), ("`", "`"), ("\u201c", "\u201d"))


def normalize(text: str) -> str:
    """A reply (or an expected answer) in the form answers are compared in; see the module."""
    text = _THINKING.sub("", text).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    labelled = _ANSWER.search(text)
    if labelled:
        text = labelled.group(1)
    text = " ".join(text.split())
    period = text.endswith(".") and not _NUMBER.match(text)
    if period:
        text = text[:-1].rstrip()  # one trailing period, before or after the quotes
    stripped = True
    while stripped and len(text) >= 2:
        stripped = False
        for left, right in _QUOTES:
            if text.startswith(left) and text.endswith(right):
                text, stripped = text[1:-1].strip(), True
    if not period and text.endswith(".") and not _NUMBER.match(text):
        text = text[:-1].rstrip()
    return text.casefold()


def is_correct(reply: str, expected: str) -> bool:
    """Whether ``reply`` answers ``expected`` after :func:`normalize` (numbers by value)."""
    given, wanted = normalize(reply), normalize(expected)
    if given == wanted:
        return True
    if _NUMBER.match(given) and _NUMBER.match(wanted):
        a, b = float(given), float(wanted)
        return math.isfinite(a) and a == b
    return False
