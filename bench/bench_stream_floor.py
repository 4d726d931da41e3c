"""Where a stream's time goes beyond the whole-text decode: per chunk and per row.

Run: ``python bench/bench_stream_floor.py`` (``--records N`` to resize).

The target of the stream rows in ``bench_figures.py`` is 1.3x the
whole-text decode at 64-byte chunks.  This script splits the stream's
extra time into what each row costs (1 KB chunks, few enough that their
own cost is small) and what each further chunk costs (64-byte chunks), by
feeding the same typed (msgspec) handoff in chunks of 64 bytes, 1 KB and
the whole text at once (which the stream splits into lines and joins again
for its C core), and sets beside them what the caller's own loop costs (one
call of a C function per chunk, which no stream can avoid) and the time
per row that 1.3x would leave for everything else a stream does (find the
lines across chunk ends, read each row, hand it out as an event).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_typed import MHandoff
from handoff import make_handoff
from timing import interleaved_best, machine

import eson


def _streamed(chunks: list[str]) -> Any:
    decoder = eson.StreamDecoder(MHandoff)
    feed = decoder.feed
    for chunk in chunks:
        feed(chunk)
    return decoder.close()


def _chunked(text: str, size: int) -> list[str]:
    return [text[at : at + size] for at in range(0, len(text), size)]


def main() -> None:
    """Print the split of the stream's time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=2000)
    args = parser.parse_args()
    model = msgspec.convert(make_handoff(args.records), MHandoff)
    text = eson.encode(model)
    decoder = eson.Decoder(MHandoff)
    sizes = {"64 B": 64, "1 KB": 1024, "whole": len(text)}
    chunked = {label: _chunked(text, size) for label, size in sizes.items()}
    for chunks in chunked.values():
        assert _streamed(chunks) == model
    small = chunked["64 B"]

    def caller_loop() -> None:  # the bench's own loop, a C call per chunk
        call = len
        for chunk in small:
            call(chunk)

    cases = {"whole-text decode": lambda: decoder.decode(text)}
    for label, chunks in chunked.items():
        cases[f"stream, {label} chunks"] = lambda chunks=chunks: _streamed(chunks)
    cases["the caller's loop alone, 64 B chunks"] = caller_loop
    best = interleaved_best(cases)
    whole = best["whole-text decode"]
    rows = args.records
    print(machine())
    print(f"{rows} rows, {len(text)} characters, {len(small)} chunks of 64 B")
    for label, seconds in best.items():
        print(f"{label:40s} {seconds * 1e6:9.1f} us  {seconds / whole:5.2f}x")
    kilo = best["stream, 1 KB chunks"]
    many = best["stream, 64 B chunks"]
    extra_chunks = len(small) - len(chunked["1 KB"])
    print(f"per row, 1 KB chunks:              {(kilo - whole) / rows * 1e9:6.0f} ns beyond the decode")
    print(f"per 64 B chunk, beyond that:       {(many - kilo) / extra_chunks * 1e9:6.0f} ns")
    print(f"1.3x leaves per row for all of it: {0.3 * whole / rows * 1e9:6.0f} ns")


if __name__ == "__main__":
    main()
