"""Finding the payload in a model's reply: fences, prose around it, which format it is.

Models wrap what they were asked to write: a sentence first, a code fence
(```` ```eson ````, ```` ```toon ````, ```` ```json ```` or a bare ```` ``` ````), a
closing remark, sometimes a second fence or a JSON example before the real
answer.  :func:`locate` finds the payload and says which format it is;
:func:`eson.extract` returns its text.

The rules, in order:

1. **Candidates.**  Every fenced block whose language tag is empty, ``eson``,
   ``toon``, ``json`` (or ``text``/``txt``/``plaintext``) is a candidate (a
   fence that is never closed -- a reply cut off -- runs to the end); so is
   each document found in the text outside fences: an ESON document from its
   ``!eson/1`` line to where its last section's rows end, a JSON object or
   array, a TOON block.  Fences in other languages (```` ```python ````) are
   code, never payloads.
2. **Format.**  Each candidate's format comes from its content (``!eson/``
   first, JSON that parses, TOON ``key: value`` lines, ESON entries), the
   fence tag breaking ties; a header-less ESON document or a bare TOON block
   outside fences counts only when it starts with a name the schema declares
   (``names``), since prose can look like either.
3. **Choice.**  The candidate in the format listed first in ``formats``
   wins; among several in that format a fenced one beats an unfenced one, and
   the last beats earlier ones (models put the answer after examples and
   drafts).

Line numbers are kept: :attr:`Payload.first_line` says where the payload
starts in the reply, so errors and repairs can point into the reply itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from eson.agent.negotiation import detect
from eson.errors import DecodeError
from eson.wire.eson_lenient import is_blank
from eson.wire.eson_reader import SplitText, document_end, head_extent, text_of
from eson.wire.toon_stream import ends_document

__all__ = ["FORMATS", "Format", "Payload", "extract", "locate"]

Format = Literal["eson", "toon", "json"]

#: The formats a reply may be in, in the default order of preference.
FORMATS: tuple[Format, ...] = ("eson", "toon", "json")

_FENCE_OPEN = re.compile(r"( {0,3})(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.\-]*)[^`]*")
_PAYLOAD_TAGS = {"": None, "eson": "eson", "toon": "toon", "json": "json", "jsonc": "json"}
_TEXT_TAGS = frozenset({"text", "txt", "plaintext", "plain"})
_TOON_KEY = r'(?:"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_.]*)'
_TOON_LINE = re.compile(rf"({_TOON_KEY})(\[[^\]\n]*\](?:\{{[^}}\n]*\}})?)?:(?:[ \t].*)?")
_TOON_ROOT = re.compile(r"\[[0-9]+[\t|]?\](?:\{[^}\n]*\})?:.*")
_VERSION = re.compile(r"!eson/\S*")
_DETECTED: dict[str, Format] = {
    "eson/1": "eson",
    "toon": "toon",
    "json": "json",
    "columnar": "json",
}
# JSON may start mid-line ("Here it is: {...}"): try a few starts, never every brace.
_JSON_TRIES = 8
_JSON_START = re.compile(r"[{\[]")
_json_decoder = json.JSONDecoder()


@dataclass(frozen=True)
class Payload:
    """The payload found in a reply.

    Attributes:
        lines: The payload's lines, as written (fence and prose removed; the
            CR of a CRLF removed).
        terminated: Whether its last line had a line break.
        format: ``"eson"``, ``"toon"`` or ``"json"``.
        first_line: 1-based line of the reply where the payload starts.
        fenced: Whether it came from a code fence.
        tag: The fence's language tag (``""`` for a bare fence), or ``None``.
        crlf: The reply's lines end with CRLF.
    """

    lines: list[str]
    terminated: bool
    format: Format
    first_line: int
    fenced: bool
    tag: str | None = None
    crlf: bool = False

    @property
    def text(self) -> str:
        """The payload's text, as written (with its own line breaks)."""
        separator = "\r\n" if self.crlf else "\n"
        return separator.join(self.lines) + (separator if self.terminated else "")

    @property
    def split(self) -> SplitText:
        """The payload as lines, for a reader that takes them as they are."""
        return SplitText(self.lines, self.terminated)


@dataclass(slots=True)
class _Block:
    lines: list[str]
    first: int  # 0-based index of the block's first line in the reply
    fenced: bool
    tag: str | None
    ends_reply: bool = False  # its last line is the reply's last, without a line break


def extract(text: str | bytes | bytearray | memoryview) -> str:
    """The ESON, TOON or JSON payload inside a model's reply.

    Finds it inside a ```` ```eson ````, ```` ```toon ````, ```` ```json ```` or
    bare ```` ``` ```` fence, or unfenced between prose (an ESON document ends
    where its last section's rows end); see :mod:`eson.agent.payload` for
    the exact rules.  The text is returned as written: decode it with
    ``strict=False`` to apply the safe repairs.

    Raises:
        eson.DecodeError: when the reply holds no payload (with a
            ``feedback`` text for the model).
    """
    return locate(text).text


