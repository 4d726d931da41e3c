"""Every Python example in the documentation runs, and shows what it really prints.

How to write an example (the conventions this test enforces)
-------------------------------------------------------------

Every fenced block marked ``python`` on every page of ``docs/`` (and in
``README.md``) is an example, and runs in the test suite:

- **A page is one session.** Its blocks run in page order in one fresh module
  namespace, so a later block may use what an earlier one defined. Nothing is
  shared between pages. Indented blocks (inside admonitions) count.
- **Content tabs are alternatives** (``=== "Pydantic"`` / ``=== "msgspec"``):
  the page runs once per tab label, each time with the blocks outside tabs
  and the blocks of that label, so what follows the tabs must hold for every
  flavour the reader may have picked.
- **Show what a statement prints in ``#>`` comments directly after it**, one
  ``#>`` line per printed line (pydantic's convention)::

      print(review.to_eson())
      #> !eson/1
      #> from=reviewer

  The printed text must equal the shown lines (trailing white space aside).
  The ``#>`` lines belong to the top-level statement they follow: to show
  what a loop prints, put them after the loop. A ``#>`` line anywhere else
  is an error, and so is one after a statement that prints nothing.
  Older pages show printed lines as plain ``# `` comments directly after the
  ``print``; those are checked the same way.
- **A value shown after a bare expression** (``toon.decode(text)`` followed by
  ``# {'users': [...]}``) must equal the expression's value (read with
  ``ast.literal_eval``, wrapped lines joined).
- **Output nobody is shown fails the page**: a statement that prints must
  have its output on the page. (Phase-one exception, ``UNSHOWN_OUTPUT``
  below: a page that other work owns right now, whose output is checked here
  until it is moved onto the page.)
- **Errors**: an example that raises fails. To show an error, catch it and
  print it (``except eson.ValidationError as error: print(error)``), or write
  the block as a doctest: a block starting with ``>>>`` runs under
  ``doctest`` in the page's namespace (ellipsis and white-space normalising on).
- **API listings**: a block that is not Python but one call signature a line
  (``toon.encode(value, *, delimiter=",") -> str``) is checked against the
  real callables: names, positional / keyword-only parameters and defaults.
- **Type-checker pages** (``CHECKER_PAGES``: the mypy plugin's page): each
  block is a module of its own after the page's prelude. mypy with
  ``eson.mypy`` must report exactly the ``# error: <message>  [code]``
  comments of the block (the message as written, unless shortened to
  ``...``), and defining the block's classes at run time must raise the
  ``TypeError`` of the first code in rule order (or the code an
  ``# at run time: ... [code]`` comment names), or nothing when the block
  shows no error.

**Shell sessions** are ``console`` blocks: each ``$ command`` line runs with
``bash`` in the page's own temporary directory, ``eson`` being the package
under test, and the lines after it are its output (standard output and error
together); a line ``...`` stands for any number of lines. A command must exit
with status 0: show a failure as ``$ eson decode bad.eson; echo "exit status $?"``.

**Optional extras**: a page whose examples count tokens (``count_tokens``,
``choose``, ``prompt_cost``, ``eson stats``, ``--stats``, the ``eson demo``
output) needs the ``tokens`` extra, and one that imports a framework adapter
(``eson.integrations.mcp``, ``.pydantic_ai``, ``.langchain``) needs that
adapter's extra; without it the page is skipped, with the reason (and fails
under ``CI``, which installs the extras, where the framework supports the
Python version).

Any other code block (``text``, ``bash``, ``toml``...) is not executed: use
``bash`` for commands the reader runs but the tests cannot (installing), and
don't mark a non-runnable Python snippet as ``python``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path

import pytest
from docs_examples import (
    Block,
    ExampleError,
    checker_examples,
    console_blocks,
    is_signature_listing,
    python_blocks,
    reported_errors,
    run_console,
    run_page,
    shown_errors,
    tab_labels,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: Pages whose examples are type-checker input, with the prelude that defines
#: the names their fragments use.
CHECKER_PAGES = {
    "docs/mypy.md": """
        from collections.abc import Callable
        from typing import Generic, TypeVar

        from pydantic import Field

        import eson

        T = TypeVar("T")


        class Finding(eson.Record):
            file: str
            line: int


        class Note(eson.Record):
            text: str
    """,
}

#: Output printed by a page's examples that the page does not show yet: checked
#: here instead. Phase two of the docs work moves it onto the page as ``#>``
#: lines and deletes the entry.
UNSHOWN_OUTPUT = {
    "docs/typed.md": (
        "fixing finding 1: src/auth.py:42 token never expires\n"
        "fixing finding 2: src/api.py:18 missing rate limit\n"
    ),
}


def _pages() -> list[str]:
    pages = sorted(str(path.relative_to(ROOT)) for path in DOCS.rglob("*.md"))
    return ["README.md", *pages]


PAGES = _pages()
EXECUTED_PAGES = [page for page in PAGES if page not in CHECKER_PAGES]


def _text(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


#: What in an example needs the ``tokens`` extra (exact token counts).
_COUNTS_TOKENS = re.compile(
    r"\b(?:count_tokens|choose|prompt_cost)\(|\beson (?:stats|demo)\b|--stats\b"
)


#: A framework adapter an example imports.
_USES_ADAPTER = re.compile(r"\beson\.integrations\.(mcp|pydantic_ai|langchain|http|a2a|openai_agents)\b")
#: Adapter -> (the framework's package, its extra, the oldest Python it installs on).
_ADAPTER_EXTRAS = {
    "mcp": ("mcp", "mcp", (3, 10)),
    "pydantic_ai": ("pydantic_ai", "pydantic-ai", (3, 11)),
    "langchain": ("langchain_core", "langchain", (3, 11)),
    "http": ("fastapi", "fastapi", (3, 11)),
    "a2a": ("a2a", "a2a", (3, 10)),
    "openai_agents": ("agents", "openai-agents", (3, 10)),
}


def _needs_extras(page: str, blocks: list[Block]) -> None:
    """Skip (or, under CI, fail) a page whose examples need an extra that is missing."""
    if any(_COUNTS_TOKENS.search(block.code) for block in blocks):
        from conftest import token_backends_or_skip

        token_backends_or_skip()
    adapters = {name for block in blocks for name in _USES_ADAPTER.findall(block.code)}
    for adapter in sorted(adapters):
        package, extra, oldest = _ADAPTER_EXTRAS[adapter]
        if importlib.util.find_spec(package) is None:
            reason = f"{page} needs the {extra} extra: pip install -e '.[{extra}]'"
            if os.environ.get("CI") and sys.version_info >= oldest:
                pytest.fail(f"CI installs typed-eson[{extra}]; {reason}")
            pytest.skip(reason)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here


def _sessions() -> list[tuple[str, str | None]]:
    return [
        (page, tab) for page in EXECUTED_PAGES for tab in (tab_labels(_text(page), page) or [None])
    ]


@pytest.mark.parametrize(("page", "tab"), _sessions())
def test_page_examples_run_and_show_their_output(page: str, tab: str | None) -> None:
    _needs_extras(page, python_blocks(_text(page), page))
    result = run_page(_text(page), page, tab=tab)
    assert "".join(result.unshown) == UNSHOWN_OUTPUT.get(page, ""), (
        f"{page}: examples print output the page does not show"
    )


CONSOLE_PAGES = [page for page in PAGES if console_blocks(_text(page), page)]


@pytest.mark.parametrize("page", CONSOLE_PAGES)
def test_page_shell_sessions_print_what_they_show(page: str, tmp_path: Path) -> None:
    _needs_extras(page, console_blocks(_text(page), page))
    for block in console_blocks(_text(page), page):
        run_console(block, tmp_path)


def test_agents_page_tables_are_current(tmp_path: Path) -> None:
    """The prompt-cost table and the stats example of docs/agents.md are what the code gives."""
    from conftest import bench_datasets, token_backends_or_skip

    token_backends_or_skip()
    import json

    from eson.agent.prompts import prompt_cost
    from eson.cli import main
    from eson.demo import ReviewHandoff

    text = _text("docs/agents.md")
    for format, label in (("eson", "ESON"), ("toon", "TOON")):
        cost = prompt_cost(ReviewHandoff, format=format)  # type: ignore[arg-type]
        row = (
            f"| `ReviewHandoff` of `eson demo`, {label} | {cost.primer} | {cost.schema} "
            f"| {cost.example} | {cost.total} |"
        )
        assert row in text
    reader = prompt_cost(ReviewHandoff, reader=True)
    assert (
        f"| ESON reader primer, numbered rows | {reader.primer} | 0 | 0 | {reader.total} |" in text
    )
    small = bench_datasets()["small review"]
    source = tmp_path / "handoff.json"
    source.write_text(json.dumps(small), encoding="utf-8")
    out = tmp_path / "stats.txt"
    assert main(["stats", str(source), "-o", str(out)]) == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        assert line in text


def test_typed_page_worked_example() -> None:
    """The worked example of docs/typed.md ends with the fixer's validated message."""
    result = run_page(_text("docs/typed.md"), "docs/typed.md")
    assert result.namespace["received"].findings[1].line == 18


