"""``eson demo``: encode a realistic agent handoff, compare it with JSON, decode it back."""

from __future__ import annotations

import json
from typing import Any

from eson.api import decode, encode

__all__ = ["HANDOFF", "run"]

#: A reviewer agent hands its findings to a fixer agent.
HANDOFF: dict[str, Any] = {
    "from": "reviewer",
    "to": "fixer",
    "kind": "code_review",
    "id": "review-2026-11-29-0042",
    "summary": "3 blocking issues in the auth service; tests pass otherwise",
    "findings": [
        {"severity": "high", "file": "src/auth/token.py", "line": 42,
         "message": "refresh token never expires", "fix": "set ttl from settings.TOKEN_TTL"},
        {"severity": "high", "file": "src/auth/session.py", "line": 118,
         "message": "session id compared with ==", "fix": "use hmac.compare_digest"},
        {"severity": "medium", "file": "src/api/routes.py", "line": 18,
         "message": "no rate limit on /login", "fix": None},
        {"severity": "low", "file": "src/api/errors.py", "line": 7,
         "message": "error text leaks stack trace", "fix": "log it, return a code"},
    ],
    "meta": {"complete": True, "retry": None, "tags": ["security", "auth"]},
}


def run() -> str:
    """Return the demo's report as text."""
    eson_text = encode(HANDOFF, number=True)
    json_text = json.dumps(HANDOFF, separators=(",", ":"), ensure_ascii=False)
    back = decode(eson_text)
    for index, row in enumerate(back["findings"], start=1):
        assert row.pop("n") == index
    assert back == HANDOFF, "round trip changed the value"
    saved = 1 - len(eson_text) / len(json_text)
    return "\n".join(
        [
            "A reviewer agent hands four findings to a fixer agent.",
            "",
            f"--- ESON ({len(eson_text)} characters, with row numbers) ---",
            eson_text.rstrip("\n"),
            "",
            f"--- compact JSON ({len(json_text)} characters) ---",
            json_text,
            "",
            f"ESON is {saved:.0%} shorter; decoding it gives back the same value "
            "(row numbers checked and dropped).",
            "",
        ]
    )
