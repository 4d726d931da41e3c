"""Error messages are one bounded, encodable line, whatever the input held.

Every echoed piece of input goes through :func:`eson.errors.echo` (clipped to
80 characters, line breaks and surrogates escaped), and every error passes its
reason and location through :func:`eson.errors.printable`; so no message is
longer than 1000 characters, none spans lines, and all encode as UTF-8.
"""

# No "from __future__ import annotations": msgspec resolves annotations at module scope.

import pickle
import subprocess
import sys

import msgspec
import pydantic
import pytest

import eson
import eson.toon
from eson.errors import ECHO_LIMIT, MESSAGE_LIMIT, echo, echo_value, printable

MB = 1_000_000


def assert_bounded(error: BaseException) -> str:
    message = str(error)
    assert len(message) <= MESSAGE_LIMIT, len(message)
    assert "\n" not in message and "\r" not in message
    message.encode("utf-8")
    if isinstance(error, eson.ESONError):
        # issue 9: the text for the model is bounded too, its echoes clipped
        feedback = error.feedback
        assert 0 < len(feedback) <= 800, len(feedback)
        feedback.encode("utf-8")
        assert "\r" not in feedback
        assert all(len(line) <= 420 for line in feedback.split("\n"))
    return message


# -- the helpers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("abc", "'abc'"),
        ("a\nb\rc\td", "'a\\nb\\rc\\td'"),
        ("\ud800", "'\\ud800'"),
        ("\u2028", "'\\u2028'"),
        ("it's", '"it\'s"'),
        ("é😀", "'é😀'"),
    ],
)
def test_echo_quotes_like_repr(text: str, shown: str) -> None:
    assert echo(text) == shown


def test_echo_clips_long_and_escaped_text() -> None:
    for text in ("x" * MB, "\ud800" * 1000, "\x00" * 1000, "é" * MB):
        shown = echo(text)
        assert len(shown) <= ECHO_LIMIT + 2 and shown.endswith("...'")
        shown.encode("utf-8")
    assert echo(10**5000) == "<an integer of about 5001 digits>"
    assert echo(None) == "None"


def test_printable_escapes_and_clips_in_bounded_time() -> None:
    assert printable("a\nb\u2028\ud800") == "a\\nb\\u2028\\ud800"
    assert printable(printable("a\nb")) == "a\\nb"  # idempotent
    assert len(printable("\n" * (10 * MB), 100)) == 100
    assert echo_value({"k": "v\ud800"}) == '{"k": "v\\ud800"}'
    assert echo_value(10**5000) == "<an integer of about 5001 digits>"


def test_errors_keep_their_raw_location_but_render_it_safely() -> None:
    error = eson.DecodeError("bad\nthing", line=3, section="s" * 10_000, field="f\r")
    message = assert_bounded(error)
    assert message.startswith("line 3: " + "s" * 77 + "... (f\\r): bad\\nthing")
    assert error.section == "s" * 10_000 and error.field == "f\r"  # the attributes are exact
    assert str(pickle.loads(pickle.dumps(error))) == message


# -- the cases -----------------------------------------------------------------


def test_a_huge_duplicate_name() -> None:
    name = "n" * MB
    with pytest.raises(eson.DecodeError) as info:
        eson.decode(f"!eson/1\n{name}=1\n{name}=2\n")
    assert "duplicate name 'nnn" in assert_bounded(info.value)
    assert info.value.section == name


def test_a_huge_unknown_field_under_extra_forbid() -> None:
    class Strict(pydantic.BaseModel):
        model_config = pydantic.ConfigDict(extra="forbid")
        a: int = 0

    class MStrict(msgspec.Struct, forbid_unknown_fields=True):
        a: int = 0

    key = "k" * (10 * MB)
    for cls in (Strict, MStrict):
        with pytest.raises(eson.ValidationError) as info:
            eson.decode(f"!eson/1\n{key}=1\n", type=cls)
        assert "unknown field" in assert_bounded(info.value)
        with pytest.raises(eson.ValidationError) as info:
            eson.toon.decode(f"{key}: 1", type=cls)
        assert_bounded(info.value)


def test_a_4300_digit_length() -> None:
    with pytest.raises(eson.DecodeError) as info:
        eson.decode("!eson/1\nrows[" + "7" * 4300 + "]{a}\n1\n")
    assert "(4300 digits)" in assert_bounded(info.value)
    with pytest.raises(eson.TOONError) as toon_info:
        eson.toon.decode("rows[" + "7" * 4301 + "]: 1")
    assert_bounded(toon_info.value)


@pytest.mark.parametrize(
    "text",
    [
        '"a\\nb": 1\n"a\\nb": 2',  # a quoted key holding a line feed, twice
        '"a\\rb": 1\n"a\\rb": 2',
        'rows[1]{"x\\ny",b}:\n  1',  # in a field list
        'k[2]{a,b}:\n  "v\\nw",1',
        '"k\\u2028": 1\n"k\\u2028": 2',
    ],
)
def test_line_breaks_in_quoted_keys_stay_escaped(text: str) -> None:
    with pytest.raises(eson.TOONError) as info:
        eson.toon.decode(text)
    assert_bounded(info.value)


def test_the_cli_prints_one_line_for_a_key_with_a_line_break() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "eson", "toon", "decode"],
        input=b'"a\\nb": 1\n"a\\nb": 2',
        capture_output=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.decode().count("\n") == 1
    assert done.stderr.decode().startswith("error: line 2: duplicate key 'a\\nb'")


def test_huge_and_hostile_cells_in_messages() -> None:
    for text in (
        "!eson/1\ncfg=[" + "x" * MB + "\n",
        "!eson/1\ncfg=" + "[" * 600 + "\n",
        "!eson/1\nrows[1]{a,b}\n" + "\t" * MB + "\n",
        "!eson/1\nbad line " + "\ud800" * 1000 + "\n",
        "!eson/1\n" + "x" * MB + "\n",
        "!ESON/" + "1" * MB + "\n",
    ):
        with pytest.raises(eson.DecodeError) as info:
            eson.decode(text)
        assert_bounded(info.value)


def test_validation_messages_quote_values_briefly() -> None:
    class Doc(pydantic.BaseModel):
        n: int

    with pytest.raises(eson.ValidationError) as info:
        eson.decode("!eson/1\nn=" + "z\ud800" * MB + "\n", type=Doc)
    message = assert_bounded(info.value)
    assert "got \"z\\ud800z\\ud800" in message and len(message) < 200
    assert all(len(str(entry["msg"])) < MESSAGE_LIMIT for entry in info.value.errors)


def test_encode_errors_are_bounded_too() -> None:
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"bad name\n" * 100_000: 1})
    assert_bounded(info.value)
    with pytest.raises(eson.EncodeError) as info:
        eson.encode({"x": [{"n": "v" * MB}]})
    assert_bounded(info.value)
