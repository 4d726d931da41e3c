"""The private core of typed-eson: nothing here is public API.

Read it as the data path, from the bottom up: ``wire`` (the text codecs of
ESON, TOON and columnar JSON: lexicons, readers, writers, the stream line
readers) → ``schema`` (each model class compiled once into one shape tree and
its bindings) → ``codecs`` (the typed back ends over both) → ``api`` (the
encode / decode set that the public modules ``eson``, ``eson.toon`` and
``eson.columnar`` hand on).  ``accelerator`` is the glue to the optional C
module ``eson._speedups``; ``results`` holds ``Ok`` / ``Err``.  (What both
model flavours share, ``eson._bases``, stands above the agent layer, whose
reply and prompt methods it offers: nothing here imports upwards.)

Names move here freely between releases; import them from the public
modules (``eson``, ``eson.toon``, ``eson.columnar``, ``eson.agent``,
``eson.pydantic``, ``eson.msgspec``, ``eson.errors``, ``eson.mypy``,
``eson.integrations.*``) instead.
"""
