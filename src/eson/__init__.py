"""typed-eson: schema-typed ESON and TOON for agent-to-agent payloads.

Untyped use mirrors ``json``::

    import eson
    text = eson.encode({"kind": "review", "findings": [{"file": "a.py", "line": 3}]})
    value = eson.decode(text)

The package reads top-down: :mod:`eson.wire` (pure text codecs) ->
:mod:`eson.schema` (model types compiled into columns and cell codecs) ->
model integrations -> tools (:mod:`eson.cli`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eson.api import Decoder, DecodeResult, Encoder, decode, encode, try_decode
from eson.errors import DecodeError, EncodeError, ESONError, TOONError, ValidationError

__version__ = "0.1.0"

__all__ = [
    "DecodeError",
    "DecodeResult",
    "Decoder",
    "ESONError",
    "EncodeError",
    "Encoder",
    "Message",
    "Record",
    "TOONError",
    "ValidationError",
    "__version__",
    "decode",
    "encode",
    "try_decode",
]

if TYPE_CHECKING:
    from eson.pydantic import Message, Record


if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        """Load the Pydantic flavour (``Message``, ``Record``) and submodules on first use.

        Pydantic is optional: ``import eson`` and the msgspec flavour
        (``eson.msgspec.Message``) work without it.
        """
        if name in ("Message", "Record"):
            from eson import pydantic as pydantic_flavour

            return getattr(pydantic_flavour, name)
        if name in ("msgspec", "pydantic"):
            import importlib

            return importlib.import_module(f"eson.{name}")
        raise AttributeError(f"module 'eson' has no attribute {name!r}")
