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


README = DOC.parent.parent / "README.md"


def test_readme_examples_run(tmp_path: Path) -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) >= 2
    for index, block in enumerate(blocks):
        script = tmp_path / f"readme_example_{index}.py"
        script.write_text(block, encoding="utf-8")
        namespace = runpy.run_path(str(script), run_name=f"readme_example_{index}")
        # Each block's printed wire text is shown in comments: check it matches.
        shown = [line[2:] for line in block.splitlines() if line.startswith("# ")]
        wire = namespace.get("wire") or namespace.get("text")
        if shown and shown[0] == "!eson/1":
            assert wire == "\n".join(shown) + "\n"
