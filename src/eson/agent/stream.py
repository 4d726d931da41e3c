"""Decoding a reply while it streams: :class:`StreamDecoder`, events, and the async helper.

A model's reply arrives in chunks.  :class:`StreamDecoder` turns them into
:class:`~eson._internal.codecs.stream.Event` objects as soon as each entry or row is
complete -- a row's event comes out of the :meth:`~StreamDecoder.feed` call
that delivers its line break -- and :meth:`~StreamDecoder.close` returns the
validated message, the same as decoding the whole text.

The pipeline is the whole-text one, cut into lines:
:class:`~eson._internal.wire.lines.LineSplitter` (chunks to lines: UTF-8 and CRLF split
across chunks, a byte-order mark) -> the reply filter here (prose and a
code fence around the document) -> the format's line reader
(:class:`eson._internal.wire.eson_line_reader.LineReader`, :class:`eson._internal.wire.toon_stream.LineReader`:
counts, ``n``, lenient repairs) -> the format's builder (cells to values,
records validated, the message validated at the end).  Nothing keeps the
text: memory is the longest line plus the decoded values, and with
``keep=False`` not even the rows.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator
from dataclasses import dataclass
from types import MethodType
from typing import TYPE_CHECKING, Any, Generic, Literal, overload

from eson._internal.accelerator import native
from eson._internal.codecs.eson_stream import ESONBuilder
from eson._internal.codecs.feedback import attach_expected
from eson._internal.codecs.stream import Event
from eson._internal.codecs.toon_stream import TOONBuilder
from eson._internal.codecs.validation import check_options
from eson._internal.schema.compile import document_schema
from eson._internal.wire import eson_line_reader, toon_stream
from eson._internal.wire.eson_lexicon import VERSION_PREFIX
from eson._internal.wire.lines import LineSplitter
from eson._internal.wire.options import (
    Mode,
    ReadOptions,
    read_options,
    strict_flag,
    untyped_options,
)
from eson._internal.wire.repairs import Repair
from eson.agent.cutoff import Progress, cut_repair, cut_signal, truncated
from eson.agent.formats import DocumentFormat, document_format, wire_format
from eson.agent.payload import (
    fence_closing,
    fence_opening,
    is_payload_tag,
    starts_document,
    starts_eson,
    starts_fenced,
    unread_fence,
)
from eson.agent.stop import stop_kind
from eson.errors import DecodeError, ESONError, TOONError

__all__ = ["Event", "StreamDecoder"]

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    #: What :meth:`StreamDecoder.close` returns: the model given as ``type=``,
    #: else a ``dict`` (for type checkers; ``keep=False`` makes it ``None``).
    T = TypeVar("T", default=dict[str, Any])
else:
    from typing import TypeVar

    T = TypeVar("T")

StreamFormat = DocumentFormat  # (eson.agent.formats, where every format name is defined)


class _ReplyFilter:
    """The lines of the document inside a streamed reply (prose and fences dropped).

    Before the document: prose is skipped; a code fence tagged with the
    format (or untagged) opens it; a fence with another non-code tag
    (``json``, ``yaml``, ``text`` ...) opens it when its first line starts
    a document of the format, as :func:`eson.agent.payload.locate` reads
    such fences by their content; ``!eson/...``, or an entry of a declared
    name (typed), starts an unfenced one.  Inside a fence, its closing line
    -- or a closing marker at the end of a line, the text before it kept as
    the last line -- ends the document; anything after it is ignored.
    """

    __slots__ = (
        "closed", "fence", "format", "headerless", "names", "seen", "skipped", "state", "tag"
    )

    def __init__(self, format: StreamFormat, names: frozenset[str] | None) -> None:
        self.format = format
        self.names = names
        self.state = "before"  # before, code, fence-start, fenced, open, done
        self.fence: re.Pattern[str] | None = None
        #: Lines of the reply before the document's first line.
        self.skipped = 0
        #: The document ended (its fence closed).
        self.closed = False
        self.tag = ""  # the tag of the fence being read
        #: The first fenced block that held no document: its tag and first line.
        self.seen: tuple[str, str] | None = None
        #: (ESON) The unfenced document began at a declared entry, not at a header.
        self.headerless = False

    def lines(self, lines: list[str]) -> list[str]:
        if self.state in ("open", "fenced") and self.fence is None:
            return lines
        kept: list[str] = []
        for line in lines:
            state = self.state
            if state == "open":
                kept.append(line)
            elif state == "fenced":
                assert self.fence is not None
                rest = fence_closing(line, self.fence)
                if rest is not None:
                    self.state = "done"
                    self.closed = True
                    if rest:
                        kept.append(rest)
                else:
                    kept.append(line)
            elif state == "done":
                continue
            elif state == "code":
                self.skipped += 1
                assert self.fence is not None
                rest = fence_closing(line, self.fence, is_payload_tag(self.tag))
                if rest is not None:
                    self.state = "before"
                if self.seen is None and (line if rest is None else rest).strip():
                    self.seen = (self.tag, line if rest is None else rest)
            elif state == "fence-start":
                assert self.fence is not None
                if not line.strip():
                    self.skipped += 1
                    continue
                rest = fence_closing(line, self.fence)
                if rest == "":  # the fence closes with nothing in it
                    self.skipped += 1
                    self.state = "before"
                    continue
                first = line if rest is None else rest
                trusted = self.tag in ("", self.format)  # else read by its content, as locate does
                if not trusted and not starts_fenced(first, self.format, self.names):
                    if self.seen is None:
                        self.seen = (self.tag, first)
                    self.skipped += 1
                    self.state = "code" if rest is None else "before"
                    continue
                self.state = "fenced"
                if rest is not None:
                    self.state = "done"
                    self.closed = True
                    line = rest
                kept.append(line)
            else:
                opening = fence_opening(line)
                if opening is not None:
                    _, tag, self.fence = opening
                    self.tag = tag
                    # a fence tagged otherwise than the format (json, yaml ...) is
                    # read when its first line starts a document (fence-start)
                    self.state = "fence-start" if is_payload_tag(tag) else "code"
                    self.skipped += 1
                elif self._starts(line):
                    self.state = "open"
                    # (ESON) begun by a declared entry, not by a line that starts
                    # a document whatever its schema (the header)
                    self.headerless = not starts_document(line, self.format, None)
                    kept.append(line)
                else:
                    self.skipped += 1
        return kept

    def nothing_found(self) -> str:
        """The error text when the reply held no document (naming a fence that held none)."""
        message = f"no {self.format.upper()} document found in the reply"
        if self.seen is None:
            return message
        return f"{message}: {unread_fence(self.seen[0], self.seen[1], (self.format,))}"

    def _starts(self, line: str) -> bool:
        return starts_document(line, self.format, self.names)


#: The most rows the stream core is armed to read at once (a C ``Py_ssize_t``).
_MOST_ROWS = 1 << 62


class StreamDecoder(Generic[T]):
    """Decode an ESON or TOON document (or a model's reply holding one) as it streams.

    ``feed`` each chunk as it arrives; it returns the :class:`Event` of every
    entry and row the chunk completed.  ``close`` when the stream ends; it
    returns the validated message (the same as decoding the whole text) or
    raises if the stream was cut short.  ``snapshot`` gives the value so far.

    Args:
        type: The model class, or ``None`` for plain values.
        format: ``"eson"`` (default) or ``"toon"``.
        strict: ``False`` (the default: this reads model output) reads as
            :func:`eson.parse_reply` does: prose and a code fence around the
            document are skipped, and the lenient repairs apply (each
            recorded in :attr:`repairs`); counts and ``n`` are checked as
            always.  ``True`` reads the stream as exactly one document, as
            :func:`eson.decode` does with ``strict=True``.  (``strict=False``
            is ``mode="lenient", reply=True``; ``True`` is ``mode="strict"``.)
        mode: The reading mode by name: ``"strict"``, ``"lenient"``, or
            (TOON) ``"lax"``, the spec's non-strict reading: counts and row
            widths unchecked, accepting exactly what
            ``eson.toon.decode(..., strict=False)`` accepts; a lax stream
            holds its lines and reads them when it ends, so its events come
            at the end.  See the "Reading modes" table.
        options: All the reading options as one :class:`eson.ReadOptions`,
            instead of ``strict``, ``mode``, ``indent_size``, ``reply``,
            ``partial`` and ``require_end`` (passing both is a ``ValueError``).
        indent_size: (TOON) spaces per indentation level (default 2).
        reply: Skip prose and a code fence around the document; the default
            is ``True`` unless the mode is ``"strict"``.
        partial: (ESON, lenient only; never the default) accept a stream
            that ends inside its last array: keep the rows it has.
        keep: ``False`` keeps no rows: events only, memory flat however long
            the stream; :meth:`close` then checks that the stream was
            complete and returns ``None``.
        require_end: (``reply``) the document must end with the closing line
            of its code fence (the end mark :func:`eson.prompt` asks for);
            a stream without it counts as cut off (see :meth:`close`).

    With the C accelerator, an ESON decoder's ``feed`` is its stream core's
    (``_speedups.StreamRows.feed``): it reads the plain rows of a record
    array itself (msgspec Structs and plain dicts built in C, a Pydantic
    row's dict handed to its validation) and hands every other line to the
    Python ``feed`` documented here, which it equals in every event, value
    and error.  A subclass that overrides ``feed`` is read by Python.

    Every error is an :class:`eson.ESONError` whose lines count lines of the
    whole stream, with a ``feedback`` text for the model.  Events are the
    only output while the stream runs: for a framework that wants "the value
    so far" (LangChain's cumulative transform parser, pydantic-ai's
    streamed output), :meth:`snapshot` returns it.
    """

    @overload
    def __init__(
        self,
        type: builtins.type[T] | None = None,
        *,
        format: StreamFormat = "eson",
        strict: bool | None = None,
        mode: Mode | None = None,
        options: ReadOptions | None = None,
        indent_size: int | None = None,
        reply: bool | None = None,
        partial: bool | None = None,
        keep: Literal[True] = True,
        validation_strict: bool | None = None,
        context: Any = None,
        require_end: bool | None = None,
    ) -> None: ...

    @overload
    def __init__(
        self: StreamDecoder[None],
        type: builtins.type[Any] | None = None,
        *,
        format: StreamFormat = "eson",
        strict: bool | None = None,
        mode: Mode | None = None,
        options: ReadOptions | None = None,
        indent_size: int | None = None,
        reply: bool | None = None,
        partial: bool | None = None,
        keep: Literal[False],
        validation_strict: bool | None = None,
        context: Any = None,
        require_end: bool | None = None,
    ) -> None: ...

    def __init__(
        self,
        type: builtins.type[Any] | None = None,
        *,
        format: StreamFormat = "eson",
        strict: bool | None = None,
        mode: Mode | None = None,
        options: ReadOptions | None = None,
        indent_size: int | None = None,
        reply: bool | None = None,
        partial: bool | None = None,
        keep: bool = True,
        validation_strict: bool | None = None,
        context: Any = None,
        require_end: bool | None = None,
    ) -> None:
        format = document_format(format)  # "eson/1" is ESON's name in eson.choose and eson.detect
        #: The reading options (see :class:`eson.ReadOptions`).
        self.options: ReadOptions = read_options(
            options,
            format=format,
            strict=strict,
            mode=mode,
            indent_size=indent_size,
            partial=partial,
            reply=reply,
            require_end=require_end,
            default_strict=False,
            replies=True,
        )
        read = self.options
        strict_flag(keep, "keep")
        self.type = type
        self.format: StreamFormat = format
        self.keep = keep
        #: The repairs of a lenient read so far, lines counted in the stream.
        self.repairs: list[Repair] = []
        self._log: list[Repair] | None = None if read.strict else []
        names: frozenset[str] | None = None
        if type is not None:
            schema = document_schema(type)
            names = frozenset(item.wire for item in schema.fields if not item.output_only)
            check_options(schema.binding, validation_strict, context)
        else:
            untyped_options(validation_strict, context)
        self.validation_strict = validation_strict
        self.context = context
        rules = _DOCUMENTS[format]
        self._splitter = LineSplitter(rules.error)
        self._filter = _ReplyFilter(format, names) if read.reply else None
        self._builder: ESONBuilder | TOONBuilder
        self._reader: (
            eson_line_reader.LineReader | toon_stream.LineReader | toon_stream.HeldLineReader
        )
        self._reads_partial = rules.partial
        rules.start(self)
        self._names = names
        self._final_events: list[Event] = []
        self._done = False
        self._spent = False  # closed, or failed
        self._result: Any = None
        self._error: ESONError | None = None
        self._events = self._builder.events
        self._split = self._splitter.feed
        self._read = self._reader.lines
        self._offset = 0
        #: (ESON reply) Lines read of a document begun, with no header, by a
        #: declared entry; ``None`` once a header began it.  See _restart_at_header.
        self._headerless_read: int | None = None
        # The accelerator's stream core: it reads the plain rows of an ESON
        # record array or a TOON table itself, and hands everything else to
        # this class's feed (see _arm; _speedups.c, StreamRows).  Its feed is
        # this instance's, unless a subclass has its own.  (A lax TOON stream
        # holds its lines to the end: nothing for the core.)
        self._core: Any = None
        self._handing = False  # the core is reading the rest of a chunk (see feed)
        if (
            native is not None
            and read.checks_counts
            and builtins.type(self).feed is StreamDecoder.feed
        ):
            self._core = native.StreamRows(MethodType(StreamDecoder.feed, self))
            self.feed = self._core.feed  # type: ignore[method-assign]

    @property
    def strict(self) -> bool:
        """Whether the stream is read strictly (``options.mode == "strict"``)."""
        return self.options.strict

    @property
    def partial(self) -> bool:
        """Whether a cut-off last ESON array is accepted (``options.partial``)."""
        return self.options.partial

    @property
    def require_end(self) -> bool:
        """Whether the document must end with its code fence's closing line."""
        return self.options.require_end

    # -- feeding ----------------------------------------------------------------------

    def feed(
        self,
        chunk: str | bytes | bytearray | memoryview,
        *,
        final: bool = False,
        stop_reason: object = None,
    ) -> list[Event]:
        """Read one chunk; return the events of the entries and rows it completed.

        ``final=True`` says this is the last chunk (``b""`` or ``""`` will
        do), as ``codecs.IncrementalDecoder.decode(..., final=True)`` does: the
        stream is then ended as by :meth:`close` (with its errors), and the
        events returned include those only the end completes -- a last row
        without a line break, TOON's last list item.
        :meth:`close` then returns the message.  ``stop_reason`` (with
        ``final=True``) is that of :meth:`close`.

        Raises:
            eson.ESONError: as soon as the text read so far is wrong (the
                decoder is then spent: every later call raises it again).
            TypeError: for a chunk that is neither ``str`` nor bytes.
        """
        if self._core is not None:
            self._sync()
        if self._spent:
            if self._error is not None:
                raise self._error
            raise ValueError("feed() after close()")
        rest: str | None = None
        try:
            lines = self._split(chunk)
            if lines:
                if self._filter is not None:
                    lines = self._filter.lines(lines)
                    if self._filter.state == "open":  # unfenced and begun: no more filtering
                        self._offset = self._filter.skipped
                        if self._filter.headerless:
                            self._headerless_read = 0
                        self._filter = None
                if self._headerless_read is not None:
                    lines = self._restart_at_header(lines)
                if (
                    self._core is not None
                    and not final
                    and stop_reason is None
                    and len(lines) > 2
                    and not self._handing
                ):
                    rest = self._read_to_rows(lines)
                else:
                    self._read(lines)
        except ESONError as exc:
            raise self._fail(exc) from None
        self._take_repairs()
        events = self._events
        taken = events[:] if events else []
        events.clear()
        if rest is not None:  # the rest of the chunk is rows: the core reads it
            # What the core hands back from it is read here whole: one
            # hand-over a chunk, so no chain of calls grows with its lines.
            self._handing = True
            try:
                taken.extend(self._core.feed(rest))
            finally:
                self._handing = False
            return taken
        if final:
            self.close(stop_reason=stop_reason)
            taken.extend(self._final_events)
        elif stop_reason is not None:
            raise TypeError("stop_reason= is known when the stream ends: pass final=True too")
        elif self._core is not None:
            self._arm()
        return taken

    def close(self, *, stop_reason: object = None) -> T:
        """End the stream; return the decoded message (``None`` with ``keep=False``).

        Calling it again returns the same result (or raises the same error).

        Args:
            stop_reason: Why the model stopped, as the provider said it
                (``"length"``, ``"max_tokens"``, ``"MAX_TOKENS"``, or the
                response object; see :mod:`eson.agent.stop`).

        A stream that was **cut off** -- its stop reason says so, its code
        fence was never closed, or (``require_end``) it has no closing
        fence -- raises :class:`eson.TruncatedError` at the last row read;
        with ``partial=True`` (ESON) its last line, when it had no line
        break, is dropped and a ``cut-off`` repair recorded.  A fence that
        closed makes the document complete, whatever the stop reason.

        Raises:
            eson.ESONError: for a stream cut short (a count error, unless
                ``partial``), an empty one, or a message that fails validation.
            eson.TruncatedError: for a stream cut off (see above).
        """
        if self._core is not None:
            self._sync()
        if self._error is not None:
            raise self._error
        if self._done:
            return self._result  # type: ignore[no-any-return]
        cut: Repair | None = None
        try:
            last = self._splitter.close()
            if last is not None and self._filter is not None:
                kept = self._filter.lines([last])
                last = kept[0] if kept else None
            if self._filter is not None and self._filter.state in ("before", "code", "fence-start"):
                raise DecodeError(self._filter.nothing_found(), line=1)
            last, cut = self._check_cut(last, stop_reason)
            self._reader.finish(last)
            self._check_swallowed()
            result = self._builder.result() if self.keep else None
        except ESONError as exc:
            raise self._fail(exc) from None
        finally:
            if cut is not None and self._log is not None:
                self._log.append(cut)
            self._take_repairs()
        self._final_events = self._drain()
        self._done = True
        self._spent = True
        self._result = result
        return result  # type: ignore[return-value]

    @property
    def final_events(self) -> list[Event]:
        """The events that only the end of the stream completed (a copy; empty before it).

        A last row without a line break and TOON's last list item (its end
        is known when the next item begins, or the stream ends) come out
        when the stream ends: from
        ``feed(chunk, final=True)``, from :meth:`events` and :meth:`aevents`,
        and after :meth:`close` here.
        """
        return list(self._final_events)

    def _start_eson(self) -> None:
        """A new ESON builder and line reader (at the start, and on a restart at a header)."""
        builder = ESONBuilder(
            self.type,
            keep=self.keep,
            log=self._log,
            validation_strict=self.validation_strict,
            context=self.context,
        )
        self._builder = builder
        self._reader = reader = eson_line_reader.LineReader(
            builder,
            strict=self.options.strict,
            headerless=self.type is not None,
            partial=self.options.partial,
            log=self._log,
            ends_at_prose=self.options.reply,
            judge=self._check_swallowed,
        )
        self._events = builder.events
        self._read = reader.lines

    def _read_to_rows(self, lines: list[str]) -> str | None:
        """Read ``lines`` up to a run of rows the stream core may read; the rest as its text.

        For a chunk of many lines: entry lines are read one at a time, a
        section's rows as one batch, until the next lines are rows the core
        may read (see :meth:`_arm`).  Returns the
        lines after that head and the unfinished line, as one text for the
        core's ``feed`` (``None``: every line was read here).
        """
        unfinished = self._splitter.take_unfinished()
        if unfinished is None:  # a UTF-8 character is split: the next chunk is Python's
            self._read(lines)
            return None
        reader = self._reader
        assert not isinstance(reader, toon_stream.HeldLineReader)
        read = self._read
        index, total = 0, len(lines)
        # The rest goes on as lines joined by LF: a line that ends with a CR
        # of its own (data before a CRLF) would read back as ending in a
        # CRLF, its CR lost.  So the lines up to the last such one are read
        # here (the core declines a CR anyway).
        last_cr = -1
        if "\r" in "".join(lines):  # (rare: a search in C first)
            ending_in_cr = [at for at, line in enumerate(lines) if line.endswith("\r")]
            last_cr = ending_in_cr[-1] if ending_in_cr else -1
        while index < total:
            # The first line is always read here: it may be one the core
            # handed back.  Then an entry line at a time, or a section's rows.
            left = reader.rows_left
            stop = min(total, index + (left if left and index else 1))
            read(lines[index:stop])
            index = stop
            if index < total and index > last_cr and self._arm(""):
                self._splitter.unsplit(total - index)
                lines.append(unfinished)
                return "\n".join(lines[index:])
        self._splitter.give_back(0, unfinished)
        return None

    def _start_toon(self) -> None:
        """The TOON builder and line reader."""
        read = self.options
        builder = TOONBuilder(
            self.type,
            keep=self.keep,
            log=self._log,
            indent_size=read.indent_size,
            validation_strict=self.validation_strict,
            context=self.context,
        )
        self._builder = builder
        if read.checks_counts:
            self._reader = toon_stream.LineReader(
                builder, indent_size=read.indent_size, ends_at_prose=read.reply
            )
        else:  # lax: no line ends an entry before the document does (see HeldLineReader)
            self._reader = toon_stream.HeldLineReader(
                builder, indent_size=read.indent_size, ends_at_prose=read.reply
            )

    def _arm(self, unfinished: str | None = None) -> bool:
        """Let the stream core read the open record array's next rows, when it may.

        When the next lines can only be plain rows of an open ESON record
        array (:meth:`~eson._internal.wire.eson_line_reader.LineReader.plain_rows`)
        whose rows ``native.read_structs`` builds as the builder's row
        function does (:meth:`~eson._internal.codecs.eson_stream.ESONBuilder.plain_rows`),
        or of an open TOON table
        (:meth:`~eson._internal.wire.toon_stream.LineReader.plain_rows`,
        :meth:`~eson._internal.codecs.toon_stream.TOONBuilder.plain_rows`),
        in an unfenced document or inside its fence.  The core reads such
        rows up to the section's last, and hands any other line to
        :meth:`feed` with all that follows it.  It holds ``unfinished`` as the
        line begun (``None``: the splitter's).  Returns whether it is armed.
        """
        found = self._filter
        if self._headerless_read is not None or (found is not None and found.state != "fenced"):
            return False
        reader = self._reader
        builder = self._builder
        plain: tuple[str, tuple[Any, ...], Any, Any, Any] | None
        counts: tuple[int, int] | None
        if isinstance(reader, toon_stream.LineReader):
            assert isinstance(builder, TOONBuilder)
            counts = reader.plain_rows()  # (rows read, rows left)
            if counts is None:
                return False
            plain = builder.plain_rows(*reader.table_shape())
            # in a reply, a line of white space may be a blank line held back
            declines_spaces = self.options.reply
        else:
            assert isinstance(builder, ESONBuilder) and isinstance(
                reader, eson_line_reader.LineReader
            )
            plain = builder.plain_rows()  # worked out once a section
            if plain is None:
                return False
            counts = reader.plain_rows()  # (rows read, rows left)
            declines_spaces = not self.options.strict  # the lenient repairs' white space
        if plain is None or counts is None or not counts[1]:
            return False
        if unfinished is None:
            unfinished = self._splitter.take_unfinished()
            if unfinished is None:
                return False
        name, reading, rows, lines, check = plain
        self._core.arm(
            name,
            Event,
            rows,
            lines,
            counts[0],
            reader.line_no,
            min(counts[1], _MOST_ROWS),  # a count past any stream's: the core stops there
            reading,
            declines_spaces,
            found is not None,
            unfinished,
            check,
        )
        return True

    def _sync(self) -> None:
        """Take back from the stream core the rows it read and the line it holds."""
        found = self._core.take()
        if found is None:
            return
        rows, unfinished, failure = found
        reader = self._reader
        assert not isinstance(reader, toon_stream.HeldLineReader)
        if rows:
            reader.rows_read(rows)
        self._splitter.give_back(rows + (failure is not None), unfinished)
        if failure is None:
            return
        # The check of the row after them raised.
        if isinstance(reader, toon_stream.LineReader):
            reader.row_failed(failure)
            if isinstance(failure, ESONError):  # as from TOONBuilder.row, in feed
                raise self._fail(failure) from None
            raise failure
        if not isinstance(failure, DecodeError):
            raise failure  # as from the Python row function
        reader.row_failed(failure)

    def _restart_at_header(self, lines: list[str]) -> list[str]:
        """(ESON reply) Begin the document again at an ``!eson/`` header line, if one comes.

        A reply's unfenced document may begin, with no header, at an entry
        the schema declares; a header line after that start means the lines
        before it were not the document, as :func:`eson.parse_reply` reads
        such a reply (a headed document wins over a headerless start).  The
        lines read so far, their repairs and values are dropped (events
        already returned cannot be taken back), and the document is read
        again from the header.
        """
        for index, line in enumerate(lines):
            if line.startswith(VERSION_PREFIX) and starts_eson(line, None):
                assert self._headerless_read is not None
                self._offset += self._headerless_read + index
                self._headerless_read = None
                if self._log is not None:
                    self._log.clear()
                self.repairs.clear()
                self._start_eson()
                return lines[index:]
        self._headerless_read = (self._headerless_read or 0) + len(lines)
        return lines

    def _check_cut(self, last: str | None, stop_reason: object) -> tuple[str | None, Repair | None]:
        """The last line to read and the ``cut-off`` repair, after the signals of a cut.

        Raises :class:`eson.TruncatedError` for a cut stream, unless
        ``partial`` reads ESON: its unterminated last line is then dropped.
        """
        stop = stop_kind(stop_reason)
        fence = self._filter
        signal = cut_signal(
            stop,
            closed=fence is not None and fence.closed,
            fenced=fence is not None and fence.state == "fenced",
            require_end=self.require_end,
            ends_itself=wire_format(self.format).json_text,
        )
        if signal is None:
            if stop == "complete" and last is not None:
                self._read([last])  # the provider says the reply ended: its last line is whole
                return None, None
            return last, None
        reader = self._reader
        if isinstance(reader, eson_line_reader.LineReader):
            name, rows, declared, line = reader.progress()
            progress: Progress = (line or None, name, rows, declared)
        else:
            progress = (reader.line_no or None, None, None, None)
        if isinstance(reader, eson_line_reader.LineReader):
            held = reader.held_error()
            if held is not None:  # a row before the cut was wrong: the model's to fix
                raise held
        if not self.partial or not self._reads_partial:
            raise truncated(signal, stop_reason, progress, self.format)
        line = reader.line_no + (last is not None)
        return None, cut_repair(signal, stop_reason, line, last is not None)

    def _check_swallowed(self) -> None:
        """(typed ESON) The count error of a one-column array that took in an entry of the schema.

        As whole-text typed decoding judges it
        (:func:`eson._internal.wire.eson_line_reader.check_swallowed`).
        """
        reader = self._reader
        if self._names is None or not isinstance(reader, eson_line_reader.LineReader):
            return
        assert isinstance(self._builder, ESONBuilder)
        eson_line_reader.check_swallowed(reader, self._names, self._builder.lines.heads)

    def events(self, chunks: Iterable[str | bytes]) -> Iterator[Event]:
        """Feed every chunk of ``chunks``, yielding events as they come; then close.

        After the loop, :meth:`close` returns the message.
        """
        for chunk in chunks:
            yield from self.feed(chunk)
        self.close()
        yield from self._final_events

    async def aevents(self, chunks: AsyncIterable[str | bytes]) -> AsyncIterator[Event]:
        """The async form of :meth:`events`: consume an LLM SDK's stream of text chunks.

        ::

            decoder = eson.StreamDecoder(Review)
            async for event in decoder.aevents(text_chunks):
                show(event.section, event.row, event.value)
            review = decoder.close()          # the validated message
        """
        async for chunk in chunks:
            for event in self.feed(chunk):
                yield event
        self.close()
        for event in self._final_events:
            yield event

    # -- what has been read -----------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The value so far, for frameworks that stream partial output.

        A ``dict``: every complete scalar entry (its value as decoded), and
        every record or scalar array with the rows complete so far (records
        as validated instances when typed).  Nothing is validated as a
        whole yet: that happens at :meth:`close`.  With ``keep=False``
        arrays are left out.
        """
        return self._builder.snapshot()

    # -- helpers ------------------------------------------------------------------------

    def _drain(self) -> list[Event]:
        events = self._builder.events
        if not events:
            return []
        taken = events[:]
        events.clear()
        return taken

    def _take_repairs(self) -> None:
        log = self._log
        if log:
            offset = self._skipped()
            self.repairs.extend(repair.moved(offset) for repair in log)
            log.clear()

    def _fail(self, exc: ESONError) -> ESONError:
        # The repairs read before the error are kept, as they are when the
        # failing chunk's lines come in chunks of their own.
        self._take_repairs()
        if self.type is not None:
            attach_expected(exc, self.type, self.format)
        error = exc.moved(self._skipped())
        self._error = error
        self._spent = True
        return error

    def _skipped(self) -> int:
        """Lines of the reply before the document (prose, an opening fence)."""
        if self._filter is not None:
            self._offset = self._filter.skipped
        return self._offset

    def __repr__(self) -> str:
        name = getattr(self.type, "__qualname__", None)
        return f"StreamDecoder({name or ''}{', ' if name else ''}format={self.format!r})"


@dataclass(frozen=True)
class _DocumentRules:
    """What a stream of one document format is read by.

    Attributes:
        error: The error its malformed text raises.
        partial: A cut stream's complete lines can be read (``partial=True``);
            a TOON stream cut off is always an error.
        start: Makes the stream's builder and line reader.
    """

    error: builtins.type[ESONError]
    partial: bool
    start: Callable[[StreamDecoder[Any]], None]


_DOCUMENTS: dict[str, _DocumentRules] = {
    "eson": _DocumentRules(DecodeError, True, StreamDecoder._start_eson),
    "toon": _DocumentRules(TOONError, False, StreamDecoder._start_toon),
}
