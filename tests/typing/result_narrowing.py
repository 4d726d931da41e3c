"""How ``DecodeResult`` narrows: checked by mypy --strict and by Pyright, never imported.

Every form here narrows in both checkers; ``result_narrowing_mypy.py`` holds
the one that only mypy supports.
"""

from typing import Any

from typing_extensions import assert_type

import eson
import eson.toon


class Finding(eson.Record):
    file: str
    line: int


class Review(eson.Message):
    findings: list[Finding]


text = "!eson/1\nfindings[0]{file,line}\n"

result = eson.try_decode(text, type=Review)
assert_type(result, eson.Ok[Review] | eson.Err)
assert_type(result, eson.DecodeResult[Review])
assert_type(result.ok, bool)
assert_type(result.value, Review | None)
assert_type(result.error, eson.ESONError | None)

# Truthiness of the result itself: an Ok is truthy, an Err falsy.
if result:
    assert_type(result, eson.Ok[Review])
    assert_type(result.value, Review)
    assert_type(result.error, None)
else:
    assert_type(result, eson.Err)
    assert_type(result.error, eson.ESONError)
    assert_type(result.value, None)

# Identity with the literal.
if result.ok is True:
    assert_type(result.value, Review)
else:
    assert_type(result.error, eson.ESONError)
if result.ok is False:
    assert_type(result.error, eson.ESONError)

# isinstance and pattern matching.
if isinstance(result, eson.Ok):
    assert_type(result.value, Review)
match result:
    case eson.Ok(value=review):
        assert_type(review, Review)
    case eson.Err(error=error):
        assert_type(error, eson.ESONError)


def first_file(outcome: eson.DecodeResult[Review]) -> str | None:
    """A router's handler: annotated with the alias, narrowed in the body."""
    if not outcome:
        return outcome.error.reason
    return outcome.value.findings[0].file if outcome.value.findings else None


untyped = eson.try_decode(text)
if untyped:
    assert_type(untyped.value, dict[str, Any])
toon_result = eson.toon.try_decode("findings[0]:", type=Review)
if toon_result:
    assert_type(toon_result.value, Review)
assert_type(toon_result, eson.toon.Ok[Review] | eson.toon.Err)
