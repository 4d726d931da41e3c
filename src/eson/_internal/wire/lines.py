"""Chunks of a stream into complete lines: the first step of both streaming readers.

A model's reply arrives in pieces of arbitrary size, cut anywhere: inside a
multi-byte UTF-8 character, between the CR and LF of a CRLF, in the middle
of a row.  :class:`LineSplitter` turns those pieces into whole lines, exactly
as the whole-text readers split a text: a leading byte-order mark is
dropped, CRLF is a line break (a CR anywhere else is data), and the last
line may lack its line break.  It holds nothing but the unfinished line, so
memory is bounded by the longest line.
"""

from __future__ import annotations

import codecs

from eson.errors import ESONError


def whole_text(
    data: str | bytes | bytearray | memoryview, label: str, error: type[ESONError]
) -> str:
    """A whole document as ``str``: bytes-like input is decoded as UTF-8.

    ``label`` names the format in the ``TypeError`` for other input (``"ESON"``,
    ``"TOON"``, ``"columnar JSON"``); ``error`` is the format's own error
    class, raised for invalid UTF-8 with the line it occurs on.
    """
    if isinstance(data, str):
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw.count(b"\n", 0, exc.start) + 1
            raise error(f"invalid UTF-8 at byte {exc.start} ({exc.reason})", line=line) from None
    raise TypeError(f"{label} input must be str or bytes-like, not {type(data).__name__}")


class LineSplitter:
    """Feed chunks (``str`` or UTF-8 ``bytes``); get back the lines they complete.

    Args:
        error: The error class for invalid UTF-8 (the format's own).
    """

    __slots__ = ("_decoder", "_error", "_pending", "_started", "bytes_seen", "lines_done")

    def __init__(self, error: type[ESONError]) -> None:
        self._error = error
        self._decoder: codecs.IncrementalDecoder | None = None
        self._pending: list[str] = []  # pieces of the unfinished line
        self._started = False
        #: Bytes fed so far (for ``bytes`` input), for error positions.
        self.bytes_seen = 0
        #: Complete lines handed out so far.
        self.lines_done = 0

    def feed(self, chunk: str | bytes | bytearray | memoryview) -> list[str]:
        """The lines this chunk completes (without their line breaks)."""
        if chunk.__class__ is str and self._started and self._decoder is None:
            text: str = chunk
            if "\n" not in text:
                if text:
                    self._pending.append(text)
                return []
        else:
            text = self._text(chunk, final=False)
        if not self._started:
            if not text:
                return []
            self._started = True
            if text[0] == "\ufeff":
                text = text[1:]
        if "\n" not in text:
            if text:
                self._pending.append(text)
            return []
        if self._pending:
            self._pending.append(text)
            text = "".join(self._pending)
            self._pending.clear()
        lines = text.split("\n")
        rest = lines.pop()
        if rest:
            self._pending.append(rest)
        if "\r" in text:
            lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        self.lines_done += len(lines)
        return lines

    def take_unfinished(self) -> str | None:
        """The unfinished line held (``""`` for none), handed to a reader in front of this one.

        ``None`` (and nothing taken) before the first text, or while the
        bytes of a UTF-8 character split across ``bytes`` chunks wait here:
        then the next chunk must come here.  The reader in front gives back
        what it holds with :meth:`give_back`.
        """
        if not self._started or (self._decoder is not None and self._decoder.getstate()[0]):
            return None
        text = "".join(self._pending)
        self._pending.clear()
        return text

    def give_back(self, lines: int, unfinished: str) -> None:
        """What a reader in front of this one read: ``lines`` complete lines, and a line begun."""
        self.lines_done += lines
        if unfinished:
            self._pending.append(unfinished)

    def unsplit(self, lines: int) -> None:
        """``lines`` of the complete lines handed out go back as text (to a reader in front)."""
        self.lines_done -= lines

    def close(self) -> str | None:
        """The last line, when the stream did not end with a line break (else ``None``).

        Raises:
            ESONError: (the class given) for a stream cut inside a UTF-8 character.
        """
        text = self._text(b"", final=True) if self._decoder is not None else ""
        if text:
            self._pending.append(text)
        if not self._pending:
            return None
        rest = "".join(self._pending)
        self._pending.clear()
        if not self._started:
            self._started = True
            if rest.startswith("\ufeff"):
                rest = rest[1:]
        return rest

    def _text(self, chunk: str | bytes | bytearray | memoryview, final: bool) -> str:
        if isinstance(chunk, str):
            if self._decoder is not None and self._decoder.getstate()[0]:
                raise TypeError(
                    "a str chunk arrived inside a UTF-8 character split across bytes chunks"
                )
            return chunk
        if not isinstance(chunk, (bytes, bytearray, memoryview)):
            raise TypeError(f"chunks must be str or bytes, not {type(chunk).__name__}")
        if self._decoder is None:
            self._decoder = codecs.getincrementaldecoder("utf-8")()
        raw = bytes(chunk)
        try:
            text = self._decoder.decode(raw, final)
        except UnicodeDecodeError as exc:
            line = self.lines_done + sum(part.count("\n") for part in self._pending) + 1
            raise self._error(
                f"invalid UTF-8 at byte {self.bytes_seen + max(exc.start, 0)} ({exc.reason})",
                line=line + raw.count(b"\n", 0, max(exc.start, 0)),
            ) from None
        self.bytes_seen += len(raw)
        return text
