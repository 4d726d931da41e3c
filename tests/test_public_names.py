"""The top-level names of ``eson``: one table behind lazy loading, ``dir()`` and ``__all__``."""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import eson

SOURCE = Path(eson.__file__).read_text(encoding="utf-8")


def _type_checking_names() -> set[str]:
    """The names the ``if TYPE_CHECKING:`` block imports or declares for static tools."""
    tree = ast.parse(SOURCE)
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom):
                    names.update(alias.asname or alias.name for alias in statement.names)
                elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                    names.add(statement.target.id)
    return names


def test_every_public_name_resolves_and_is_listed_by_dir() -> None:
    listed = dir(eson)
    for name in eson.__all__:
        assert getattr(eson, name) is not None, name
        assert name in listed, name
    for module in ("agent", "columnar", "eval", "msgspec", "pydantic", "toon"):
        assert module in listed
        assert getattr(eson, module).__name__ == f"eson.{module}"


def test_all_is_the_eager_imports_and_the_lazy_table() -> None:
    lazy = set(eson._LAZY)  # type: ignore[attr-defined]
    static = _type_checking_names()
    assert lazy | {"__version__"} <= static
    assert static - lazy - {"__version__"} == {"columnar", "eval", "toon"}  # submodules, for checkers
    done = subprocess.run(
        [sys.executable, "-c", "import eson; print(' '.join(n for n in vars(eson) if not n.startswith('_')))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    eager = set(done.stdout.split()) - {"annotations", "TYPE_CHECKING", "Any",
                                        "errors"}
    assert set(eson.__all__) == eager | lazy | {"__version__"}
    assert eson.__all__ == sorted(eson.__all__)


def test_lazy_names_are_not_loaded_by_import() -> None:
    code = (
        "import sys, eson\n"
        "loaded = [n for n in ('eson.agent', 'eson.pydantic', 'pydantic', 'importlib.metadata') if n in sys.modules]\n"
        "assert not loaded, loaded\n"
        "eson.parse_reply\n"
        "assert 'eson.agent' in sys.modules and 'parse_reply' in vars(eson)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_the_version_is_the_installed_distribution_s() -> None:
    assert eson.__version__ == version("typed-eson")
    assert eson.__version__ not in SOURCE  # written once, in pyproject.toml


def test_every_format_name_list_agrees_with_the_registry() -> None:
    # One registry (eson.agent.formats): the payload formats are the wire
    # formats a reply may carry, by short name; the document formats are
    # ESON's names and TOON's; each tuple matches its Literal.
    import typing

    from eson.agent import formats

    names = {wire.name for wire in formats.WIRE_FORMATS.values()}
    assert set(formats.PAYLOAD_FORMATS) <= names
    assert typing.get_args(formats.PayloadFormat) == formats.PAYLOAD_FORMATS
    assert formats.FORMATS == typing.get_args(formats.Format) == tuple(formats.WIRE_FORMATS)
    assert {formats.normalize_format(name) for name in typing.get_args(formats.DocumentFormat)} == {
        "eson/1",
        "toon",
    }
