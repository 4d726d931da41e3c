"""typed-eson: schema-typed ESON and TOON for agent-to-agent payloads.

Untyped use mirrors ``json``::

    import eson
    text = eson.encode({"kind": "review", "findings": [{"file": "a.py", "line": 3}]})
    value = eson.decode(text)

``eson.speedups`` says whether the optional C accelerator is in use
(``TYPED_ESON_NO_SPEEDUPS=1`` forces pure Python; results are the same).

The package reads top-down: :mod:`eson._internal.wire` (pure text codecs) ->
:mod:`eson._internal.schema` (model types compiled into columns and cell codecs) ->
:mod:`eson._internal.codecs` (the format back ends) -> the functional API
(:mod:`eson._internal.api`, :mod:`eson.toon`, :mod:`eson.columnar`) -> the agent
layer (:mod:`eson.agent`: token counts, format choice, detection, lint,
prompts) -> the model bases -> the evaluation harness (:mod:`eson.eval`) ->
tools (:mod:`eson.cli`).

The agent layer's names (``eson.count_tokens``, ``eson.choose``,
``eson.detect``, ``eson.lint``, ``eson.prompt`` ...) load on first use, so
``import eson`` stays light and never imports a tokenizer.  ``eson.eval``
(measuring a model on each format, :mod:`eson.eval`) loads on first use too,
and imports httpx only when a run starts.  So do ``eson.Ok``, ``eson.Err``
and ``eson.Repair`` (dataclasses: :mod:`dataclasses` is not imported by
``import eson``), and the typed machinery (:mod:`eson._internal.schema`, the typed
codecs, msgspec) loads on the first typed call.  ``tests/test_startup.py``
holds ``import eson`` to that.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eson._internal.accelerator import enabled as speedups
from eson._internal.api import (
    Decoder,
    DecodeResult,
    Encoder,
    decode,
    encode,
    try_decode,
    validate,
)
from eson.errors import (
    CountError,
    DecodeError,
    EncodeError,
    ESONError,
    TOONError,
    TruncatedError,
    ValidationError,
)


def _version() -> str:
    """The installed distribution's version (the one place it is written is pyproject.toml).

    Read on first use of ``eson.__version__``: ``importlib.metadata`` is not
    worth its import time to a plain ``import eson``.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("typed-eson")
    except PackageNotFoundError:  # a source tree on sys.path, not installed
        return "0+unknown"

#: The names loaded on first use, each with the module that defines it: the
#: table behind ``__getattr__`` and ``__dir__`` (``__all__`` and the
#: ``TYPE_CHECKING`` imports below spell it out for static tools; a test
#: checks that they agree).
_LAZY: dict[str, str] = {
    **dict.fromkeys(("Ok", "Err"), "eson._internal.results"),
    "Repair": "eson._internal.wire.repairs",
    **dict.fromkeys(("Message", "Record"), "eson.pydantic"),
    "ReadOptions": "eson._internal.wire.options",
    **dict.fromkeys(
        (
            "Choice",
            "Event",
            "LintFinding",
            "LintReport",
            "PromptCost",
            "StreamDecoder",
            "choose",
            "count_tokens",
            "detect",
            "extract",
            "lint",
            "parse_reply",
            "primer",
            "prompt",
            "prompt_cost",
        ),
        "eson.agent",
    ),
}

#: Submodules that ``eson.<name>`` imports on first use.
_SUBMODULES = ("agent", "columnar", "eval", "msgspec", "pydantic", "toon")

#: The public names, spelled out for type checkers and linters (a test checks
#: that it holds every eager import and every name of ``_LAZY``).
__all__ = [
    "Choice",
    "CountError",
    "DecodeError",
    "DecodeResult",
    "Decoder",
    "ESONError",
    "EncodeError",
    "Encoder",
    "Err",
    "Event",
    "LintFinding",
    "LintReport",
    "Message",
    "Ok",
    "PromptCost",
    "ReadOptions",
    "Record",
    "Repair",
    "StreamDecoder",
    "TOONError",
    "TruncatedError",
    "ValidationError",
    "__version__",
    "choose",
    "count_tokens",
    "decode",
    "detect",
    "encode",
    "extract",
    "lint",
    "parse_reply",
    "primer",
    "prompt",
    "prompt_cost",
    "speedups",
    "try_decode",
    "validate",
]

if TYPE_CHECKING:
    from eson import columnar as columnar
    from eson import eval as eval
    from eson import toon as toon
    from eson._internal.results import Err, Ok
    from eson._internal.wire.options import ReadOptions
    from eson._internal.wire.repairs import Repair
    from eson.agent import (
        Choice,
        Event,
        LintFinding,
        LintReport,
        PromptCost,
        StreamDecoder,
        choose,
        count_tokens,
        detect,
        extract,
        lint,
        parse_reply,
        primer,
        prompt,
        prompt_cost,
    )
    from eson.pydantic import Message, Record

    __version__: str


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """Load the lazily imported names and submodules on first use.

        ``Message`` and ``Record`` (the Pydantic flavour) import Pydantic;
        the agent layer's names import :mod:`eson.agent`; ``eson.toon``,
        ``eson.msgspec``, ``eson.pydantic``, ``eson.columnar``, ``eson.agent``
        and ``eson.eval`` are imported the first time they are named, so
        ``import eson; eson.toon.encode(x)`` works and ``import eson``
        stays light.
        """
        import importlib

        module = _LAZY.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            globals()[name] = value  # later lookups skip this function
            return value
        if name in _SUBMODULES:
            return importlib.import_module(f"eson.{name}")
        if name == "__version__":
            version = globals()["__version__"] = _version()
            return version
        raise AttributeError(f"module 'eson' has no attribute {name!r}")

    def __dir__() -> list[str]:
        """The public names, loaded or not, and the submodules."""
        return sorted({*__all__, *_SUBMODULES, *(key for key in globals() if key.startswith("__"))})
