"""The agent layer: what sits between the codecs and an LLM agent.

- :mod:`eson.agent.tokens`      -- exact token counts, offline (``count_tokens``)
- :mod:`eson.agent.formats`     -- the wire formats by capability token, and writing each
- :mod:`eson.agent.negotiation` -- accepted formats and payload detection (``detect``)
- :mod:`eson.agent.choice`      -- the densest accepted format per message (``choose``)
- :mod:`eson.agent.profile`     -- the Wire Profile's data rules (W5, W6), one table
- :mod:`eson.agent.linter`      -- the per-message lint (``lint``: W1, W4, W5, W6)
- :mod:`eson.agent.prompts`     -- telling a model what to write (``prompt``, ``primer``)
- :mod:`eson.agent.payload`     -- finding the payload in a model's reply (``extract``)
- :mod:`eson.agent.replies`     -- reading a reply into a validated value (``parse_reply``)
- :mod:`eson.agent.stream`      -- decoding a reply as it streams (``StreamDecoder``, ``Event``)
- :mod:`eson.agent.stop`        -- the provider's stop reason, read as complete/cut (``stop_kind``)
- :mod:`eson.agent.cutoff`      -- the signals that a reply was cut off, and what that means

The layer imports the codecs and the functional API, never the model bases
(:mod:`eson.pydantic`, :mod:`eson.msgspec`): those sit above it and their
``from_reply``, ``eson_prompt`` and ``toon_prompt`` methods delegate here.
Tokenizer packages load on the first count, not on import.
"""

from __future__ import annotations

from eson.agent.choice import Choice, choose
from eson.agent.linter import LintFinding, LintReport, lint
from eson.agent.negotiation import accepted_formats, decode_as, detect
from eson.agent.payload import Payload, extract, locate
from eson.agent.prompts import PromptCost, primer, prompt, prompt_cost
from eson.agent.replies import parse_reply
from eson.agent.stop import StopKind, stop_kind
from eson.agent.stream import Event, StreamDecoder
from eson.agent.tokens import count_tokens, token_backends

__all__ = [
    "Choice",
    "Event",
    "LintFinding",
    "LintReport",
    "Payload",
    "PromptCost",
    "StopKind",
    "StreamDecoder",
    "accepted_formats",
    "choose",
    "count_tokens",
    "decode_as",
    "detect",
    "extract",
    "lint",
    "locate",
    "parse_reply",
    "primer",
    "prompt",
    "prompt_cost",
    "stop_kind",
    "token_backends",
]
