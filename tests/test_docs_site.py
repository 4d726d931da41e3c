"""The documentation site: it builds strictly, documents every public name, and renders.

The site is built once per test session with ``mkdocs build --strict`` (the
``docs`` extra). Then:

- every public name of the documented modules has its entry in the API
  reference, and ``llms.txt`` / ``llms-full.txt`` follow the llms.txt
  convention with links that resolve;
- the built site is served on 127.0.0.1 and every page of the navigation is
  opened in headless Chromium (Debian's ``chromium``, driven by the npm
  package ``playwright-core``; ``tests/browser/check_site.mjs``): it must load
  with its navigation, show every image its Markdown references (the charts),
  and log no console error, fail no request and fetch nothing from outside.

Without mkdocs, node, playwright-core or Chromium the tests skip with the
reason, except under ``CI``, where they fail. ``PLAYWRIGHT_CORE_DIR`` and
``CHROMIUM`` override where the browser pieces are looked for.
"""

from __future__ import annotations

import functools
import http.server
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CHECK_SITE = ROOT / "tests" / "browser" / "check_site.mjs"

#: Modules with an API reference page, and the page.
API_PAGES = {
    "eson": "api/eson",
    "eson.toon": "api/toon",
    "eson.columnar": "api/columnar",
    "eson.agent": "api/agent",
    "eson.eval": "api/eval",
    "eson.pydantic": "api/pydantic",
    "eson.msgspec": "api/msgspec",
    "eson.errors": "api/errors",
    "eson.mypy": "api/mypy",
    "eson.integrations": "api/integrations",
    "eson.integrations.partial": "api/integrations",
    "eson.integrations.mcp": "api/integrations",
    "eson.integrations.pydantic_ai": "api/integrations",
    "eson.integrations.langchain": "api/integrations",
}
#: Pages the browser check must find: the issue names these.
REQUIRED_PAGES = ["", "typed/", "benchmarks/", "api/", "api/eson/", "api/toon/", "why/"]


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} (CI must install it: see .ci/run)")
    pytest.skip(what)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built from this checkout with ``mkdocs build --strict``."""
    if importlib.util.find_spec("mkdocs") is None:
        _missing("mkdocs is not installed (pip install -e '.[docs]')")
    target = tmp_path_factory.mktemp("docs") / "site"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--clean",
            "-f",
            str(ROOT / "mkdocs.yml"),
            "-d",
            str(target),
        ],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return target


def _nav() -> list[tuple[str | None, str]]:
    """``(title, page)`` of every page in the navigation of mkdocs.yml, in order."""
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    found: list[tuple[str | None, str]] = []

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, str):
                found.append((None, item))
            elif isinstance(item, dict):
                for title, value in item.items():
                    if isinstance(value, list):
                        walk(value)
                    else:
                        found.append((str(title), str(value)))

    walk(config["nav"])
    return found


def _nav_pages() -> list[str]:
    """The Markdown files the navigation lists, in order."""
    return [page for _, page in _nav()]


def _url(page: str) -> str:
    """The URL path of a page: ``typed.md`` -> ``typed/``, ``api/index.md`` -> ``api/``."""
    stem = page[: -len(".md")]
    if stem == "index":
        return ""
    return stem[: -len("index")] if stem.endswith("/index") else stem + "/"


# --------------------------------------------------------------------------------------
# The build
# --------------------------------------------------------------------------------------


def test_every_page_in_the_navigation_is_built(site: Path) -> None:
    pages = _nav_pages()
    assert len(pages) >= 19
    on_disk = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(pages) == on_disk, "every page is in the nav, and the nav names no missing page"
    for page in pages:
        html = site / _url(page) / "index.html"
        assert html.is_file(), page


def test_pages_hold_no_placeholders() -> None:
    marker = re.compile(r"(?i:coming soon|lorem ipsum|under construction)|\bTODO\b|\bTBD\b|\bXXX\b")
    for path in DOCS.rglob("*.md"):
        found = marker.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(ROOT)}: {found.group() if found else ''!r}"


def test_every_public_name_has_an_api_entry(site: Path) -> None:
    anchors: dict[str, str] = {}
    for page in API_PAGES.values():
        html = (site / page / "index.html").read_text(encoding="utf-8")
        for anchor in re.findall(r'id="(eson(?:\.\w+)*)"', html):
            anchors[anchor] = page
    documented = {anchor: _resolve(anchor) for anchor in anchors}
    missing = []
    for module_name in API_PAGES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            # a framework adapter whose extra is not installed (or cannot be, on this
            # Python): tests/test_integration_*.py fail under CI where it can be
            if module_name.startswith("eson.integrations."):
                continue
            raise
        for name in module.__all__:
            if name.startswith("__"):
                continue
            value = getattr(module, name)
            if f"{module_name}.{name}" in anchors:
                continue
            if not any(obj is value for obj in documented.values() if obj is not None):
                missing.append(f"{module_name}.{name}")
    assert not missing, f"public names without an API reference entry: {missing}"


def _resolve(path: str) -> Any:
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part, None)
        return obj
    return None


def test_llms_txt_follows_the_convention(site: Path) -> None:
    text = (site / "llms.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# typed-eson"
    assert lines[2].startswith("> ") and len(lines[2]) > 40
    sections = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert sections[0] == "Start here" and sections[-1] == "Optional"
    assert {"Guide", "API reference", "Migrating"} <= set(sections)
    links = re.findall(r"^- \[([^\]]+)\]\(([^)]+)\)(?:: (.+))?$", text, re.MULTILINE)
    assert sorted(target for _, target, _ in links) == sorted(_nav_pages())
    for title, target, _ in links:
        assert (site / target).is_file(), f"llms.txt links {target} ({title}), not in the site"
        assert (site / target).read_text(encoding="utf-8") == _without_front_matter(
            DOCS / target
        ) or target.startswith("api/")
    full = (site / "llms-full.txt").read_text(encoding="utf-8")
    for page in _nav_pages():
        assert f"<!-- page: {page} -->" in full
    # The API pages' text holds the reference itself, not the mkdocstrings directives.
    assert ":::" not in full
    for name in (
        "eson.encode",
        "eson.toon.decode",
        "eson.msgspec.Message.from_eson",
        "eson.errors.ValidationError",
        "eson.mypy.plugin",
    ):
        assert f"`{name}`" in full, name
    assert "encode(value: Any, *, delimiter: str = ',', indent_size: int = 2) -> str" in full


def _without_front_matter(path: Path) -> str:
    return re.sub(
        r"\A---\n.*?\n---\n", "", path.read_text(encoding="utf-8"), count=1, flags=re.DOTALL
    )


# --------------------------------------------------------------------------------------
# In a browser
# --------------------------------------------------------------------------------------


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site on an HTTP server at 127.0.0.1 (a free port)."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _browser() -> tuple[str, str, str]:
    node = shutil.which("node")
    if node is None:
        _missing("node is not installed")
    playwright = os.environ.get("PLAYWRIGHT_CORE_DIR") or str(
        ROOT / ".cache" / "playwright" / "node_modules" / "playwright-core"
    )
    if not Path(playwright, "package.json").is_file():
        _missing(
            f"playwright-core not found at {playwright} (npm install --prefix .cache/playwright "
            "playwright-core)"
        )
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).is_file():
        _missing("Chromium is not installed (apt-get install chromium)")
    return node, playwright, chromium


@pytest.fixture(scope="module")
def rendered(served: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What Chromium shows for every page of the navigation, by URL path."""
    node, playwright, chromium = _browser()
    shots = tmp_path_factory.mktemp("screenshots")
    paths = [_url(page) for page in _nav_pages()]
    done = subprocess.run(
        [node, str(CHECK_SITE), playwright, chromium, served, str(shots), *paths],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"the browser check failed:\n{done.stdout}\n{done.stderr}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return {entry["path"]: entry for entry in report["pages"]}


def test_required_pages_render_with_navigation(rendered: dict[str, dict[str, Any]]) -> None:
    titles = _nav_titles()
    for path in REQUIRED_PAGES:
        page = rendered[path]
        assert page["status"] == 200, path
        assert page["title"].endswith("typed-eson"), (path, page["title"])
        assert page["h1"], path
        assert page["navLinks"] >= len(titles), (path, page["navLinks"])
        assert set(titles) <= set(page["navTexts"]), (path, set(titles) - set(page["navTexts"]))
        assert page["activeNav"], f"{path}: no navigation entry is marked as the current page"
    assert rendered[""]["activeNav"] == "Home"
    assert rendered["typed/"]["activeNav"] == "Typed messages"
    assert rendered["benchmarks/"]["activeNav"] == "Benchmarks"
    for path in ("api/eson/", "api/toon/"):
        assert rendered[path]["apiObjects"] >= 5, f"{path}: the reference was not rendered"


def test_no_page_has_errors_missing_images_or_outside_requests(
    rendered: dict[str, dict[str, Any]],
) -> None:
    for path, page in rendered.items():
        assert page["status"] == 200, path
        assert not page["consoleErrors"], (path, page["consoleErrors"])
        assert not page["pageErrors"], (path, page["pageErrors"])
        assert not page["failedRequests"], (path, page["failedRequests"])
        assert not page["outside"], f"{path} fetches from outside the site: {page['outside']}"
        broken = [image["src"] for image in page["images"] if not image["loaded"]]
        assert not broken, f"{path}: images that did not load: {broken}"


def test_every_chart_a_page_references_is_shown(rendered: dict[str, dict[str, Any]]) -> None:
    shown_somewhere = 0
    for page in _nav_pages():
        text = (DOCS / page).read_text(encoding="utf-8")
        charts = re.findall(r"!\[[^\]]*\]\(([^)\s]+\.svg)\)", text)
        result = rendered[_url(page)]
        assert result["charts"] == len(charts), (page, charts, result["images"])
        shown_somewhere += result["charts"]
        for image in result["images"]:
            if image["src"].endswith(".svg"):
                assert image["width"] >= 600, (page, image)
    assert shown_somewhere >= 1, "no page shows a chart"


def test_the_benchmarks_page_shows_the_speed_charts(rendered: dict[str, dict[str, Any]]) -> None:
    """Speed against msgspec.json, Pydantic's JSON and json, with and without the accelerator."""
    shown = {
        image["src"].rsplit("/", 1)[-1]
        for image in rendered["benchmarks/"]["images"]
        if image["loaded"] and image["src"].endswith(".svg")
    }
    wanted = {"speed-msgspec-json.svg", "speed-pydantic-json.svg", "speed-json.svg"}
    assert wanted <= shown, f"benchmarks page lacks {sorted(wanted - shown)}"
    for name in wanted:
        chart = (DOCS / "charts" / name).read_text(encoding="utf-8")
        assert "pure Python" in chart and "C accelerator" in chart, name


def _nav_titles() -> list[str]:
    """The titles the navigation gives its pages."""
    return [title for title, _ in _nav() if title is not None]
