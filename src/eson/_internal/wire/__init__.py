"""Wire formats: pure text codecs over plain Python values, with no models.

ESON lives in the ``eson_*`` modules, read top-down:

- :mod:`eson._internal.wire.eson_names`   -- the ``name`` production (top-level and field names)
- :mod:`eson._internal.wire.eson_cells`   -- one cell (or one column of cells) to and from text
- :mod:`eson._internal.wire.eson_json`    -- nested values inside a cell, as compact JSON text
- :mod:`eson._internal.wire.eson_writer`  -- a whole document: value -> text
- :mod:`eson._internal.wire.eson_lenient` -- the text-level repairs of lenient reading
- :mod:`eson._internal.wire.eson_reader`  -- the pieces of reading: heads, sections, rows, the count errors' words
- :mod:`eson._internal.wire.eson_line_reader` -- the one reader, for a whole text and a stream (strict or lenient)

TOON lives in the ``toon_*`` modules (:mod:`eson._internal.wire.toon_stream` reads it
line by line), columnar JSON in :mod:`eson._internal.wire.columnar`.  Shared by the
formats: :mod:`eson._internal.wire.lines` (chunks of a stream into lines),
:mod:`eson._internal.wire.repairs` (what lenient reading changed) and
:mod:`eson._internal.wire.options`.  The schema compiler (:mod:`eson._internal.schema`) builds on
these pieces; nothing here knows about Pydantic or msgspec.
"""
