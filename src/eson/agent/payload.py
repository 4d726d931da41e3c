"""Finding the payload in a model's reply: fences, prose around it, which format it is.

Models wrap what they were asked to write: a sentence first, a code fence
(```` ```eson ````, ```` ```toon ````, ```` ```json ```` or a bare ```` ``` ````), a
closing remark, sometimes a second fence or a JSON example before the real
answer.  :func:`locate` finds the payload and says which format it is;
:func:`eson.extract` returns its text.

The rules, in order:

1. **Candidates.**  Every fenced block is a candidate unless its language
   tag names a programming language (:data:`CODE_TAGS`: ```` ```python ````,
   ```` ```bash ````, ```` ```sql ```` ... are code, never payloads): an
   empty tag, ``eson``, ``toon``, ``json``, and any other word -- ``yaml``,
   ``yml``, ``tsv``, ``csv``, ``text``, ``md`` -- since models label data
   fences by guesswork.  A fence that is never closed -- a reply cut off --
   runs to the end (:attr:`Payload.closed` tells the readers it was cut: see
   :mod:`eson.agent.cutoff`); a closing fence written at the end of a line
   (```` 3<TAB>zeta``` hope this helps ````) closes the fence there: the
   text before it is the block's last line, what follows is prose.  So is
   each document found in the text outside fences a candidate: an ESON
   document from its ``!eson/1`` line to where its last section's rows end,
   a JSON object or array, a TOON block.
2. **Format.**  Each candidate's format comes from its content (``!eson/``
   first, JSON that parses, TOON ``key: value`` lines, ESON entries), never
   from a tag such as ``yaml``; only a tag naming a payload format
   (``eson``, ``toon``, ``json``) breaks ties, so that content broken in the
   tagged format reaches that format's reader and its error.  A header-less
   ESON document or a bare TOON block outside fences counts only when it
   starts with a name the schema declares (``names``), since prose can look
   like either.  When no candidate is found, the error names the fenced
   block that was there and what its first line holds (``a ```yaml block
   that is neither ESON nor TOON: 'kind: [x'``).
3. **Choice.**  The candidate in the format listed first in ``formats``
   wins; among several in that format a fenced one beats an unfenced one, and
   the last beats earlier ones (models put the answer after examples and
   drafts).  A candidate inside another format's candidate (the ``[2]`` of
   an ESON or TOON header, a JSON cell of an ESON row) is part of that
   document, never a payload of its own.

Line numbers are kept: :attr:`Payload.first_line` says where the payload
starts in the reply, so errors and repairs can point into the reply itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from itertools import islice

from eson._internal.wire.eson_lenient import is_blank
from eson._internal.wire.eson_lexicon import VERSION_PREFIX, VERSION_SOURCE
from eson._internal.wire.eson_reader import SplitText, document_end, head_extent, text_of
from eson._internal.wire.toon_lexicon import (
    DELIMITER_SYMBOL_SOURCE,
    DIGITS_SOURCE,
    QUOTED_SOURCE,
    SAFE_KEY_SOURCE,
)
from eson._internal.wire.toon_stream import ends_document
from eson.agent.formats import PAYLOAD_FORMATS, PayloadFormat, short_name
from eson.agent.negotiation import detect
from eson.errors import DecodeError, echo

__all__ = [
    "CODE_TAGS",
    "Payload",
    "extract",
    "fence_closing",
    "fence_opening",
    "is_payload_tag",
    "locate",
    "starts_document",
    "starts_eson",
    "starts_fenced",
    "starts_toon",
    "unread_fence",
]

_FENCE_OPEN = re.compile(r"( {0,3})(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.\-]*)[^`]*")
_PAYLOAD_TAGS = {"": None, "eson": "eson", "toon": "toon", "json": "json", "jsonc": "json"}

#: Fence language tags that name a programming language, shell or markup:
#: such a fence holds code, never a payload.  Every other tag (``yaml``,
#: ``csv``, ``text``, a word a model made up) is read by its content.
CODE_TAGS = frozenset(
    {
        "bash", "c", "c++", "clojure", "cpp", "cs", "csharp", "css", "console", "dart",
        "diff", "dockerfile", "elixir", "erlang", "fish", "fsharp", "go", "golang",
        "graphql", "groovy", "haskell", "html", "java", "javascript", "js", "jsx",
        "julia", "kotlin", "kt", "latex", "lisp", "lua", "make", "makefile", "matlab",
        "nim", "nix", "objc", "ocaml", "perl", "php", "powershell", "proto", "ps1",
        "py", "py3", "python", "python3", "r", "rb", "regex", "ruby", "rs", "rust",
        "scala", "scheme", "sh", "shell", "shellscript", "sql", "swift", "tex", "ts",
        "tsx", "typescript", "vb", "vue", "xml", "zig", "zsh",
    }
)  # fmt: skip
_QUOTE = re.compile(r'(?<!\\)"')
_TOON_KEY = f"(?:{QUOTED_SOURCE}|{SAFE_KEY_SOURCE})"
_TOON_LINE = re.compile(rf"({_TOON_KEY})(\[[^\]\n]*\](?:\{{[^}}\n]*\}})?)?:(?:[ \t].*)?")
_TOON_ROOT = re.compile(rf"\[{DIGITS_SOURCE}{DELIMITER_SYMBOL_SOURCE}\](?:\{{[^}}\n]*\}})?:.*")
_VERSION = re.compile(VERSION_SOURCE)
_DETECTED: dict[str, PayloadFormat] = {
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
        closed: It came from a code fence whose closing line is in the
            reply (a fence never closed means the reply was cut off).
    """

    lines: list[str]
    terminated: bool
    format: PayloadFormat
    first_line: int
    fenced: bool
    tag: str | None = None
    crlf: bool = False
    closed: bool = False

    @property
    def text(self) -> str:
        """The payload's text, as written (with its own line breaks).

        A line that ends with a CR (data: its CRLF's CR was removed) is
        followed by CRLF, as it was in the reply, so that a reader splitting
        the text gives it back with that CR, whatever the reply's other line
        ends are.
        """
        lines = self.lines
        if self.crlf:
            return "\r\n".join(lines) + ("\r\n" if self.terminated else "")
        if not any(line.endswith("\r") for line in lines):
            return "\n".join(lines) + ("\n" if self.terminated else "")
        ends = ["\r\n" if line.endswith("\r") else "\n" for line in lines]
        if not self.terminated:
            ends[-1] = ""
        return "".join(line + end for line, end in zip(lines, ends))

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
    closed: bool = False  # a fenced block whose closing fence line was found


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
    formats: Sequence[str] = PAYLOAD_FORMATS,
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
    first_break = reply.find("\n")
    crlf = first_break > 0 and reply[first_break - 1] == "\r"
    fenced, outside = _blocks(reply)
    unfenced = [_Unfenced(block, allowed, names) for block in outside]
    for fmt in allowed:  # the first format with a candidate wins: stop searching there
        found: list[Payload] = []
        for block in fenced:
            payload = _fenced_payload(block, fmt, allowed)
            if payload is not None:
                found.append(payload)
        if not found:
            for candidates in unfenced:
                found.extend(candidates.whole(fmt))
        if found:
            chosen = max(found, key=lambda payload: payload.first_line)
            if crlf:
                chosen = replace(chosen, crlf=True)
            return chosen
    message = _nothing_found(allowed, reply, fenced)
    if "eson" not in allowed and any(candidates.headed_eson() for candidates in unfenced):
        message += " (it holds an ESON document, which is not among the formats accepted here)"
    raise DecodeError(message, line=1)


