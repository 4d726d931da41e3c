"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests/test_eval*.py.

Its "model" reads the document it was shown (with the library's own
decoders: it is a test fixture) and answers the question, with scripted
slips, so that every scoring path runs:

- **counting**: a count above 3 comes back one too high (models lose track);
- **positional**: without the ``n`` column it answers from the next record
  (off by one), with it from the right one;
- **key lookup** in pretty JSON: ``Answer: "value".`` (the normaliser's job);
- **writing**, by format and task (task = the seed offset in the handoff's id):
  ESON task 0 inside prose and a fence, task 1 spaces for TABs on the first
  try (fixed after the feedback), task 2 without the ``!eson/1`` line (a
  safe repair); TOON task 1 a wrong ``[N]`` first, task 2 wrong twice;
  JSON task 1 in prose and a fence, task 2 a refusal, twice.

``delay`` slows each reply (``max_inflight`` then shows the concurrency);
``authorization`` is the last ``Authorization`` header and ``parameters``
the last request's parameters.
``mode`` breaks it on purpose: ``"500"``, ``"429"`` (with ``Retry-After``),
``"429-once"``, ``"malformed"``, ``"hang"``; ``fail_after`` answers that many
requests and then returns 500s.  ``requests`` counts POSTs.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import eson
from eson import columnar, toon

_QUESTION = re.compile(r"Question: (.*)\Z", re.DOTALL)
_DATA = re.compile(r"Data:\n```\n(.*)\n```\n\nQuestion:", re.DOTALL)
_RECORD = re.compile(r'In the "(\w+)" records, (.*)\?\Z')
_WHOSE = re.compile(r'(.*) of the record whose "(\w+)" is (.+)\Z')
_WRITE = re.compile(r"Write this (\w+) as ([\w ]+):\n\n(.*)\Z", re.DOTALL)


def _text(value: Any) -> str:
    return eson.eval.questions.answer_text(value)


def _read(document: str) -> tuple[Any, bool]:
    """The plain value of a shown document, and whether its rows are numbered."""
    kind = eson.detect(document)
    if kind == "eson/1":
        return eson.decode(document), "{n," in document
    if kind == "toon":
        return toon.decode(document), False
    return columnar.decode(document), False


def answer_question(document: str, question: str, pretty: bool) -> str:
    value, numbered = _read(document)
    top = re.fullmatch(r'What is the value of the top-level field "(\w+)"\?', question)
    if top:
        answer = _text(value[top.group(1)])
        return f'Answer: "{answer}".' if pretty else answer
    array, rest = _RECORD.fullmatch(question).groups()  # type: ignore[union-attr]
    rows = value[array]
    count = re.fullmatch(r'how many records have "(\w+)" equal to (.+)', rest)
    if count:
        field, wanted = count.group(1), json.loads(count.group(2))
        number = sum(row.get(field) == wanted for row in rows)
        return str(number + 1 if number > 3 else number)
    position = re.fullmatch(r'what is the "(\w+)" of record number (\d+) \(counting from 1\)', rest)
    if position:
        index = int(position.group(2)) - 1
        if not numbered:
            index = min(index + 1, len(rows) - 1)
        return _text(rows[index][position.group(1)])
    asked, key, key_value = _WHOSE.fullmatch(rest).groups()  # type: ignore[union-attr]
    row = next(row for row in rows if row[key] == json.loads(key_value))
    item = re.fullmatch(r'what is item (\d+) \(counting from 1\) of the "(\w+)" list', asked)
    if item:
        return _text(row[item.group(2)][int(item.group(1)) - 1])
    path = re.fullmatch(r'what is "(\w+)\.(\w+)"', asked)
    if path:
        return _text(row[path.group(1)][path.group(2)])
    cell = re.fullmatch(r'what is the "(\w+)"', asked)
    return _text(row[cell.group(1)])  # type: ignore[union-attr]


def _task(source: dict[str, Any]) -> int:
    match = re.fullmatch(r"review-(\d+)-\d+", str(source.get("id", "")))
    return (int(match.group(1)) - 1000) % 3 if match else 0


def write_document(system: str, label: str, source_text: str, attempt: int) -> str:
    source = json.loads(source_text)
    task = _task(source)
    if label == "ESON":
        text = eson.encode(source, number="{n," in system)
        if task == 0:
            return f"Here is the document:\n\n```eson\n{text}```\n\nLet me know if you need more."
        if task == 1 and attempt == 0:
            return text.replace("\t", "  ")
        if task == 2:
            return text.removeprefix("!eson/1\n")
        return text
    if label == "TOON":
        text = toon.encode(source)
        if (task == 1 and attempt == 0) or task == 2:
            return re.sub(r"findings\[(\d+)\]", lambda m: f"findings[{int(m.group(1)) + 1}]", text)
        return text
    text = json.dumps(source, separators=(",", ":"))
    if task == 1:
        return f"Sure! Here it is:\n```json\n{text}\n```"
    if task == 2:
        return "I'm sorry, but I can't help with that."
    return text


def reply(messages: list[dict[str, str]]) -> str:
    system = messages[0]["content"]
    users = [m["content"] for m in messages if m["role"] == "user"]
    first = users[0]
    question = _QUESTION.search(first)
    if question and first.startswith("Data:"):
        document = _DATA.match(first).group(1)  # type: ignore[union-attr]
        return answer_question(document, question.group(1), '{\n  "' in document)
    label, source = _WRITE.fullmatch(first).group(2, 3)  # type: ignore[union-attr]
    return write_document(system, label, source, len(users) - 1)


class FakeServer:
    """The server; ``with FakeServer() as server: server.base_url`` ..."""

    def __init__(
        self, mode: str = "ok", fail_after: int | None = None, hang: float = 5.0, delay: float = 0.0
    ) -> None:
        self.mode = mode
        self.delay = delay
        self.inflight = 0
        self.max_inflight = 0
        self.authorization: str | None = None
        self.parameters: dict[str, Any] = {}
        self.fail_after = fail_after
        self.hang = hang
        self.requests = 0
        self.answered = 0
        self.release = threading.Event()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            inflight = False  # this request counts in fake.inflight

            def _leave(self) -> None:
                with fake._lock:
                    if self.inflight:
                        self.inflight = False
                        fake.inflight -= 1

            def _send(self, status: int, body: str, headers: dict[str, str] | None = None) -> None:
                # Out of flight before the reply is written: once the client has
                # it, its next request may come before this thread runs again.
                self._leave()
                data = body.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with fake._lock:
                    fake.requests += 1
                    number = fake.requests
                    failing = fake.fail_after is not None and fake.answered >= fake.fail_after
                    fake.authorization = self.headers.get("Authorization")
                    fake.parameters = {
                        k: v for k, v in body.items() if k not in ("model", "messages")
                    }
                    fake.inflight += 1
                    fake.max_inflight = max(fake.max_inflight, fake.inflight)
                    self.inflight = True
                try:
                    if fake.delay:
                        fake.release.wait(fake.delay)
                    self._answer(body, number, failing)
                finally:
                    self._leave()

            def _answer(self, body: Any, number: int, failing: bool) -> None:
                if self.path != "/v1/chat/completions":
                    self._send(404, '{"error": "not found"}')
                    return
                mode = fake.mode
                if failing or mode == "500":
                    self._send(500, '{"error": {"message": "internal error"}}')
                    return
                if mode == "429" or (mode == "429-once" and number == 1):
                    self._send(429, '{"error": "slow down"}', {"Retry-After": "1"})
                    return
                if mode == "parts":  # content as a list of parts, as some servers send
                    text = reply(body["messages"])
                    self._send(
                        200,
                        json.dumps(
                            {
                                "choices": [
                                    {"message": {"content": [{"type": "text", "text": text}]}}
                                ],
                                "usage": {"prompt_tokens": 1, "completion_tokens": 1},
                            }
                        ),
                    )
                    return
                if mode == "malformed":
                    self._send(200, '{"choices": [ not json')
                    return
                if mode == "hang":
                    fake.release.wait(fake.hang)
                    return
                messages = body["messages"]
                text = reply(messages)
                prompt = sum(len(m["content"]) for m in messages) // 4
                with fake._lock:
                    fake.answered += 1
                self._send(
                    200,
                    json.dumps(
                        {
                            "id": f"fake-{number}",
                            "object": "chat.completion",
                            "model": body["model"],
                            "choices": [
                                {
                                    "index": 0,
                                    "message": {"role": "assistant", "content": text},
                                    "finish_reason": "stop",
                                }
                            ],
                            "usage": {
                                "prompt_tokens": prompt,
                                "completion_tokens": len(text) // 4 + 1,
                                "total_tokens": prompt + len(text) // 4 + 1,
                            },
                        }
                    ),
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
