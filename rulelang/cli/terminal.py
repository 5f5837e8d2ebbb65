"""Text for the terminal. Rule files, saves and players' names are written by others:
a control character in them (an escape sequence, a carriage return, a bell) could
retitle the window, recolour the screen or fake a line of output. Every such text is
printed through `clean`, which shows those characters as escapes instead."""

from __future__ import annotations

import re

# C0 controls but the newline and the tab, DEL, C1 controls (0x9b starts a sequence on
# some terminals too), and the marks that reorder a line's characters when shown
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text: str) -> str:
    """`text` with each control character but newline and tab shown as an escape."""
    return CONTROL.sub(lambda m: ascii(m.group())[1:-1], text)


def say(text: str = "") -> None:
    """Print a line that may hold text from a rule file, a save or a name (on stderr:
    cli.errors.say_err)."""
    print(clean(text))
