"""Checked with ``plugins = pydantic.mypy, eson.mypy`` only.

``pydantic.mypy`` comes first on purpose: mypy asks plugins in order and uses the
first base-class hook it gets, so ``eson.mypy`` moves itself ahead and then hands
each class on to ``pydantic.mypy``.  This file shows both plugins ran: the ESON error
below, and no ``arg-type`` error on the constructor call, because the Pydantic plugin
(``init_typed = False``, its default) types ``__init__`` arguments as ``Any``.
"""

# Each marker comment must stay on the line it describes: no reformatting here.
# fmt: off

import eson


class Finding(eson.Record):
    file: str
    line: int


class Review(eson.Message):
    findings: list[Finding | int]  # E: Record array "findings" must hold one concrete record type, not "list[Finding | int]"; split it into one array per record type  [eson-record-array]


Finding(file="a.py", line="not checked by the pydantic plugin")
