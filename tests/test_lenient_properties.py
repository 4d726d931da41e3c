"""Properties of lenient reading and of parse_reply, over generated documents and models.

- lenient reading of any canonical text equals strict reading, with no repair;
- lenient reading is never more permissive than strict about counts and ``n``:
  with a declared count or an ``n`` cell changed, both fail, or both give
  the same value (where the grammar itself allows the other reading);
- ``parse_reply(encode(m)) == m``, for ESON, TOON and JSON, bare, fenced or
  wrapped in prose.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

import msgspec
import pydantic
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_eson_hypothesis import documents
from test_typed_equivalence import (
    MEnvelope,
    MNumbered,
    PEnvelope,
    PNumbered,
    build,
    envelope_data,
    msgspec_cells,
    pydantic_cells,
    texts,
)

import eson
import eson.toon
from eson import Repair

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read(text: str, model: type | None, strict: bool) -> Any:
    if model is None:
        return eson.decode(text, strict=strict)
    return eson.decode(text, type=model, strict=strict)


def outcome(function: Any) -> tuple[str, Any]:
    try:
        return "ok", function()
    except eson.ESONError as exc:
        return "error", type(exc).__name__


# -- lenient of canonical text is strict ---------------------------------------------------


@SETTINGS
@given(documents, st.booleans())
def test_untyped_lenient_of_canonical_text_is_strict(
    document: dict[str, Any], number: bool
) -> None:
    try:
        text = eson.encode(document, number=number)
    except eson.EncodeError:
        assume(False)
    log: list[Repair] = []
    assert eson.decode(text, strict=False, repairs=log) == eson.decode(text)
    assert log == []
    crlf = text.replace("\n", "\r\n")
    assert eson.decode(crlf, strict=False, repairs=log) == eson.decode(crlf)
    assert log == []


def canonical_typed(model: type, data: dict[str, Any]) -> tuple[Any, str]:
    value = build(model, data)
    try:
        return value, eson.encode(value)
    except eson.EncodeError:
        assume(False)
        raise


@SETTINGS
@given(envelope_data(pydantic_cells) | envelope_data(msgspec_cells), st.data())
def test_typed_lenient_of_canonical_text_is_strict(
    data: dict[str, Any], draw: st.DataObject
) -> None:
    model = draw.draw(st.sampled_from([PEnvelope, MEnvelope]))
    value, text = canonical_typed(model, data)
    log: list[Repair] = []
    strict = outcome(lambda: eson.decode(text, type=model))
    lenient = outcome(lambda: eson.decode(text, type=model, strict=False, repairs=log))
    assert lenient == strict
    assert log == []
    try:
        toon = eson.toon.encode(value)
    except eson.ESONError:
        return
    log = []
    strict_toon = outcome(lambda: eson.toon.decode(toon, type=model))
    lenient_toon = outcome(lambda: eson.toon.decode(toon, type=model, strict=False, repairs=log))
    assert lenient_toon == strict_toon
    assert log == []


# -- counts and n stay checked ----------------------------------------------------------------

_COUNT = re.compile(r"^([A-Za-z_][A-Za-z0-9_.\-]*)\[([0-9]+)\]", re.M)


def numbered_data(cells: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"kind": texts},
        optional={
            "rows": st.lists(cells, min_size=1, max_size=4),
            "others": st.lists(st.fixed_dictionaries({"a": st.integers()}), min_size=1, max_size=4),
        },
    )


@SETTINGS
@given(st.data())
def test_lenient_is_never_more_permissive_about_counts(draw: st.DataObject) -> None:
    model, cells = draw.draw(
        st.sampled_from([(PNumbered, pydantic_cells), (MNumbered, msgspec_cells)])
    )
    _, text = canonical_typed(model, draw.draw(numbered_data(cells)))
    heads = list(_COUNT.finditer(text))
    assume(heads)
    head = draw.draw(st.sampled_from(heads))
    declared = int(head.group(2))
    changed = draw.draw(st.integers(0, declared + 3).filter(lambda count: count != declared))
    damaged = text[: head.start(2)] + str(changed) + text[head.end(2) :]
    last = head is heads[-1] and not re.search(r"^[A-Za-z_][^\t\n]*=", text[head.end() :], re.M)
    for typed in (model, None):
        strict = outcome(partial(read, damaged, typed, True))
        lenient = outcome(partial(read, damaged, typed, False))
        assert lenient == strict, (damaged, strict, lenient)
        if changed > declared and last:
            assert strict[0] == "error"  # the array ends the document: rows are missing


@SETTINGS
@given(
    st.lists(st.sampled_from(["a", "b c", "1", "x=1", "null"]), min_size=2, max_size=6), st.data()
)
def test_a_changed_n_always_fails(values: list[str], draw: st.DataObject) -> None:
    text = eson.encode({"kind": "k", "rows": [{"v": value} for value in values]}, number=True)
    lines = text.split("\n")
    rows = [index for index, line in enumerate(lines) if re.match(r"^[0-9]+\t", line)]
    index = draw.draw(st.sampled_from(rows))
    number, _, rest = lines[index].partition("\t")
    other = draw.draw(st.integers(0, len(values) + 2).filter(lambda n: str(n) != number))
    lines[index] = f"{other}\t{rest}"
    damaged = "\n".join(lines)
    for strict in (True, False):
        assert outcome(partial(read, damaged, None, strict))[0] == "error"


# -- parse_reply(encode(m)) == m -------------------------------------------------------------

WRAPPERS = [
    "{text}",
    "```eson\n{text}```",
    "```\n{text}```\n",
    "Here is the result:\n\n```eson\n{text}```\n\nLet me know if you need anything else.",
    "Sure.\n{text}\nDone, thanks!",
]


@SETTINGS
@given(envelope_data(pydantic_cells) | envelope_data(msgspec_cells), st.data())
def test_parse_reply_of_encode_is_the_value(data: dict[str, Any], draw: st.DataObject) -> None:
    model = draw.draw(st.sampled_from([PEnvelope, MEnvelope]))
    value, text = canonical_typed(model, data)
    assume(outcome(lambda: eson.decode(text, type=model)) == ("ok", value))
    wrapper = draw.draw(st.sampled_from(WRAPPERS))
    reply = wrapper.format(text=text)
    log: list[Repair] = []
    assert eson.parse_reply(reply, model, repairs=log) == value
    assert log == []
    if isinstance(value, pydantic.BaseModel):
        json_text = value.model_dump_json(by_alias=True)
    else:
        json_text = msgspec.json.encode(value).decode()
    if outcome(lambda: eson.parse_reply(json_text, model, formats=("json",)))[0] == "ok":
        assert eson.parse_reply(f"```json\n{json_text}\n```", model) == eson.parse_reply(
            json_text, model, formats=("json",)
        )
    try:
        toon = eson.toon.encode(value)
    except eson.ESONError:
        return
    if outcome(lambda: eson.toon.decode(toon, type=model)) == ("ok", value):
        assert eson.parse_reply(f"```toon\n{toon}\n```", model) == value
