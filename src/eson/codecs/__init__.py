"""Format back ends for compiled schemas.

- :mod:`eson.codecs.eson_encode` -- model instance -> ESON text
- :mod:`eson.codecs.eson_decode` -- ESON text -> validated model instance
- :mod:`eson.codecs.eson_typed`  -- the per-class caches the public API uses
- :mod:`eson.codecs.toon_encode` -- model instance -> TOON text
- :mod:`eson.codecs.toon_decode` -- TOON text -> validated model instance
- :mod:`eson.codecs.toon_typed`  -- the per-class caches of the TOON back end
- :mod:`eson.codecs.toon_shapes` -- the TOON shape of each field (nested records, lists ...)
- :mod:`eson.codecs.columnar_typed` -- model instance <-> columnar JSON
- :mod:`eson.codecs.layout`      -- a schema's wire layout in words (prompts, feedback)
- :mod:`eson.codecs.validation`  -- validation failures placed on the wire (both formats)
- :mod:`eson.codecs.generated`   -- compiling generated code (with linecache)
"""
