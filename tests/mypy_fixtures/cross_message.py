"""Messages built on the record types of ``cross_records.py`` (another module)."""

from cross_records import Point, Ranked, Shouting, Tagged

import eson
from eson.msgspec import Message as StructMessage

# Each marker comment must stay on the line it describes: no reformatting here.
# fmt: off


class Fine(eson.Message):
    ranked_elsewhere: Ranked
    tags: list[Tagged]


class FineStructs(StructMessage, number=True):
    points: list[Point]
    shouts: list[Shouting]


class LoudClash(Shouting):
    CODE: int = 0  # E: Wire name "CODE" of field "CODE" is already used by field "code"; give one of them a distinct wire name with msgspec.field(name=...)  [eson-duplicate-name]


class RankedRows(eson.Message):
    rows: list[Ranked]  # E: Record array "rows" has record type "Ranked", whose first field is "n" (the wire name of field "rank"), which ESON reserves for row numbers; rename that field or move it after another field  [eson-reserved-n]


class NumberedTags(eson.Message, number=True):
    tags: list[Tagged]  # E: Record array "tags" is numbered, so its record type "Tagged" cannot have a field named "n" (number=True adds that column itself); rename field "n"  [eson-reserved-n]
