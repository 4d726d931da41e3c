"""Format back ends for compiled schemas.

- :mod:`eson.codecs.eson_encode` -- model instance -> ESON text
- :mod:`eson.codecs.eson_decode` -- ESON text -> validated model instance
- :mod:`eson.codecs.eson_typed`  -- the per-class caches the public API uses
- :mod:`eson.codecs.generated`   -- compiling generated code (with linecache)
"""
