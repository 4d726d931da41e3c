"""What ``import eson`` and the ``eson`` command load: counted in fresh interpreters, never timed.

``import eson`` stays light (issue 19): the typed machinery (``eson._internal.schema``,
the typed codecs, msgspec), Pydantic, the agent layer, :mod:`dataclasses`
(and :mod:`inspect` with it) and :mod:`json` load on first use, and no
regular expression is compiled until one is used.  Each test runs a new
interpreter and lists the modules that the step imported (``sys.modules``
after, less before), so a module the interpreter or a ``.pth`` file loaded
at start-up is never blamed on eson.  An eager import put back anywhere on
the path fails these tests.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Modules ``import eson`` must not load, on any supported Python (3.10-3.13).
NOT_ON_IMPORT = (
    "pydantic",
    "msgspec",
    "typing_extensions",
    "eson.pydantic",
    "eson.msgspec",
    "eson.agent",
    "eson._internal.codecs",
    "eson._internal.schema",
    "eson.toon",
    "eson.columnar",
    "eson.eval",
    "eson._internal.results",
    "eson._internal.wire.repairs",
    "dataclasses",
    "inspect",
    "asyncio",
    "json",
    "copy",
    "importlib.metadata",
)

#: Every eson module ``import eson`` may load (the untyped reader and writer).
EAGER_ESON = frozenset(
    {
        "eson",
        "eson._speedups",
        "eson._internal",  # the private core's package (a docstring, no code)
        "eson._internal.accelerator",
        "eson._internal.api",
        "eson.errors",
        "eson._internal.wire",
        "eson._internal.wire.eson_cells",
        "eson._internal.wire.eson_json",
        "eson._internal.wire.eson_lenient",
        "eson._internal.wire.eson_lexicon",
        "eson._internal.wire.eson_names",
        "eson._internal.wire.eson_numbers",
        "eson._internal.wire.eson_reader",
        "eson._internal.wire.eson_line_reader",  # the one reader, whole text and stream
        "eson._internal.wire.eson_writer",
        "eson._internal.wire.lines",  # whole_text: every format's input as str
        "eson._internal.wire.options",
    }
)

#: Modules ``eson encode small.json`` must not load (it needs json and argparse, no more).
NOT_ON_ENCODE = (
    "pydantic",
    "msgspec",
    "typing_extensions",
    "httpx",
    "eson.agent",
    "eson.eval",
    "eson._internal.codecs",
    "eson._internal.schema",
    "eson.toon",
    "eson._internal.results",
    "eson._internal.wire.repairs",
    "dataclasses",
    "inspect",
    "asyncio",
    "shutil",
)

SPEEDUPS = pytest.mark.parametrize("pure", [False, True], ids=["accelerated", "pure"])

# The child's script: run the setup, note sys.modules, run the step, print what it added.
_PROBE = """
import sys
{setup}
_before = set(sys.modules)
{step}
print(repr(sorted(set(sys.modules) - _before)))
"""


def _environment(pure: bool) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("TYPED_ESON_NO_SPEEDUPS", None)
    if pure:
        env["TYPED_ESON_NO_SPEEDUPS"] = "1"
    return env


def loaded_by(step: str, setup: str = "", pure: bool = False) -> set[str]:
    """The modules a fresh interpreter imports while it runs ``step`` (after ``setup``)."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.format(setup=setup, step=step)],
        capture_output=True,
        text=True,
        env=_environment(pure),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    names: list[str] = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    return set(names)


def eson_modules(names: set[str]) -> set[str]:
    return {name for name in names if name == "eson" or name.startswith("eson.")}


@SPEEDUPS
def test_import_eson_loads_none_of_the_heavy_modules(pure: bool) -> None:
    loaded = loaded_by("import eson", pure=pure)
    assert "eson._internal.api" in loaded  # the probe sees the import at all
    heavy = sorted(
        name
        for name in loaded
        if any(name == banned or name.startswith(banned + ".") for banned in NOT_ON_IMPORT)
    )
    assert heavy == []


@SPEEDUPS
def test_import_eson_loads_only_the_untyped_reader_and_writer(pure: bool) -> None:
    mine = eson_modules(loaded_by("import eson", pure=pure))
    assert mine - EAGER_ESON == set()
    assert len(mine) <= 18
    assert ("eson._speedups" in mine) is not pure


def test_import_eson_compiles_no_regular_expression() -> None:
    setup = (
        "import re, typing\n"
        "_compiled = []\n"
        "_compile = re.compile\n"
        "def _counting(pattern, flags=0):\n"
        "    _compiled.append(pattern)\n"
        "    return _compile(pattern, flags)\n"
        "re.compile = _counting\n"
    )
    loaded = loaded_by("import eson\nassert not _compiled, _compiled", setup=setup)
    assert "eson._internal.wire.eson_reader" in loaded


def test_a_pattern_compiles_on_first_use_and_then_is_the_compiled_one_s() -> None:
    from eson._internal.wire.eson_lexicon import lazy_pattern

    pattern = lazy_pattern("a+(b)")
    assert "fullmatch" not in vars(pattern)
    match = pattern.fullmatch("aab")
    assert match is not None and match.group(1) == "b"
    assert vars(pattern)["fullmatch"].__self__.pattern == "a+(b)"  # the compiled pattern's method
    assert pattern.sub("x", "ab aab") == "x x"
    assert pattern.pattern == "a+(b)"


