"""The ``eson`` command: convert between JSON and ESON (and TOON) on the command line.

::

    eson encode [FILE] [--number] [--stats] [-o OUT]                 JSON -> ESON
    eson decode [FILE] [--json-indent N] [-o OUT]                    ESON -> JSON
    eson toon encode [FILE] [--delimiter D] [--indent N] [--stats] [-o OUT]    JSON -> TOON
    eson toon decode [FILE] [--indent N] [--no-strict] [--json-indent N] [-o OUT]
    eson stats [FILE] [--encoding E] [--number]     bytes and tokens of each format
    eson lint [FILE] [--type module:Model] [--toon]  Wire Profile W1/W4/W5/W6
    eson eval --base-url URL --model M [...]        how well a model reads and writes each format
    eson demo                                                        a short tour

Every flag means one thing in every command: ``--indent`` is TOON's spaces
per level (of the output when encoding, of the input when decoding) and
``--json-indent`` pretty-prints JSON output.

Input comes from FILE or standard input, output goes to OUT or standard
output.  Exit status: 0 on success, 1 for invalid input or output that
cannot be written (a full disk, a closed or broken pipe), 2 for usage
errors, 130 when interrupted.  Every failure is one line on standard error
(``error: line N: ...``), never a traceback.  Integers of any size survive
the JSON round trip.  ``eson lint`` prints its findings on standard error and
exits 1 when a MUST rule is broken, as the reference linter does.  Token
counts (``stats``, ``--stats``) need the ``typed-eson[tokens]`` extra.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Union

from eson._internal.wire.eson_lexicon import lazy_pattern
from eson.errors import ESONError, printable

__all__ = ["main"]

_SURROGATES = lazy_pattern("[\ud800-\udfff]")

#: Largest indentation a flag accepts (a huge one would only make huge output).
MAX_INDENT = 32


class InputError(Exception):
    """Input that is not what the command expects (bad JSON, unreadable file)."""


class OutputError(Exception):
    """Output that cannot be written (a full disk, a closed or broken pipe)."""


def _read(path: str | None) -> bytes:
    if path is None or path == "-":
        if sys.stdin is None:
            raise InputError("cannot read standard input: it is closed")
        try:
            return sys.stdin.buffer.read()
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}") from None
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def _write_all(stream: Any, data: bytes) -> None:
    """Write all of ``data``: a pipe closed mid-write returns a short count, not an error."""
    view = memoryview(data)
    while view:
        written = stream.write(view)
        if not written:
            raise OSError(errno.EPIPE, "the output accepts no more data")
        view = view[written:]
    stream.flush()


def _write(path: str | None, text: str) -> None:
    data = text.encode("utf-8")
    if not data and (path is None or path == "-"):
        return  # nothing to write (eson lint): a closed standard output is no error
    if path is None or path == "-":
        if sys.stdout is None:
            raise OutputError("cannot write standard output: it is closed")
        try:
            _write_all(sys.stdout.buffer, data)
        except BrokenPipeError:
            raise OutputError(
                "standard output was closed before all output was written (broken pipe)"
            ) from None
        except OSError as exc:
            raise OutputError(f"cannot write standard output: {exc.strerror or exc}") from None
        return
    try:
        with open(path, "wb") as handle:
            _write_all(handle, data)
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None


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
    from eson._internal.api import encode

    value = _load_json(_read(args.file))
    if not isinstance(value, dict):
        raise InputError("ESON documents are objects: the JSON input must be an object")
    text = encode(value, number=args.number)
    if args.stats:
        _print_stats_line(value, "eson/1", args.encoding, number=args.number)
    return text


def _eson_decode(args: argparse.Namespace) -> str:
    from eson._internal.api import decode

    return _dump_json(decode(_read(args.file)), args.json_indent)


def _toon_encode(args: argparse.Namespace) -> str:
    from eson import toon

    value = _load_json(_read(args.file))
    # TOON documents end without a line feed; a text file or terminal wants one.
    text = toon.encode(value, delimiter=args.delimiter, indent_size=args.indent) + "\n"
    if args.stats:
        _print_stats_line(value, "toon", args.encoding, text=text[:-1])
    return text


def _toon_decode(args: argparse.Namespace) -> str:
    from eson import toon

    value = toon.decode(_read(args.file), strict=args.strict, indent_size=args.indent)
    return _dump_json(value, args.json_indent)


def _demo(args: argparse.Namespace) -> str:
    from eson.demo import run

    return run()


# -- token statistics (eson stats, --stats) -------------------------------------------

#: The rows of the statistics; the first, compact JSON, is the baseline of the others.
_STAT_ROWS = (
    ("json", "compact JSON"),
    ("pretty", "pretty JSON"),
    ("columnar", "columnar JSON"),
    ("toon", "TOON"),
    ("eson/1", "ESON"),
)


def _stat_text(value: Any, format: str, number: bool) -> str | None:
    from eson.agent.formats import pretty_json, render

    try:
        if format == "pretty":
            return pretty_json(value)
        return render(value, format, number=number)  # type: ignore[arg-type]
    except ESONError:
        return None  # this format cannot hold the value (ESON needs an object root)


def _stats_line(label: str, text: str | None, tokens: int | None, baseline: int) -> str:
    """One line of the statistics: the same for ``eson stats`` and ``--stats``."""
    if text is None or tokens is None:
        return f"{label:<14} {'n/a':>8}"
    size = len(text.encode("utf-8", "surrogatepass"))
    percent = round((tokens / baseline - 1) * 100) if baseline else 0
    change = f"{percent:+d}%" if percent else "0%"
    return f"{label:<14} {size:>8} bytes {tokens:>8} tokens {change:>6} vs compact JSON"


def _measure(
    value: Any, encoding: str, number: bool, only: str | None = None, text: str | None = None
) -> list[tuple[str, str | None, int | None]]:
    from eson.agent.tokens import count_tokens_many

    baseline = _STAT_ROWS[0][0]
    rows = [(key, label) for key, label in _STAT_ROWS if only is None or key in (baseline, only)]
    texts = [
        text if (key == only and text is not None) else _stat_text(value, key, number)
        for key, _ in rows
    ]
    present = [item for item in texts if item is not None]
    try:
        counts = iter(count_tokens_many(present, encoding))
    except ImportError as exc:
        raise InputError(str(exc)) from None
    return [
        (label, item, next(counts) if item is not None else None)
        for (_, label), item in zip(rows, texts)
    ]


def _print_stats_line(
    value: Any, format: str, encoding: str, *, number: bool = False, text: str | None = None
) -> None:
    rows = _measure(value, encoding, number, format, text)
    baseline = rows[0][2] or 0
    label, produced, tokens = rows[-1]
    print(f"{_stats_line(label, produced, tokens, baseline)} ({encoding})", file=sys.stderr)


def _load_payload(data: bytes) -> Any:
    """A JSON, columnar JSON, ESON or TOON input, as plain values."""
    from eson._internal.wire.eson_reader import text_of
    from eson.agent.negotiation import detect_format

    wire = detect_format(data)
    if wire is None or wire.floor:  # plain JSON (or prose): its errors told as the CLI tells them
        return _load_json(data)
    return wire.load(text_of(data))


def _stats(args: argparse.Namespace) -> str:
    value = _load_payload(_read(args.file))
    rows = _measure(value, args.encoding, args.number)
    baseline = rows[0][2] or 0
    lines = [_stats_line(label, text, tokens, baseline) for label, text, tokens in rows]
    lines.append(f"(tokens: {args.encoding})")
    return "\n".join(lines) + "\n"


# -- the Wire Profile linter (eson lint) ----------------------------------------------


def _model_type(spec: str) -> type:
    """``module:Model`` -> the class (the working directory is importable)."""
    import importlib
    import os

    module_name, sep, qualname = spec.partition(":")
    if not sep or not module_name or not qualname:
        raise argparse.ArgumentTypeError("expected module:Model, e.g. myapp.messages:Review")
    added = False
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
        added = True
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise argparse.ArgumentTypeError(f"cannot import {module_name}: {exc}") from None
    finally:
        if added:
            sys.path.remove(os.getcwd())
    for part in qualname.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise argparse.ArgumentTypeError(f"{module_name} has no {qualname}")
    if not isinstance(target, type):
        raise argparse.ArgumentTypeError(f"{spec} is not a class")
    return target


def _eval(args: argparse.Namespace) -> tuple[str, int]:
    from eson.eval.cli import run_command

    try:
        return run_command(args)
    except RuntimeError as exc:  # eson.eval.EvalError: the endpoint failed, a bad setting
        raise InputError(str(exc)) from None


def _lint(args: argparse.Namespace) -> tuple[str, int]:
    from eson.agent.linter import lint

    report = lint(_read(args.file), type=args.type, toon=args.toon)
    for line in report.lines():
        print(line, file=sys.stderr)
    return "", report.exit_code


_DELIMITERS = {",": ",", "comma": ",", "\t": "\t", "tab": "\t", "|": "|", "pipe": "|"}


def _delimiter(text: str) -> str:
    try:
        return _DELIMITERS[text]
    except KeyError:
        raise argparse.ArgumentTypeError("choose comma (,), tab or pipe (|)") from None


def _indent(least: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not least <= number <= MAX_INDENT:
            raise argparse.ArgumentTypeError(f"must be from {least} to {MAX_INDENT}")
        return number

    return parse


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it (``COLUMNS``, then the tty).

    Here so that argparse need not import :mod:`shutil` (with bz2, lzma and
    zlib) on every run just to learn a width that only ``--help`` uses.
    """
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, given the width argparse would find (see :func:`_columns`).

    argparse makes a formatter for every ``add_argument`` (to check its
    metavar), and the stock one imports :mod:`shutil` to find the width.
    """

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line, like every other error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {printable(message)} (see {self.prog} --help)\n")


class _MovedFlag(argparse.Action):
    """A flag this command does not take, with the one that does what was meant."""

    def __init__(self, *args: Any, instead: str, **kwargs: Any) -> None:
        self.instead = instead
        super().__init__(*args, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        parser.error(self.instead)


def _command_of(argv: Sequence[str]) -> str | None:
    """The subcommand an argument list names (its first word that is not an option)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Return the argument parser of the ``eson`` command.

    Args:
        command: The subcommand about to run, when known: the other
            subcommands are then listed (for ``--help`` and usage errors)
            without their own arguments, so that ``eson encode`` never
            imports what only ``eson eval`` needs (:mod:`eson.eval`).
            ``None`` builds them all.
    """
    parser = _Parser(prog="eson", description="Convert between JSON and ESON (and TOON).")
    # Each add_subparsers() names its prog: left to argparse, it formats a
    # usage line to find it (see _Formatter for why that is worth avoiding).
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser, prog="eson"
    )

    _add_codec_commands(commands)
    _add_toon_commands(commands)
    _add_agent_commands(commands, command)
    demo = commands.add_parser("demo", help="encode a sample agent handoff, compare with JSON")
    demo.set_defaults(run=_demo, output=None)
    return parser


def _add_codec_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    """``eson encode`` and ``eson decode``: JSON to and from ESON."""
    encode = commands.add_parser("encode", help="JSON to ESON")
    _io_options(encode)
    encode.add_argument(
        "--number", action="store_true", help="add the reserved n row-number column"
    )
    _stats_options(encode)
    encode.set_defaults(run=_eson_encode)

    decode = commands.add_parser("decode", help="ESON to JSON")
    _io_options(decode)
    _json_indent(decode)
    decode.add_argument(
        "--indent",
        action=_MovedFlag,
        instead="--indent is TOON's spaces per level; pretty-print JSON with --json-indent N",
        nargs="?",
        help=argparse.SUPPRESS,
    )
    decode.set_defaults(run=_eson_decode)


def _add_toon_commands(commands: argparse._SubParsersAction[_Parser]) -> None:
    """``eson toon encode`` and ``eson toon decode``: JSON to and from TOON."""
    toon = commands.add_parser("toon", help="JSON to and from TOON")
    toon_commands = toon.add_subparsers(
        dest="toon_command", required=True, metavar="COMMAND", parser_class=_Parser, prog="eson toon"
    )
    toon_encode = toon_commands.add_parser("encode", help="JSON to TOON")
    _io_options(toon_encode)
    toon_encode.add_argument(
        "--delimiter", type=_delimiter, default=",", help="comma (default), tab or pipe"
    )
    _toon_indent(toon_encode, "output")
    _stats_options(toon_encode)
    toon_encode.set_defaults(run=_toon_encode)
    toon_decode = toon_commands.add_parser("decode", help="TOON to JSON")
    _io_options(toon_decode)
    _toon_indent(toon_decode, "input")
    toon_decode.add_argument(
        "--no-strict", dest="strict", action="store_false", help="lenient decoding (TOON §14)"
    )
    _json_indent(toon_decode)
    toon_decode.set_defaults(run=_toon_decode)


def _add_agent_commands(
    commands: argparse._SubParsersAction[_Parser], command: str | None
) -> None:
    """``eson stats``, ``eson lint`` and ``eson eval`` (its arguments only when it runs)."""
    stats = commands.add_parser(
        "stats", help="bytes and exact tokens of a JSON, ESON or TOON input in every format"
    )
    _io_options(stats)
    _encoding_option(stats)
    stats.add_argument("--number", action="store_true", help="number ESON record arrays")
    stats.set_defaults(run=_stats)

    lint = commands.add_parser("lint", help="check one payload against the Wire Profile")
    lint.add_argument("file", nargs="?", metavar="FILE", help="input file (default: stdin)")
    lint.add_argument(
        "--type",
        type=_model_type,
        metavar="module:Model",
        help="also check that the payload validates as this model",
    )
    lint.add_argument(
        "--toon", action="store_true", help="lint a TOON payload as a dense document"
    )
    lint.set_defaults(run=_lint, output=None)

    evaluate = commands.add_parser(
        "eval", help="measure how well a model reads and writes each format (typed-eson[eval])"
    )
    if command is None or command == "eval":
        from eson.eval.cli import add_arguments

        add_arguments(evaluate, _model_type)
    evaluate.set_defaults(run=_eval)


def _io_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("file", nargs="?", metavar="FILE", help="input file (default: stdin)")
    sub.add_argument("-o", "--output", metavar="OUT", help="output file (default: stdout)")

def _json_indent(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--json-indent",
        type=_indent(0),
        metavar="N",
        help=f"pretty-print the JSON output, N spaces per level (0 to {MAX_INDENT})",
    )

def _toon_indent(sub: argparse.ArgumentParser, whose: str) -> None:
    sub.add_argument(
        "--indent",
        type=_indent(1),
        default=2,
        metavar="N",
        help=f"TOON spaces per level of the {whose} (1 to {MAX_INDENT}, default 2)",
    )

def _encoding_option(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--encoding",
        choices=("o200k_base", "cl100k_base"),
        default="o200k_base",
        help="token encoding (default o200k_base)",
    )

def _stats_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--stats",
        action="store_true",
        help="print bytes and tokens vs compact JSON on stderr (needs typed-eson[tokens])",
    )
    _encoding_option(sub)


def _fail(message: str, status: int) -> int:
    """Report one line on standard error (when there is one) and return ``status``."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):  # standard error is gone too
            print(f"error: {printable(message)}", file=sys.stderr, flush=True)
    return status


def _silence_stdout() -> None:
    """Point standard output at the null device, so that exiting flushes nothing."""
    if sys.stdout is None:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 1 failed, 2 usage, 130 interrupted)."""
    try:
        words = sys.argv[1:] if argv is None else argv
        parser = build_parser(_command_of(words))
        args = parser.parse_args(words)
        run: Callable[[argparse.Namespace], Union[str, tuple[str, int]]] = args.run  # noqa: UP007
        result = run(args)
        text, status = result if isinstance(result, tuple) else (result, 0)
        _write(args.output, text)
        if status:
            return status
    except (ESONError, InputError) as exc:
        return _fail(str(exc), 1)
    except OutputError as exc:
        _silence_stdout()
        return _fail(str(exc), 1)
    except MemoryError:
        return _fail("out of memory", 1)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    return 0


if __name__ == "__main__":
    sys.exit(main())