def _check_formats(formats: Sequence[str]) -> tuple[PayloadFormat, ...]:
    if isinstance(formats, str):
        raise TypeError("formats must be a sequence of format names, e.g. ('eson', 'json')")
    chosen: list[PayloadFormat] = []
    for given in formats:
        # "eson/1" is ESON's name in eson.choose and eson.detect: both spellings work.
        name = short_name(given)
        if name not in PAYLOAD_FORMATS:
            raise ValueError(
                f"unknown reply format {echo(given)}; use 'eson' (or 'eson/1'), 'toon' or 'json'"
            )
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise ValueError("formats must name at least one of 'eson', 'toon', 'json'")
    return tuple(chosen)


def _nothing_found(allowed: Sequence[str], reply: str, fenced: Sequence[_Block] = ()) -> str:
    names = [name.upper() for name in allowed]
    wanted = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    if not reply.strip():
        return f"the reply is empty; expected a {wanted} document"
    message = f"no {wanted} document found in the reply"
    for block in fenced:
        start, end = _trimmed(block.lines)
        if start < end:
            return f"{message}: {unread_fence(block.tag or '', block.lines[start], allowed)}"
    return message


def unread_fence(tag: str, first: str, allowed: Sequence[str]) -> str:
    """What a fenced block that held no payload was, for the error: its tag and first line.

    ``a ```yaml block that is neither ESON nor TOON: 'kind: [x'`` (a code
    fence: ``a ```python block (code, never read as a payload): ...``).
    Shared by :func:`locate` and the stream's reply filter.
    """
    names = [name.partition("/")[0].upper() for name in allowed]  # "eson/1" is ESON
    if len(names) == 1:
        neither = f"not {names[0]}"
    else:
        neither = "neither " + ", ".join(names[:-1]) + " nor " + names[-1]
    label = f"```{echo(tag, 20)[1:-1]}" if tag else "bare ```"
    if not is_payload_tag(tag):
        return f"a {label} block (code, never read as a payload): {echo(first)}"
    return f"a {label} block that is {neither}: {echo(first)}"


