"""The ``eson`` command: convert between JSON and ESON (and TOON) on the command line.

::

    eson encode [FILE] [--number] [-o OUT]        JSON -> ESON
    eson decode [FILE] [--indent N] [-o OUT]      ESON -> JSON
    eson toon encode [FILE] [--delimiter D] [--indent N] [-o OUT]    JSON -> TOON
    eson toon decode [FILE] [--indent N] [--no-strict] [--json-indent N] [-o OUT]
    eson demo                                     a short tour

Input comes from FILE or standard input, output goes to OUT or standard
output.  Exit status: 0 on success, 1 for invalid input (one line
``error: line N: ...`` on standard error), 2 for usage errors.  Integers of
any size survive the JSON round trip.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from eson.errors import ESONError

__all__ = ["main"]

_SURROGATES = re.compile("[\ud800-\udfff]")


class InputError(Exception):
    """Input that is not what the command expects (bad JSON, unreadable file)."""


def _read(path: str | None) -> bytes:
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def _write(path: str | None, text: str) -> None:
    data = text.encode("utf-8")
    if path is None or path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror}") from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _load_json(data: bytes) -> Any:
    try:
        return json.loads(data, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: line {exc.lineno}: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"invalid JSON: {exc}") from None


def _dump_json(value: Any, indent: int | None) -> str:
    try:
        text = json.dumps(
            value,
            ensure_ascii=False,
            indent=indent,
            separators=(",", ":") if indent is None else None,
            allow_nan=False,
        )
    except RecursionError:
        raise InputError("value nested too deeply for JSON output") from None
    # Lone surrogates cannot be written as UTF-8: escape them.
    return _SURROGATES.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def _eson_encode(args: argparse.Namespace) -> str:
    from eson.api import encode

    value = _load_json(_read(args.file))
    if not isinstance(value, dict):
        raise InputError("ESON documents are objects: the JSON input must be an object")
    return encode(value, number=args.number)


def _eson_decode(args: argparse.Namespace) -> str:
    from eson.api import decode

    return _dump_json(decode(_read(args.file)), args.indent)


def _toon_encode(args: argparse.Namespace) -> str:
    from eson import toon

    value = _load_json(_read(args.file))
    # TOON documents end without a line feed; a text file or terminal wants one.
    return toon.encode(value, delimiter=args.delimiter, indent_size=args.indent) + "\n"


def _toon_decode(args: argparse.Namespace) -> str:
    from eson import toon

    value = toon.decode(_read(args.file), strict=args.strict, indent_size=args.indent)
    return _dump_json(value, args.json_indent)


def _demo(args: argparse.Namespace) -> str:
    from eson.demo import run

    return run()


_DELIMITERS = {",": ",", "comma": ",", "\t": "\t", "tab": "\t", "|": "|", "pipe": "|"}


def _delimiter(text: str) -> str:
    try:
        return _DELIMITERS[text]
    except KeyError:
        raise argparse.ArgumentTypeError("choose comma (,), tab or pipe (|)") from None


def _non_negative(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError("must be zero or more")
    return number


def _positive(text: str) -> int:
    number = _non_negative(text)
    if number == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of the ``eson`` command."""
    parser = argparse.ArgumentParser(
        prog="eson", description="Convert between JSON and ESON (and TOON)."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def io_options(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("file", nargs="?", metavar="FILE", help="input file (default: stdin)")
        sub.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")

    encode = commands.add_parser("encode", help="JSON to ESON")
    io_options(encode)
    encode.add_argument(
        "--number", action="store_true", help="add the reserved n row-number column"
    )
    encode.set_defaults(run=_eson_encode)

    decode = commands.add_parser("decode", help="ESON to JSON")
    io_options(decode)
    decode.add_argument("--indent", type=_non_negative, metavar="N", help="pretty-print JSON")
    decode.set_defaults(run=_eson_decode)

    toon = commands.add_parser("toon", help="JSON to and from TOON")
    toon_commands = toon.add_subparsers(dest="toon_command", required=True, metavar="COMMAND")
    toon_encode = toon_commands.add_parser("encode", help="JSON to TOON")
    io_options(toon_encode)
    toon_encode.add_argument(
        "--delimiter", type=_delimiter, default=",", help="comma (default), tab or pipe"
    )
    toon_encode.add_argument(
        "--indent", type=_positive, default=2, metavar="N", help="spaces per level (default 2)"
    )
    toon_encode.set_defaults(run=_toon_encode)
    toon_decode = toon_commands.add_parser("decode", help="TOON to JSON")
    io_options(toon_decode)
    toon_decode.add_argument(
        "--indent", type=_positive, default=2, metavar="N", help="spaces per level (default 2)"
    )
    toon_decode.add_argument(
        "--no-strict", dest="strict", action="store_false", help="lenient decoding (TOON §14)"
    )
    toon_decode.add_argument(
        "--json-indent", type=_non_negative, metavar="N", help="pretty-print JSON"
    )
    toon_decode.set_defaults(run=_toon_decode)

    demo = commands.add_parser("demo", help="encode a sample agent handoff, compare with JSON")
    demo.set_defaults(run=_demo, output=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 bad input, 2 usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], str] = args.run
    try:
        _write(args.output, run(args))
    except ESONError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