def test_readme_shows_the_wire_text_it_builds() -> None:
    """Each README block's ``# !eson/1 ...`` comment block is its ``wire``/``text`` value."""
    from eson.agent.tokens import token_backends

    blocks = python_blocks(_text("README.md"), "README.md")
    assert len(blocks) >= 2
    for block in blocks:
        if _COUNTS_TOKENS.search(block.code) and not token_backends():
            continue  # counts tokens: the page test runs it where the extra is installed
        namespace = run_page("```python\n" + block.code + "```\n", "README.md").namespace
        shown = [line[2:] for line in block.code.splitlines() if line.startswith("# ")]
        if shown and shown[0] == "!eson/1":
            wire = namespace.get("wire") or namespace.get("text")
            assert wire == "\n".join(shown) + "\n"


def test_every_page_with_python_has_examples_found() -> None:
    """The block finder sees the blocks a plain count of fences sees."""
    for page in PAGES:
        text = _text(page)
        fences = len(re.findall(r"^[ \t]*```+ *(?:python|py)\b", text, re.MULTILINE))
        assert len(python_blocks(text, page)) == fences, page


# --------------------------------------------------------------------------------------
# The mypy plugin's page
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", sorted(CHECKER_PAGES))
def test_checker_page_examples(page: str, tmp_path: Path) -> None:
    from mypy import api as mypy_api

    from eson._internal.schema.rules import CHECK_ORDER

    examples = checker_examples(_text(page), page, CHECKER_PAGES[page])
    assert examples, f"{page} has no Python examples"
    for example in examples:
        (tmp_path / f"{example.module}.py").write_text(example.source, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = eson.mypy\nstrict = True\n", encoding="utf-8"
    )
    stdout, stderr, _status = mypy_api.run(
        [
            "--config-file",
            str(tmp_path / "mypy.ini"),
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            *(str(tmp_path / f"{example.module}.py") for example in examples),
        ]
    )
    assert not stderr, stderr
    reported = reported_errors(stdout)
    for example in examples:
        block = example.block
        shown, runtime_code = shown_errors(block)
        got = reported.get(example.module, [])
        assert [code for _, code in got] == [code for _, code in shown], (
            f"{block.where}: mypy reports {got}, the page shows {shown}\n{stdout}"
        )
        for (message, _), (want, _) in zip(got, shown, strict=True):
            if want != "...":
                assert message == want, f"{block.where}: mypy says {message!r}, page {want!r}"
        codes = [code for _, code in shown]
        expected = runtime_code or min(codes, key=CHECK_ORDER.index, default=None)
        _check_runtime(example.source, block, expected)


