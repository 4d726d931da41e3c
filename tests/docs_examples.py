"""The runner behind tests/test_docs_examples.py: fenced Python blocks, executed and checked.

The conventions it enforces are described in that test module's docstring; this
module holds the mechanics: finding the blocks of a Markdown page, running them
statement by statement with their output captured, and comparing what they
print (or evaluate to) with what the page shows.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import inspect
import io
import os
import re
import subprocess
import sys
import textwrap
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n`]*)$")
_TAB = re.compile(r'^(?P<indent>[ \t]*)===\+? "(?P<label>[^"]+)"')
_ERROR_CODE = re.compile(r"\[(eson-[a-z-]+)\]")


class ExampleError(AssertionError):
    """An example that does not run, or does not print what its page shows."""


@dataclass(frozen=True)
class Block:
    """One fenced code block: its language, its text (dedented) and where it starts."""

    page: str
    language: str
    code: str
    line: int  # 1-based line of the block's first code line in the page
    tab: str | None = None  # the label of the content tab holding the block

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    def where_of(self, statement: ast.stmt) -> str:
        """``page:line`` of a statement parsed from this block."""
        return f"{self.page}:{self.line + statement.lineno - 1}"


def blocks(text: str, page: str) -> list[Block]:
    """Every fenced code block of a Markdown page, nested (indented) ones included."""
    found: list[Block] = []
    lines = text.split("\n")
    index = 0
    tab: tuple[str, int] | None = None  # (label, indentation) of the open content tab
    while index < len(lines):
        tab_match = _TAB.match(lines[index])
        if tab_match is not None:
            tab = (tab_match.group("label"), len(tab_match.group("indent")))
            index += 1
            continue
        line = lines[index]
        if tab is not None and line.strip() and len(line) - len(line.lstrip()) <= tab[1]:
            tab = None
        match = _FENCE.match(line)
        if match is None:
            index += 1
            continue
        indent, fence = match.group("indent"), match.group("fence")
        info = match.group("info").strip()
        language = info.split()[0].lower() if info else ""
        language = language.lstrip("{.").rstrip("}")
        body: list[str] = []
        end = index + 1
        while end < len(lines):
            stripped = lines[end].strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) == {fence[0]}:
                break
            line = lines[end]
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
            end += 1
        else:
            raise ExampleError(f"{page}:{index + 1}: unclosed code fence")
        label = tab[0] if tab is not None and len(indent) > tab[1] else None
        found.append(Block(page, language, "\n".join(body) + "\n", index + 2, label))
        index = end + 1
    return found


def python_blocks(text: str, page: str, *, tab: str | None = None) -> list[Block]:
    """The page's Python examples, in page order.

    With ``tab``, the blocks a reader who picked that content tab runs: those
    outside any tab and those inside tabs of that label.  Without it, all.
    """
    return [
        block
        for block in blocks(text, page)
        if block.language in ("python", "py", "pycon")
        and (tab is None or block.tab is None or block.tab == tab)
    ]


def tab_labels(text: str, page: str) -> list[str]:
    """The labels of the content tabs holding Python examples, in page order."""
    return list(dict.fromkeys(b.tab for b in python_blocks(text, page) if b.tab is not None))


# --------------------------------------------------------------------------------------
# Expected output: comments after a statement
# --------------------------------------------------------------------------------------


def _comment_run(lines: list[str], start: int) -> tuple[list[str], list[str]]:
    """The ``#>`` lines and the plain ``#`` lines directly after line ``start`` (0-based)."""
    shown: list[str] = []
    plain: list[str] = []
    for line in lines[start:]:
        stripped = line.strip()
        if stripped.startswith("#>"):
            if plain:
                break
            shown.append(stripped[3:] if stripped.startswith("#> ") else stripped[2:])
        elif stripped.startswith("#") and not shown:
            plain.append(stripped[2:] if stripped.startswith("# ") else stripped[1:])
        else:
            break
    return shown, plain


def _same_text(printed: str, shown: list[str]) -> bool:
    got = [line.rstrip() for line in printed.rstrip("\n").split("\n")]
    want = [line.rstrip() for line in shown]
    return got == want


