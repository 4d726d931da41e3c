"""Per-class caches that live and die with their class.

Every compiled artefact of a model class -- its schemas, ESON and TOON
readers and writers, columnar codec, layouts, stream plans -- refers to the
class (to build instances).  Kept in a module-level dictionary, even a
``weakref.WeakKeyDictionary``, such a value keeps its own key alive, so
every class ever encoded would stay in memory for the life of the process,
and a service that builds models per request would grow without bound.

Here each artefact is stored in a dictionary held by the class itself (the
attribute :data:`ATTRIBUTE`, set on the class; a subclass gets its own,
never its parent's).  The class and its artefacts then form one reference cycle
that the garbage collector frees together once nothing else refers to the
class.  A parametrised generic (``Page[int]``, a typing alias, not a class)
keeps its artefacts in its origin class's cache, under the alias.
"""

from __future__ import annotations

import threading
import typing
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

V = TypeVar("V")

#: The class attribute holding a class's cache (set with ``type.__setattr__``,
#: so that no metaclass sees it as a field).
ATTRIBUTE = "__typed_eson_cache__"

_lock = threading.RLock()


def _owner(cls: Any) -> tuple[Any, tuple[Hashable, ...]]:
    """The object whose cache holds ``cls``'s artefacts, and the key prefix within it."""
    if isinstance(cls, type):
        return cls, ()
    origin = typing.get_origin(cls)
    if isinstance(origin, type):
        return origin, (cls,)
    return cls, ()


def _store(owner: Any) -> dict[Hashable, Any] | None:
    """``owner``'s own cache dictionary (created on first use); ``None`` where none can be kept.

    The attribute holds ``(owner, cache)``: a subclass inherits the
    attribute, and the first item tells it the cache is its parent's.
    Attribute lookup on a class goes through the interpreter's type
    cache, so the common case costs one ``getattr``.
    """
    entry = getattr(owner, ATTRIBUTE, None)
    if entry is not None and entry[0] is owner:
        return entry[1]  # type: ignore[no-any-return]
    store: dict[Hashable, Any] = {}
    try:
        type.__setattr__(owner, ATTRIBUTE, (owner, store))
    except (TypeError, AttributeError):
        return None  # an immutable type, or no class: nothing is cached for it
    return store


def cached(cls: Any, key: Hashable, build: Callable[[], V]) -> V:
    """The artefact ``key`` of ``cls``, built by ``build()`` on first use and kept with the class.

    Thread-safe: ``build`` runs at most once per class and key, under one
    re-entrant lock (a build may compile other classes).  A class whose
    attributes cannot be set is never cached: ``build`` runs on each call.
    """
    entry = getattr(cls, ATTRIBUTE, None)  # the hot path: a class's own cache, one lookup
    if entry is not None and entry[0] is cls:
        found = entry[1].get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
    return _build(cls, key, build)


def _build(cls: Any, key: Hashable, build: Callable[[], V]) -> V:
    owner, prefix = _owner(cls)
    store = _store(owner)
    if store is None:
        return build()
    full = (*prefix, key) if prefix else key
    found = store.get(full)
    if found is not None:
        return found  # type: ignore[no-any-return]
    with _lock:
        found = store.get(full)
        if found is None:
            found = build()
            store[full] = found
    return found
