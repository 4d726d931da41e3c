"""The mypy plugin ``eson.mypy``, checked against fixture files, and its runtime twin.

The fixtures in ``tests/mypy_fixtures`` mark every expected diagnostic on its line::

    items: list[Finding | Note]  # E: Record array "items" must hold ...  [eson-record-array]
    reveal_type(x)  # N: Revealed type is "api_reveal.Review"

(``# P:`` marks an error only ``pydantic.mypy`` reports, expected in the run with both
plugins.)  mypy runs once per configuration over all its fixture files (through
``mypy.api``, without reading a cache) and its output must equal the marked
diagnostics exactly: same files, lines, messages and codes, nothing more.  Files
without markers must come out clean.

The same markers drive the runtime-parity tests: every class holding an ``eson-*``
marker is defined on its own at run time and must raise ``TypeError`` naming that
code, so the type-time and run-time enforcement cannot drift apart.  A class breaking
several rules holds one marker per broken field; the runtime raises the first of
those codes in rule order (``CHECK_ORDER``).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tokenize
import types
from dataclasses import dataclass
from pathlib import Path

import pytest
from mypy import api as mypy_api

FIXTURES = Path(__file__).resolve().parent / "mypy_fixtures"
CONFIG = FIXTURES / "mypy.ini"
CONFIG_WITH_PYDANTIC = FIXTURES / "mypy-pydantic.ini"

#: The fixture files each configuration checks.
PLAIN_FILES = (
    "pydantic_ok.py",
    "pydantic_bad.py",
    "msgspec_ok.py",
    "msgspec_bad.py",
    "cross_records.py",
    "cross_message.py",
    "api_reveal.py",
)
WITH_PYDANTIC_FILES = ("pydantic_ok.py", "pydantic_bad.py", "with_pydantic_plugin.py")

#: Rule codes and the fixture files that must hold a failing case of each.
RULE_CODES = (
    "eson-record-array",
    "eson-wire-name",
    "eson-reserved-n",
    "eson-duplicate-name",
    "eson-unsupported-type",
)
#: The order in which both sides check a class (eson._internal.schema.rules.CHECK_ORDER).
CHECK_ORDER = (
    "eson-duplicate-name",
    "eson-wire-name",
    "eson-record-array",
    "eson-unsupported-type",
    "eson-reserved-n",
)
BAD_FILES = ("pydantic_bad.py", "msgspec_bad.py")
OK_FILES = ("pydantic_ok.py", "msgspec_ok.py", "cross_records.py")
#: Files whose marked classes the runtime-parity tests define one by one.
PARITY_FILES = (*BAD_FILES, "cross_message.py")
#: The fixture classes that break several rules on purpose (one per broken field).
SEVERAL_RULES = {
    ("pydantic_bad.py", "TwoRules"),
    ("msgspec_bad.py", "TwoRules"),
}

_MARKER = re.compile(r"#\s*([ENP]):\s*")


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One line of mypy output: ``file:line: severity: message``."""

    file: str
    line: int
    severity: str
    message: str

    @property
    def code(self) -> str | None:
        found = re.search(r"  \[([a-z0-9-]+)\]$", self.message)
        return found.group(1) if found else None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.message}"


def expected_diagnostics(name: str, *, with_pydantic: bool = False) -> list[Diagnostic]:
    """The diagnostics marked in fixture *name*.

    ``# E:`` marks an error, ``# N:`` a note, and ``# P:`` an error that only the
    Pydantic plugin reports (expected when *with_pydantic* is true).
    """
    found: list[Diagnostic] = []
    with (FIXTURES / name).open(encoding="utf-8") as source:
        for token in tokenize.generate_tokens(source.readline):
            if token.type != tokenize.COMMENT:
                continue
            parts = _MARKER.split(token.string)
            # parts: [text before the first marker, kind, message, kind, message, ...]
            for kind, message in zip(parts[1::2], parts[2::2], strict=True):
                if kind == "P" and not with_pydantic:
                    continue
                severity = "note" if kind == "N" else "error"
                found.append(Diagnostic(name, token.start[0], severity, message.rstrip()))
    return found


def run_mypy(config: Path, names: tuple[str, ...], cache: Path) -> list[Diagnostic]:
    """Run mypy on fixture files; return the diagnostics that concern them."""
    stdout, stderr, _status = mypy_api.run(
        [
            "--config-file",
            str(config),
            "--no-incremental",
            "--cache-dir",
            str(cache),
            "--no-error-summary",
            "--no-pretty",
            "--no-color-output",
            "--show-error-codes",
            "--hide-error-context",
            *(str(FIXTURES / name) for name in names),
        ]
    )
    assert not stderr.strip(), stderr
    out: list[Diagnostic] = []
    pattern = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<sev>error|note): (?P<msg>.*)$")
    for raw in stdout.splitlines():
        match = pattern.match(raw)
        assert match is not None, f"unexpected mypy output: {raw!r}\n{stdout}"
        path = Path(match["file"]).resolve()
        # Errors outside the fixtures (the package itself) are not this test's business.
        if path.parent != FIXTURES:
            continue
        message = match["msg"] if match["sev"] == "error" else _modern_spelling(match["msg"])
        out.append(Diagnostic(path.name, int(match["line"]), match["sev"], message))
    return sorted(out)


