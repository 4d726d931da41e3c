"""The ``eson eval`` subcommand's options and what it runs (:mod:`eson.cli` delegates here)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any

from eson.eval.questions import KINDS
from eson.eval.runner import COMPREHENSION_FORMATS, GENERATION_FORMATS, EvalError, Progress

__all__ = ["add_arguments", "run_command"]


def _list(choices: tuple[str, ...]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        items = [item.strip() for item in text.split(",") if item.strip()]
        for item in items:
            if item not in choices:
                raise argparse.ArgumentTypeError(f"{item!r}: choose from {', '.join(choices)}")
        return items

    return parse


def _positive(kind: type) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            number = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if number <= 0:
            raise argparse.ArgumentTypeError("must be more than 0")
        return number

    return parse


def _param(text: str) -> tuple[str, Any]:
    import json

    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError("expected NAME=JSON, e.g. max_completion_tokens=4096")
    if not value:
        return name.strip(), None
    try:
        return name.strip(), json.loads(value)
    except ValueError:
        return name.strip(), value  # a bare string: reasoning_effort=low


def add_arguments(sub: argparse.ArgumentParser, model_type: Callable[[str], type]) -> None:
    """The options of ``eson eval``."""
    _task_arguments(sub, model_type)
    _request_arguments(sub)
    _report_arguments(sub)


def _task_arguments(sub: argparse.ArgumentParser, model_type: Callable[[str], type]) -> None:
    """The endpoint, the model, the data and what is asked of it."""
    sub.add_argument(
        "--base-url",
        required=True,
        help="OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1",
    )
    sub.add_argument("--model", required=True, help="the model name the endpoint knows")
    sub.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="NAME",
        help="environment variable holding the API key (default OPENAI_API_KEY; unset: no key)",
    )
    sub.add_argument(
        "--type",
        type=model_type,
        metavar="module:Class",
        help="your model type (default: the handoff shape)",
    )
    sub.add_argument(
        "--data", metavar="FILE", help="a document of --type to ask about (ESON, TOON or JSON)"
    )
    sub.add_argument(
        "--records",
        type=_positive(int),
        default=50,
        help="rows of the made-up document (default 50)",
    )
    sub.add_argument(
        "--seed", type=int, default=0, help="seed of the data and questions (default 0)"
    )
    sub.add_argument(
        "--questions", type=_positive(int), default=5, help="questions per kind (default 5)"
    )
    sub.add_argument(
        "--kinds",
        type=_list(KINDS),
        default=list(KINDS),
        help=f"comma-separated ({','.join(KINDS)})",
    )
    sub.add_argument(
        "--formats",
        type=_list(COMPREHENSION_FORMATS),
        default=list(COMPREHENSION_FORMATS),
        help=f"formats to show the document in ({','.join(COMPREHENSION_FORMATS)})",
    )
    sub.add_argument(
        "--write-formats",
        type=_list(GENERATION_FORMATS),
        default=list(GENERATION_FORMATS),
        help=f"formats to ask the model to write ({','.join(GENERATION_FORMATS)})",
    )
    sub.add_argument(
        "--write-tasks",
        type=int,
        default=3,
        metavar="N",
        help="documents to write per format (default 3; 0: none)",
    )
    sub.add_argument(
        "--write-records",
        type=_positive(int),
        default=3,
        metavar="N",
        help="rows of each (default 3)",
    )
    sub.add_argument("--no-questions", action="store_true", help="skip the comprehension questions")


def _request_arguments(sub: argparse.ArgumentParser) -> None:
    """How requests are sent: concurrency, limits, the cache, prices, retries, parameters."""
    sub.add_argument(
        "--concurrency", type=_positive(int), default=4, help="requests in flight (default 4)"
    )
    sub.add_argument(
        "--rate",
        type=_positive(float),
        metavar="PER_MINUTE",
        help="most requests started per minute",
    )
    sub.add_argument(
        "--max-requests",
        type=_positive(int),
        metavar="N",
        help="stop after N requests (cached answers are free)",
    )
    sub.add_argument(
        "--max-tokens",
        type=_positive(int),
        metavar="N",
        help="stop once N tokens (in + out) were used",
    )
    sub.add_argument(
        "--cache",
        default="eson-eval-cache.jsonl",
        metavar="FILE",
        help="answer cache (default eson-eval-cache.jsonl)",
    )
    sub.add_argument("--no-cache", action="store_true", help="keep no answers on disk")
    sub.add_argument("--price-in", type=float, metavar="USD", help="price per million input tokens")
    sub.add_argument(
        "--price-out", type=float, metavar="USD", help="price per million output tokens"
    )
    sub.add_argument(
        "--timeout",
        type=_positive(float),
        default=120.0,
        metavar="S",
        help="seconds to wait to connect and for each read of a reply (default 120)",
    )
    sub.add_argument(
        "--retries", type=int, default=3, metavar="N", help="retries after 429 or 5xx (default 3)"
    )
    sub.add_argument(
        "--max-wait",
        type=float,
        default=60.0,
        metavar="S",
        help="longest Retry-After accepted (default 60)",
    )
    sub.add_argument(
        "--param",
        type=_param,
        action="append",
        default=[],
        metavar="NAME=JSON",
        help="add or replace a request parameter (NAME= drops one: --param max_tokens=)",
    )


def _report_arguments(sub: argparse.ArgumentParser) -> None:
    """Where the report goes and how it looks."""
    sub.add_argument("--json", action="store_true", help="print the report as JSON")
    sub.add_argument("--svg", metavar="FILE", help="write the accuracy chart as SVG")
    sub.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )
    sub.add_argument("-o", "--output", metavar="OUT", help="report file (default: stdout)")


def _bar(state: Progress) -> None:
    width = 30
    filled = width * state.done // max(state.total, 1)
    line = (
        f"\reval [{'#' * filled}{'.' * (width - filled)}] {state.done}/{state.total} "
        f"({state.sent} sent, {state.cached} cached)"
    )
    sys.stderr.write(line + ("\n" if state.done == state.total else ""))
    sys.stderr.flush()


def run_command(args: argparse.Namespace) -> tuple[str, int]:
    """Run ``eson eval`` with parsed ``args``; the report text and the exit status.

    The status is 1 when a cap stopped the run early (the report is still
    printed, and a rerun continues from the cache).
    """
    from eson.eval.datasets import DataError, load
    from eson.eval.runner import run

    if (args.price_in is None) != (args.price_out is None):
        raise EvalError("give both --price-in and --price-out, or neither")
    data = None
    if args.data is not None:
        if args.type is None:
            raise EvalError("--data needs --type module:Class")
        try:
            with open(args.data, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as exc:
            raise EvalError(f"cannot read {args.data}: {exc.strerror}") from None
        try:
            data = load(args.type, text)
        except DataError as exc:
            raise EvalError(f"{args.data}: {exc}") from None
    show = (
        args.progress
        if args.progress is not None
        else sys.stderr is not None and sys.stderr.isatty()
    )
    report = run(
        args.base_url,
        args.model,
        api_key=os.environ.get(args.api_key_env) or None,
        type=args.type,
        data=data,
        records=args.records,
        seed=args.seed,
        questions=args.questions,
        kinds=[] if args.no_questions else args.kinds,
        formats=args.formats,
        generation_formats=args.write_formats if args.write_tasks > 0 else [],
        generation_tasks=max(args.write_tasks, 0),
        generation_records=args.write_records,
        concurrency=args.concurrency,
        rate=args.rate,
        max_requests=args.max_requests,
        max_tokens=args.max_tokens,
        cache=None if args.no_cache else args.cache,
        prices=None if args.price_in is None else (args.price_in, args.price_out),
        timeout=args.timeout,
        retries=args.retries,
        max_wait=args.max_wait,
        params=dict(args.param),
        progress=_bar if show else None,
    )
    if args.svg:
        try:
            with open(args.svg, "w", encoding="utf-8") as handle:
                handle.write(report.svg())
        except OSError as exc:
            raise EvalError(f"cannot write {args.svg}: {exc.strerror}") from None
    if report.stopped:
        print(
            f"error: stopped early: {report.stopped}; run again to continue from the cache",
            file=sys.stderr,
        )
    return (report.to_json() if args.json else report.text()), (1 if report.stopped else 0)