# -- blocks: fenced and not -----------------------------------------------------------


def fence_opening(line: str) -> tuple[str, str, re.Pattern[str]] | None:
    """For a code fence's opening line: its indentation, language tag and closing-line pattern.

    ``None`` when the line opens no fence.  Shared by :func:`locate` and the
    stream's reply filter, so both read fences alike.
    """
    opening = _FENCE_OPEN.fullmatch(line)
    if opening is None:
        return None
    indent, marker, tag = opening.groups()
    char = re.escape(marker[0])
    # A closing line, or (group "data") a line whose text ends in the closing
    # marker, prose possibly after it: "3\tzeta``` hope this helps".
    close = re.compile(
        rf" {{0,3}}{char}{{{len(marker)},}}[ \t]*"
        rf"|(?P<data>[^{char}]*?[^{char} \t][^{char}]*?){char}{{{len(marker)},}}.*"
    )
    return indent, tag.lower(), close


def fence_closing(line: str, close: re.Pattern[str], inline: bool = True) -> str | None:
    """Whether ``line`` closes the fence whose pattern :func:`fence_opening` gave.

    ``None``: it does not (the line is the fence's content).  ``""``: it is
    a closing line.  Other text: the line ends the fence in mid-line
    (```` 3<TAB>zeta``` hope this helps ````); the text before the marker is
    the block's last line, and what follows it is prose, never data.  A
    marker inside a quoted string (an odd number of ``"`` before it) is
    data, and with ``inline=False`` (a code fence, whose code may well
    hold a marker in a string) only a closing line closes.  Shared by
    :func:`locate` and the stream's reply filter.
    """
    match = close.fullmatch(line)
    if match is None:
        return None
    data = match.group("data")
    if data is None:
        return ""
    if not inline or len(_QUOTE.findall(data)) % 2:
        return None
    return data


def is_payload_tag(tag: str) -> bool:
    """Whether a fence with this language tag may hold a payload (not code in :data:`CODE_TAGS`)."""
    return tag.lower() not in CODE_TAGS


def _lines_of(text: str, final: bool) -> tuple[list[str], bool]:
    """A piece of the reply as lines (the CR of a CRLF removed).

    ``final``: the piece runs to the end of the reply, so its last line may
    lack a line break; otherwise it ends with one.  Returns the lines and
    whether the last of them had no line break.
    """
    lines = text.split("\n")
    last = lines.pop()  # what follows the last line break ("" when the piece ends with one)
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if last:
        lines.append(last)
    return lines, bool(last) and final


def _fence_lines(reply: str) -> list[tuple[int, int]]:
    """Where the lines holding three backticks or tildes start and end, in order.

    Found with single-character searches (the markers are rare in a reply),
    never by looking at every line, so a long document without fences costs
    next to nothing.
    """
    spans: list[tuple[int, int]] = []
    for char in ("`", "~"):
        marker = char * 3
        position = reply.find(char)
        while position >= 0:
            if reply.startswith(marker, position):
                start = reply.rfind("\n", 0, position) + 1
                end = reply.find("\n", position)
                end = len(reply) if end < 0 else end
                spans.append((start, end))
                position = end
            position = reply.find(char, position + 1)
    return sorted(set(spans))


def _line_text(reply: str, start: int, end: int) -> str:
    line = reply[start:end]
    return line[:-1] if line.endswith("\r") and end < len(reply) else line