def _modern_spelling(note: str) -> str:
    """Spell a revealed type as mypy 2 does, whatever mypy (>= 1.10) printed it.

    mypy 1.x writes ``builtins.str`` and ``Union[A, None]`` where mypy 2 writes
    ``str`` and ``A | None``; the fixtures use the newer spelling.
    """
    note = note.replace("builtins.", "")
    while (union := re.search(r"Union\[([^\[\]]*)\]", note)) is not None:
        members = " | ".join(part.strip() for part in union[1].split(","))
        note = note[: union.start()] + members + note[union.end() :]
    return note


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory: pytest.TempPathFactory) -> list[Diagnostic]:
    """mypy with ``plugins = eson.mypy`` over every plain fixture, run once."""
    return run_mypy(CONFIG, PLAIN_FILES, tmp_path_factory.mktemp("mypy-cache"))


@pytest.fixture(scope="module")
def pydantic_run(tmp_path_factory: pytest.TempPathFactory) -> list[Diagnostic]:
    """mypy with ``plugins = pydantic.mypy, eson.mypy`` (that order), run once."""
    pytest.importorskip("pydantic")
    return run_mypy(
        CONFIG_WITH_PYDANTIC, WITH_PYDANTIC_FILES, tmp_path_factory.mktemp("mypy-cache")
    )


def _diff(actual: list[Diagnostic], expected: list[Diagnostic]) -> str:
    missing = [str(d) for d in expected if d not in actual]
    extra = [str(d) for d in actual if d not in expected]
    return "\nmissing:\n  " + "\n  ".join(missing) + "\nunexpected:\n  " + "\n  ".join(extra)


# --------------------------------------------------------------------------------------
# mypy: exact diagnostics
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PLAIN_FILES)
def test_mypy_reports_exactly_the_marked_diagnostics(
    plain_run: list[Diagnostic], name: str
) -> None:
    actual = [d for d in plain_run if d.file == name]
    expected = sorted(expected_diagnostics(name))
    assert actual == expected, _diff(actual, expected)


@pytest.mark.parametrize("name", WITH_PYDANTIC_FILES)
def test_same_diagnostics_alongside_the_pydantic_plugin(
    pydantic_run: list[Diagnostic], name: str
) -> None:
    actual = [d for d in pydantic_run if d.file == name]
    expected = sorted(expected_diagnostics(name, with_pydantic=True))
    assert actual == expected, _diff(actual, expected)


@pytest.mark.parametrize("name", OK_FILES)
def test_correct_fixtures_are_clean(plain_run: list[Diagnostic], name: str) -> None:
    assert expected_diagnostics(name) == []
    assert [str(d) for d in plain_run if d.file == name] == []


@pytest.mark.parametrize("name", BAD_FILES)
@pytest.mark.parametrize("code", RULE_CODES)
def test_every_rule_has_a_failing_case(name: str, code: str) -> None:
    codes = {d.code for d in expected_diagnostics(name)}
    assert code in codes


@pytest.mark.parametrize("name", ("pydantic_ok.py", "msgspec_ok.py"))
@pytest.mark.parametrize("code", RULE_CODES)
def test_every_rule_has_a_passing_section(name: str, code: str) -> None:
    """The correct fixtures hold a section of passing cases per rule (``# Rule N (code)``)."""
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert re.search(rf"^# Rule \d \({re.escape(code)}\)", text, re.MULTILINE)


@pytest.mark.parametrize("name", PARITY_FILES)
def test_one_marked_error_per_incorrect_class(name: str) -> None:
    """One broken rule per class, but for the few that pin the rule order."""
    for case in bad_classes(name):
        if (name, case.name) in SEVERAL_RULES:
            assert len(set(case.codes)) >= 2, f"{name}:{case.line} {case.name}: {case.codes}"
            assert case.codes[0] != first_in_rule_order(case.codes), "line order = rule order"
        else:
            assert len(case.codes) == 1, f"{name}:{case.line} {case.name}: {case.codes}"


def test_several_rules_cases_exist() -> None:
    found = {(name, case.name) for name in PARITY_FILES for case in bad_classes(name)}
    assert found >= SEVERAL_RULES


def test_at_most_one_marked_error_per_line() -> None:
    """The plugin reports a field once, for the first rule it breaks in rule order."""
    for name in PARITY_FILES:
        lines = [d.line for d in expected_diagnostics(name) if d.severity == "error"]
        assert len(lines) == len(set(lines)), name


