"""The narrowing only mypy supports: ``if result.ok:`` (checked by mypy --strict).

Pyright narrows a union on a literal attribute only through ``==`` / ``is``
(by design: microsoft/pyright#6113), so there ``if result.ok:`` leaves
``result.value`` as ``T | None``; use ``if result:`` or ``result.ok is True``.
The test runs Pyright on this file too and expects exactly the lines marked
``# pyright-only-miss``.
"""

from typing_extensions import assert_type

import eson


class Review(eson.Message):
    kind: str


result = eson.try_decode("!eson/1\nkind=x\n", type=Review)
if result.ok:
    assert_type(result.value, Review)  # pyright-only-miss
else:
    assert_type(result.error, eson.ESONError)  # pyright-only-miss
if not result.ok:
    assert_type(result, eson.Err)  # pyright-only-miss
