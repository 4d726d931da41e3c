"""What type checkers infer for the typed API (checked by mypy, never imported)."""

# Each marker comment must stay on the line it describes: no reformatting here.
# fmt: off

from typing_extensions import reveal_type

import eson
from eson.msgspec import Message as StructMessage
from eson.msgspec import Record as StructRecord


class Finding(eson.Record):
    file: str
    line: int


class Review(eson.Message):
    findings: list[Finding]


class FollowUp(Review):
    reason: str


class Hit(StructRecord):
    line: int


class Scan(StructMessage, number=True):
    hits: list[Hit]


text = "!eson/1\n"

reveal_type(Review.from_eson(text))  # N: Revealed type is "api_reveal.Review"
reveal_type(FollowUp.from_eson(text.encode()))  # N: Revealed type is "api_reveal.FollowUp"
reveal_type(Scan.from_eson(text))  # N: Revealed type is "api_reveal.Scan"
reveal_type(Review.from_eson(text).to_eson())  # N: Revealed type is "str"
reveal_type(eson.decode(text, type=Review))  # N: Revealed type is "api_reveal.Review"
reveal_type(eson.decode(text, type=Scan))  # N: Revealed type is "api_reveal.Scan"
reveal_type(eson.decode(text))  # N: Revealed type is "dict[str, Any]"
reveal_type(eson.try_decode(text, type=Review))  # N: Revealed type is "eson._internal.results.Ok[api_reveal.Review] | eson._internal.results.Err"
reveal_type(eson.try_decode(text, type=Review).value)  # N: Revealed type is "api_reveal.Review | None"
decoder = eson.Decoder(FollowUp)
reveal_type(decoder)  # N: Revealed type is "eson._internal.api.Decoder[api_reveal.FollowUp]"
reveal_type(decoder.decode(text))  # N: Revealed type is "api_reveal.FollowUp"
reveal_type(eson.Decoder(Scan).decode(text))  # N: Revealed type is "api_reveal.Scan"
reveal_type(eson.Decoder())  # N: Revealed type is "eson._internal.api.Decoder[dict[str, Any]]"
reveal_type(eson.try_decode(text))  # N: Revealed type is "eson._internal.results.Ok[dict[str, Any]] | eson._internal.results.Err"
reveal_type(eson.toon.decode(text))  # N: Revealed type is "Any"
reveal_type(eson.toon.decode(text, type=Scan))  # N: Revealed type is "api_reveal.Scan"
reveal_type(eson.toon.Decoder())  # N: Revealed type is "eson.toon.Decoder[Any]"
reveal_type(eson.toon.Decoder(Review).decode(text))  # N: Revealed type is "api_reveal.Review"
reveal_type(eson.toon.try_decode(text, type=Review))  # N: Revealed type is "eson._internal.results.Ok[api_reveal.Review] | eson._internal.results.Err"
reveal_type(eson.columnar.decode(text, type=Review))  # N: Revealed type is "api_reveal.Review"
reveal_type(eson.columnar.Decoder(Scan))  # N: Revealed type is "eson.columnar.Decoder[api_reveal.Scan]"
reveal_type(eson.columnar.Decoder().decode(text))  # N: Revealed type is "Any"
reveal_type(Review.from_reply(text))  # N: Revealed type is "api_reveal.Review"
reveal_type(FollowUp.from_reply(text, formats=("eson", "json")))  # N: Revealed type is "api_reveal.FollowUp"
reveal_type(Scan.from_reply(text))  # N: Revealed type is "api_reveal.Scan"
reveal_type(Hit.from_reply(text))  # N: Revealed type is "api_reveal.Hit"
reveal_type(Scan.from_eson(text, strict=False, repairs=[]))  # N: Revealed type is "api_reveal.Scan"
reveal_type(Finding.from_toon(text, strict=False))  # N: Revealed type is "api_reveal.Finding"
reveal_type(eson.parse_reply(text, Review))  # N: Revealed type is "api_reveal.Review"
reveal_type(eson.parse_reply(text, type=Scan))  # N: Revealed type is "api_reveal.Scan"
reveal_type(eson.parse_reply(text))  # N: Revealed type is "Any"
reveal_type(eson.extract(text))  # N: Revealed type is "str"
reveal_type(eson.decode(text, type=Review, strict=False))  # N: Revealed type is "api_reveal.Review"
stream = eson.StreamDecoder(Review)
reveal_type(stream)  # N: Revealed type is "eson.agent.stream.StreamDecoder[api_reveal.Review]"
reveal_type(stream.feed(text)[0].section)  # N: Revealed type is "str"
reveal_type(stream.close())  # N: Revealed type is "api_reveal.Review"
reveal_type(eson.StreamDecoder(Scan, format="toon").close())  # N: Revealed type is "api_reveal.Scan"
reveal_type(eson.StreamDecoder().close())  # N: Revealed type is "dict[str, Any]"
reveal_type(eson.StreamDecoder(Review, keep=False).close())  # N: Revealed type is "None"
reveal_type(stream.feed(text)[0].row)  # N: Revealed type is "int | None"
reveal_type(stream.repairs)  # N: Revealed type is "list[eson._internal.wire.repairs.Repair]"
