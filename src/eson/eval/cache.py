"""The resumable answer cache: one JSON-lines file, one line per answer.

Each line is ``{"key": ..., "text": ..., "tokens_in": ..., "tokens_out": ...}``;
the key is the SHA-256 of the endpoint's model name, the messages and the
request parameters (as canonical JSON), so a changed prompt, question or
parameter is a new request.  A line is appended with one ``write`` on a
file opened for appending, then flushed to disk, as soon as its answer
arrives: a run that stops (a cap, an error, Ctrl-C) keeps every answer it
got, and the next run with the same settings asks only for the rest.  A
last line cut short by a crash is ignored when the file is read.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Answer", "AnswerCache", "request_key"]


@dataclass(frozen=True)
class Answer:
    """One reply of the endpoint.

    Attributes:
        text: The assistant message's content.
        tokens_in: Prompt tokens, as the endpoint's ``usage`` reports them.
        tokens_out: Completion tokens, likewise.
        cached: Read from the cache rather than asked for in this run.
    """

    text: str
    tokens_in: int
    tokens_out: int
    cached: bool = False


def request_key(model: str, messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    """The cache key of one request: SHA-256 of its canonical JSON."""
    blob = json.dumps(
        {"model": model, "messages": messages, "params": params},
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class AnswerCache:
    """Answers by request key, kept in memory and, with a ``path``, in a JSON-lines file."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path: Path | None = Path(path) if path is not None else None
        self._answers: dict[str, Answer] = {}
        self._lock = threading.Lock()
        if self.path is not None and self.path.exists():
            self._read(self.path)

    def _read(self, path: Path) -> None:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                try:
                    entry = json.loads(line)
                    answer = Answer(
                        str(entry["text"]), int(entry["tokens_in"]), int(entry["tokens_out"]), True
                    )
                    self._answers[str(entry["key"])] = answer
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by an interrupted write

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, key: str) -> Answer | None:
        """The cached answer for ``key``, or ``None``."""
        with self._lock:
            return self._answers.get(key)

    def put(self, key: str, answer: Answer) -> None:
        """Keep ``answer`` and append it to the file at once."""
        entry = {
            "key": key,
            "text": answer.text,
            "tokens_in": answer.tokens_in,
            "tokens_out": answer.tokens_out,
        }
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        with self._lock:
            self._answers[key] = Answer(answer.text, answer.tokens_in, answer.tokens_out, True)
            if self.path is None:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(descriptor, line)
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