def _shows_value(value: object, shown: list[str]) -> bool:
    text = " ".join(line.strip() for line in shown)
    try:
        return bool(ast.literal_eval(text) == value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text == repr(value)


# --------------------------------------------------------------------------------------
# Running a page
# --------------------------------------------------------------------------------------


class Page:
    """One page's examples, run in order in one module namespace (a page is a session)."""

    def __init__(self, name: str, *, prelude: str = "") -> None:
        self.name = name
        self.module = types.ModuleType("docs_example_" + re.sub(r"\W", "_", name))
        self.unshown: list[str] = []  # output printed with nothing shown on the page
        self._prelude = prelude

    @property
    def namespace(self) -> dict[str, Any]:
        return self.module.__dict__

    @contextlib.contextmanager
    def _registered(self) -> Iterator[None]:
        # Dataclasses and forward references look the module up in sys.modules.
        sys.modules[self.module.__name__] = self.module
        try:
            yield
        finally:
            sys.modules.pop(self.module.__name__, None)

    def run(self, block: Block) -> None:
        with self._registered():
            if self._prelude:
                exec(compile(self._prelude, f"<prelude of {self.name}>", "exec"), self.namespace)
                self._prelude = ""
            if block.code.lstrip().startswith(">>>"):
                self._run_doctest(block)
                return
            try:
                tree = ast.parse(block.code, filename=block.page)
            except SyntaxError as error:
                if not is_signature_listing(block.code):
                    raise ExampleError(f"{block.where}: not valid Python: {error}") from None
                check_signatures(block, self.namespace)
                return
            self._run_statements(block, tree)

    def _run_statements(self, block: Block, tree: ast.Module) -> None:
        lines = block.code.split("\n")
        consumed: set[int] = set()  # 0-based lines of output comments checked
        for statement in tree.body:
            end = statement.end_lineno or statement.lineno
            shown, plain = _comment_run(lines, end)
            value, printed = self._execute(block, statement)
            if shown:
                consumed.update(range(end, end + len(shown)))
            if printed:
                if shown or plain:
                    expected = shown or plain
                    if not _same_text(printed, expected):
                        raise ExampleError(
                            f"{block.where_of(statement)}: printed\n{printed}\n"
                            f"but the page shows\n" + "\n".join(expected)
                        )
                else:
                    self.unshown.append(printed)
            elif shown or (plain and value is not None):
                if isinstance(statement, ast.Expr) and value is not None:
                    if not _shows_value(value, shown or plain):
                        raise ExampleError(
                            f"{block.where_of(statement)}: evaluates to {value!r}, "
                            f"but the page shows " + " ".join(shown or plain)
                        )
                elif shown:
                    raise ExampleError(
                        f"{block.where_of(statement)}: the page shows output, "
                        "but the statement prints nothing"
                    )
        for number, line in enumerate(lines):
            if line.strip().startswith("#>") and number not in consumed:
                raise ExampleError(
                    f"{block.page}:{block.line + number}: an output comment (#>) must "
                    "directly follow the top-level statement that prints it"
                )

    def _execute(self, block: Block, statement: ast.stmt) -> tuple[object, str]:
        ast.increment_lineno(statement, block.line - 1)
        is_expression = isinstance(statement, ast.Expr)
        if is_expression:
            code = compile(ast.Expression(statement.value), block.page, "eval")  # type: ignore[attr-defined]
        else:
            code = compile(ast.Module([statement], type_ignores=[]), block.page, "exec")
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                value = eval(code, self.namespace) if is_expression else exec(code, self.namespace)
        except Exception as error:
            raise ExampleError(
                f"{block.page}:{statement.lineno}: {type(error).__name__}: {error}"
            ) from error
        finally:
            ast.increment_lineno(statement, 1 - block.line)
        return value, out.getvalue()

    def _run_doctest(self, block: Block) -> None:
        parser = doctest.DocTestParser()
        test = parser.get_doctest(
            block.code, self.namespace, block.where, block.page, block.line - 1
        )
        out = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        runner.run(test, out=out.write, clear_globs=False)
        if runner.failures:
            raise ExampleError(f"{block.where}: doctest failed\n{out.getvalue()}")


# --------------------------------------------------------------------------------------
# Shell sessions: ``console`` blocks
# --------------------------------------------------------------------------------------


def console_blocks(text: str, page: str) -> list[Block]:
    """The page's shell sessions (``console`` blocks), in page order."""
    return [block for block in blocks(text, page) if block.language in ("console", "shell-session")]


def _matches(got: list[str], want: list[str]) -> bool:
    """Line-wise equality where a shown line ``...`` stands for any lines (or none)."""
    if not want:
        return not got
    if want[0] == "...":
        return any(_matches(got[start:], want[1:]) for start in range(len(got) + 1))
    return bool(got) and got[0] == want[0] and _matches(got[1:], want[1:])


def run_console(block: Block, cwd: Path) -> None:
    """Run each ``$ command`` of a shell session; its output must be the lines shown.

    Commands run with ``bash`` in ``cwd`` (one directory per page, so files
    made by one command are there for the next), with this interpreter's
    scripts directory first on ``PATH`` (so ``eson`` is the package under
    test). Standard output and error are compared together; a command must
    exit with status 0 (show a failure with ``...; echo "exit status $?"``).
    """
    commands: list[tuple[int, str, list[str]]] = []
    for number, line in enumerate(block.code.rstrip("\n").split("\n")):
        if line.startswith("$ "):
            commands.append((block.line + number, line[2:], []))
        elif commands:
            commands[-1][2].append(line.rstrip())
        elif line.strip():
            raise ExampleError(f"{block.page}:{block.line + number}: output before any $ command")
    if not commands:
        raise ExampleError(f"{block.where}: a console block holds $ commands")
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    env.pop("COLUMNS", None)
    for line, command, shown in commands:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            timeout=120,
            check=False,
        )
        output = done.stdout.decode("utf-8", "replace")
        got = [text.rstrip() for text in output.rstrip("\n").split("\n")] if output else []
        want = shown[:]
        while want and not want[-1]:
            want.pop()
        if done.returncode != 0:
            raise ExampleError(
                f"{block.page}:{line}: `{command}` exited with {done.returncode}:\n{output}"
            )
        if not _matches(got, want):
            raise ExampleError(
                f"{block.page}:{line}: `{command}` printed\n{output}\nbut the page shows\n"
                + "\n".join(shown)
            )


