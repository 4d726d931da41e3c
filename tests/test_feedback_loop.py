"""The feedback loop: a model replies wrongly, gets ``error.feedback``, fixes its reply.

The fake model here knows its data but not the exact layout: its first reply
has the wrong field names, no header, a wrong count and a severity the schema
does not allow.  It can only fix what the feedback tells it -- it reads the
expected head line and the allowed values out of the feedback text -- so the
loop succeeds only if the feedback carries them.  The test fails if the
feedback loses the layout, the allowed values or the place of the error.
"""

from __future__ import annotations

import re
from typing import Literal

import msgspec
import pytest

import eson
import eson.msgspec

Severity = Literal["high", "medium", "low"]


class PFinding(eson.Record):
    severity: Severity
    file: str
    line: int


class PReview(eson.Message, number=True):
    kind: str
    findings: list[PFinding]


class MFinding(eson.msgspec.Record):
    severity: Severity
    file: str
    line: int


class MReview(eson.msgspec.Message, number=True):
    kind: str
    findings: list[MFinding]


ROWS = [("critical", "src/auth.py", 42), ("minor", "src/ui.py", 7), ("medium", "src/api.py", 18)]
SYNONYMS = {"critical": "high", "minor": "low"}


class FakeModel:
    """Writes ESON from its data; on feedback, fixes exactly what the feedback names."""

    def __init__(self) -> None:
        self.header: str | None = None  # the head line of the findings, once told
        self.allowed: list[str] | None = None
        self.prompts: list[str] = []

    def reply(self, feedback: str | None = None) -> str:
        if feedback is not None:
            self.prompts.append(feedback)
            self.learn(feedback)
        rows = ROWS
        if self.allowed is not None:
            rows = [
                (severity if severity in self.allowed else SYNONYMS[severity], file, line)
                for severity, file, line in rows
            ]
        if self.header is None:
            head = "kind=review\nfindings[2]{sev,path,line}"  # no header, wrong names and count
            body = "\n".join(f"{s}\t{f}\t{n}" for s, f, n in rows)
        else:
            fields = self.header[self.header.index("{") + 1 : -1].split(",")
            head = "!eson/1\nkind=review\n" + self.header.replace("[N]", f"[{len(rows)}]")
            body = "\n".join(
                "\t".join(
                    str(index) if field == "n" else str(value)
                    for field, value in zip(fields, (index, *row) if fields[0] == "n" else row)
                )
                for index, row in enumerate(rows, start=1)
            )
        return f"Sure, here is the review:\n\n```eson\n{head}\n{body}\n```\n"

    def learn(self, feedback: str) -> None:
        header = re.search(r"^findings\[N\]\{[^}]*\}$", feedback, re.M)
        if header is not None:
            self.header = header.group(0)
        allowed = re.search(r"^\s*severity: one of ([a-z, ]+)$", feedback, re.M)
        if allowed is not None:
            self.allowed = [value.strip() for value in allowed.group(1).split(",")]


@pytest.mark.parametrize("model", [PReview, MReview])
def test_one_round_of_feedback_fixes_the_reply(model: type) -> None:
    fake = FakeModel()
    first = fake.reply()
    with pytest.raises(eson.ESONError) as info:
        eson.parse_reply(first, model)
    feedback = info.value.feedback
    assert len(feedback) <= 800
    second = fake.reply(feedback)
    # The second reply may still fail -- the first error hid the second -- but
    # the feedback carried the layout and the allowed values at once:
    value = eson.parse_reply(second, model)
    assert [(f.severity, f.file, f.line) for f in value.findings] == [
        ("high", "src/auth.py", 42),
        ("low", "src/ui.py", 7),
        ("medium", "src/api.py", 18),
    ]


@pytest.mark.parametrize("model", [PReview, MReview])
def test_a_retry_loop_with_a_budget(model: type) -> None:
    fake = FakeModel()
    feedback: str | None = None
    attempts = 0
    for _ in range(3):
        attempts += 1
        reply = fake.reply(feedback)
        try:
            value = model.from_reply(reply)  # type: ignore[attr-defined]
            break
        except eson.ESONError as error:
            feedback = error.feedback
    else:
        pytest.fail("no valid reply within three attempts")
    assert attempts == 2  # one retry was enough
    assert len(value.findings) == 3


def test_without_the_layout_the_fake_model_cannot_fix_it() -> None:
    # The control: the same loop with the layout cut out of the feedback fails,
    # so the loop above passes because of what the feedback says.
    fake = FakeModel()
    with pytest.raises(eson.ESONError) as info:
        eson.parse_reply(fake.reply(), PReview)
    message_only = str(info.value)
    with pytest.raises(eson.ESONError):
        eson.parse_reply(fake.reply(message_only), PReview)


@pytest.mark.parametrize("model", [PReview, MReview])
def test_feedback_names_the_bad_value_and_its_place(model: type) -> None:
    reply = (
        "```eson\n!eson/1\nkind=review\nfindings[2]{n,severity,file,line}\n"
        "1\thigh\tsrc/a.py\t3\n2\tminor\tsrc/b.py\t4\n```\n"
    )
    with pytest.raises(eson.ValidationError) as info:
        eson.parse_reply(reply, model)
    feedback = info.value.feedback
    assert "line 6: findings row 2 (severity)" in feedback
    assert "minor" in feedback
    assert "severity: one of high, medium, low" in feedback


@pytest.mark.parametrize("model", [PReview, MReview])
def test_json_feedback_shows_the_json_shape(model: type) -> None:
    reply = (
        '{"kind": "review", "findings": [{"severity": "high", "file": "a.py", "line": "three"}]}'
    )
    with pytest.raises(eson.ValidationError) as info:
        eson.parse_reply(reply, model)
    feedback = info.value.feedback
    assert "findings row 1 (line)" in feedback
    assert (
        '"findings": [{"severity": one of high, medium, low, "file": string, "line": integer}'
        in feedback
    )
    fixed = reply.replace('"three"', "3")
    assert eson.parse_reply(fixed, model).findings[0].line == 3
    assert msgspec.json.decode(fixed)["findings"][0]["line"] == 3
