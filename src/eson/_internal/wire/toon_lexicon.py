"""The TOON lexicon: delimiters, quoting rules, token grammars and literals, spelled once.

TOON reads numbers and the literal words as JSON does; those names come from
:mod:`eson._internal.wire.eson_lexicon` and are re-exported here so that TOON code
reads one module.  The resource limits are in :mod:`eson._internal.wire.toon_limits`.
Names ending in ``_SOURCE`` are regular-expression fragments; ``_CLASS``
names are the inside of a character class.
"""

from __future__ import annotations

from eson._internal.wire.eson_lexicon import COUNT_SOURCE as COUNT_SOURCE
from eson._internal.wire.eson_lexicon import DIGITS as DIGITS
from eson._internal.wire.eson_lexicon import DIGITS_SOURCE as DIGITS_SOURCE
from eson._internal.wire.eson_lexicon import EXPONENT_SOURCE as EXPONENT_SOURCE
from eson._internal.wire.eson_lexicon import FRACTION_SOURCE as FRACTION_SOURCE
from eson._internal.wire.eson_lexicon import INT_SOURCE as INT_SOURCE
from eson._internal.wire.eson_lexicon import LITERAL_SOURCE as LITERAL_SOURCE
from eson._internal.wire.eson_lexicon import LITERAL_WORDS as LITERAL_WORDS
from eson._internal.wire.eson_lexicon import LITERALS as LITERALS
from eson._internal.wire.eson_lexicon import NUMBER_SOURCE as NUMBER_SOURCE
from eson._internal.wire.eson_lexicon import NUMBER_START as NUMBER_START
from eson._internal.wire.eson_lexicon import NUMBER_START_CLASS as NUMBER_START_CLASS
from eson._internal.wire.eson_lexicon import QUOTED_SOURCE as QUOTED_SOURCE
from eson._internal.wire.eson_lexicon import SHORT_INT_SOURCE as SHORT_INT_SOURCE

#: The three delimiters TOON knows: comma (the default), tab and pipe.
DELIMITERS = (",", "\t", "|")
#: The delimiter symbol inside a header's brackets (none means comma).
DELIMITER_SYMBOL_SOURCE = r"[\t|]?"

#: Characters that force quoting wherever they occur (section 7.2); lone
#: surrogates are listed so that they reach the quoting code, which rejects them.
ALWAYS_UNSAFE_CLASS = r':"\\\[\]{}\x00-\x1f\ud800-\udfff'
#: White space that forces quoting at either end of a string: U+0020 (U+0009
#: is a control character and so unsafe anywhere).
EDGE_SPACE = " "
#: First characters that force quoting: ``-`` (a list item) and ``#``.
UNSAFE_FIRST_CLASS = r"\-#"
#: What the spec calls numeric-like: a string matching this (leading zeros and
#: ``+`` included) is quoted, though only :data:`NUMBER_SOURCE` reads as a number.
NUMERIC_LIKE_SOURCE = rf"[+-]?[0-9]+(?:{FRACTION_SOURCE})?(?:{EXPONENT_SOURCE})?"

#: The rest of a quoted string after its opening quote, through the closing one.
QUOTED_REST_SOURCE = QUOTED_SOURCE[1:]
#: A key written without quotes.
SAFE_KEY_SOURCE = r"[A-Za-z_][A-Za-z0-9_.]*"
