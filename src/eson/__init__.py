"""typed-eson: schema-typed ESON and TOON for agent-to-agent payloads.

Untyped use mirrors ``json``::

    import eson
    text = eson.encode({"kind": "review", "findings": [{"file": "a.py", "line": 3}]})
    value = eson.decode(text)

``eson.speedups`` says whether the optional C accelerator is in use
(``TYPED_ESON_NO_SPEEDUPS=1`` forces pure Python; results are the same).

The package reads top-down: :mod:`eson.wire` (pure text codecs) ->
:mod:`eson.schema` (model types compiled into columns and cell codecs) ->
:mod:`eson.codecs` (the format back ends) -> the functional API
(:mod:`eson.api`, :mod:`eson.toon`, :mod:`eson.columnar`) -> the agent
layer (:mod:`eson.agent`: token counts, format choice, detection, lint,
prompts) -> the model bases -> tools (:mod:`eson.cli`).

The agent layer's names (``eson.count_tokens``, ``eson.choose``,
``eson.detect``, ``eson.lint``, ``eson.prompt`` ...) load on first use, so
``import eson`` stays light and never imports a tokenizer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eson.accelerator import enabled as speedups
from eson.api import (
    Decoder,
    DecodeResult,
    Encoder,
    Err,
    Ok,
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
    ValidationError,
)
from eson.wire.repairs import Repair

__version__ = "0.1.0"

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
    "Record",
    "Repair",
    "StreamDecoder",
    "TOONError",
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

#: Names of the agent layer, loaded from :mod:`eson.agent` on first use.
_AGENT_NAMES = frozenset(
    {
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
    }
)

if TYPE_CHECKING:
    from eson import columnar as columnar
    from eson import toon as toon
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


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """Load the Pydantic flavour (``Message``, ``Record``) and submodules on first use.

        ``eson.toon``, ``eson.msgspec`` and ``eson.pydantic`` are imported the
        first time they are named, so ``import eson; eson.toon.encode(x)``
        works.  Pydantic is optional: ``import eson`` and the msgspec flavour
        (``eson.msgspec.Message``) work without it.
        """
        if name in ("Message", "Record"):
            from eson import pydantic as pydantic_flavour

            return getattr(pydantic_flavour, name)
        if name in _AGENT_NAMES:
            from eson import agent

            return getattr(agent, name)
        if name in ("msgspec", "pydantic", "toon", "columnar", "agent"):
            import importlib

            return importlib.import_module(f"eson.{name}")
        raise AttributeError(f"module 'eson' has no attribute {name!r}")
