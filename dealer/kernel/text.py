"""Text that came from a person or a file, made safe to show on a terminal.

Anything shown back — an error that echoes what was typed, a stored reason in `audit show` —
passes `printable`, so a control character (ESC, BEL, a newline, a bidirectional override)
never reaches the terminal as itself: it is shown escaped (`\\x1b`, `\\n`, `\\u202e`), and a
stored line can never forge a second line. `quoted` is how an error names a typed value: in
quotes, escaped, and shortened when it is long, so a 100 KB token is never echoed back.
"""

from __future__ import annotations

import unicodedata

QUOTE_LIMIT = 40
"""The most characters of a typed value an error message repeats."""

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def is_control(char: str) -> bool:
    """A character that would act on a terminal instead of showing: C0/C1 controls (ESC, BEL,
    newline, DEL…), the invisible format characters (bidirectional overrides, zero-width) and
    Unicode's line and paragraph separators (U+2028, U+2029: a new line to an editor, a browser
    or a JSON reader); and a lone surrogate, which is how Python keeps a byte of a command line
    that was not UTF-8: it cannot be written to a terminal, hashed or stored (on either
    backend) as itself."""
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp")


def has_control(text: str) -> bool:
    """Whether `text` holds any character `is_control` refuses. A text Python finds printable
    holds none (every category refused is one `str.isprintable` refuses): the common case is
    answered without looking at each character."""
    return not text.isprintable() and any(is_control(char) for char in text)


def _escaped(char: str) -> str:
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character shown as an escape (`\\x1b`, `\\n`, `\\u202e`)."""
    if not has_control(text):
        return text
    return "".join(_escaped(char) if is_control(char) else char for char in text)


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A typed value as an error names it: `'12,5'`; escaped; a long value shortened to its
    first `limit` characters and its length (`'AAAA…' (102,400 characters)`)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return f"'{printable(text)}'"
    return f"'{printable(text[:limit])}…' ({len(text):,} characters)"