def _blocks(reply: str) -> tuple[list[_Block], list[_Block]]:
    """Split the reply into fenced blocks and the runs of lines outside fences."""
    spans = _fence_lines(reply)
    if not spans:
        lines, cut = _lines_of(reply, True)
        return [], [_Block(lines, 0, False, None, cut)]
    fenced: list[_Block] = []
    outside: list[_Block] = []
    position = 0  # where the text not yet placed in a block starts
    line_index = 0  # its line number (0-based)
    span = 0
    while span < len(spans):
        start, end = spans[span]
        span += 1
        if start < position:
            continue
        opening = fence_opening(_line_text(reply, start, end))
        if opening is None:
            continue
        run, _ = _lines_of(reply[position:start], False)
        if run:
            outside.append(_Block(run, line_index, False, None))
        opener = line_index + len(run)
        indent, tag, close = opening
        inline = is_payload_tag(tag)  # a mid-line marker closes only a payload's fence
        closer: tuple[int, int] | None = None
        last = ""  # the text before a closing marker in mid-line
        while span < len(spans):
            candidate = spans[span]
            span += 1
            if candidate[0] > end:
                closing = fence_closing(_line_text(reply, *candidate), close, inline)
                if closing is not None:
                    closer = candidate
                    last = closing
                    break
        if closer is None:
            body, cut = _lines_of(reply[end + 1 :], True)
            position = len(reply)
        else:
            body, cut = _lines_of(reply[end + 1 : closer[0]], False)
            if last:
                body.append(last)
            position = closer[1] + 1
        if indent:
            body = [_dedent(line, len(indent)) for line in body]
        fenced.append(_Block(body, opener + 1, True, tag, cut, closer is not None))
        line_index = opener + 1 + len(body) + (closer is not None and not last)
    if position < len(reply):
        rest, cut = _lines_of(reply[position:], True)
        outside.append(_Block(rest, line_index, False, None, cut))
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


def _payload(block: _Block, start: int, end: int, fmt: PayloadFormat) -> Payload:
    # Every line of a reply but its very last had a line break after it.  Keep
    # that fact: a cut-off last line must not look complete (partial reading).
    terminated = end < len(block.lines) or not block.ends_reply
    return Payload(
        block.lines[start:end],
        terminated,
        fmt,
        block.first + start + 1,
        block.fenced,
        block.tag,
        closed=block.closed,
    )


def _fenced_payload(block: _Block, fmt: PayloadFormat, allowed: Sequence[PayloadFormat]) -> Payload | None:
    tag = block.tag or ""
    if not is_payload_tag(tag):
        return None  # code in another language
    start, end = _trimmed(block.lines)
    if start == end:
        return None
    if _content_format(block.lines[start:end], _PAYLOAD_TAGS.get(tag), allowed) != fmt:
        return None
    return _payload(block, start, _FINDERS[fmt].fenced_end(block.lines, start, end), fmt)


def _content_format(lines: list[str], hint: str | None, allowed: Sequence[PayloadFormat]) -> PayloadFormat | None:
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


Span = tuple[int, int]  # where a candidate starts and ends in its block's text


class _Unfenced:
    """The candidates of one run of lines outside fences, each format searched once.

    A candidate found inside another format's candidate -- the ``[2]`` of an
    ESON header ``a[2]`` or of a TOON header, a JSON cell of an ESON row, the
    ``"key": value`` lines of a JSON object read as TOON -- is part of that
    document, never a payload of its own: the whole document wins.
    """

    def __init__(
        self, block: _Block, allowed: Sequence[PayloadFormat], names: Collection[str] | None
    ) -> None:
        self.block = block
        self.allowed = allowed
        self.names = names
        self._text: str | None = None
        self._found: dict[PayloadFormat, list[tuple[Payload, Span]]] = {}
        self._headed: list[tuple[Payload, Span]] | None = None

    def whole(self, fmt: PayloadFormat) -> list[Payload]:
        """The candidates in ``fmt`` that no candidate in another allowed format contains."""
        if _FINDERS[fmt].alone:
            return [payload for payload, _ in self.found(fmt)]
        others = [self.found(other) for other in self.allowed if other != fmt]
        return [
            payload
            for payload, span in self.found(fmt)
            if not any(_inside(span, outer) for found in others for _, outer in found)
        ]

    def found(self, fmt: PayloadFormat) -> list[tuple[Payload, Span]]:
        """Every candidate in ``fmt`` with its span, searched on first use."""
        if fmt in self._found:
            return self._found[fmt]
        self._found[fmt] = []  # no search sees its own format's candidates
        found = _FINDERS[fmt].unfenced(self, fmt)
        self._found[fmt] = found
        return found

    def lines_of(self, payloads: list[Payload]) -> list[tuple[Payload, Span]]:
        """Each payload made of whole lines of the block, with its span."""
        return [(payload, self._line_span(payload)) for payload in payloads]

    def json(self, fmt: PayloadFormat) -> list[tuple[Payload, Span]]:
        """The JSON candidate: the longest value among the brackets outside the others' candidates."""
        skip = [span for other in self.allowed if other != fmt for _, span in self.found(other)]
        if "eson" not in self.allowed:
            # A headed ESON document is one whatever the reply may be: a
            # bracket inside it (``a[2]``, a JSON cell) is never a payload.
            skip.extend(span for _, span in self.headed_eson())
        if self._text is None:  # joined only when JSON is looked for
            self._text = "\n".join(self.block.lines)
        payload = _unfenced_json(self.block, self._text, sorted(skip))
        return [] if payload is None else [payload]

    def headed_eson(self) -> list[tuple[Payload, Span]]:
        """The ESON documents that begin with their ``!eson/`` header, allowed or not (searched once)."""
        if self._headed is None:
            self._headed = [
                (payload, self._line_span(payload))
                for payload in _unfenced_eson(self.block, None)
            ]
        return self._headed

    def _line_span(self, payload: Payload) -> Span:
        """Where the payload's lines stand in the block's text (first and last character)."""
        lines = self.block.lines
        first = payload.first_line - 1 - self.block.first
        count = len(payload.lines)
        # Each line is followed by its line feed; the lengths are summed in C.
        start = sum(map(len, islice(lines, first))) + first
        return start, start + sum(map(len, islice(lines, first, first + count))) + count - 1


