"""Values of a rule file written into generated code as Python literals.

Later passes rewrite the generated code as text (exprgen.prelude and statelocals read
`st.loc[`, `st.vars[`, `cols[2]`... into locals, codegen resolves `@L3@` labels,
ExprGen.inlined renames `_a0`-style locals). A rule file's text that happened to read
like one of those (`say "st.loc[ ..."`) was rewritten with the code, and the game
printed something else than the rules say. So every string of the rules is written
with the characters those passes look for (`.`, `[`, `@`, `_`) as escapes: the same
constant for Python, nothing for a pass to match."""

from __future__ import annotations

# the characters every rewriting pattern of the generated code contains at least one of
_GUARDED = {".": "\\x2e", "[": "\\x5b", "@": "\\x40", "_": "\\x5f"}


def literal(value: object) -> str:
    """Python source for value (a text, number, truth value, None, or a tuple or list
    of them): `repr`, with a text's guarded characters written as escapes."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, tuple):  # as repr writes it: `(1,)`, `(1, 2)`
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    return repr(value)


def text(value: str) -> str:
    """A Python string literal of value that no pass over the code can match inside.
    repr's own escapes (`\\\\`, `\\n`, `\\xNN`, `\\uNNNN`) hold none of the guarded
    characters, so escaping them after repr cannot break one."""
    shown = repr(value)
    if not any(ch in value for ch in _GUARDED):
        return shown
    return shown[0] + "".join(_GUARDED.get(ch, ch) for ch in shown[1:-1]) + shown[-1]


def in_f_string(ch: str) -> str:
    """A character of a text as written between the quotes of an f-string, guarded
    as `text` guards it (an escape is allowed there, outside the braces)."""
    return _GUARDED.get(ch, ch)
