"""One policy for every free text and token the server takes (docs/api.md, "One policy for
text"): player, challenge and invitation names, chat, and the websocket's auth frame.

Refused, wherever it stands in the text as sent:
- characters of the categories Cc (controls: NUL, newline, tab, escape, DEL, C1), Cs (lone
  surrogates, which no UTF-8 encoder accepts, so no seal or log line could hold them),
  Co (private use), Zl and Zp (line and paragraph separators), and Cf (format characters:
  bidi overrides, isolates and marks, zero-width spaces, the BOM, soft hyphens, tags);
- except a joiner in context: U+200D (zero-width joiner) between two emoji, so 👨‍👩‍👧 stays
  one emoji, and U+200C or U+200D between two letters, which Persian and the Indic scripts
  spell with (Unicode's UAX #31 allows them there too); anywhere else a joiner is refused;
- more than `MAX_MARKS` combining marks on one character (stacked "Zalgo" text);
- text that is empty, or only invisible, once the spaces around it are trimmed (spaces,
  marks without a base, the Hangul fillers that render as nothing);
- more than its limit in code points.

`check_text` is the one function; `Refused` (a ValueError, so pydantic's validators turn it
into a 422 too) says which rule and which character, by code point only: the text itself is
never repeated in a message, a log line or an error.
"""

from __future__ import annotations

import json
import unicodedata

MAX_MARKS = 4
ZWNJ = "\u200c"
ZWJ = "\u200d"
_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
# Letters that render as nothing: the Hangul fillers and the braille blank.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# What may stand between an emoji and a joiner: variation selectors, skin tones.
_EMOJI_TAIL = frozenset("\ufe0e\ufe0f") | frozenset(map(chr, range(0x1F3FB, 0x1F400)))


class Refused(ValueError):
    """Text that the policy refuses; the message names the rule and the code point."""


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _is_emoji(char: str) -> bool:
    return unicodedata.category(char) == "So"


def _joiner_in_context(text: str, at: int) -> bool:
    """Whether the joiner at `at` joins two emoji (ZWJ) or two letters (ZWJ or ZWNJ)."""
    if at == 0 or at == len(text) - 1:
        return False
    before, after = text[at - 1], text[at + 1]
    if unicodedata.category(before)[0] in "LM" and unicodedata.category(after)[0] == "L":
        return True
    if text[at] != ZWJ:
        return False
    back = at - 1
    while back > 0 and text[back] in _EMOJI_TAIL:
        back -= 1
    return _is_emoji(text[back]) and _is_emoji(after)


def _visible(char: str) -> bool:
    return unicodedata.category(char)[0] not in "ZMC" and char not in _BLANK_LETTERS


def refusal(text: str, limit: int, what: str = "text") -> str | None:
    """Why `text` is refused (one sentence), or None when it passes."""
    marks = 0
    for at, char in enumerate(text):
        category = unicodedata.category(char)
        if category in _REFUSED and not (char in (ZWJ, ZWNJ) and _joiner_in_context(text, at)):
            kind = "a lone surrogate" if category == "Cs" else "a control or format character"
            return f"{what} may not contain {kind} ({_code(char)})"
        marks = marks + 1 if category[0] == "M" else 0
        if marks > MAX_MARKS:
            return f"{what} may not stack more than {MAX_MARKS} combining marks on one character"
    trimmed = text.strip()
    if not any(_visible(char) for char in trimmed):
        return f"{what} needs some visible text"
    if len(trimmed) > limit:
        return f"{what} holds at most {limit} characters"
    return None


def check_text(text: str, limit: int, what: str = "text") -> str:
    """`text` with the spaces around it trimmed, when the policy takes it.

    Raises:
        Refused: a character or a shape the policy refuses (the module's doc).
    """
    reason = refusal(text, limit, what)
    if reason is not None:
        raise Refused(reason)
    return text.strip()


def has_lone_surrogate(value: object) -> bool:
    """Whether a parsed JSON value holds a lone surrogate in any key or string (JSON's
    `"\\ud800"` escape makes one; no UTF-8 body can). Iterative: a deep document cannot
    exhaust the stack."""
    todo: list[object] = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if _surrogate_in(item):
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def _surrogate_in(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


SURROGATE_REFUSAL = "the JSON holds a lone surrogate (an unpaired \\ud800-\\udfff escape)"


def json_has_lone_surrogate(raw: str | bytes) -> bool:
    """Whether a JSON text (a request body, a frame) holds a lone surrogate; False for one
    that is no JSON at all (its reader refuses it). Parsed only when it has an escape."""
    escaped = b"\\u" in raw if isinstance(raw, bytes) else "\\u" in raw
    if not escaped:
        return False
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return has_lone_surrogate(value)
