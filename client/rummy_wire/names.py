"""Player names: what a seat may be called.

A name is shown to every seat and spectator, so it must not carry characters that change
how the text around it is drawn or that a database refuses:
- category Cc (control characters: NUL, which PostgreSQL cannot store, newlines, escapes);
- category Cs (lone surrogates, which no UTF-8 encoder accepts);
- category Cf (format characters: the bidirectional overrides and isolates U+202A-U+202E
  and U+2066-U+2069 that let a name display as something else, the marks U+200E/U+200F,
  zero-width spaces, the BOM, soft hyphens, tag characters), except the zero-width joiner
  and non-joiner (U+200D, U+200C) that emoji sequences and Persian or Indic spelling need;
- U+2028 and U+2029 (line and paragraph separators), which break a name onto new lines.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Cf", "Zl", "Zp"})
_ALLOWED_FORMAT = frozenset({"\u200c", "\u200d"})


def _refuse_control_characters(name: str) -> str:
    for char in name:
        if unicodedata.category(char) in _REFUSED_CATEGORIES and char not in _ALLOWED_FORMAT:
            raise ValueError(
                f"a name may not contain the control or format character U+{ord(char):04X}"
            )
    return name


Name = Annotated[str, Field(max_length=40), AfterValidator(_refuse_control_characters)]