def _inside(span: Span, outer: Span) -> bool:
    """Whether ``span`` lies within ``outer`` and is not all of it."""
    return outer[0] <= span[0] and span[1] <= outer[1] and span != outer


def _unfenced_eson(block: _Block, names: Collection[str] | None) -> list[Payload]:
    lines = block.lines
    found: list[Payload] = []
    total = len(lines)
    index = 0
    while index < total:
        line = lines[index]
        if starts_eson(line, None):
            end = max(document_end(lines, index + 1), index + 1)
            found.append(_payload(block, index, end, "eson"))
            index = end
            continue
        index += 1
    if found or not names:
        return found
    # No header: a document that starts with an entry the schema declares.
    for index, line in enumerate(lines):
        if not starts_eson(line, names):
            continue
        end = document_end(lines, index)
        found.append(_payload(block, index, end, "eson"))
        break
    return found


def _entry_name(line: str) -> str:
    match = re.match(r"[A-Za-z_][A-Za-z0-9_.\-]*", line)
    return match.group(0) if match else ""


def _unfenced_json(block: _Block, text: str, skip: list[Span]) -> tuple[Payload, Span] | None:
    """The longest JSON value among the first few starts outside the ``skip`` spans.

    ``skip`` holds the other formats' candidates in order: a bracket inside
    one of them is part of that document, so the search resumes after it.
    """
    tries = 0
    position = 0
    best: Span | None = None
    pending = iter(skip)
    around = next(pending, None)
    while tries < _JSON_TRIES:
        match = _JSON_START.search(text, position)
        if match is None:
            break
        start = match.start()
        while around is not None and around[1] <= start:
            around = next(pending, None)
        if around is not None and around[0] <= start:
            position = around[1]
            continue
        tries += 1
        try:
            _, end = _json_decoder.raw_decode(text, start)
        except RecursionError:
            # Too deep for the parser: still a JSON candidate, up to its
            # closing bracket, so that its reader says it nests too deeply.
            closing = _closing_bracket(text, start)
            if closing is None:
                position = start + 1
                continue
            end = closing
        except ValueError:
            position = start + 1
            continue
        if _is_count(text, start, end):
            position = end
            continue
        if best is None or end - start > best[1] - best[0]:
            best = (start, end)
        position = end
    if best is None:
        return None
    start, end = best
    first = text.count("\n", 0, start)
    lines = text[start:end].split("\n")
    return Payload(lines, False, "json", block.first + first + 1, False), best


_COUNT = re.compile(r"\[\d+\]")


