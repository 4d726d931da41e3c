"""Compiling generated Python source, visible to tracebacks.

The typed codecs build one small function per model class from source text.
Registering that text with :mod:`linecache` lets a traceback through it show
the generated line, as for any other module.
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Callable
from typing import Any

_serial = itertools.count(1)


def compile_function(name: str, source: str, namespace: dict[str, Any], label: str) -> Callable[..., Any]:
    """Execute ``source`` (defining ``name``) in ``namespace`` and return the function.

    Args:
        name: The function the source defines.
        source: Complete Python source text.
        namespace: Globals for the generated code (constants, helpers).
        label: What the code is for, shown as its file name in tracebacks.
    """
    filename = f"<eson generated {next(_serial)}: {label}>"
    code = compile(source, filename, "exec")
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(code, namespace)
    function: Callable[..., Any] = namespace[name]
    return function
