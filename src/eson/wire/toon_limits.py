"""Resource limits shared by the TOON reader and writer.

Both directions use the same limits, so any value the decoder returns can be
encoded again and vice versa.
"""

from __future__ import annotations

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS"]

#: Deepest container nesting the codec accepts.  The root container is at
#: depth 1, a container inside it at depth 2, and so on; tabular rows and
#: nested field groups count like any other object.  Deeper values raise
#: :class:`~eson.errors.TOONError` in both directions (this also catches
#: circular references on encode).
MAX_DEPTH = 256

#: Longest integer literal (in decimal digits) the codec converts.  This is
#: CPython's default ``int``/``str`` conversion limit, which exists because the
#: conversion is quadratic in the number of digits.
MAX_INT_DIGITS = 4300
