"""Format back ends for compiled schemas.

- :mod:`eson._internal.codecs.eson_encode` -- model instance -> ESON text
- :mod:`eson._internal.codecs.eson_decode` -- ESON text -> validated model instance
- :mod:`eson._internal.codecs.eson_typed`  -- the per-class caches the public API uses
- :mod:`eson._internal.codecs.toon_encode` -- model instance -> TOON text
- :mod:`eson._internal.codecs.toon_decode` -- TOON text -> validated model instance
- :mod:`eson._internal.codecs.toon_typed`  -- the per-class caches of the TOON back end
- :mod:`eson._internal.codecs.columnar_typed` -- model instance <-> columnar JSON
- :mod:`eson._internal.codecs.layout`      -- a schema's wire layout in words (prompts, feedback)
- :mod:`eson._internal.codecs.validation`  -- validation failures placed on the wire (both formats)
- :mod:`eson._internal.codecs.lenient`     -- the typed repairs of lenient reading (both formats)
- :mod:`eson._internal.codecs.feedback`    -- the layout a typed decode puts on its errors' feedback
- :mod:`eson._internal.codecs.stream`      -- streaming, format-neutral: events, record checks, the message
- :mod:`eson._internal.codecs.eson_stream` -- streamed ESON rows -> events and the validated message
- :mod:`eson._internal.codecs.toon_stream` -- streamed TOON entries and rows -> the same
- :mod:`eson._internal.codecs.generated`   -- compiling generated code (with linecache)
"""
