# Type information for the optional C accelerator (src/eson/_speedups.c).
# Every function returns None for input it does not handle; the pure-Python
# code then runs (see eson._internal.accelerator).
from collections.abc import Sequence
from typing import Any, final

def encode_rows(
    records: list[Any],
    cls: object,
    access: int,
    keys: tuple[object, ...],
    masks: tuple[int, ...],
    number: bool,
    toon_delimiter: str | None = ...,
    pad: str | None = ...,
    prefix: str | None = ...,
    suffix: str | None = ...,
    /,
) -> str | None: ...
def decode_rows(
    body: list[str], width: int, modes: tuple[int | dict[str, Any], ...], numbered: int, /
) -> tuple[list[list[Any]], list[int], list[int]] | None: ...
def toon_rows(
    text: str, separator: str, delimiter: str, width: int, modes: tuple[int | dict[str, Any], ...], /
) -> tuple[list[list[Any]], list[int], list[int]] | None: ...
def decode_cells(texts: list[str], /) -> list[Any] | None: ...
def encode_cells(values: Sequence[object], mask: int = 31, /) -> list[str] | None: ...
def build_dicts(keys: tuple[str, ...], columns: list[list[Any]], /) -> list[dict[str, Any]]: ...
def build_records(cls: Any, columns: list[list[Any]], /) -> list[Any]: ...
def build_models(
    cls: type, names: tuple[str, ...], columns: list[list[Any]], extra: bool, /
) -> list[Any]: ...
def build_structs(cls: type, slots: tuple[object, ...], columns: list[list[Any]], /) -> list[Any]: ...
def read_structs(
    text: str,
    start: int,
    count: int,
    cls: type,
    slots: tuple[object, ...],
    kinds: tuple[int | dict[str, Any], ...],
    numbered: int,
    delimiter: str = "\t",
    pad: int = -1,
    /,
) -> tuple[list[Any], int] | None: ...
def skip_lines(text: str, start: int, count: int, pad: int = -1, /) -> int: ...
def encode_str(text: str, /) -> str | None: ...
def quote(text: str, /) -> str | None: ...
def is_bare(text: str, /) -> bool | None: ...
def join_rows(
    columns: list[list[str] | tuple[str, ...]], delimiter: str, pad: str, /
) -> list[str] | None: ...
def toon_bare_strings(values: list[Any] | tuple[Any, ...], delimiter: str, /) -> bool | None: ...
def format_float(value: float, /) -> str | None: ...
def parse_float(text: str, /) -> float | None: ...
def char_classes(start: int, stop: int, /) -> bytes: ...
def wide_blocks(on: bool, /) -> bool: ...

ACCESS_SLOTS: int
ACCESS_INSTANCE_DICT: int
ACCESS_DICT: int
MODE_GENERIC: int
MODE_INT: int
MODE_NUMBER: int
MODE_STR: int
RAW: int
TYPE_STR: int
TYPE_INT: int
TYPE_FLOAT: int
TYPE_BOOL: int
TYPE_NONE: int
INT_AS_FLOAT: int
SHORT_INT_DIGITS: int
MAX_CHOICES: int
CLASS_JS_SPACE: int
CLASS_LINE_BREAK: int
CLASS_UNSAFE: int
CLASS_JSON_START: int
CLASS_NUMBER_START: int

@final
class StreamRows:
    """The accelerated front of ``StreamDecoder.feed`` (see ``_speedups.c``)."""

    def __new__(cls, slow: Any, /) -> StreamRows: ...
    @property
    def armed(self) -> bool: ...
    def feed(self, chunk: Any, *, final: bool = ..., stop_reason: object = ...) -> list[Any]: ...
    def arm(
        self,
        name: str,
        event_type: type,
        rows: list[Any] | None,
        lines: list[int] | None,
        row: int,
        line: int,
        left: int,
        reading: tuple[type, tuple[object, ...], tuple[Any, ...], int]
        | tuple[type, tuple[object, ...], tuple[Any, ...], int, str, int],
        lenient: bool,
        fenced: bool,
        pending: str,
        check: Any = None,
        /,
    ) -> None: ...
    def take(self) -> tuple[int, str, BaseException | None] | None: ...