def _check_runtime(source: str, block: Block, code: str | None) -> None:
    page_text = "```python\n" + source + "```\n"
    if code is None:
        run_page(page_text, block.page)
        return
    with pytest.raises(ExampleError) as caught:
        run_page(page_text, block.page)
    cause = caught.value.__cause__
    assert isinstance(cause, TypeError), f"{block.where}: {caught.value}"
    assert str(cause).endswith(f"[{code}]"), f"{block.where}: {cause}"


# --------------------------------------------------------------------------------------
# The runner itself: each convention can fail
# --------------------------------------------------------------------------------------


def _page(*blocks: str) -> str:
    return "\n".join(f"Text.\n\n```python\n{block}\n```\n" for block in blocks)


def test_runner_checks_printed_output() -> None:
    run_page(_page('print("a")\n#> a', 'for x in "bc":\n    print(x)\n#> b\n#> c'), "t.md")
    with pytest.raises(ExampleError, match="printed"):
        run_page(_page('print("a")\n#> b'), "t.md")
    with pytest.raises(ExampleError, match="printed"):
        run_page(_page('print("a")\nprint("b")\n#> a\n#> b'), "t.md")
    with pytest.raises(ExampleError, match="prints nothing"):
        run_page(_page("x = 1\n#> 1"), "t.md")
    with pytest.raises(ExampleError, match="directly follow"):
        run_page(_page('if True:\n    print("a")\n    #> a\n    x = 1'), "t.md")


