"""An mkdocs hook: ``llms.txt`` and ``llms-full.txt`` for readers that are language models.

Follows the llms.txt convention: ``/llms.txt`` is a Markdown file with the
project's name as an H1, a one-paragraph summary as a block quote, and one H2
section per part of the site listing its pages as ``- [Title](url): what it
covers``; the pages that can be skipped go under ``## Optional``. Every page
is also published as Markdown beside its HTML (``typed.md`` next to
``typed/index.html``), which is what the links point to, and
``/llms-full.txt`` holds all of them in navigation order, in one file.

The Markdown is the page source with its front matter dropped; on the API
reference pages each ``::: identifier`` directive is replaced by the
signatures and docstrings it documents (read with griffe, as mkdocstrings
does), so the text version holds the same reference as the HTML one.

Links are relative to the site root, or absolute when ``site_url`` is set.
"""

from __future__ import annotations

import logging
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import griffe
import yaml
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page

log = logging.getLogger("mkdocs.hooks.llms_txt")

#: Top-level navigation entries listed under "Optional": context, not instructions.
OPTIONAL = {"Benchmarks", "Changelog"}

_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_DIRECTIVE = re.compile(
    r"^::: (?P<path>[\w.]+)\n(?P<options>(?:[ \t]+.*\n|\n(?=[ \t]))*)", re.MULTILINE
)
_ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|exc|obj|const):`~?([^`]+)`")


@dataclass
class _Entry:
    section: str
    title: str
    src_uri: str
    markdown: str

    @property
    def description(self) -> str:
        """The page's first paragraph of prose, flattened, clipped to about 200 characters."""
        text = self.markdown
        text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
        for block in re.split(r"\n\s*\n", text):
            block = block.strip()
            if not block or block[0] in "#|:<>=!" or block.startswith(("- ", "* ", "+ ")):
                continue  # a heading, table, directive, HTML, quote, tab, image or list
            flat = " ".join(block.split())
            flat = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", flat).replace("**", "")
            return flat if len(flat) <= 200 else flat[:197].rsplit(" ", 1)[0] + "..."
        return ""


_state: dict[str, Any] = {}


def _title(page: Page, markdown: str) -> str:
    if page.title:
        return str(page.title)
    match = re.search(r"^# (.+)$", markdown, re.MULTILINE)
    return match.group(1).strip().strip("`") if match else page.file.src_uri


def _walk(items: list[Any], section: str) -> list[tuple[str, Page]]:
    found: list[tuple[str, Page]] = []
    for item in items:
        if isinstance(item, Section):
            found += _walk(item.children, item.title)
        elif isinstance(item, Page):
            found.append((section, item))
        elif isinstance(item, Link):
            continue
    return found


# --------------------------------------------------------------------------------------
# API directives as text
# --------------------------------------------------------------------------------------


def _package(config: MkDocsConfig) -> griffe.Module:
    if "package" not in _state:
        root = Path(config.config_file_path).parent
        _state["package"] = griffe.load("eson", search_paths=[str(root / "src")])
    package: griffe.Module = _state["package"]
    return package


def _signature(obj: griffe.Object) -> str:
    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        params = init.parameters if isinstance(init, griffe.Function) else None
        returns = None
    elif isinstance(obj, griffe.Function):
        params, returns = obj.parameters, obj.returns
    else:
        annotation = getattr(obj, "annotation", None)
        value = getattr(obj, "value", None)
        text = obj.name + (f": {annotation}" if annotation else "")
        return text + (f" = {value}" if value is not None else "")
    parts: list[str] = []
    star = False
    for param in params or []:
        if param.name in ("self", "cls"):
            continue
        kind = param.kind
        if kind is griffe.ParameterKind.keyword_only and not star:
            parts.append("*")
            star = True
        prefix = {"var_positional": "*", "var_keyword": "**"}.get(kind.name if kind else "", "")
        if prefix == "*":
            star = True
        text = prefix + param.name
        if param.annotation is not None:
            text += f": {param.annotation}"
        if param.default is not None:
            text += f" = {param.default}" if param.annotation is not None else f"={param.default}"
        parts.append(text)
    head = f"{obj.name}({', '.join(parts)})"
    return head + (f" -> {returns}" if returns is not None else "")


def _docstring(obj: griffe.Object) -> str:
    if obj.docstring is None:
        return ""
    return _ROLE.sub(r"`\1`", obj.docstring.value).strip()


def _public(obj: griffe.Object, names: list[str] | None) -> list[griffe.Object]:
    members: list[griffe.Object] = []
    for name, member in obj.members.items():
        if names is not None and name not in names:
            continue
        if names is None and name.startswith("_"):
            continue
        if isinstance(member, griffe.Alias):
            if names is None and not obj.is_module:
                continue  # an inherited or imported member of a class
            try:
                target = member.final_target
            except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                continue
        else:
            target = member
        members.append(target)
    if names is not None:
        members.sort(key=lambda member: names.index(member.name) if member.name in names else 0)
    return members