def test_rule_order_is_the_same_on_both_sides() -> None:
    from eson import mypy as plugin_module
    from eson._internal.schema import rules

    assert rules.CHECK_ORDER == plugin_module.CHECK_ORDER == CHECK_ORDER
    assert set(CHECK_ORDER) == set(RULE_CODES)


def test_reveal_types_are_checked(plain_run: list[Diagnostic]) -> None:
    notes = [d for d in plain_run if d.file == "api_reveal.py" and d.severity == "note"]
    assert len(notes) == len(expected_diagnostics("api_reveal.py")) >= 6


def test_pyright_infers_the_same_api_types() -> None:
    """Checkers without plugins see the same types: Pyright, when it is installed."""
    pyright = shutil.which("pyright")
    if pyright is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install pyright (see .ci/run: npm install ... pyright)")
        pytest.skip("pyright is not installed (npm install pyright, or pip install pyright)")
    files = ["api_reveal.py", *OK_FILES]
    result = subprocess.run(
        [pyright, "--outputjson", "--pythonpath", sys.executable, *files],
        capture_output=True,
        text=True,
        check=False,
        cwd=FIXTURES,
    )
    report = json.loads(result.stdout)
    problems = [d for d in report["generalDiagnostics"] if d["severity"] != "information"]
    assert problems == []
    seen = {
        d["range"]["start"]["line"] + 1: re.sub(r'^Type of ".*" is "(.*)"$', r"\1", d["message"])
        for d in report["generalDiagnostics"]
        if d["file"].endswith("api_reveal.py")
    }
    # mypy spells types with their module ("api_reveal.Review"), pyright without.
    expected = {
        d.line: re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", d.message[len('Revealed type is "') : -1])
        for d in expected_diagnostics("api_reveal.py")
    }
    assert seen == expected


# --------------------------------------------------------------------------------------
# The plugin module itself
# --------------------------------------------------------------------------------------


def test_plugin_entry_point_and_codes() -> None:
    from eson import mypy as plugin_module

    assert plugin_module.plugin("2.0").__name__ == "ESONPlugin"
    assert tuple(code.code for code in plugin_module.ERROR_CODES) == RULE_CODES


def test_plugin_loads_without_pydantic_or_the_runtime() -> None:
    """mypy imports the plugin early: it must not need Pydantic nor load eson's models."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["pydantic"] = None  # any import of pydantic now fails
        import eson
        before = set(sys.modules)
        import eson.mypy
        added = sorted(
            name for name in set(sys.modules) - before
            if name.split(".")[0] in {"eson", "msgspec", "pydantic_core"} and name != "eson.mypy"
        )
        models = sorted(
            name for name, module in sys.modules.items()
            if module is not None and name in {"eson.pydantic", "eson.msgspec"}
        )
        print(added, models)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    # The rule table (the codes and texts the plugin shares with the runtime) is all
    # it loads: ``import eson`` leaves eson._internal.schema unloaded (tests/test_startup.py).
    assert result.stdout.strip() == "['eson._internal.schema', 'eson._internal.schema.rule_table'] []"


@pytest.mark.parametrize(
    ("name", "mode", "wire"),
    [
        ("foo_bar", "camel", "fooBar"),
        ("_private_x", "camel", "_privateX"),
        ("trailing_", "pascal", "Trailing"),
        ("a__b", "kebab", "a--b"),
        ("__x__y__", "kebab", "x--y"),
        ("MiXed_Case", "lower", "mixed_case"),
        ("snake_case", "upper", "SNAKE_CASE"),
    ],
)
def test_rename_modes(name: str, mode: str, wire: str) -> None:
    from eson.mypy import rename_field

    assert rename_field(name, mode) == wire


def test_rename_modes_match_msgspec() -> None:
    """The plugin's copy of msgspec's renaming agrees with msgspec itself."""
    msgspec = pytest.importorskip("msgspec")
    from eson.mypy import rename_field

    names = [
        "x",
        "A",
        "foo_bar",
        "foo_bAR",
        "fooBar",
        "a_1b",
        "_lead",
        "_two__parts",
        "trail_",
        "a__b__c",
        "x_y_1",
        "_1a",
        "é_b",
        "Xy_z",
    ]
    for mode in ("lower", "upper", "camel", "pascal", "kebab"):
        for name in names:
            struct = msgspec.defstruct("S", [(name, int)], rename=mode)
            (field,) = msgspec.structs.fields(struct)
            assert rename_field(name, mode) == field.encode_name, (name, mode)


# --------------------------------------------------------------------------------------
# Runtime parity: the class-definition check raises the same code for each marked class
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadClass:
    """A top-level class of a fixture file holding at least one ``# E:`` marker."""

    file: str
    name: str
    line: int
    codes: tuple[str, ...]


