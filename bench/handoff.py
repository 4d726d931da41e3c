"""The benchmark payload: a realistic 2000-record review handoff, seeded.

``make_handoff()`` returns plain Python data (the untyped path and the JSON
peers use it as is; the typed benchmarks build models from it).
"""

from __future__ import annotations

import random
from typing import Any

SEVERITIES = ("high", "medium", "low")
_WORDS = (
    "token never expires missing rate limit unchecked input null pointer race "
    "condition in retry loop off by one slow query leaks file handle unused "
    "import shadowed name deprecated call"
).split()
_DIRS = ("src/auth", "src/api", "src/ui", "lib/core", "lib/net", "tests/unit")


def make_handoff(n: int = 2000, seed: int = 20261129) -> dict[str, Any]:
    """Build the handoff: ``kind`` plus ``n`` findings with seven typed fields."""
    rng = random.Random(seed)
    findings = [
        {
            "id": index + 1,
            "severity": rng.choice(SEVERITIES),
            "file": f"{rng.choice(_DIRS)}/module_{rng.randrange(400)}.py",
            "line": rng.randrange(1, 5000),
            "message": " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(3, 9))),
            "score": round(rng.random(), 4),
            "ok": rng.random() < 0.3,
        }
        for index in range(n)
    ]
    return {"kind": "code_review", "findings": findings}