def _inherited(obj: griffe.Object, names: list[str]) -> list[griffe.Object]:
    """The inherited members of a class that the page's ``inherited_members`` option names."""
    if not obj.is_class or not names:
        return []
    found: list[griffe.Object] = []
    members = obj.inherited_members
    for name in names:
        member = members.get(name)
        if member is None or name in obj.members:
            continue
        try:
            found.append(member.final_target if isinstance(member, griffe.Alias) else member)
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
    return found


def _document(
    obj: griffe.Object,
    path: str,
    names: list[str] | None,
    level: int,
    inherited: list[str] | None = None,
) -> list[str]:
    lines: list[str] = []
    if not obj.is_module:
        lines += [f"{'#' * level} `{path}`", "", "```python", _signature(obj), "```", ""]
    doc = _docstring(obj)
    if doc:
        lines += [doc, ""]
    if obj.is_module or obj.is_class:
        members = _public(obj, names if obj.is_module else None)
        members += _inherited(obj, inherited or [])
        for member in members:
            if member.is_module:
                continue
            lines += _document(
                member,
                f"{path}.{member.name}",
                None,
                level + 1 if not obj.is_module else level,
                inherited,
            )
    return lines


def _expand(markdown: str, config: MkDocsConfig) -> str:
    def replace(match: re.Match[str]) -> str:
        path = match.group("path")
        raw = match.group("options")
        options = (yaml.safe_load(textwrap.dedent(raw)) or {}) if raw.strip() else {}
        names = (options.get("options") or {}).get("members")
        inherited = (options.get("options") or {}).get("inherited_members")
        try:
            obj = _package(config)[path.partition(".")[2]] if "." in path else _package(config)
        except KeyError:
            log.warning("llms.txt: cannot find %s for the text version of the API pages", path)
            return match.group(0)
        listed = inherited if isinstance(inherited, list) else None
        return "\n".join(_document(obj, path, names, 2, listed)) + "\n"

    return _DIRECTIVE.sub(replace, markdown)


# --------------------------------------------------------------------------------------
# Hook events
# --------------------------------------------------------------------------------------


def _url(config: MkDocsConfig, path: str) -> str:
    base = config.site_url or ""
    return f"{base.rstrip('/')}/{path}" if base else path


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Collect every page in navigation order and add the two text files to the site."""
    entries: list[_Entry] = []
    for section, page in _walk(nav.items, ""):
        source = page.file.content_string
        markdown = _FRONT_MATTER.sub("", source, count=1)
        if ":::" in markdown:
            markdown = _expand(markdown, config)
        entries.append(_Entry(section, _title(page, markdown), page.file.src_uri, markdown))
    _state["entries"] = entries

    name = config.site_name
    summary = " ".join(str(config.site_description or "").split())
    index = [f"# {name}", "", f"> {summary}", ""]
    index += [
        "typed-eson (import name `eson`) is a Python library. Each link below is the",
        "Markdown source of one page of its documentation; llms-full.txt holds them all.",
        "",
    ]
    sections: dict[str, list[_Entry]] = {}
    for entry in entries:
        key = "Optional" if entry.title in OPTIONAL else entry.section or "Start here"
        sections.setdefault(key, []).append(entry)
    order = [key for key in sections if key != "Optional"] + (
        ["Optional"] if "Optional" in sections else []
    )
    for key in order:
        index += [f"## {key}", ""]
        for entry in sections[key]:
            line = f"- [{entry.title}]({_url(config, entry.src_uri)})"
            index.append(line + (f": {entry.description}" if entry.description else ""))
        index.append("")
    full = [f"# {name}", "", f"> {summary}", ""]
    for entry in entries:
        full += ["", "---", "", f"<!-- page: {entry.src_uri} -->", "", entry.markdown.strip(), ""]
    for src_uri, text in (("llms.txt", "\n".join(index)), ("llms-full.txt", "\n".join(full))):
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            files.remove(existing)
        files.append(
            File.generated(
                config, src_uri, content=text.rstrip("\n") + "\n", inclusion=InclusionLevel.INCLUDED
            )
        )
    return nav


def on_post_build(config: MkDocsConfig) -> None:
    """Publish each page's Markdown beside its HTML."""
    site = Path(config.site_dir)
    for entry in _state.get("entries", []):
        target = site / entry.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(entry.markdown, encoding="utf-8")


def on_pre_build(config: MkDocsConfig) -> None:
    """Start each build afresh (``mkdocs serve`` rebuilds in one process)."""
    _state.clear()
