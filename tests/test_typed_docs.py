"""The worked example in docs/typed.md runs as written."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "typed.md"


def test_typed_docs_examples_run(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 5
    script = tmp_path / "typed_docs_example.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    namespace = runpy.run_path(str(script), run_name="typed_docs_example")
    assert namespace["received"].findings[1].line == 18


AGENTS = DOC.parent / "agents.md"


def test_agent_docs_examples_run(tmp_path: Path, token_backends: tuple[str, ...]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", AGENTS.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 6
    for index, block in enumerate(blocks):
        script = tmp_path / f"agents_docs_{index}.py"
        script.write_text(block, encoding="utf-8")
        runpy.run_path(str(script), run_name=f"agents_docs_{index}")


def test_agent_docs_tables_are_current(tmp_path: Path, token_backends: tuple[str, ...]) -> None:
    # The prompt-cost table and the stats example show what the code gives today.
    import json

    from eson.agent.prompts import prompt_cost
    from eson.cli import main
    from eson.demo import ReviewHandoff

    text = AGENTS.read_text(encoding="utf-8")
    for format, label in (("eson", "ESON"), ("toon", "TOON")):
        cost = prompt_cost(ReviewHandoff, format=format)  # type: ignore[arg-type]
        row = f"| `ReviewHandoff` of `eson demo`, {label} | {cost.primer} | {cost.schema} | {cost.example} | {cost.total} |"
        assert row in text
    reader = prompt_cost(ReviewHandoff, reader=True)
    assert f"| ESON reader primer, numbered rows | {reader.primer} | 0 | 0 | {reader.total} |" in text
    datasets = DOC.parent.parent.parent / "shared" / "reference" / "eson" / "bench-datasets.json"
    small = json.loads(datasets.read_text(encoding="utf-8"))["small review"]
    source = tmp_path / "handoff.json"
    source.write_text(json.dumps(small), encoding="utf-8")
    out = tmp_path / "stats.txt"
    assert main(["stats", str(source), "-o", str(out)]) == 0
    for line in out.read_text(encoding="utf-8").splitlines():
        assert line in text


README = DOC.parent.parent / "README.md"


def test_readme_examples_run(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) >= 2
    from eson.agent.tokens import token_backends

    for index, block in enumerate(blocks):
        if "eson.choose(" in block and not token_backends():
            continue  # counted by tokens: needs the extra (test_agent_docs_* cover it)
        script = tmp_path / f"readme_example_{index}.py"
        script.write_text(block, encoding="utf-8")
        namespace = runpy.run_path(str(script), run_name=f"readme_example_{index}")
        # Each block's printed wire text is shown in comments: check it matches.
        shown = [line[2:] for line in block.splitlines() if line.startswith("# ")]
        wire = namespace.get("wire") or namespace.get("text")
        if shown and shown[0] == "!eson/1":
            assert wire == "\n".join(shown) + "\n"
