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

from eson.api import DecodeResult, decode, encode, try_decode
from eson.errors import DecodeError, EncodeError, ESONError, TOONError, ValidationError

__version__ = "0.1.0"

__all__ = [
    "DecodeError",
    "DecodeResult",
    "ESONError",
    "EncodeError",
    "TOONError",
    "ValidationError",
    "__version__",
    "decode",
    "encode",
    "try_decode",
]