def _is_count(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is the ``[N]`` of an ESON or TOON header (``items[2]``).

    A one-number array glued to the name before it counts that name's rows
    or items: it is part of a document, never a JSON payload of its own.
    """
    if start == 0 or not (text[start - 1].isalnum() or text[start - 1] in '_".'):
        return False
    return _COUNT.fullmatch(text, start, end) is not None


_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[\]{}]')


def _closing_bracket(text: str, start: int) -> int | None:
    """Where the bracket opened at ``start`` is closed (after it), counting without recursion."""
    depth = 0
    for match in _BRACKET_OR_STRING.finditer(text, start):
        token = match.group()
        if token == "[" or token == "{":
            depth += 1
        elif token == "]" or token == "}":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def starts_eson(line: str, names: Collection[str] | None) -> bool:
    """Whether an ESON document outside fences starts on this line.

    Its ``!eson/`` header line, or -- when the schema's top-level ``names``
    are known -- an entry of one of those names.  Shared by :func:`locate`
    and the stream's reply filter.
    """
    if line.startswith(VERSION_PREFIX) and _VERSION.fullmatch(line.rstrip(" \t")):
        return True
    return names is not None and _entry_name(line) in names and head_extent(line) is not None


def starts_fenced(line: str, format: str, names: Collection[str] | None = None) -> bool:
    """Whether a fenced block tagged other than ``format`` starts a ``format`` document here.

    Its first non-blank ``line``: the ``!eson/`` header or an ESON entry
    (``format="eson"``), a TOON ``key: ...`` line (``"toon"``).  The stream's
    reply filter reads fences such as ```` ```yaml ```` or ```` ```json ````
    by this test, the first-line form of the content rule :func:`locate`
    applies.
    """
    return _FINDERS[format].starts_fenced(line.strip(), names)


def starts_document(line: str, format: str, names: Collection[str] | None) -> bool:
    """Whether a document in ``format`` (``"eson"``, ``"toon"``) outside fences starts on this line.

    :func:`starts_eson` or :func:`starts_toon`; with ``names=None``, only a
    line that starts a document whatever its schema (ESON's header, any
    TOON key line).
    """
    return _FINDERS[format].starts(line, names)


def _eson_fenced_start(first: str, names: Collection[str] | None) -> bool:
    return _VERSION.match(first) is not None or head_extent(first) is not None


def _eson_fenced_end(lines: list[str], start: int, end: int) -> int:
    # A blank line may be a row (the empty row of "name{}"): keep the
    # trailing blank lines the document's own counts take.
    first = start + 1 if lines[start].startswith(VERSION_PREFIX) else start
    return max(end, document_end(lines, first))


def _trimmed_end(lines: list[str], start: int, end: int) -> int:
    return end


def _never_starts(line: str, names: Collection[str] | None) -> bool:
    return False


def starts_toon(line: str, names: Collection[str] | None) -> bool:
    """Whether a TOON block outside fences may start on this line.

    A ``key: ...`` line (or a root array header), whose key is one of the
    schema's top-level ``names`` when they are known.
    """
    if _TOON_ROOT.fullmatch(line) is not None:
        return True
    key = _toon_key(line)
    return key is not None and (names is None or key in names)


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
        if not starts_toon(lines[start], names):
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


@dataclass(frozen=True)
class _Finder:
    """How a payload in one format is found in a reply.

    Attributes:
        unfenced: Its candidates in a run of lines outside fences, with their spans.
        alone: Its candidates are never inside another format's: an ESON
            document starts a line with its header or an entry, and neither
            is a line inside valid JSON or a TOON block.
        fenced_end: Where a fenced payload ends, given its lines and the
            span of its non-blank ones.
        starts: Whether a document starts on a line outside fences (the
            schema's top-level names known or ``None``).
        starts_fenced: Whether the first line of a fence tagged otherwise
            starts a document of this format.
    """

    unfenced: Callable[[_Unfenced, PayloadFormat], list[tuple[Payload, Span]]]
    alone: bool
    fenced_end: Callable[[list[str], int, int], int]
    starts: Callable[[str, Collection[str] | None], bool]
    starts_fenced: Callable[[str, Collection[str] | None], bool]


def _toon_candidates(found: _Unfenced, fmt: PayloadFormat) -> list[tuple[Payload, Span]]:
    payload = _unfenced_toon(found.block, found.names)
    return [] if payload is None else found.lines_of([payload])


_FINDERS: dict[str, _Finder] = {
    "eson": _Finder(
        lambda found, fmt: found.lines_of(_unfenced_eson(found.block, found.names)),
        True,
        _eson_fenced_end,
        starts_eson,
        _eson_fenced_start,
    ),
    "toon": _Finder(_toon_candidates, False, _trimmed_end, starts_toon, starts_toon),
    "json": _Finder(_Unfenced.json, False, _trimmed_end, _never_starts, _never_starts),
}
