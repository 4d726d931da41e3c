"""The ESON ``name`` production, shared by top-level names and record fields.

``name = (ALPHA / "_") *(ALPHA / DIGIT / "_" / "." / "-")`` with ASCII letters
and digits only (ESON 1.1, section 1).  Names are code-controlled identifiers:
an encoder rejects any other key rather than escaping it.
"""

from __future__ import annotations

from eson._internal.wire.eson_lexicon import NAME_SOURCE, lazy_pattern

#: The name production as a regular-expression source (ASCII only).
NAME_PATTERN = NAME_SOURCE

#: Compiled matcher for one whole name; use ``NAME_RE.fullmatch(text)``.
NAME_RE = lazy_pattern(NAME_PATTERN)


def is_name(text: object) -> bool:
    """Return whether ``text`` is a ``str`` matching ESON's name production."""
    return type(text) is str and NAME_RE.fullmatch(text) is not None
