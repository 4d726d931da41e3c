"""Telling a reply that was cut off from one that ended: the signals, the error, the repair.

The grammar cannot see a cut inside the last cell of the last row
(``3\\tzeb`` for ``3\\tzebra`` reads as well as the original), so the reply
readers look at the signals around the payload, in this order:

1. a payload in a code fence whose closing line is there is **complete**,
   whatever the stop reason says (the cut, if any, fell after it);
2. a stop reason that says the reply was cut (:func:`eson.agent.stop.stop_kind`)
   means **cut**;
3. a stop reason that says the reply ended means **complete**;
4. a fence that was opened and never closed means **cut**;
5. with ``require_end=True``, a payload outside a closed fence means **cut**
   (the end mark the prompts ask for is missing);
6. otherwise there is **no signal**: the reply is read as it stands.

A JSON payload is its own end mark (a cut object or array never parses), so
only the stop reason (2) applies to it.

What a cut means: strict reading raises :class:`eson.TruncatedError` located
at the last row read; ``partial=True`` (ESON) drops the last line when it
had no line break, keeps the complete rows and records a ``cut-off`` repair.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from eson._internal.wire.eson_line_reader import scan_sections
from eson._internal.wire.eson_reader import SplitText, read_head
from eson._internal.wire.repairs import Repair
from eson._internal.wire.toon_lexicon import DIGITS_SOURCE, QUOTED_SOURCE, SAFE_KEY_SOURCE
from eson.agent.stop import StopKind, stop_text
from eson.errors import DecodeError, TruncatedError, echo

__all__ = [
    "Progress",
    "Signal", "cut_repair", "cut_signal", "eson_progress", "toon_progress", "truncated"]

#: What showed that a reply was cut off.
Signal = str

_WHY = {
    "stop-reason": "the model stopped at its output limit",
    "open-fence": "its code fence was never closed",
    "no-end-mark": "it has no closing fence line, so it may have been cut",
}

#: Where a cut reply stands: its last complete line, section, row and declared rows.
Progress = tuple[int | None, str | None, int | None, int | None]

_TOON_ARRAY = re.compile(
    rf"( *)(?:{QUOTED_SOURCE}|{SAFE_KEY_SOURCE})?\[#?({DIGITS_SOURCE})[^\]]*\](?:\{{[^}}]*\}})?:[ \t]*"
)


def cut_signal(
    stop: StopKind, *, closed: bool, fenced: bool, require_end: bool, ends_itself: bool
) -> Signal | None:
    """The signal that the payload was cut off, or ``None`` (see the module documentation).

    ``ends_itself``: the payload is its own end mark (a JSON text: cut
    short, it does not parse), so only the stop reason can say it was cut.
    """
    if closed:
        return None
    if stop == "cut":
        return "stop-reason"
    if stop == "complete" or ends_itself:
        return None
    if fenced:
        return "open-fence"
    if require_end:
        return "no-end-mark"
    return None


def truncated(
    signal: Signal, stop_reason: object, progress: Progress, format: str
) -> TruncatedError:
    """The :class:`eson.TruncatedError` for a reply cut off at ``progress``."""
    line, section, row, declared = progress
    spelled = stop_text(stop_reason) if signal == "stop-reason" else None
    why = _WHY[signal]
    if spelled is not None:
        why += f" (stop reason {echo(spelled)})"
    if section is not None and row is not None:
        of = f" of {declared}" if declared is not None else ""
        where = f"the reply was cut off after row {row}{of} of {echo(section)}"
    else:
        where = "the reply was cut off"
    error = TruncatedError(
        f"{where}: {why}",
        line=line,
        section=section,
        row=row,
        declared=declared,
        signal=signal,
        stop_reason=spelled,
    )
    error.format = format
    return error


def cut_repair(signal: Signal, stop_reason: object, line: int, dropped: bool) -> Repair:
    """The ``cut-off`` repair of a ``partial=True`` read of a cut reply."""
    spelled = stop_text(stop_reason) if signal == "stop-reason" else None
    why = _WHY[signal] + (f" (stop reason {echo(spelled)})" if spelled is not None else "")
    what = "dropped its last line, maybe cut, and kept" if dropped else "kept"
    return Repair(max(line, 1), "cut-off", f"the reply was cut off: {why}; {what} the complete rows")


def eson_progress(lines: Sequence[str], terminated: bool) -> Progress:
    """Where an ESON payload cut off after ``lines`` stands: its last complete row.

    The last line is left out when it had no line break (it may be cut).
    """
    kept = list(lines if terminated or not lines else lines[:-1])
    fallback: Progress = (len(kept) or None, None, None, None)
    try:
        sections = scan_sections(
            SplitText(kept, True), strict=False, repairs=[], headerless=True, partial=True
        )
    except DecodeError:
        return fallback
    if not sections:
        return fallback
    section = sections[-1]
    if section.kind == "scalar":
        return section.line, None, None, None
    try:
        head = read_head(kept[section.line - 1], section.line, set(), [])
    except DecodeError:
        head = None
    declared = head.count if head is not None and head.kind != "record" else None
    return section.line + section.count, section.name, section.count, declared


def toon_progress(lines: Sequence[str], terminated: bool) -> Progress:
    """Where a TOON payload cut off after ``lines`` stands: its last array and its rows read."""
    kept = list(lines if terminated or not lines else lines[:-1])
    for index in range(len(kept) - 1, -1, -1):
        match = _TOON_ARRAY.fullmatch(kept[index])
        if match is None:
            continue
        indent = len(match.group(1))
        name = kept[index].strip().split("[", 1)[0].strip('"') or "the root array"
        rows = 0
        width: int | None = None
        last = index + 1
        for number, line in enumerate(kept[index + 1 :], index + 2):
            depth = len(line) - len(line.lstrip(" "))
            if not line.strip() or depth <= indent:
                return (len(kept), None, None, None)  # the array ended: the cut came later
            if width is None:
                width = depth
            if depth == width:
                rows += 1
                last = number
        return last, name, rows, int(match.group(2))
    return (len(kept) or None, None, None, None)