def locate(
    text: str | bytes | bytearray | memoryview,
    formats: Sequence[str] = FORMATS,
    names: Collection[str] | None = None,
) -> Payload:
    """Find the payload of a reply among the allowed ``formats`` (see the module documentation).

    Args:
        text: The reply.
        formats: The formats to look for, most preferred first.
        names: The top-level names the expected schema declares; they let a
            header-less ESON document or a TOON block outside fences be told
            from prose.

    Raises:
        eson.DecodeError: when no payload in an allowed format is found.
        ValueError: for an unknown format name.
    """
    allowed = _check_formats(formats)
    reply = text_of(text)
    if reply.startswith("\ufeff"):
        reply = reply[1:]
    lines = reply.split("\n")
    last = lines.pop()  # the text after the last line break ("" if the reply ends with one)
    crlf = False
    if "\r" in reply:
        # A CR before an LF belongs to the line break.
        crlf = bool(lines) and lines[0].endswith("\r")
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    broken = last == ""  # the reply's last line has its line break
    if not broken:
        lines.append(last)
    fenced, outside = _blocks(lines, reply, broken)
    for fmt in allowed:  # the first format with a candidate wins: stop searching there
        found: list[Payload] = []
        for block in fenced:
            payload = _fenced_payload(block, fmt, allowed)
            if payload is not None:
                found.append(payload)
        if not found:
            for block in outside:
                found.extend(_unfenced_payloads(block, fmt, names))
        if found:
            chosen = max(found, key=lambda payload: payload.first_line)
            if crlf:
                chosen = replace(chosen, crlf=True)
            return chosen
    raise DecodeError(_nothing_found(allowed, reply), line=1)


def _check_formats(formats: Sequence[str]) -> tuple[Format, ...]:
    if isinstance(formats, str):
        raise TypeError("formats must be a sequence of format names, e.g. ('eson', 'json')")
    chosen: list[Format] = []
    for name in formats:
        if name not in FORMATS:
            raise ValueError(f"unknown reply format {name!r}; use 'eson', 'toon' or 'json'")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise ValueError("formats must name at least one of 'eson', 'toon', 'json'")
    return tuple(chosen)


def _nothing_found(allowed: Sequence[str], reply: str) -> str:
    names = [name.upper() for name in allowed]
    wanted = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    if not reply.strip():
        return f"the reply is empty; expected a {wanted} document"
    return f"no {wanted} document found in the reply"


# -- blocks: fenced and not -----------------------------------------------------------


def _fence_candidates(reply: str) -> list[int]:
    """The 0-based indexes of the lines that hold three backticks or tildes, in order.

    Found by searching the text for the markers (rare in a reply) rather
    than looking at every line, so a long document without fences costs
    next to nothing.
    """
    positions: list[int] = []
    for marker in ("```", "~~~"):
        if marker[0] not in reply:
            continue
        position = reply.find(marker)
        while position >= 0:
            positions.append(position)
            end = reply.find("\n", position)
            if end < 0:
                break
            position = reply.find(marker, end)
    positions.sort()
    indexes: list[int] = []
    line = 0
    last = 0
    for position in positions:
        line += reply.count("\n", last, position)
        last = position
        if not indexes or indexes[-1] != line:
            indexes.append(line)
    return indexes


def _blocks(lines: list[str], reply: str, broken: bool) -> tuple[list[_Block], list[_Block]]:
    """Split the reply into fenced blocks and the runs of lines outside fences.

    ``broken``: the reply's last line ends with a line break (so no block's
    last line is cut).
    """
    total = len(lines)
    ends = not broken
    candidates = _fence_candidates(reply)
    if not candidates:
        return [], [_Block(lines, 0, False, None, ends)]
    fenced: list[_Block] = []
    outside: list[_Block] = []
    run_start = 0
    position = 0  # into candidates
    while position < len(candidates):
        index = candidates[position]
        position += 1
        if index < run_start or index >= total:
            continue
        opening = _FENCE_OPEN.fullmatch(lines[index])
        if opening is None:
            continue
        if index > run_start:
            outside.append(_Block(lines[run_start:index], run_start, False, None))
        indent, marker, tag = opening.groups()
        close = re.compile(rf" {{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*")
        end = total
        while position < len(candidates):
            candidate = candidates[position]
            position += 1
            if candidate < total and close.fullmatch(lines[candidate]) is not None:
                end = candidate
                break
        body_start = index + 1
        body = lines[body_start:end]
        if indent:
            body = [_dedent(line, len(indent)) for line in body]
        fenced.append(_Block(body, body_start, True, tag.lower(), end >= total and ends))
        run_start = end + 1
    if run_start < total:
        outside.append(_Block(lines[run_start:], run_start, False, None, ends))
    return fenced, outside


def _dedent(line: str, width: int) -> str:
    """A fenced line without the fence's own indentation (as Markdown reads it)."""
    if not width:
        return line
    strip = len(line) - len(line.lstrip(" "))
    return line[min(strip, width) :]


def _trimmed(lines: list[str]) -> tuple[int, int]:
    """The index of the first non-blank line and the index after the last one."""
    start = 0
    end = len(lines)
    while start < end and is_blank(lines[start]):
        start += 1
    while end > start and is_blank(lines[end - 1]):
        end -= 1
    return start, end


