"""`Game.apply` generated per rule file, with each choice's resume written into it.

Through the API a decision costs `apply` and, inside it, a call of the choice's
generated resume (Codegen.resumes): two Python frames. Once a resume is in its last
version (compiled, and compiled again to run on if it was to be: Code.settled), its
code is copied into an `apply` compiled for the rule file, under a test of the pending
choice's pc, so that a decision costs one frame. Its returns become those of `apply`:
a pause (`return -11`) returns at once; anything else (the end, or an op to run on
with) goes through `_after`, which does what `Game.apply` does after a resume. A
choice not copied in (a resume not settled yet, or none: a line for the others), an
action given as text or an illegal value take `Game.apply`'s own way.

The generated `apply` is the method of the ruleset's own subclass of Game
(`Ruleset.game_class`), compiled again each time another resume settles, up to MOST:
the most frequent settle first (after `codegen.RUN_ON_HOT` calls), so they are tested
first; a choice settling later is called from it as `Game.apply` calls it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rulelang.runtime import engine
from rulelang.runtime.lines import placed

if TYPE_CHECKING:
    from rulelang.runtime.ruleset import Ruleset

INLINED = True  # off: `apply` calls each choice's resume (as before)
# the most resumes copied in: those that settle first, the most frequent; one settling
# later is rarer, and compiling `apply` again with its code (5-9 ms for a rule file's
# longest) would cost more than a frame saved at each of its calls gives back
MOST = 4
# each copied resume found by the pending spec itself (`spec is _specN`), the choice's as
# the pause stores it: no read of its pc into a local, no test that there is one; another
# spec of the same pc (a reaction's twin) is called as another choice's resume is
BY_SPEC = True  # off: by the spec's pc (`_at == PC`)
RETURN = re.compile(r"^(\s*)return (.+?)((?:  #.*)?)$")
# names the copied code must not use: the method's own
OWN = re.compile(r"\b(self|action|_at|_exc|_err|_resume)\b|^\s*(def|class)\b|\byield\b")


def rebuild(ruleset: Ruleset) -> None:
    """Compile the ruleset's `apply` with the settled resumes' code in it (the first
    MOST to settle; none: it stays Game.apply)."""
    code, ns = ruleset.code, ruleset.ex.ns
    if not INLINED:
        return
    bodies = []
    for pc in dict.fromkeys(code.settled):  # (two threads may settle one twice)
        body = ns.kept.get(f"_resume{pc}")
        if body is not None and code.resumes[pc] is not None and not _clashes(body):
            bodies.append((pc, body))
    if not bodies or len(bodies) > MOST:  # (none yet, or the rest left to their resumes)
        return
    ns.env.update(_ENV)
    ns.env["_spans"], ns.env["_resumes"] = code.spans, code.resumes  # (one per rule file)
    lines = [*(_HEAD_BY_SPEC if BY_SPEC else _HEAD)]
    for i, (pc, body) in enumerate(bodies):
        mark = ns.mark(code.spans[pc + 1])  # (its first lines: the op after the choice)
        test = f"spec is {ns.name_for(code.choices[pc], '_spec')}" if BY_SPEC else f"_at == {pc}"
        lines.append(f"    {'elif' if i else 'if'} {test} and value in st.options:{mark}")
        lines += ["        try:", *("            " + line for line in _returning(body))]
        lines += [line.replace("AT", str(pc + 1)) for line in _PLACED]
    other = _OTHER_BY_SPEC if BY_SPEC else _OTHER
    fn = ns.function("_apply_generated", "self, action", [*lines, *other], True)
    fn.__doc__ = engine.Game.apply.__doc__
    cls = ruleset.game_class
    cls.apply = fn  # type: ignore[method-assign]
    cls.inlined = tuple(pc for pc, _body in bodies)  # type: ignore[attr-defined]


_HEAD = [
    "st = self.state",
    "spec = st.pending",
    "if type(action) is _Action and spec is not None:",
    "    value = action[0]",
    "    _at = spec.pc",
]
_HEAD_BY_SPEC = [
    "st = self.state",
    "spec = st.pending",
    "if type(action) is _Action:",
    "    value = action[0]",
]
_PLACED = [  # the end of each choice's `try`: errors placed as `Game.apply` places them
    "        except Exception as _exc:  # placed on its rule line, as by run()",
    "            _err = _placed(_exc, _spans[AT])",
    "            if _err is _exc:",
    "                raise",
    "            raise _err from None",
]
_OTHER = [  # another choice: its resume called, as Game.apply calls it
    "    _resume = _resumes[_at]",
    "    if _resume is not None and value in st.options:",
    "        try:",
    "            _at = _resume(st, spec, value)",
    *(line.replace("AT", "spec.pc + 1") for line in _PLACED),
    "        if _at != -11:",
    "            _after(self, st, _at)",
    "        return",
    "return _game_apply(self, action)",  # any other way: Game.apply's own
]


# as _OTHER, the spec tested here (the game may wait for nothing) and its pc read from it
_OTHER_BY_SPEC = [
    "    if spec is not None:",
    *("    " + line.replace("_resumes[_at]", "_resumes[spec.pc]") for line in _OTHER[:-1]),
    _OTHER[-1],
]


def _clashes(body: list[str]) -> bool:
    return any(OWN.search(line) for line in body)


def _returning(body: list[str]) -> list[str]:
    """A resume's lines with its returns made `apply`'s: a pause returns at once."""
    out = []
    for line in body:
        m = RETURN.match(line)
        if m is None:
            out.append(line)
        elif m.group(2) == "-11":  # PAUSE
            out.append(f"{m.group(1)}return{m.group(3)}")
        else:
            out.append(f"{m.group(1)}return _after(self, st, {m.group(2)}){m.group(3)}")
    return out


_ENV: dict[str, Any] = {
    "_Action": engine.Action,
    "_after": engine.after_resume,
    "_placed": placed,
    "_game_apply": engine.Game.apply,
}
