"""Wire formats: pure text codecs over plain Python values, with no models.

ESON lives in the ``eson_*`` modules, read top-down:

- :mod:`eson.wire.eson_names`   -- the ``name`` production (top-level and field names)
- :mod:`eson.wire.eson_cells`   -- one cell (or one column of cells) to and from text
- :mod:`eson.wire.eson_json`    -- nested values inside a cell, as compact JSON text
- :mod:`eson.wire.eson_writer`  -- a whole document: value -> text
- :mod:`eson.wire.eson_lenient` -- the text-level repairs of lenient reading
- :mod:`eson.wire.eson_reader`  -- a whole document: text -> sections -> value (strict or lenient)
- :mod:`eson.wire.eson_stream`  -- the same reader, line by line, for a stream

TOON lives in the ``toon_*`` modules (:mod:`eson.wire.toon_stream` reads it
line by line), columnar JSON in :mod:`eson.wire.columnar`.  Shared by the
formats: :mod:`eson.wire.lines` (chunks of a stream into lines),
:mod:`eson.wire.repairs` (what lenient reading changed) and
:mod:`eson.wire.options`.  The schema compiler (:mod:`eson.schema`) builds on
these pieces; nothing here knows about Pydantic or msgspec.
"""