def _payload(block: _Block, start: int, end: int, fmt: Format) -> Payload:
    # Every line of a reply but its very last had a line break after it.  Keep
    # that fact: a cut-off last line must not look complete (partial reading).
    terminated = end < len(block.lines) or not block.ends_reply
    return Payload(
        block.lines[start:end], terminated, fmt, block.first + start + 1, block.fenced, block.tag
    )


def _fenced_payload(block: _Block, fmt: Format, allowed: Sequence[Format]) -> Payload | None:
    tag = block.tag or ""
    if tag not in _PAYLOAD_TAGS and tag not in _TEXT_TAGS:
        return None  # code in another language
    start, end = _trimmed(block.lines)
    if start == end:
        return None
    if _content_format(block.lines[start:end], _PAYLOAD_TAGS.get(tag), allowed) != fmt:
        return None
    if fmt == "eson":
        # A blank line may be a row (the empty row of "name{}"): keep the
        # trailing blank lines the document's own counts take.
        first = start + 1 if block.lines[start].startswith("!eson/") else start
        end = max(end, document_end(block.lines, first))
    return _payload(block, start, end, fmt)


def _content_format(lines: list[str], hint: str | None, allowed: Sequence[Format]) -> Format | None:
    """The format of a fenced block's content, or ``None`` if none of ``allowed`` fits.

    The payload detection rules of :func:`eson.detect` decide (ESON header,
    JSON, TOON); content that is none of them may still be an ESON document
    without its header (its first line an entry), and broken content takes
    the fence's tag, so that the format's own reader says what is wrong.
    """
    first = lines[0].strip()
    if _VERSION.match(first):
        return "eson" if "eson" in allowed else None
    found = _DETECTED.get(detect("\n".join(lines)))
    if found is not None and found in allowed:
        return found
    if found is None and "eson" in allowed and head_extent(first) is not None:
        return "eson"
    if hint in allowed:
        return hint  # type: ignore[return-value]
    return None


# -- payloads outside fences ----------------------------------------------------------


def _unfenced_payloads(block: _Block, fmt: Format, names: Collection[str] | None) -> list[Payload]:
    if fmt == "eson":
        return _unfenced_eson(block, names)
    payload = _unfenced_json(block) if fmt == "json" else _unfenced_toon(block, names)
    return [] if payload is None else [payload]


def _unfenced_eson(block: _Block, names: Collection[str] | None) -> list[Payload]:
    lines = block.lines
    found: list[Payload] = []
    total = len(lines)
    index = 0
    while index < total:
        line = lines[index]
        if line.startswith("!eson/") and _VERSION.fullmatch(line.rstrip(" \t")):
            end = max(document_end(lines, index + 1), index + 1)
            found.append(_payload(block, index, end, "eson"))
            index = end
            continue
        index += 1
    if found or not names:
        return found
    # No header: a document that starts with an entry the schema declares.
    for index, line in enumerate(lines):
        if _entry_name(line) not in names or head_extent(line) is None:
            continue
        end = document_end(lines, index)
        found.append(_payload(block, index, end, "eson"))
        break
    return found


def _entry_name(line: str) -> str:
    match = re.match(r"[A-Za-z_][A-Za-z0-9_.\-]*", line)
    return match.group(0) if match else ""


def _unfenced_json(block: _Block) -> Payload | None:
    text = "\n".join(block.lines)
    tries = 0
    position = 0
    best: tuple[int, int] | None = None
    while tries < _JSON_TRIES:
        match = _JSON_START.search(text, position)
        if match is None:
            break
        start = match.start()
        tries += 1
        try:
            _, end = _json_decoder.raw_decode(text, start)
        except ValueError:
            position = start + 1
            continue
        if best is None or end - start > best[1] - best[0]:
            best = (start, end)
        position = end
    if best is None:
        return None
    start, end = best
    first = text.count("\n", 0, start)
    return Payload(text[start:end].split("\n"), False, "json", block.first + first + 1, False)


def _toon_key(line: str) -> str | None:
    match = _TOON_LINE.fullmatch(line)
    if match is None:
        return None
    key = match.group(1)
    return key[1:-1] if key.startswith('"') else key


def _unfenced_toon(block: _Block, names: Collection[str] | None) -> Payload | None:
    lines = block.lines
    total = len(lines)
    for start in range(total):
        line = lines[start]
        key = _toon_key(line)
        root = key is None and _TOON_ROOT.fullmatch(line) is not None
        if key is None and not root:
            continue
        if names is not None and not root and key not in names:
            continue
        end = start + 1
        index = start + 1
        while index < total:
            line = lines[index]
            if is_blank(line):
                index += 1
                continue
            if line[:1] == " " or line.lstrip(" ").startswith("#"):
                end = index = index + 1
                continue
            if ends_document(line):
                break
            end = index = index + 1
        if names is None and end - start < 2 and "[" not in lines[start]:
            continue  # one "word: words" line is prose more often than TOON
        return _payload(block, start, end, "toon")
    return None
