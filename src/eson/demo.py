"""``eson demo``: a typed agent handoff in ESON, beside compact JSON, and back."""

from __future__ import annotations

from typing import Literal

import msgspec

from eson.errors import ValidationError
from eson.msgspec import Message, Record

__all__ = ["Finding", "ReviewHandoff", "run", "sample_handoff"]


class Finding(Record):
    """One row of the findings record array."""

    severity: Literal["high", "medium", "low"]
    file: str
    line: int
    message: str
    fix: str | None = None


class ReviewHandoff(Message, number=True):
    """A reviewer agent's findings, handed to a fixer agent (rows numbered)."""

    sender: str = msgspec.field(name="from")
    to: str
    kind: str
    id: str
    summary: str
    findings: list[Finding]
    tags: list[str] = msgspec.field(default_factory=list)


def sample_handoff() -> ReviewHandoff:
    """The demo message: four findings from a review of an auth service."""
    return ReviewHandoff(
        sender="reviewer",
        to="fixer",
        kind="code_review",
        id="review-2026-11-29-0042",
        summary="3 blocking issues in the auth service; tests pass otherwise",
        findings=[
            Finding(
                "high",
                "src/auth/token.py",
                42,
                "refresh token never expires",
                "set ttl from settings.TOKEN_TTL",
            ),
            Finding(
                "high",
                "src/auth/session.py",
                118,
                "session id compared with ==",
                "use hmac.compare_digest",
            ),
            Finding("medium", "src/api/routes.py", 18, "no rate limit on /login"),
            Finding(
                "low",
                "src/api/errors.py",
                7,
                "error text leaks stack trace",
                "log it, return a code",
            ),
        ],
        tags=["security", "auth"],
    )


def run() -> str:
    """Return the demo's report as text."""
    handoff = sample_handoff()
    eson_text = handoff.to_eson()
    json_text = msgspec.json.encode(handoff).decode("utf-8")
    back = ReviewHandoff.from_eson(eson_text)
    assert back == handoff, "round trip changed the value"
    damaged = eson_text.replace("\t118\t", "\tone-eighteen\t")
    try:
        ReviewHandoff.from_eson(damaged)
    except ValidationError as error:
        problem = str(error)
    else:  # pragma: no cover - the damage above always fails validation
        raise AssertionError("damaged text was accepted")
    saved = 1 - len(eson_text) / len(json_text)
    return "\n".join(
        [
            "A reviewer agent hands four findings to a fixer agent (msgspec Structs).",
            "",
            f"--- ESON: handoff.to_eson() ({len(eson_text)} characters, rows numbered) ---",
            eson_text.rstrip("\n"),
            "",
            f"--- compact JSON: msgspec.json.encode(handoff) ({len(json_text)} characters) ---",
            json_text,
            "",
            f"ESON is {saved:.0%} shorter. ReviewHandoff.from_eson(text) gives back an equal,",
            "validated instance (row numbers checked and dropped). A damaged cell is caught",
            "with its place:",
            f"    {problem}",
            "",
        ]
    )
