"""Wire formats: pure text codecs over plain Python values, with no models.

ESON lives in the ``eson_*`` modules, read top-down:

- :mod:`eson.wire.eson_names`  -- the ``name`` production (top-level and field names)
- :mod:`eson.wire.eson_cells`  -- one cell (or one column of cells) to and from text
- :mod:`eson.wire.eson_json`   -- nested values inside a cell, as compact JSON text
- :mod:`eson.wire.eson_writer` -- a whole document: value -> text
- :mod:`eson.wire.eson_reader` -- a whole document: text -> sections -> value

TOON lives in the ``toon_*`` modules, columnar JSON in :mod:`eson.wire.columnar`.  The schema compiler (:mod:`eson.schema`)
builds on these pieces; nothing here knows about Pydantic or msgspec.
"""
