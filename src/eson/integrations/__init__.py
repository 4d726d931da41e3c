"""Where typed-eson plugs into agent frameworks: one module per framework, each an extra.

==================================  ==========================  =========================
module                              extra                       framework
==================================  ==========================  =========================
:mod:`eson.integrations.mcp`        ``typed-eson[mcp]``         the MCP Python SDK
:mod:`eson.integrations.pydantic_ai`  ``typed-eson[pydantic-ai]``  pydantic-ai (``-slim``)
:mod:`eson.integrations.langchain`  ``typed-eson[langchain]``   langchain-core
:mod:`eson.integrations.a2a`        ``typed-eson[a2a]``         the A2A Python SDK
:mod:`eson.integrations.openai_agents`  ``typed-eson[openai-agents]``  the OpenAI Agents SDK
:mod:`eson.integrations.http`       ``typed-eson[http]``        Starlette, and FastAPI
                                    (``typed-eson[fastapi]``)   on it
==================================  ==========================  =========================

Each module is a thin adapter over the agent layer (:func:`eson.parse_reply`
and :attr:`eson.ESONError.feedback`, :func:`eson.prompt`, :func:`eson.choose`,
:class:`eson.StreamDecoder`): it adds no format logic of its own.  Nothing
here is imported by ``import eson`` (nor by ``import eson.integrations``):
a framework loads only when its module is imported, and a missing framework
is an :class:`ImportError` naming the extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["require"]


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` for an adapter, or fail with the extra that installs it.

    Raises:
        ImportError: naming ``pip install 'typed-eson[<extra>]'`` when the
            package is not installed.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or module.split(".")[0] != exc.name.split(".")[0]:
            raise
        raise ImportError(
            f"eson.integrations needs the {module.split('.')[0]!r} package for this adapter: "
            f"pip install 'typed-eson[{extra}]'",
            name=exc.name,
        ) from exc
