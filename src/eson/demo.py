"""``eson demo``: a typed agent handoff in ESON and TOON, beside compact JSON, in tokens."""

from __future__ import annotations

from typing import Literal

import msgspec

from eson.errors import ValidationError
from eson.msgspec import Message, Record

__all__ = ["Finding", "ReviewHandoff", "run", "sample_handoff", "tour"]


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


def tour() -> dict[str, str]:
    """The code the demo runs: one handoff, three formats, a round trip, a damaged cell."""
    handoff = sample_handoff()
    texts = {
        "ESON": handoff.to_eson(),
        "TOON": handoff.to_toon(),
        "compact JSON": msgspec.json.encode(handoff).decode(),
    }
    assert ReviewHandoff.from_eson(texts["ESON"]) == handoff
    assert ReviewHandoff.from_toon(texts["TOON"]) == handoff
    damaged = texts["ESON"].replace("\t118\t", "\tone-eighteen\t")
    try:
        ReviewHandoff.from_eson(damaged)
    except ValidationError as error:
        texts["error"] = str(error)
    return texts


def _sizes(texts: list[str]) -> tuple[list[int], str]:
    """Exact o200k token counts, or characters when the tokens extra is missing."""
    try:
        from eson.agent.tokens import count_tokens_many

        return count_tokens_many(texts), "tokens"
    except ImportError:
        return [len(text) for text in texts], "characters"


def run() -> str:
    """Return the demo's report as text: the code, what it printed, and what it cost."""
    import inspect

    texts = tour()
    formats = ["ESON", "TOON", "compact JSON"]
    sizes, unit = _sizes([texts[name] for name in formats])
    cost = dict(zip(formats, sizes))
    baseline = cost["compact JSON"]
    lines = [
        "A reviewer agent hands four findings to a fixer agent (msgspec Structs).",
        "The code (eson.demo.tour):",
        "",
        *("    " + line for line in inspect.getsource(tour).rstrip().splitlines()),
        "",
    ]
    for name in formats:
        label = f"{cost[name]} {unit}"
        if name != "compact JSON":
            label += f", {cost[name] / baseline - 1:+.0%} vs compact JSON"
        lines += [f"--- {name} ({label}) ---", texts[name].rstrip("\n"), ""]
    lines += [
        "Both read back into an equal, validated ReviewHandoff (ESON's row numbers are",
        "checked and dropped). A damaged cell is caught with its place:",
        f"    {texts['error']}",
    ]
    if unit == "characters":
        lines += ["", "(install typed-eson[tokens] for exact o200k token counts)"]
    return "\n".join(lines) + "\n"
