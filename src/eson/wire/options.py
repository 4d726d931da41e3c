"""Checks of the options the text codecs accept, shared by ESON and TOON.

An option that switches behaviour must not be truthy by accident:
``strict="false"`` is a non-empty string, so a plain ``if strict:`` would
read it as *strict*.  Every public entry point that takes ``strict`` passes
it through :func:`strict_flag` before using it.
"""

from __future__ import annotations

__all__ = ["strict_flag"]


def strict_flag(value: object, name: str = "strict") -> bool:
    """Return ``value`` when it is a ``bool``; raise ``TypeError`` otherwise.

    ``name`` is the option's name in the message.

    Raises:
        TypeError: for anything but ``True`` or ``False`` (``0``, ``1``,
            ``"false"``, ``None`` included).
    """
    if value is True or value is False:
        return value
    shown = repr(value)
    if len(shown) > 80:
        shown = shown[:77] + "..."
    raise TypeError(f"{name} must be a bool (True or False), not {type(value).__name__} {shown}")
