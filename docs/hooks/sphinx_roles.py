"""A griffe extension: Sphinx cross-reference roles in docstrings become links.

The package's docstrings name other objects the way Sphinx does
(``:func:`eson.toon.encode```, ``:class:`Record```).  mkdocstrings renders
Markdown, where those roles would show as raw text, so this extension rewrites
each role, once the package is loaded, into an *optional* cross-reference:
a link when the target is documented on the site, plain code otherwise (no
warning, so ``mkdocs build --strict`` stays quiet about private modules).

Relative targets (``try_decode`` in :mod:`eson._internal.api`, ``Message.from_eson`` in
:mod:`eson.pydantic`) are resolved against the docstring's scope, innermost
first, the way Sphinx's Python domain resolves them.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|exc|obj|const):`(~?)([^`<>]+)`")


def _scopes(obj: griffe.Object) -> list[str]:
    paths = []
    scope: griffe.Object | None = obj if obj.is_module or obj.is_class else obj.parent
    while scope is not None:
        paths.append(scope.path)
        scope = scope.parent
    return paths


def _resolve(target: str, obj: griffe.Object, package: griffe.Module) -> str | None:
    for prefix in [*_scopes(obj), ""]:
        path = f"{prefix}.{target}" if prefix else target
        head, _, rest = path.partition(".")
        if head != package.name:
            continue
        try:
            found = package[rest] if rest else package
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
        try:
            return str(found.canonical_path if found.is_alias else found.path)
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            return path
    return None


def _rewrite(obj: griffe.Object, package: griffe.Module) -> None:
    docstring = obj.docstring
    if docstring is None or ":`" not in docstring.value:
        return

    def replace(match: re.Match[str]) -> str:
        short, target = match.group(1), match.group(2).strip()
        shown = target.rsplit(".", 1)[-1] if short else target
        code = f"<code>{html.escape(shown)}</code>"
        path = _resolve(target.lstrip("."), obj, package)
        if path is None:
            return code
        return f'<autoref identifier="{html.escape(path)}" optional>{code}</autoref>'

    docstring.value = _ROLE.sub(replace, docstring.value)


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring of the loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        stack: list[griffe.Object] = [pkg]
        while stack:
            obj = stack.pop()
            _rewrite(obj, pkg)
            for member in obj.members.values():
                if not member.is_alias:
                    stack.append(member)  # type: ignore[arg-type]