def run_page(text: str, name: str, *, prelude: str = "", tab: str | None = None) -> Page:
    """Run a page's Python blocks in order; return the page (its unshown output).

    A page with content tabs is a different session for each tab: run it once
    per label of :func:`tab_labels` (running all its blocks at once would let
    the last tab's definitions shadow the others').
    """
    page = Page(name if tab is None else f"{name}[{tab}]", prelude=prelude)
    for block in python_blocks(text, name, tab=tab):
        page.run(block)
    return page


# --------------------------------------------------------------------------------------
# Signature listings: ``toon.encode(value, *, delimiter=",") -> str``
# --------------------------------------------------------------------------------------

_SIGNATURE_LINE = re.compile(r"^[A-Za-z_][\w.]*\(.*\)(?:\.[A-Za-z_]\w*\(.*\))*(?:\s*->\s*.+)?$")


def _strip_comment(line: str) -> str:
    return line.split("  #", 1)[0].strip()


def is_signature_listing(code: str) -> bool:
    """Whether a block that is not Python is an API listing, one call signature a line."""
    lines = [_strip_comment(line) for line in code.split("\n") if line.strip()]
    return bool(lines) and all(_SIGNATURE_LINE.match(line) for line in lines)


def _calls(line: str) -> list[tuple[str, str]]:
    """``a.b(x).c(y) -> r`` as ``[("a.b", "x"), ("c", "y")]``."""
    line = re.sub(r"\s*->\s*.+$", "", line)
    calls: list[tuple[str, str]] = []
    position = 0
    while position < len(line):
        name_match = re.compile(r"\.?([A-Za-z_][\w.]*)\(").match(line, position)
        if name_match is None:
            raise ExampleError(f"cannot read the signature listing {line!r}")
        depth, end = 0, name_match.end() - 1
        for end in range(name_match.end() - 1, len(line)):
            depth += {"(": 1, ")": -1}.get(line[end], 0)
            if depth == 0:
                break
        calls.append((name_match.group(1), line[name_match.end() : end]))
        position = end + 1
    return calls


def check_signatures(block: Block, namespace: dict[str, Any]) -> None:
    """Each listed call names a real callable with those parameters, kinds and defaults."""
    for offset, raw in enumerate(block.code.split("\n")):
        line = _strip_comment(raw)
        if not line:
            continue
        where = f"{block.page}:{block.line + offset}"
        target: Any = None
        for index, (name, params) in enumerate(_calls(line)):
            try:
                if index == 0:
                    head, *rest = name.split(".")
                    target = namespace[head]
                    for part in rest:
                        target = getattr(target, part)
                else:
                    target = getattr(target, name)
            except (KeyError, AttributeError):
                raise ExampleError(f"{where}: {name} does not exist") from None
            _check_parameters(where, name, target, params)
            if index == 0 and inspect.isclass(target):
                continue  # the next call is a method of this class
            target = None