def bad_classes(name: str) -> list[BadClass]:
    """The marked classes of fixture *name*, with the codes marked inside them."""
    tree = ast.parse((FIXTURES / name).read_text(encoding="utf-8"))
    marks = [d for d in expected_diagnostics(name) if d.severity == "error"]
    found: list[BadClass] = []
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        end = node.end_lineno or node.lineno
        codes = tuple(
            d.code
            for d in marks
            if node.lineno <= d.line <= end and d.code is not None and d.code.startswith("eson-")
        )
        if codes:
            found.append(BadClass(name, node.name, node.lineno, codes))
    return found


def first_in_rule_order(codes: tuple[str, ...]) -> str:
    """The code the runtime raises for a class whose fields break *codes*."""
    return min(codes, key=CHECK_ORDER.index)


def _module_up_to(file: str, name: str, *, skip: set[str]) -> types.ModuleType:
    """Execute fixture *file* up to class *name*, leaving out the classes in *skip*."""
    tree = ast.parse((FIXTURES / file).read_text(encoding="utf-8"))
    body: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in skip and node.name != name:
            continue
        body.append(node)
        if isinstance(node, ast.ClassDef) and node.name == name:
            break
    module = types.ModuleType(f"_eson_parity_{Path(file).stem}_{name}")
    module.__file__ = str(FIXTURES / file)
    sys.modules[module.__name__] = module
    try:
        code = compile(ast.Module(body=body, type_ignores=[]), module.__file__, "exec")
        exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return module


def _runtime_ready() -> bool:
    return all(
        importlib.util.find_spec(module) is not None
        for module in ("eson.pydantic", "eson.msgspec", "eson._internal.schema.rules")
    )


def _case_id(file: str, name: str) -> str:
    return f"{file}:{name}"


def _param(file: str, name: str, *values: object) -> object:
    return pytest.param(*values, id=_case_id(file, name))


def _bad_params() -> list[object]:
    return [
        _param(case.file, case.name, case) for name in PARITY_FILES for case in bad_classes(name)
    ]


def _ok_params() -> list[object]:
    params: list[object] = []
    for file in OK_FILES:
        tree = ast.parse((FIXTURES / file).read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                params.append(_param(file, node.name, file, node.name))
    return params


@pytest.mark.skipif(not _runtime_ready(), reason="runtime models not built yet")
@pytest.mark.parametrize("case", _bad_params())
def test_runtime_rejects_each_incorrect_class(
    case: BadClass, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defined alone (after the file's helpers), each marked class raises the marked code.

    For a class breaking several rules, the first of them in rule order.
    """
    pytest.importorskip("pydantic")
    monkeypatch.syspath_prepend(str(FIXTURES))  # cross_message imports cross_records
    skip = {c.name for c in bad_classes(case.file)}
    with pytest.raises(TypeError) as raised:
        _module_up_to(case.file, case.name, skip=skip)
    message = str(raised.value)
    assert message.endswith(f"[{first_in_rule_order(case.codes)}]"), message
    assert message.startswith(f"{case.name}"), message


@pytest.mark.parametrize("case", _bad_params())
def test_runtime_and_plugin_word_each_rule_the_same(
    case: BadClass, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One rule table (eson._internal.schema.rule_table) words both: the same sentence, both sides.

    The runtime's message, without its ``Owner.attr:`` prefix and code, is the
    plugin's diagnostic for that rule in that class (the plugin capitalizes it).
    """
    monkeypatch.syspath_prepend(str(FIXTURES))
    skip = {c.name for c in bad_classes(case.file)}
    with pytest.raises(TypeError) as raised:
        _module_up_to(case.file, case.name, skip=skip)
    code = first_in_rule_order(case.codes)
    found = re.fullmatch(r"[^:]+: (.*) \[(eson-[a-z-]+)\]", str(raised.value))
    assert found is not None and found.group(2) == code, str(raised.value)
    runtime = found.group(1)
    tree = ast.parse((FIXTURES / case.file).read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == case.name)
    plugin = [
        d.message.rsplit("  [", 1)[0]
        for d in expected_diagnostics(case.file)
        if d.code == code and node.lineno <= d.line <= (node.end_lineno or node.lineno)
    ]
    assert runtime[:1].upper() + runtime[1:] in plugin


@pytest.mark.skipif(not _runtime_ready(), reason="runtime models not built yet")
@pytest.mark.parametrize(("file", "name"), _ok_params())
def test_runtime_accepts_each_correct_class(file: str, name: str) -> None:
    """Every class of the correct fixtures defines without error at run time."""
    pytest.importorskip("pydantic")
    module = _module_up_to(file, name, skip=set())
    assert isinstance(getattr(module, name), type)
