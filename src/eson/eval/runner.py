"""Running an evaluation: the requests, the caps, the cache, the threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from eson.errors import ESONError
from eson.eval.cache import Answer, AnswerCache, request_key
from eson.eval.client import ChatClient, EndpointError
from eson.eval.questions import KINDS, Kind, Question, is_correct, make_questions
from eson.eval.report import LABELS, ComprehensionResult, GenerationResult, Report

__all__ = [
    "COMPREHENSION_FORMATS",
    "GENERATION_FORMATS",
    "OUTCOMES",
    "EvalError",
    "Progress",
    "run",
]

#: The formats a document is shown in, in report order.
COMPREHENSION_FORMATS: tuple[str, ...] = ("json", "pretty", "columnar", "toon", "eson")

#: The formats a model is asked to write.
GENERATION_FORMATS: tuple[str, ...] = ("eson", "toon", "json")

#: What a generation task can end as.
OUTCOMES: tuple[str, ...] = ("valid", "repaired", "retried", "invalid", "refused")


_ANSWER_RULE = (
    "Answer with the value alone: no other words, no quotes, no code fence. "
    "Write null for a null value."
)
#: What a reader is told of data that no prompt layout teaches (by the format's short name).
_READER_INTROS = {
    "columnar": (
        'The data is columnar JSON: each record array is an object whose "#c" lists the '
        'field names and whose "#r" holds one array of values per record, in that order.'
    ),
}
_JSON_INTRO = "The data is JSON."
#: The request parameters of a question, and of a writing task (``params=`` overrides them).
QUESTION_PARAMS: dict[str, Any] = {"temperature": 0, "max_tokens": 256}
GENERATION_PARAMS: dict[str, Any] = {"temperature": 0, "max_tokens": 4096}


def _merged(defaults: dict[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    merged = dict(defaults)
    for name, value in (overrides or {}).items():
        if value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    return merged


class EvalError(RuntimeError):
    """An evaluation that cannot run or cannot finish (one line)."""


@dataclass(frozen=True)
class Progress:
    """Where a run is, for a progress display.

    Attributes:
        done: Tasks finished (a question, or a generation with its retry).
        total: Tasks in the run.
        sent: Requests sent to the endpoint so far.
        cached: Answers read from the cache so far.
    """

    done: int
    total: int
    sent: int
    cached: int


class _StopError(Exception):
    """No more requests: a cap is reached or the endpoint failed."""


class _Session:
    """The requests of one run: cache first, then the caps, the rate, the endpoint."""

    def __init__(
        self,
        client: ChatClient,
        cache: AnswerCache,
        max_requests: int | None,
        max_tokens: int | None,
        rate: float | None,
    ) -> None:
        self.client = client
        self.cache = cache
        self.max_requests = max_requests
        self.max_tokens = max_tokens
        self.interval = 60.0 / rate if rate else 0.0
        self.sent = 0
        self.cached = 0
        self.tokens = 0
        self.stopped: str | None = None
        self.error: str | None = None
        self._next = 0.0
        self._lock = threading.Lock()

    def ask(self, messages: list[dict[str, str]], params: dict[str, Any]) -> Answer:
        key = request_key(self.client.model, messages, params)
        found = self.cache.get(key)
        if found is not None:
            with self._lock:
                self.cached += 1
            return found
        with self._lock:
            if self.stopped or self.error:
                raise _StopError
            if self.max_requests is not None and self.sent >= self.max_requests:
                self.stopped = f"request cap reached ({self.max_requests} requests)"
                raise _StopError
            if self.max_tokens is not None and self.tokens >= self.max_tokens:
                self.stopped = f"token cap reached ({self.tokens} of {self.max_tokens} tokens)"
                raise _StopError
            self.sent += 1
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)
        try:
            answer = self.client.complete(messages, params)
        except EndpointError as exc:
            with self._lock:
                self.error = self.error or str(exc)
            raise _StopError from None
        with self._lock:
            self.tokens += answer.tokens_in + answer.tokens_out
        self.cache.put(key, answer)
        return answer


def _reader_prompt(format: str, cls: type) -> str:
    from eson.agent.formats import find_format
    from eson.agent.prompts import prompt

    wire = find_format(format)  # None for pretty JSON
    if wire is not None and wire.document:
        intro = prompt(cls, format=format, reader=True)  # type: ignore[arg-type]
    else:
        intro = _READER_INTROS.get(format, _JSON_INTRO)
    return f"You answer questions about the data you are shown.\n{intro}\n{_ANSWER_RULE}"


def render(instance: Any, format: str) -> str:
    """``instance`` written in one of :data:`COMPREHENSION_FORMATS`."""
    from eson.agent.formats import WIRE_FORMATS, normalize_format, pretty_json

    if format == "pretty":
        return pretty_json(instance)
    token = normalize_format(format) if format in COMPREHENSION_FORMATS else None
    if token is None:
        raise ValueError(
            f"unknown format {format!r}: choose from {', '.join(COMPREHENSION_FORMATS)}"
        )
    return WIRE_FORMATS[token].write(instance)


def _writer_prompt(format: str, cls: type) -> str:
    from eson.agent.formats import wire_format
    from eson.agent.prompts import example_document, prompt

    if wire_format(format).document:
        return prompt(cls, format=format)  # type: ignore[arg-type]
    text = f"Reply with one compact JSON object, a {cls.__name__}, and nothing else."
    example = example_document(cls, "eson")
    if example is not None:
        from eson._internal.api import decode

        text += "\nExample:\n" + render(decode(example, type=cls), "json")
    return text


def _generate_one(
    session: _Session, cls: type, format: str, source: Any, params: dict[str, Any]
) -> tuple[str, bool, int, int]:
    """Ask for ``source`` written in ``format``; the outcome, exactness and tokens."""
    from eson.agent.payload import extract
    from eson.agent.replies import parse_reply

    label = LABELS[format]
    messages = [
        {"role": "system", "content": _writer_prompt(format, cls)},
        {
            "role": "user",
            "content": f"Write this {cls.__name__} as {label}:\n\n{render(source, 'pretty')}",
        },
    ]
    tokens_in = tokens_out = 0
    for attempt in range(2):
        answer = session.ask(messages, params)
        tokens_in += answer.tokens_in
        tokens_out += answer.tokens_out
        repairs: list[Any] = []
        try:
            value: Any = parse_reply(answer.text, cls, formats=[format], repairs=repairs)
        except ESONError as exc:
            if attempt == 1:
                try:
                    extract(answer.text)
                except ESONError:
                    return "refused", False, tokens_in, tokens_out
                return "invalid", False, tokens_in, tokens_out
            messages = [
                *messages,
                {"role": "assistant", "content": answer.text},
                {"role": "user", "content": exc.feedback},
            ]
            continue
        outcome = "retried" if attempt else ("repaired" if repairs else "valid")
        return outcome, value == source, tokens_in, tokens_out
    raise AssertionError("unreachable")  # pragma: no cover


def run(
    base_url: str,
    model: str,
    *,
    api_key: str | None = None,
    type: type | None = None,
    data: Any = None,
    records: int = 50,
    seed: int = 0,
    questions: int = 5,
    kinds: Sequence[Kind] = KINDS,
    formats: Sequence[str] = COMPREHENSION_FORMATS,
    generation_formats: Sequence[str] = GENERATION_FORMATS,
    generation_tasks: int = 3,
    generation_records: int = 3,
    concurrency: int = 4,
    rate: float | None = None,
    max_requests: int | None = None,
    max_tokens: int | None = None,
    cache: str | None = None,
    prices: tuple[float, float] | None = None,
    timeout: float = 120.0,
    retries: int = 3,
    max_wait: float = 60.0,
    params: Mapping[str, Any] | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> Report:
    """Measure how well one model reads and writes each format; see ``docs/eval.md``.

    Args:
        base_url: The OpenAI-compatible API root (``.../v1``).
        model: The model name the endpoint knows.
        api_key: Sent as a bearer token when given.
        type: The model class the data is (default: the handoff shape,
            :class:`eson.eval.datasets.Handoff`).
        data: An instance of ``type`` to ask about; ``None`` makes one from
            ``seed`` with ``records`` rows per record array.
        records: Rows of the made-up document.
        seed: Seeds the data and the choice of questions.
        questions: Questions per kind.
        kinds: The question kinds (:data:`eson.eval.questions.KINDS`).
        formats: The formats the document is shown in.
        generation_formats: The formats the model is asked to write (empty:
            no generation tasks).
        generation_tasks: Documents to write per format.
        generation_records: Rows of each document to write.
        concurrency: Requests in flight at once.
        rate: Most requests started per minute (``None``: no limit).
        max_requests: Most requests sent in this run; cached answers do not
            count.  When reached the run stops and the report says so.
        max_tokens: Stop once this many tokens (in + out) were used by this
            run's requests (requests already in flight finish).
        cache: The answer cache file (JSON lines); ``None`` keeps answers in
            memory only.
        prices: ``(input, output)`` price per million tokens, for a cost column.
        timeout: Seconds to wait for the connection and for each read of a
            reply (httpx's timeout; a reply that stops arriving ends there).
        retries: Retries after a 429 or 5xx reply.
        max_wait: Longest ``Retry-After`` wait accepted, in seconds.
        params: Request parameters to add or replace in every request
            (:data:`QUESTION_PARAMS`, :data:`GENERATION_PARAMS`); a ``None``
            value drops one, e.g. ``{"max_tokens": None,
            "max_completion_tokens": 4096, "temperature": None}`` for an
            endpoint that takes neither.
        progress: Called after each task with a :class:`Progress`.

    Returns:
        The :class:`~eson.eval.report.Report`.

    Raises:
        EvalError: the endpoint failed (the answers so far stay cached), or
            settings that cannot work.
        ImportError: without httpx (``typed-eson[eval]``).
    """
    from eson.eval import datasets
    _check_settings(concurrency, formats, generation_formats)
    cls = type if type is not None else datasets.Handoff
    writes = generation_tasks if generation_formats else 0
    data, sources = _data(type, data, records, seed, writes, generation_records)
    from eson.agent.formats import plain_value

    question_params = _merged(QUESTION_PARAMS, params)
    generation_params = _merged(GENERATION_PARAMS, params)
    plain = plain_value(data)
    rows = max((len(v) for v in plain.values() if isinstance(v, list)), default=0)
    asked = make_questions(plain, kinds, questions, seed)
    documents = {fmt: render(data, fmt) for fmt in formats}
    try:
        client = ChatClient(
            base_url, model, api_key=api_key, timeout=timeout, retries=retries, max_wait=max_wait
        )
    except ImportError as exc:
        raise EvalError(str(exc)) from None
    session = _Session(client, AnswerCache(cache), max_requests, max_tokens, rate)
    total = len(asked) * len(formats) + len(sources) * len(generation_formats)
    tasks = _Tasks(session, cls, documents, question_params, generation_params, total, progress)
    question_task, generation_task = tasks.question, tasks.generation
    try:
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            question_futures = [
                (fmt, q, pool.submit(question_task, fmt, q)) for fmt in formats for q in asked
            ]
            generation_futures = [
                (fmt, pool.submit(generation_task, fmt, s))
                for fmt in generation_formats
                for s in sources
            ]
            question_results, generation_results = _results(
                pool, session, question_futures, generation_futures
            )
    finally:
        client.close()
    if session.error:
        raise EvalError(
            f"{session.error} ({len(session.cache)} answers cached"
            f"{f' in {cache}' if cache else ''}; run again to continue)"
        )
    shown = (formats, generation_formats, documents, asked)
    results = (question_results, generation_results)
    return _report(model, base_url, cls, *shown, *results, session, prices, seed, rows)


def _check_settings(
    concurrency: int, formats: Sequence[str], generation_formats: Sequence[str]
) -> None:
    """Refuse settings that cannot work, before anything is sent."""
    if concurrency < 1:
        raise EvalError("concurrency must be at least 1")
    for fmt in formats:
        if fmt not in COMPREHENSION_FORMATS:
            raise EvalError(
                f"unknown format {fmt!r}: choose from {', '.join(COMPREHENSION_FORMATS)}"
            )
    for fmt in generation_formats:
        if fmt not in GENERATION_FORMATS:
            raise EvalError(f"unknown format {fmt!r}: choose from {', '.join(GENERATION_FORMATS)}")


def _data(
    type: type | None, data: Any, records: int, seed: int, sources: int, source_records: int
) -> tuple[Any, list[Any]]:
    """The document asked about (``data``, or one made from ``seed``) and the ones to write."""
    from eson.eval import datasets

    def made(rows: int, at: int) -> Any:
        if type is None:
            return datasets.handoff(rows, at)
        return datasets.generate(type, rows, at)

    try:
        if data is None:
            data = made(records, seed)
        return data, [made(source_records, seed + 1000 + index) for index in range(sources)]
    except datasets.DataError as exc:
        raise EvalError(str(exc)) from None


class _Tasks:
    """The two kinds of task a run sends, each counted done (for the progress bar) when it ends."""

    def __init__(
        self,
        session: _Session,
        cls: type,
        documents: Mapping[str, str],
        question_params: dict[str, Any],
        generation_params: dict[str, Any],
        total: int,
        progress: Callable[[Progress], None] | None,
    ) -> None:
        self.session = session
        self.cls = cls
        self.documents = documents
        self.question_params = question_params
        self.generation_params = generation_params
        self.total = total
        self.progress = progress
        self.done = 0
        self.lock = threading.Lock()

    def finished(self) -> None:
        with self.lock:  # one call at a time, in order
            self.done += 1
            if self.progress is not None:
                session = self.session
                self.progress(Progress(self.done, self.total, session.sent, session.cached))

    def question(self, fmt: str, question: Question) -> _Answered:
        """Show the document in ``fmt``, ask the question, score the answer."""
        document = self.documents[fmt].rstrip()
        messages = [
            {"role": "system", "content": _reader_prompt(fmt, self.cls)},
            {
                "role": "user",
                "content": f"Data:\n```\n{document}\n```\n\nQuestion: {question.text}",
            },
        ]
        try:
            answer = self.session.ask(messages, self.question_params)
        except _StopError:
            return None
        finally:
            self.finished()
        return is_correct(answer.text, question.answer), answer.tokens_in, answer.tokens_out

    def generation(self, fmt: str, source: Any) -> _Written:
        """Ask for ``source`` written in ``fmt`` (one retry with the feedback), score it."""
        try:
            return _generate_one(self.session, self.cls, fmt, source, self.generation_params)
        except _StopError:
            return None
        finally:
            self.finished()


#: A question's outcome (correct, tokens in, tokens out), ``None`` when the run stopped first.
_Answered = tuple[bool, int, int] | None
#: A writing task's outcome (kind, exact, tokens in, tokens out), or ``None``.
_Written = tuple[str, bool, int, int] | None


def _results(
    pool: ThreadPoolExecutor,
    session: _Session,
    questions: list[tuple[str, Question, Future[_Answered]]],
    writings: list[tuple[str, Future[_Written]]],
) -> tuple[list[tuple[str, Question, _Answered]], list[tuple[str, _Written]]]:
    """Wait for every task's result; on an interruption, cancel what has not started."""
    try:
        question_results = [(fmt, q, f.result()) for fmt, q, f in questions]
        generation_results = [(fmt, f.result()) for fmt, f in writings]
    except BaseException:
        session.stopped = session.stopped or "interrupted"
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return question_results, generation_results


def _report(
    model: str,
    base_url: str,
    cls: type,
    formats: Sequence[str],
    generation_formats: Sequence[str],
    documents: dict[str, str],
    asked: list[Question],
    question_results: list[tuple[str, Question, tuple[bool, int, int] | None]],
    generation_results: list[tuple[str, tuple[str, bool, int, int] | None]],
    session: _Session,
    prices: tuple[float, float] | None,
    seed: int,
    records: int,
) -> Report:
    kinds = list(dict.fromkeys(q.kind for q in asked))
    comprehension = []
    for fmt in formats:
        for kind in kinds:
            rows = [r for f, q, r in question_results if f == fmt and q.kind == kind]
            answered = [r for r in rows if r is not None]
            comprehension.append(
                ComprehensionResult(
                    format=fmt,
                    kind=kind,
                    correct=sum(r[0] for r in answered),
                    answered=len(answered),
                    total=len(rows),
                    tokens_in=sum(r[1] for r in answered),
                    tokens_out=sum(r[2] for r in answered),
                )
            )
    generation = []
    for fmt in generation_formats:
        rows_g = [r for f, r in generation_results if f == fmt]
        done = [r for r in rows_g if r is not None]
        generation.append(
            GenerationResult(
                format=fmt,
                outcomes={name: sum(r[0] == name for r in done) for name in OUTCOMES},
                exact=sum(r[1] for r in done),
                answered=len(done),
                total=len(rows_g),
                tokens_in=sum(r[2] for r in done),
                tokens_out=sum(r[3] for r in done),
            )
        )
    try:
        from eson.agent.tokens import count_tokens_many

        counts = count_tokens_many([documents[fmt] for fmt in formats])
        document_tokens: dict[str, int] | None = dict(zip(formats, counts))
    except ImportError:
        document_tokens = None
    return Report(
        model=model,
        base_url=base_url,
        type_name=cls.__name__,
        records=records,
        seed=seed,
        comprehension=comprehension,
        generation=generation,
        document_tokens=document_tokens,
        sent=session.sent,
        cached=session.cached,
        stopped=session.stopped,
        prices=prices,
    )