def test_runner_runs_each_content_tab_as_its_own_session() -> None:
    text = (
        '```python\nx = "shared"\n```\n\n=== "A"\n\n    ```python\n    y = "a"\n    ```\n\n'
        '=== "B"\n\n    ```python\n    y = "b"\n    ```\n\nAfter the tabs.\n\n'
        "```python\nprint(x, y)\n#> shared a\n```\n"
    )
    assert tab_labels(text, "t.md") == ["A", "B"]
    assert [b.tab for b in python_blocks(text, "t.md")] == [None, "A", "B", None]
    assert run_page(text, "t.md", tab="A").namespace["y"] == "a"
    with pytest.raises(ExampleError, match="printed"):
        run_page(text, "t.md", tab="B")  # the shown output only holds for tab A


def test_runner_reports_output_not_shown() -> None:
    assert run_page(_page('print("hidden")'), "t.md").unshown == ["hidden\n"]


def test_runner_shares_one_namespace_per_page() -> None:
    run_page(_page("x = 41", "print(x + 1)\n#> 42"), "t.md")
    with pytest.raises(ExampleError, match="NameError"):
        run_page(_page("print(x)\n#> 42"), "other.md")


def test_runner_checks_shown_values_and_legacy_comments() -> None:
    run_page(_page('{"a": [1,\n  2]}\n# {"a": [1,\n#   2]}', 'print("x")\n# x'), "t.md")
    with pytest.raises(ExampleError, match="evaluates to"):
        run_page(_page("1 + 1\n# 3"), "t.md")
    with pytest.raises(ExampleError, match="printed"):
        run_page(_page('print("x")\n# y'), "t.md")


def test_runner_fails_on_errors_and_bad_python() -> None:
    with pytest.raises(ExampleError, match=r"t\.md:5: ZeroDivisionError"):
        run_page(_page("x = 1\n1 / 0"), "t.md")
    with pytest.raises(ExampleError, match="not valid Python"):
        run_page(_page("def broken(:"), "t.md")


def test_runner_runs_doctests() -> None:
    run_page(_page(">>> 1 + 1\n2"), "t.md")
    run_page(_page(">>> int('x')\nTraceback (most recent call last):\nValueError: ..."), "t.md")
    with pytest.raises(ExampleError, match="doctest failed"):
        run_page(_page(">>> 1 + 1\n3"), "t.md")


def test_runner_checks_signature_listings() -> None:
    assert is_signature_listing("json.dumps(obj, *, skipkeys=False) -> str")
    assert not is_signature_listing("json.dumps(obj, *, skipkeys=False) -> str\nx = (")
    with pytest.raises(ExampleError, match="signature is"):
        # json.dumps has more keyword-only parameters than listed
        run_page(_page("import json", "json.dumps(obj, *, skipkeys=False) -> str"), "t.md")
    run_page(_page("import textwrap", "textwrap.dedent(text) -> str"), "t.md")
    with pytest.raises(ExampleError, match="signature is"):
        run_page(_page("import textwrap", "textwrap.dedent(text, *, margin=0) -> str"), "t.md")
    with pytest.raises(ExampleError, match="default"):
        run_page(
            _page("import textwrap", "textwrap.indent(text, prefix, predicate=1) -> str"), "t.md"
        )
    with pytest.raises(ExampleError, match="does not exist"):
        run_page(_page("import textwrap", "textwrap.nothing(text) -> str"), "t.md")


def test_runner_checks_shell_sessions(tmp_path: Path) -> None:
    def session(text: str) -> None:
        for block in console_blocks(f"```console\n{text}\n```\n", "t.md"):
            run_console(block, tmp_path)

    session("$ echo one; echo two\none\ntwo\n$ printf 'x' > f; cat f\nx")
    session("$ printf 'a\\nb\\nc\\nd\\n'\na\n...\nd")
    session("$ eson --help | head -1\nusage: eson [-h] COMMAND ...")
    with pytest.raises(ExampleError, match="but the page shows"):
        session("$ echo one\ntwo")
    with pytest.raises(ExampleError, match="exited with 3"):
        session("$ exit 3")
    with pytest.raises(ExampleError, match="output before"):
        session("stray\n$ true")


def test_checker_comments_are_read() -> None:
    block = python_blocks(
        _page(
            "class A:\n    x: int\n    # error: Bad thing, wrapped\n"
            "    # over two lines  [eson-wire-name]\n"
            "    y: int  # error: ...  [eson-reserved-n]\n\n"
            "# at run time: TypeError: ... [eson-wire-name]"
        ),
        "t.md",
    )[0]
    assert shown_errors(block) == (
        [("Bad thing, wrapped over two lines", "eson-wire-name"), ("...", "eson-reserved-n")],
        "eson-wire-name",
    )
