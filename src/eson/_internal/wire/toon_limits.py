"""Resource limits shared by the TOON reader and writer.

Both directions use the same limits, so any value the decoder returns can be
encoded again and vice versa.
"""

from __future__ import annotations

from eson.errors import TOONError

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

#: Most objects a table may build per character of its rows, beyond
#: :data:`OBJECT_ALLOWANCE`.  A tabular header is written once and shapes every
#: row: with nested field groups (``a{b{c{...}}}``) one cell can stand for
#: hundreds of objects, so a few kilobytes of rows could otherwise make
#: gigabytes of dicts.  Real nested columns build far fewer than one object
#: per character (``customer{name,country}`` builds one per row).
MAX_OBJECTS_PER_CHAR = 4

#: Objects any table may build whatever its size.
OBJECT_ALLOWANCE = 4096


def check_objects(objects: int, chars: int) -> None:
    """Refuse a table that would build ``objects`` objects out of ``chars`` characters.

    Raises:
        TOONError: when ``objects`` exceeds the budget (no location; the
            caller knows where the table is).
    """
    if objects > OBJECT_ALLOWANCE + MAX_OBJECTS_PER_CHAR * chars:
        raise TOONError(
            f"the rows would build {objects} objects from {chars} characters: nested "
            f"field groups this deep allow at most {MAX_OBJECTS_PER_CHAR} objects per "
            "character of rows"
        )