def test_untyped_reading_and_writing_load_nothing_typed() -> None:
    step = (
        "text = eson.encode({'kind': 'review', 'findings': [{'file': 'a.py', 'line': 3}]})\n"
        "assert eson.decode(text)['findings'][0]['line'] == 3\n"
    )
    loaded = loaded_by(step, setup="import eson")
    assert not {"eson._internal.schema", "eson._internal.codecs", "msgspec", "pydantic", "dataclasses"} & loaded


def _small_json(folder: Path) -> Path:
    path = folder / "small.json"
    path.write_text('{"kind": "review", "findings": [{"file": "a.py", "line": 3}]}')
    return path


def test_eson_encode_loads_no_pydantic_nor_agent_layer(tmp_path: Path) -> None:
    small = _small_json(tmp_path)
    out = tmp_path / "out.eson"
    step = f"from eson.cli import main\nassert main(['encode', {str(small)!r}, '-o', {str(out)!r}]) == 0"
    loaded = loaded_by(step)
    assert (tmp_path / "out.eson").read_text().startswith("!eson/1\n")
    heavy = sorted(
        name
        for name in loaded
        if any(name == banned or name.startswith(banned + ".") for banned in NOT_ON_ENCODE)
    )
    assert heavy == []
    assert eson_modules(loaded) - EAGER_ESON == {"eson.cli"}


def test_eson_decode_loads_nothing_typed(tmp_path: Path) -> None:
    (tmp_path / "in.eson").write_text("!eson/1\nkind=review\nfindings[1]{file,line}\na.py\t3\n")
    paths = [str(tmp_path / "in.eson"), "-o", str(tmp_path / "out.json")]
    step = f"from eson.cli import main\nassert main(['decode', *{paths!r}]) == 0"
    loaded = loaded_by(step)
    assert '"line":3' in (tmp_path / "out.json").read_text()
    assert not {"eson._internal.schema", "eson._internal.codecs", "eson.agent", "eson.eval", "msgspec", "pydantic"} & loaded


def test_eson_eval_still_gets_its_arguments() -> None:
    step = (
        "from eson.cli import build_parser\n"
        "args = build_parser('eval').parse_args(['eval', '--base-url', 'http://x', '--model', 'm'])\n"
        "assert args.model == 'm'\n"
    )
    assert "eson.eval" in loaded_by(step)


def test_a_pydantic_message_loads_pydantic() -> None:
    step = (
        "class Note(eson.Message):\n"
        "    text: str\n"
        "assert eson.decode(eson.encode(Note(text='hi')), type=Note) == Note(text='hi')\n"
    )
    loaded = loaded_by(step, setup="import eson\nassert 'pydantic' not in sys.modules")
    assert {"pydantic", "eson.pydantic", "eson._internal.schema"} <= loaded


def test_a_msgspec_struct_loads_no_pydantic() -> None:
    setup = "import eson, msgspec\nassert 'pydantic' not in sys.modules"
    step = (
        "class Note(msgspec.Struct):\n"
        "    text: str\n"
        "assert eson.decode(eson.encode(Note(text='hi')), type=Note) == Note(text='hi')\n"
    )
    loaded = loaded_by(step, setup=setup)
    assert "eson._internal.schema" in loaded
    assert not {name for name in loaded if name.split(".")[0] == "pydantic"}


#: What a model base class loads only when one of its TOON or reply methods is called.
ON_FIRST_USE = ("eson.agent", "eson.toon", "eson._internal.codecs.toon_typed", "eson._internal.wire.toon_")


@pytest.mark.parametrize("flavour", ["import eson.msgspec as base", "import eson.pydantic as base"])
def test_a_model_base_loads_neither_toon_nor_the_agent_layer_until_used(flavour: str) -> None:
    step = (
        f"{flavour}\n"
        "class Note(base.Message):\n"
        "    text: str\n"
        "assert Note.from_eson(Note(text='hi').to_eson()) == Note(text='hi')\n"
    )
    loaded = loaded_by(step)
    assert not [name for name in loaded if name.startswith(ON_FIRST_USE)], sorted(loaded)
    # 68-69 when the bases imported the agent layer; 43 with the compiler's
    # tree of shapes (eson._internal.schema.type_tree)
    assert len(eson_modules(loaded)) <= 43
    later = loaded_by(
        "assert Note.from_toon(Note(text='hi').to_toon()) == Note(text='hi')\n"
        "assert Note.from_reply('text=hi') == Note(text='hi')\n"
        "assert 'text' in Note.eson_prompt()\n",
        setup=step,
    )
    assert {"eson._internal.codecs.toon_typed", "eson.agent.replies", "eson.agent.prompts"} <= later


def test_the_lazy_result_types_are_the_ones_try_decode_returns() -> None:
    step = (
        "good = eson.try_decode('!eson/1\\nx=1\\n')\n"
        "bad = eson.try_decode('x=1\\n')\n"
        "assert isinstance(good, eson.Ok) and isinstance(bad, eson.Err)\n"
        "assert isinstance(good, eson.DecodeResult) and not bad\n"
        "from eson._internal.api import Ok\n"
        "assert Ok is eson.Ok\n"
        "log = []\n"
        "eson.decode('!eson/1 \\nx=1\\n', strict=False, repairs=log)\n"
        "assert type(log[0]) is eson.Repair\n"
    )
    loaded = loaded_by(step, setup="import eson")
    assert {"eson._internal.results", "eson._internal.wire.repairs", "dataclasses"} <= loaded


@pytest.mark.parametrize("columns", ["", "0", "-3", "abc", "57", "200"])
def test_the_cli_finds_the_terminal_width_as_shutil_does(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from eson.cli import _columns

    monkeypatch.setenv("COLUMNS", columns)
    assert _columns() == shutil.get_terminal_size().columns
