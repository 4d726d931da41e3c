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