def _check_parameters(where: str, name: str, target: Any, params: str) -> None:
    try:
        listed = ast.parse(f"def _({params}): pass").body[0].args  # type: ignore[attr-defined]
    except SyntaxError:
        raise ExampleError(f"{where}: cannot read the parameters of {name}({params})") from None
    actual = inspect.signature(target)
    real = [p for p in actual.parameters.values() if p.name not in ("self", "cls")]
    positional = [a.arg for a in listed.posonlyargs + listed.args]
    keyword = [a.arg for a in listed.kwonlyargs]
    defaults = dict(
        zip(positional[len(positional) - len(listed.defaults) :], listed.defaults, strict=True)
    )
    defaults.update(
        {a.arg: d for a, d in zip(listed.kwonlyargs, listed.kw_defaults, strict=True) if d}
    )
    real_positional = [
        p.name for p in real if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    real_keyword = [p.name for p in real if p.kind is p.KEYWORD_ONLY]
    if positional != real_positional or keyword != real_keyword:
        raise ExampleError(
            f"{where}: the page lists {name}({params}), but the signature is {name}{actual}"
        )
    for param, node in defaults.items():
        default = actual.parameters[param].default
        if default is inspect.Parameter.empty or ast.literal_eval(node) != default:
            raise ExampleError(
                f"{where}: {name}: the page gives {param} the default "
                f"{ast.unparse(node)}, the signature {default!r}"
            )


# --------------------------------------------------------------------------------------
# Type-checker examples: blocks whose comments name the errors mypy reports
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckerExample:
    """A block of a page about the mypy plugin, as a module for mypy and for the runtime."""

    block: Block
    module: str
    source: str
    first_line: int  # line of the block's first code line in ``source``


def checker_examples(text: str, page: str, prelude: str) -> list[CheckerExample]:
    """The page's Python blocks, each after the prelude, as modules ``example_<index>``.

    A block that defines a name the prelude defines (its own ``Finding``, say)
    gets the prelude without that definition.
    """
    examples = []
    for index, block in enumerate(python_blocks(text, page)):
        head = _prelude_for(textwrap.dedent(prelude), block.code)
        examples.append(
            CheckerExample(block, f"example_{index}", head + block.code, head.count("\n") + 1)
        )
    return examples


def _defined(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _prelude_for(prelude: str, code: str) -> str:
    own = _defined(ast.parse(code))
    tree = ast.parse(prelude)
    tree.body = [node for node in tree.body if not (_defined(ast.Module([node], [])) & own)]
    return ast.unparse(tree) + "\n\n\n"


def reported_errors(mypy_output: str) -> dict[str, list[tuple[str, str]]]:
    """mypy's errors per module, ``(message, code)`` in output order."""
    found: dict[str, list[tuple[str, str]]] = {}
    for line in mypy_output.splitlines():
        match = re.match(r"^(?:.*[/\\])?(\w+)\.py:\d+: error: (.*?)\s+\[([\w-]+)\]$", line)
        if match:
            module, message, code = match.groups()
            found.setdefault(module, []).append((" ".join(message.split()), code))
    return found


def shown_errors(block: Block) -> tuple[list[tuple[str, str]], str | None]:
    """What a block's comments say the checker and the runtime report.

    Returns the ``(message, code)`` of every ``# error: <message>  [code]``
    comment (its message continued on the comment lines that follow), and the
    code of an ``# at run time: TypeError: ... [code]`` comment, if any.  A
    message written as ``...`` is shortened on the page: only its code counts.
    """
    errors: list[tuple[str, str]] = []
    runtime: str | None = None
    current: list[str] | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            text = " ".join(" ".join(current).split())
            code = _ERROR_CODE.search(text)
            if code is None:
                raise ExampleError(f"{block.where}: error comment without a code: {text}")
            errors.append((text[: code.start()].strip(), code.group(1)))
        current = None

    for line in block.code.split("\n"):
        comment = line.split("#", 1)[1].strip() if "#" in line else None
        if comment is None:
            close()
            continue
        opened = re.match(r"^error(?: \([^)]*\))?: (.*)$", comment)
        if opened:
            close()
            current = [opened.group(1)]
        elif comment.startswith("at run time:"):
            close()
            code = _ERROR_CODE.search(comment)
            runtime = code.group(1) if code else None
        elif current is not None:
            current.append(comment)
    close()
    return errors, runtime
