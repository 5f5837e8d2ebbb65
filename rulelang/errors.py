"""The catalogue of every error and warning rulelang reports: one code per kind of
message, each with a short title and one constructor.

A constructor takes the message's variable parts and a span. Static ones (E and W
codes) return a `Diagnostic`; runtime ones (R codes) return a `GameRuntimeError`, for
the caller to raise. No other module writes a code: they call a constructor here.
docs/errors.md lists every code with an example that produces it (tests/
test_errors_catalogue.py checks both ways).

Families:
  E0xx  syntax: the text does not follow the grammar
  E1xx  names and files: unknown or duplicate names, files and data that cannot be read
  E2xx  meaning and types: values of the wrong type or size, wrong calls, limits
  E3xx  flow: a game that cannot be played as written (no end, unreachable, recursion)
  Rxxx  runtime: a rule failed while a game ran
  Wxxx  warnings: compiled, but probably not what was meant
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from rulelang.diagnostics import Diagnostic, GameRuntimeError, Span, did_you_mean
from rulelang.limits import OPTIONS as LIMIT_OPTIONS
from rulelang.limits import Limit

FAMILIES = {
    "E0": "syntax",
    "E1": "names and files",
    "E2": "meaning and types",
    "E3": "flow",
    "R": "runtime",
    "W": "warnings",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One kind of message: its code and a short title."""

    code: str
    title: str

    @property
    def family(self) -> str:
        return FAMILIES.get(self.code[:2]) or FAMILIES[self.code[0]]

    @property
    def severity(self) -> str:
        return "warning" if self.code.startswith("W") else "error"

    @property
    def runtime(self) -> bool:
        return self.code.startswith("R")

    def at(self, span: Span, message: str, hint: str = "") -> Diagnostic:
        """A static diagnostic of this kind."""
        assert not self.runtime, self.code
        return Diagnostic(self.code, message, span, self.severity, hint)

    def fail(self, span: Span, message: str, hint: str = "") -> GameRuntimeError:
        """A runtime error of this kind, for the caller to raise."""
        assert self.runtime, self.code
        return GameRuntimeError(self.code, message, span, hint)


CATALOGUE: dict[str, Entry] = {}


def _entry(code: str, title: str) -> Entry:
    assert code not in CATALOGUE, f"{code} is in the catalogue twice"
    entry = Entry(code, title)
    CATALOGUE[code] = entry
    return entry


# ======================================================================= syntax (E0xx)
# Worded by the parser (rulelang/syntax/parser.py).

E001 = _entry("E001", "syntax error")
_E002 = _entry("E002", "text without its closing quote")
_E003 = _entry("E003", "bracket never closed")
_E004 = _entry("E004", "nested too deeply to read")
_E005 = _entry("E005", "number with too many digits")
_E006 = _entry("E006", "text with an unclosed '{'")
_E007 = _entry("E007", "text with a stray '}'")


def syntax_error(message: str, span: Span, hint: str = "") -> Diagnostic:
    """E001: the text does not follow the grammar: an unexpected word or sign, or a
    line that ends before what it started is complete."""
    return E001.at(span, message, hint)


def unterminated_text(span: Span) -> Diagnostic:
    """E002: a '"' that opens a text the line does not close."""
    return _E002.at(
        span,
        "this text has no closing '\"'",
        "a text in quotes ends on the line where it starts",
    )


def unclosed_brace(span: Span) -> Diagnostic:
    """E006: a '{' in a text that no '}' closes (before another '{' or the text's end)."""
    return _E006.at(
        span,
        "this '{' in the text is never closed: a {expression} ends with '}'",
        "close the expression with '}', or write '{{' for a brace in the text",
    )


def stray_brace(span: Span) -> Diagnostic:
    """E007: a '}' in a text that closes no '{'."""
    return _E007.at(
        span, "this '}' in the text closes no '{'", "write '}}' for a brace in the text"
    )


def unclosed_bracket(bracket: str, line: int, span: Span, hint: str) -> Diagnostic:
    """E003: a '{', '(' or '[' that is never closed (span: the bracket)."""
    return _E003.at(span, f"the '{bracket}' on line {line} is never closed", hint)


def too_deep_to_read(span: Span, limit: int) -> Diagnostic:
    """E004: a rule file that nests so deeply that it cannot even be read (E203 is
    the limit checked once it is read)."""
    return _E004.at(
        span,
        "the rule file nests too deeply to be read",
        f"rules may nest at most {limit} levels (see 'Limits' in the language reference)",
    )


def number_too_long(digits: int, limit: int, span: Span) -> Diagnostic:
    """E005: a number written with more digits than a rule file allows."""
    return _E005.at(
        span, f"a number of {digits} digits: numbers in rule files have at most {limit}"
    )


# ============================================================== names and files (E1xx)

_E101 = _entry("E101", "unknown name")
_E102 = _entry("E102", "defined twice")
_E103 = _entry("E103", "no attributes")
_E104 = _entry("E104", "cannot read a file")
_E105 = _entry("E105", "override without a base")
_E106 = _entry("E106", "defined in terms of itself")
_E107 = _entry("E107", "fixed value depends on the game")
_E108 = _entry("E108", "cannot be changed")
_E109 = _entry("E109", "data file is not YAML")
_E110 = _entry("E110", "refused to read a file")
_E111 = _entry("E111", "'index' outside attribute defaults")
_E112 = _entry("E112", "redefined without override")
_E113 = _entry("E113", "extends goes round in a circle")
_E114 = _entry("E114", "unknown stdlib module")
_E115 = _entry("E115", "not a module name")
_E116 = _entry("E116", "data file is not a list")
_E117 = _entry("E117", "data entry is not pairs")
_E118 = _entry("E118", "data entry count")
_E119 = _entry("E119", "data entry attribute unknown")
_E120 = _entry("E120", "data entry value of the wrong type")
_E121 = _entry("E121", "data entry value missing")
_E122 = _entry("E122", "data entry value not of its enum")
_E123 = _entry("E123", "data file makes too many copies")
_E124 = _entry("E124", "data tile of the wrong shape")
_E125 = _entry("E125", "extends given twice")


def unknown(what: str, name: str, span: Span, candidates: Iterable[str] = ()) -> Diagnostic:
    """E101: a name, type, board, kind, zone, die, proc, function, phase or attribute
    that nothing defines; the hint suggests a close one."""
    return _E101.at(span, f"unknown {what} '{name}'", did_you_mean(name, candidates))


def defined_twice(name: str, span: Span, first: Span) -> Diagnostic:
    """E102: two definitions of one name in one file (or a parameter list)."""
    return _E102.at(span, f"'{name}' is defined twice; the first definition is at {first}")


def phase_defined_twice(name: str, span: Span, first: Span) -> Diagnostic:
    """E102 of a phase: a second top-level `turn` is a second phase 'main', a name the
    file never writes, so the hint says where it comes from."""
    return _E102.at(
        span, f"'{name}' is defined twice; the first definition is at {first}", _main(name)
    )


def _main(phase: str) -> str:
    return "a 'turn' written outside any phase is the phase 'main'" if phase == "main" else ""


def no_attributes(what: object, span: Span) -> Diagnostic:
    """E103: `.name` of a value that has no attributes."""
    return _E103.at(span, f"{what} has no attributes")


def cannot_read(what: str, reason: object, span: Span, hint: str = "") -> Diagnostic:
    """E104: a file named by `extends` or `from` (what: "'x'" or "data file 'x'") that
    does not exist or cannot be read, or a shipped game `extends` names that there is
    not."""
    return _E104.at(span, f"cannot read {what}: {reason}", hint)


def override_without_base(name: str, span: Span) -> Diagnostic:
    """E105: `override` of something no base file defines."""
    return _E105.at(span, f"'override' of '{name}', but no base file defines it")


def defined_in_terms_of_itself(name: str, span: Span) -> Diagnostic:
    """E106: a fixed value whose definition needs itself."""
    return _E106.at(span, f"'{name}' is defined in terms of itself")


def fixed_depends_on_game(context: str, name: str, changes: bool, span: Span) -> Diagnostic:
    """E107: a fixed value (param, const, table, die, board, kind count, attribute
    default) that reads the state of the game."""
    during = ", which changes during play" if changes else ""
    return _E107.at(
        span, f"{context} is fixed for the whole game and cannot depend on '{name}'{during}"
    )


def cannot_change(name: str, what: str, span: Span) -> Diagnostic:
    """E108: `set` of a name that is not part of the game state."""
    return _E108.at(
        span,
        f"'{name}' cannot be changed: it is a {what}",
        "declare it in 'global { ... }' to make it part of the game state",
    )


def data_not_yaml(data: str, line: int | None, span: Span) -> Diagnostic:
    """E109: a data file that is not valid YAML."""
    where = f" (line {line})" if line is not None else ""
    return _E109.at(span, f"data file '{data}' is not valid YAML{where}")


def refused(what: str, reason: str, span: Span, hint: str = "") -> Diagnostic:
    """E110: a file a rule file may not read (what: "'x'", "data file 'x'" or "stdlib
    module 'x'"); the reason quotes nothing of the file."""
    return _E110.at(span, f"refused to read {what}: {reason}", hint)


def index_outside_defaults(span: Span) -> Diagnostic:
    """E111: `index` read anywhere but in the attribute defaults of a piece or card."""
    return _E111.at(span, "'index' is only known in the attribute defaults of a piece or card")


def redefined_without_override(name: str, base: Span, span: Span) -> Diagnostic:
    """E112: a variant defines again a name of its base file without `override`."""
    return _E112.at(
        span,
        f"'{name}' is already defined in the base file at {base}",
        "write 'override' in front to replace it",
    )


def extends_circle(chain: str, span: Span) -> Diagnostic:
    """E113: files that extend each other round in a circle."""
    return _E113.at(span, f"'extends' goes round in a circle: {chain}")


def unknown_module(module: str, span: Span, hint: str) -> Diagnostic:
    """E114: `import` of a module no stdlib folder holds."""
    return _E114.at(span, f"no stdlib module named '{module}'", hint)


def not_a_module_name(name: str, span: Span) -> Diagnostic:
    """E115: `import` of something that cannot be a module's name."""
    return _E115.at(span, f"'{name}' is not a stdlib module name")


def data_not_a_list(data: str, category: str, span: Span) -> Diagnostic:
    """E116: a data file that is not a list of entries."""
    return _E116.at(
        span, f"data file '{data}' must be a list of entries, one per {category} design"
    )


def data_entry_not_pairs(where: str, span: Span) -> Diagnostic:
    """E117: a data file entry that is not `name: value` pairs."""
    return _E117.at(span, f"{where}: expected 'name: value' pairs")


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring = 4, 6, 6, 60
_SHORT.maxlong = _SHORT.maxother = 40


def _shown(value: object) -> str:
    """A data file's value as the message shows it: cut short, for YAML aliases can make
    a list of billions of items out of a few lines, and a text may be a megabyte."""
    return _SHORT.repr(value)


def data_bad_count(where: str, count: object, span: Span) -> Diagnostic:
    """E118: a data file entry whose `count` is not a whole number."""
    return _E118.at(span, f"{where}: count must be a whole number, not {_shown(count)}")


def data_too_many(
    where: str, count: int, total: int, kind: str, limit: int, span: Span
) -> Diagnostic:
    """E123: a data file whose counts make more pieces or cards of a kind than the
    limit: one entry's count, or the entries up to this one together (total)."""
    what = f"count {count} is" if count == total else f"the entries so far make {total} {kind}s,"
    return _E123.at(
        span,
        f"{where}: {what} more than the {limit} pieces or cards a kind may have",
        _raise_it("items"),
    )


def data_tile_sides(where: str, board: str, sides: int, given: int, span: Span) -> Diagnostic:
    """E124: a tile in a data file whose `edges` list has not one value per side of
    the grid it lies on."""
    return _E124.at(
        span,
        f"{where}: 'edges' of a tile on board '{board}' needs {sides} sides "
        f"(N, E, S, W), not {given}",
    )


def data_unknown_attribute(
    where: str, kind: str, key: str, span: Span, names: Iterable[str]
) -> Diagnostic:
    """E119: a data file entry naming an attribute its kind does not have."""
    return _E119.at(span, f"{where}: {kind} has no attribute '{key}'", did_you_mean(key, names))


def data_wrong_type(where: str, key: str, want: object, value: object, span: Span) -> Diagnostic:
    """E120: a data file value of the wrong type."""
    return _E120.at(span, f"{where}: '{key}' must be {want}, not {_shown(value)}")


def data_missing(where: str, name: str, kind: str, span: Span) -> Diagnostic:
    """E121: a data file entry without a value its kind gives no default for."""
    return _E121.at(span, f"{where}: '{name}' is missing, and {kind} gives it no default")


def data_not_in_enum(
    where: str, key: str, enum: str, value: str, span: Span, values: Iterable[str]
) -> Diagnostic:
    """E122: a data file value, for an attribute whose type is an enum, that is not one
    of the enum's values."""
    values = list(values)
    hint = did_you_mean(value, values) or f"the values of {enum}: {', '.join(values)}"
    return _E122.at(span, f"{where}: '{key}' must be a value of {enum}, not {_shown(value)}", hint)


# ============================================================ meaning and types (E2xx)

_E201 = _entry("E201", "type mismatch")
_E202 = _entry("E202", "wrong number of arguments")
_E203 = _entry("E203", "nests too deeply")
_E204 = _entry("E204", "not a list to choose from")
_E205 = _entry("E205", "not a value")
_E206 = _entry("E206", "needs numbers")
_E207 = _entry("E207", "range of non-numbers")
_E208 = _entry("E208", "'in' without a list")
_E209 = _entry("E209", "never in the list")
_E210 = _entry("E210", "cannot compare")
_E211 = _entry("E211", "order of non-numbers")
_E212 = _entry("E212", "attribute of an unknown type")
_E213 = _entry("E213", "list index not a number")
_E214 = _entry("E214", "table key not a number")
_E215 = _entry("E215", "zone indexed by a non-player")
_E216 = _entry("E216", "cannot be indexed")
_E217 = _entry("E217", "needs a condition")
_E218 = _entry("E218", "unknown comprehension")
_E219 = _entry("E219", "argument of the wrong type")
_E220 = _entry("E220", "list of the wrong type")
_E221 = _entry("E221", "bad player range")
_E222 = _entry("E222", "too many players")
_E223 = _entry("E223", "count and data file")
_E224 = _entry("E224", "kind without a count")
_E225 = _entry("E225", "param default not plain")
_E226 = _entry("E226", "die faces not a list")
_E227 = _entry("E227", "board attribute not a list")
_E228 = _entry("E228", "not a tile kind")
_E229 = _entry("E229", "'joined' not bool")
_E230 = _entry("E230", "owner visibility outside player")
_E231 = _entry("E231", "deal between kinds")
_E232 = _entry("E232", "needs players")
_E233 = _entry("E233", "arithmetic assignment to a non-number")
_E234 = _entry("E234", "cannot assign")
_E235 = _entry("E235", "zone holds another kind")
_E236 = _entry("E236", "board holds no tiles")
_E237 = _entry("E237", "per-player zone without an owner")
_E238 = _entry("E238", "zone not per player")
_E239 = _entry("E239", "zone of the wrong sort")
_E240 = _entry("E240", "only attributes change")
_E241 = _entry("E241", "table lacks player counts")
_E242 = _entry("E242", "node outside its board")
_E243 = _entry("E243", "list of mixed types")
_E244 = _entry("E244", "too deep to check")
_E245 = _entry("E245", "results of different types")
_E246 = _entry("E246", "fixed value changed")
_E247 = _entry("E247", "bot reads hidden information")


def type_mismatch(want: object, got: object, span: Span, hint: str = "") -> Diagnostic:
    """E201: a value of one type where another is expected (a condition, an argument of
    a def or proc, a default, a typed `let`, a count...); the hint: how to write the
    value of an enum that was written as a text."""
    return _E201.at(span, f"expected {want}, found {got}", hint)


def wrong_arity(name: str, takes: str, many: bool, what: str, given: int, span: Span) -> Diagnostic:
    """E202: a call with the wrong number of arguments (takes: "2" or "1 or 2"; what:
    the arguments in words, for built-ins)."""
    words = f" ({what})" if what else ""
    were = "were" if given != 1 else "was"
    return _E202.at(
        span,
        f"'{name}' takes {takes} argument{'s' if many else ''}{words}, but {given} {were} given",
    )


def nests_too_deeply(levels: int, span: Span) -> Diagnostic:
    """E203: a rule nesting past the limit."""
    return _E203.at(
        span,
        f"this nests more than {levels} levels deep",
        "split it with a def or a proc, or a let",
    )


def not_a_list(got: object, span: Span) -> Diagnostic:
    """E204: `choose`, `for`, `pick`, `shuffle` or `[... for ...]` over something that
    is not a list."""
    return _E204.at(span, f"expected a list to choose from or loop over, found {got}")


def not_a_value(name: str, what: str, span: Span, enums: Sequence[str] = ()) -> Diagnostic:
    """E205: a proc, kind or other definition used as a value; `enums`: the enums that
    have a value of that name (written bare where the enum is not expected)."""
    hint = ""
    if enums:
        hint = f"the value of enum {enums[0]} is written {enums[0]}.{name} here"
        if len(enums) > 1:
            hint += " (or " + ", ".join(f"{e}.{name}" for e in enums[1:]) + ")"
    return _E205.at(span, f"'{name}' is a {what}, not a value", hint)


def needs_numbers(op: str, got: object, span: Span) -> Diagnostic:
    """E206: arithmetic, or `sum`/`max`/`min(... for ...)`, of something not a number."""
    return _E206.at(span, f"'{op}' needs numbers, found {got}")


def range_needs_numbers(got: object, span: Span) -> Diagnostic:
    """E207: `a..b` with an end that is not a number."""
    return _E207.at(span, f"a range needs numbers, found {got}")


def in_needs_list(got: object, span: Span) -> Diagnostic:
    """E208: `x in y` where y is not a list."""
    return _E208.at(span, f"'in' needs a list on its right, found {got}")


def never_in(left: object, elem: object, span: Span, hint: str = "") -> Diagnostic:
    """E209: `x in y` where x can never be one of y's items (the hint: how to write the
    value of an enum that was written as a text)."""
    return _E209.at(span, f"{left} can never be in a list of {elem}", hint)


def cannot_compare(left: object, right: object, span: Span, hint: str = "") -> Diagnostic:
    """E210: `==`, `!=` or an order between values of unrelated types (the hint: how to
    write the value of an enum that was written as a text)."""
    return _E210.at(span, f"cannot compare {left} with {right}", hint)


def order_needs_numbers(op: str, got: object, span: Span) -> Diagnostic:
    """E211: `<`, `<=`, `>`, `>=` between values that are not numbers."""
    return _E211.at(span, f"'{op}' compares numbers, found {got}")


def attribute_of_unknown_type(name: str, span: Span) -> Diagnostic:
    """E212: `.name` of an item of an empty list whose type is not known."""
    return _E212.at(
        span,
        f"cannot tell what '.{name}' belongs to: the value comes from "
        "an empty list whose type is not known",
        "give the list a type, as in: let xs: list(piece_kind) = []",
    )


def list_index_not_number(got: object, span: Span) -> Diagnostic:
    """E213: `list[i]` with i not a number."""
    return _E213.at(span, f"a list index must be a number, found {got}")


def table_key_not_number(got: object, span: Span) -> Diagnostic:
    """E214: `table[k]` with k not a number."""
    return _E214.at(span, f"a table key must be a number, found {got}")


def zone_index_not_player(got: object, span: Span) -> Diagnostic:
    """E215: `zone[x]` of a per-player zone with x not a player."""
    return _E215.at(span, f"a zone per player is indexed by a player, found {got}")


def cannot_index(what: object, span: Span) -> Diagnostic:
    """E216: `x[i]` of something that is not a list, a table or a zone."""
    return _E216.at(span, f"{what} cannot be indexed")


def needs_condition(func: str, got: object, span: Span) -> Diagnostic:
    """E217: `any`/`all(... for ...)` of something that is not a condition."""
    return _E217.at(span, f"'{func}' needs a condition, found {got}")


def unknown_comprehension(func: str, span: Span) -> Diagnostic:
    """E218: `f(... for ...)` with f not a function that takes a comprehension."""
    return _E218.at(
        span,
        f"'{func}(... for ...)' is not known; use any, all, count, sum, max, "
        "min or a list [... for ...]",
    )


def argument_type(n: int, func: str, want: str, got: object, span: Span) -> Diagnostic:
    """E219: an argument of a built-in function of the wrong type."""
    return _E219.at(span, f"argument {n} of '{func}' must be a {want}, found {got}")


def list_of_wrong_type(func: str, need: object, got: object, span: Span) -> Diagnostic:
    """E220: `any`, `all` or `sum` of a list whose items do not fit."""
    return _E220.at(span, f"'{func}' needs a list of {need}, found {got}")


def bad_player_range(low: int, high: int, span: Span) -> Diagnostic:
    """E221: `players a..b` with a below 1 or b below a."""
    return _E221.at(span, f"player counts {low}..{high} are not a valid range")


def too_many_players(limit: int, high: int, span: Span) -> Diagnostic:
    """E222: `players a..b` with b past the limit."""
    return _E222.at(span, f"at most {limit} players may play, not {high}")


def count_and_data(category: str, name: str, data: str, span: Span) -> Diagnostic:
    """E223: a kind read from a data file that also says `count`."""
    return _E223.at(span, f"{category} '{name}' takes its count from {data}; remove 'count'")


def kind_without_count(category: str, name: str, span: Span) -> Diagnostic:
    """E224: a piece or card kind with neither `count` nor a data file."""
    return _E224.at(
        span,
        f"{category} '{name}' needs a count: '{category} {name} count N {{ ... }}', "
        f"or a data file: '{category} {name} from \"cards.yaml\" {{ ... }}'",
    )


def param_default_not_plain(name: str, span: Span) -> Diagnostic:
    """E225: a param whose default is not a plain literal."""
    return _E225.at(
        span, f"param '{name}' needs a plain number, text, true or false as its default"
    )


def die_faces_not_list(name: str, got: object, span: Span) -> Diagnostic:
    """E226: a die whose faces are not a list."""
    return _E226.at(span, f"the faces of die '{name}' must be a list, not {got}")


def board_attribute_not_list(got: object, span: Span) -> Diagnostic:
    """E227: a board attribute that is not a list of one value per node."""
    return _E227.at(span, f"a board attribute must be a list, one value per node, not {got}")


def not_a_tile_kind(kind: str, span: Span) -> Diagnostic:
    """E228: `tiles K` with K lacking `edges: list(bool)`."""
    return _E228.at(
        span,
        f"{kind} cannot be a tile: it needs an attribute "
        "'edges: list(bool)' giving its open sides N, E, S, W",
    )


def joined_not_bool(kind: str, span: Span) -> Diagnostic:
    """E229: a tile kind whose `joined` attribute is not bool."""
    return _E229.at(span, f"the 'joined' attribute of tile {kind} must be bool")


def owner_visibility(span: Span, audience: str = "owner") -> Diagnostic:
    """E230: `visible to owner` or `visible to others` on an attribute that is not a
    player's, or `visible to others` on a zone that is not per player."""
    return _E230.at(
        span,
        f"only player attributes and per-player zones have an owner, for 'visible to "
        f"{audience}'; use 'visible to all' or 'visible to none'",
    )


def deal_between_kinds(src: str, dst: str, span: Span) -> Diagnostic:
    """E231: `deal` from a zone of one kind into zones of another."""
    return _E231.at(span, f"cannot deal {src} into a zone of {dst}")


def needs_players(what: str, got: object, span: Span) -> Diagnostic:
    """E232: `say ... to`, `secret to`, `win`, `draw` or `rank` given something not
    players."""
    return _E232.at(span, f"{what} needs a player or a list of players, not {got}")


def arithmetic_assign(op: str, want: object, span: Span) -> Diagnostic:
    """E233: `set x += ...` (or -=, *=...) where x is not a number."""
    return _E233.at(span, f"'{op}' needs a number, but the target is {want}")


def cannot_assign(value: object, want: object, span: Span, hint: str = "") -> Diagnostic:
    """E234: `set x = v` with v of a type x cannot hold (the hint: how to write the
    value of an enum that was written as a text)."""
    return _E234.at(span, f"cannot assign {value} to something of type {want}", hint)


def zone_holds_other(zone: str, kind: str, item: object, span: Span) -> Diagnostic:
    """E235: `move` or `add` of something into a zone of another kind."""
    return _E235.at(span, f"zone '{zone}' holds {kind}, not {item}")


def board_without_tiles(board: str, span: Span, declare: bool = False) -> Diagnostic:
    """E236: a tile statement or function on a board declared without `tiles`."""
    how = f"; declare it as 'board {board} = ... tiles <kind>'" if declare else ""
    return _E236.at(span, f"board '{board}' holds no tiles{how}")


def zone_needs_owner(zone: str, span: Span) -> Diagnostic:
    """E237: a per-player zone named without saying whose."""
    return _E237.at(span, f"zone '{zone}' is per player: say whose, as in '{zone}[current]'")


def zone_not_per_player(zone: str, span: Span) -> Diagnostic:
    """E238: `zone[p]` of a zone that is not per player."""
    return _E238.at(span, f"zone '{zone}' is not per player")


def zone_of_wrong_sort(zone: str, per_player: bool, span: Span) -> Diagnostic:
    """E239: `deal` or `shuffle` given a per-player zone where a single one is needed,
    or the other way round."""
    need = "per player" if per_player else "a single zone (not per player)"
    return _E239.at(span, f"zone '{zone}' must be {need} here")


def only_attributes_change(span: Span) -> Diagnostic:
    """E240: `set` of something that is neither a variable nor an attribute."""
    return _E240.at(span, "only attributes of players and pieces can be changed")


def table_lacks_players(table: str, missing: list[int], span: Span) -> Diagnostic:
    """E241: a table read with `[player_count]` without an entry for every count."""
    shown = ", ".join(str(n) for n in missing)
    return _E241.at(
        span,
        f"table '{table}' is looked up by player count but has no "
        f"entry for {shown} player{'s' if missing != [1] else ''}",
    )


def node_outside_board(node: int, board: str, size: int, span: Span) -> Diagnostic:
    """E242: a number written where a node of a board is expected that is not one of
    its nodes."""
    return _E242.at(span, f"{node} is not a node of board '{board}' (its nodes are 0..{size - 1})")


def mixed_list(first: object, other: object, span: Span) -> Diagnostic:
    """E243: a list literal whose items have types that do not mix."""
    return _E243.at(
        span, f"a list holds values of one type, but this one mixes {first} and {other}"
    )


def too_deep_to_check(span: Span) -> Diagnostic:
    """E244: a rule file whose chains of calls between defs are too long to check."""
    return _E244.at(
        span,
        "the rule file is too deep to check: defs call each other in a chain too long",
        "shorten the chain: let a def compute more, or keep values in a let",
    )


def branches_differ(then: object, otherwise: object, span: Span) -> Diagnostic:
    """E245: `if ... then A else B` whose two branches have types that do not mix."""
    return _E245.at(
        span,
        f"the branches of 'if ... then ... else' give {then} and {otherwise}, which do not mix",
        "both branches of a conditional expression give values of one type",
    )


def returns_differ(name: str, first: object, other: object, span: Span) -> Diagnostic:
    """E245: a def written with a block whose `return`s give types that do not mix."""
    return _E245.at(
        span,
        f"def '{name}' returns {first} elsewhere but {other} here, which do not mix",
        "every 'return' of a def gives a value of one type",
    )


def fixed_value_changed(what: str, span: Span) -> Diagnostic:
    """E246: `set` of an entry of a table or of a board attribute: fixed for the whole
    game (what: "table 't'" or "board attribute 'points' of 'town'")."""
    return _E246.at(
        span,
        f"{what} is fixed for the whole game: its entries cannot be changed",
        "keep values that change in a list: a global, a player or piece attribute, or a local "
        "('global { NAME: list(int) = ... }'), and change its items with 'set NAME[i] = ...'",
    )


# Turn order: `order random` (docs/language.md "setup, turn and phase").
_E270 = _entry("E270", "random order with a first player")
_E271 = _entry("E271", "order without a turn")
_E272 = _entry("E272", "order given twice")
_E273 = _entry("E273", "skip rule given twice")
_E274 = _entry("E274", "skip rule without a turn")


def random_order_from(span: Span) -> Diagnostic:
    """E270: `order random from EXPR`: the drawn order already says who starts."""
    return _E270.at(
        span,
        "'order random' draws the whole order, the first player too: it takes no 'from'",
        "write 'order random' alone, or 'order clockwise from EXPR' for a chosen first player",
    )


def order_without_turn(span: Span) -> Diagnostic:
    """E271: an `order` outside any phase in a file without a top-level `turn`."""
    return _E271.at(
        span,
        "an 'order' outside any phase sets the order of the file's top-level 'turn', "
        "but this file has none",
        "put the 'order' inside the phase it is for: phase NAME { order random ... }",
    )


def extends_twice(span: Span, first: Span) -> Diagnostic:
    """E125: a second `extends` in one file (the second base replaced the first)."""
    return _E125.at(
        span, f"a file extends one base: 'extends' is already given at {first.line}:{first.col}"
    )


def order_twice(span: Span, first: Span) -> Diagnostic:
    """E272: two `order` declarations outside any phase."""
    return _E272.at(
        span,
        f"the order of the top-level 'turn' is already given at {first.line}:{first.col}",
    )


def skip_twice(span: Span, first: Span) -> Diagnostic:
    """E273: two `skip when` rules for one phase (or outside any phase)."""
    return _E273.at(
        span,
        f"whose turn is skipped is already said at {first.line}:{first.col}",
        "join the conditions into one rule: skip when A or B",
    )


def skip_without_turn(span: Span) -> Diagnostic:
    """E274: a `skip when` outside any phase in a file without a top-level `turn`."""
    return _E274.at(
        span,
        "a 'skip when' outside any phase says whose turns the file's top-level 'turn' "
        "skips, but this file has none",
        "put the 'skip when' inside the phase it is for: phase NAME { skip when ... }",
    )


# ========================================================================= flow (E3xx)

_E301 = _entry("E301", "phase never reached")
_E302 = _entry("E302", "no end rule")
_E303 = _entry("E303", "choice without options")
_E304 = _entry("E304", "recursion")
_E305 = _entry("E305", "asking where nobody can act")
_E306 = _entry("E306", "no player count")
_E307 = _entry("E307", "no turns")
_E308 = _entry("E308", "phase without next")
_E309 = _entry("E309", "phase never ends")
_E310 = _entry("E310", "phase without a turn")
_E311 = _entry("E311", "end rule calls a proc that asks")
_E312 = _entry("E312", "outcome outside an end rule")
_E313 = _entry("E313", "pass outside a reaction round")
_E317 = _entry("E317", "def that acts")
_E318 = _entry("E318", "def that changes the game")
_E319 = _entry("E319", "def that may not return")
_E320 = _entry("E320", "return outside a def")
_E321 = _entry("E321", "'do base' outside an override")
_E322 = _entry("E322", "base of an override is not a block")
_E323 = _entry("E323", "complete choice with nothing to complete")
_E324 = _entry("E324", "shuffle in the effect of a complete choice")
_E325 = _entry("E325", "break or continue outside a loop")


def phase_never_reached(phase: str, first: str, span: Span) -> Diagnostic:
    """E301: a phase no `next` leads to."""
    main = _main(phase)
    return _E301.at(
        span,
        f"phase '{phase}' is never reached",
        f"the game starts in '{first}'; no 'next' leads here" + (f" ({main})" if main else ""),
    )


def no_end_rule(span: Span) -> Diagnostic:
    """E302: a game without an `end when` rule."""
    return _E302.at(
        span,
        "the game never ends: there is no 'end when' rule",
        "add for example: end when <condition> { win [current] }",
    )


def choice_without_options(var: str, why: str, span: Span) -> Diagnostic:
    """E303: a `choose` (that may not pass) from an empty list or range, or with a
    requirement that is always false."""
    because = f": {why}" if why else ""
    return _E303.at(span, f"the choice of '{var}' can never have an option{because}")


def recursion(name: str, cycle: str, span: Span) -> Diagnostic:
    """E304: a proc or def that calls itself, directly or through others."""
    return _E304.at(
        span,
        f"'{name}' calls itself ({cycle}); rules may not recurse, use 'while' or 'repeat' instead",
    )


def nobody_can_act(statement: str, context: str, span: Span) -> Diagnostic:
    """E305: `choose`, `roll`, `pick` or `shuffle` where nobody can be asked to act (an
    end rule)."""
    return _E305.at(
        span, f"{statement} cannot be used in {context}: nobody can be asked to act there"
    )


def no_player_count(span: Span) -> Diagnostic:
    """E306: a game without a `players` line."""
    return _E306.at(
        span,
        "the rule file does not say how many players it is for",
        "add a line such as 'players 2..4'",
    )


def no_turns(span: Span) -> Diagnostic:
    """E307: a game without `turn` or `phase`."""
    return _E307.at(span, "the game has no turns: add 'turn { ... }' or a 'phase'")


def phase_without_next(phase: str, span: Span) -> Diagnostic:
    """E308: a phase with `end when` but no `next`."""
    return _E308.at(
        span,
        f"phase '{phase}' can end but does not say which phase comes next",
        "add 'next <phase>'",
    )


def phase_never_ends(phase: str, span: Span) -> Diagnostic:
    """E309: a phase with `next` but no `end when`."""
    return _E309.at(
        span, f"phase '{phase}' names a next phase but never ends", "add 'end when <condition>'"
    )


def phase_without_turn(phase: str, span: Span) -> Diagnostic:
    """E310: a phase with no `turn` block."""
    return _E310.at(span, f"phase '{phase}' has no turn")


def end_rule_calls_asking_proc(proc: str, span: Span, imagine: bool = False) -> Diagnostic:
    """E311: an end rule that calls a proc that asks a player or the dice; an `imagine`
    block that calls a proc that asks a player (the dice it may roll)."""
    if imagine:
        return _E311.at(
            span,
            f"'{proc}' asks a player to choose, which an imagine block cannot do "
            "(it may only draw chance)",
        )
    return _E311.at(span, f"'{proc}' asks a player or the dice, which an end rule cannot do")


def outcome_outside_end_rule(kind: str, span: Span) -> Diagnostic:
    """E312: `win`, `draw` or `rank` outside an `end when` rule."""
    return _E312.at(span, f"'{kind}' may only be used inside an 'end when' rule")


def pass_outside_reaction(span: Span, in_proc: str = "") -> Diagnostic:
    """E313: `pass` that is not inside the body of a `react` statement (a proc's body is
    not, even when the proc is called from one)."""
    hint = (
        f"'pass' ends the opportunity of the 'react' it is written in; proc '{in_proc}' "
        "cannot pass for its caller: let it return, and pass in the reaction's body"
        if in_proc
        else "'pass' may only be used inside 'react from PLAYER as NAME { ... }'"
    )
    return _E313.at(span, "'pass' outside a reaction round: there is nothing to pass", hint)


def jump_outside_loop(word: str, span: Span, in_proc: str = "", reacting: int = 0) -> Diagnostic:
    """E325: `break` or `continue` that is not inside a loop's body (a proc's body is
    not, even when the proc is called from one; nor is a reaction round's body, even
    inside a loop)."""
    if in_proc:
        hint = (
            f"'{word}' acts on the loop it is written in; proc '{in_proc}' cannot "
            f"{word} its caller's loop: let it return, and {word} in the loop's body"
        )
    elif reacting:
        hint = f"a reaction round is played out whole: '{word}' after the 'react' statement"
    else:
        hint = f"'{word}' may only be used inside 'while', 'for' or 'repeat'"
    return _E325.at(span, f"'{word}' outside a loop: there is no loop to {word}", hint)


def def_acts(statement: str, name: str, span: Span) -> Diagnostic:
    """E317: a statement other than let, set, if, while, for, repeat, break, continue
    and return in the block of a def (a def computes a value: it does not ask, draw,
    move or say)."""
    return _E317.at(
        span,
        f"'{statement}' cannot be used in def '{name}': a def only computes a value",
        "a def's block may use let, set (of its own locals), if, while, for, repeat, "
        "break, continue and return; write a proc for statements that act",
    )


def def_changes_game(target: str, name: str, span: Span) -> Diagnostic:
    """E318: `set` of a global or an attribute (or an item of one) in a def."""
    return _E318.at(
        span,
        f"def '{name}' cannot change '{target}': a def changes only its own locals",
        "return the value and set it where the def is called, or write a proc",
    )


def def_may_not_return(name: str, span: Span) -> Diagnostic:
    """E319: a way through the block of a def that ends without `return` (span: the
    statement it ends after, or the def)."""
    return _E319.at(
        span,
        f"def '{name}' can reach the end of its block without a 'return'",
        "every way through a def's block ends in 'return EXPR': an 'if' needs an 'else' "
        "that returns too, and a loop may run no round",
    )


def return_outside_def(span: Span) -> Diagnostic:
    """E320: `return` outside the block of a def."""
    return _E320.at(
        span,
        "'return' can only be used in the block of a def",
        "a proc, setup, turn or end rule ends at its last statement; put what must not "
        "run in an 'if'",
    )


def base_outside_override(context: str, proc_named_base: bool, span: Span) -> Diagnostic:
    """E321: `do base` in a block that does not override a block of a base file."""
    hint = (
        "'do base' always means the base file's version of the block; rename the proc 'base'"
        if proc_named_base
        else "'do base' runs the base file's version of the block that an 'override' replaces"
    )
    return _E321.at(span, f"'do base' in {context}, which does not override a base block", hint)


def base_not_a_block(name: str, what: str, span: Span) -> Diagnostic:
    """E322: `do base` in an override whose base is not a block (a proc overriding a
    const, a def...)."""
    return _E322.at(
        span, f"'do base' in the override of '{name}', but the base's '{name}' is {what}"
    )


def nothing_to_complete(var: str, span: Span) -> Diagnostic:
    """E323: a `complete` choice whose effect (the rest of its block, and the procs it
    calls) asks no choice and draws nothing: every option completes, `complete` does
    nothing."""
    return _E323.at(
        span,
        f"the choice of '{var}' is 'complete', but nothing after it in its block can fail "
        "to complete: no choice, roll or pick follows",
        "remove 'complete', or put the choice in the block whose end the effect reaches",
    )


def shuffle_in_effect(var: str, shuffled: str, span: Span, at: Span) -> Diagnostic:
    """E324: a shuffle in the effect of a `complete` choice (its orders are too many to
    try them all)."""
    return _E324.at(
        span,
        f"the choice of '{var}' is 'complete', but its effect shuffles {shuffled} (at "
        f"{at.line}:{at.col}): a shuffle has too many orders to try each",
        "shuffle before the choice or after the block the choice is in",
    )


# ====================================================================== runtime (Rxxx)
# Raised while a game runs: each constructor returns the error for its caller to raise
# (generated code raises one built in advance).

_R001 = _entry("R001", "step budget used up")
_R002 = _entry("R002", "no option left")
_R003 = _entry("R003", "index outside a list")
_R004 = _entry("R004", "empty list")
_R005 = _entry("R005", "division by zero")
_R006 = _entry("R006", "not in the zone")
_R007 = _entry("R007", "computed node outside its board")
_R008 = _entry("R008", "board cannot be built")
_R009 = _entry("R009", "range too long")
_R010 = _entry("R010", "the game never ends")
_R011 = _entry("R011", "rules nest too deeply")
_R012 = _entry("R012", "nothing to draw from")
_R013 = _entry("R013", "no table entry")
_R014 = _entry("R014", "step off the board")
_R015 = _entry("R015", "zone of nobody")
_R016 = _entry("R016", "no such cell")
_R017 = _entry("R017", "cell taken")
_R018 = _entry("R018", "not a number")
_R019 = _entry("R019", "board attribute of the wrong length")
_R020 = _entry("R020", "bad kind count")
_R021 = _entry("R021", "table too large")
_R022 = _entry("R022", "kind too large")
_R023 = _entry("R023", "none where a player is needed")
_R024 = _entry("R024", "item set outside a list")
_R025 = _entry("R025", "completion search too long")
_R026 = _entry("R026", "tile edges of the wrong length")
_R027 = _entry("R027", "every player skipped")
_R030 = _entry("R030", "none used as a value")
_R031 = _entry("R031", "bot step budget")

BudgetKind = Literal["loop", "rounds", "turns", "reaction"]


def _raise_it(limit: Limit, if_meant: str = "") -> str:
    """The hint of an error that stops at a limit (a field of `rulelang.Limits`): the
    option of the `rulelang` command that raises it, and the field in the API."""
    how = f"raise it with {LIMIT_OPTIONS[limit]} (limits=Limits({limit}=...) in the API)"
    return f"{if_meant}, {how}" if if_meant else how


def step_budget(kind: BudgetKind, budget: int, span: Span) -> GameRuntimeError:
    """R001: the rules ran on without asking anyone: a loop ran (or would run) past the
    step budget, or turns passed that asked nobody."""
    if kind == "loop":
        message = (
            f"this loop ran {budget} rounds without anyone being asked to act: does it ever end?"
        )
    elif kind == "reaction":
        message = (
            f"this reaction round gave {budget} opportunities without anyone being asked to "
            "act: does its body ever pass or ask?"
        )
    elif kind == "rounds":
        message = f"this loop would run more than {budget} rounds without anyone being asked to act"
    else:
        message = f"{budget} turns passed without anyone being asked to act: the game cannot end"
    return _R001.fail(span, message, _raise_it("steps", "if the rules mean to run this long"))


def is_no_option_left(err: GameRuntimeError) -> bool:
    """Is err an R002 (a choice with no option left)?"""
    return err.code == _R002.code


def no_option_left(var: str, span: Span) -> GameRuntimeError:
    """R002: a `choose` (that may not pass) with no option left."""
    return _R002.fail(span, f"nobody can choose '{var}' here: no option is left")


def index_outside(i: int, size: int, span: Span) -> GameRuntimeError:
    """R003: `list[i]` with i outside the list (negative indexes too)."""
    return _R003.fail(span, f"index {i} is outside the list (it has {size} items, counted from 0)")


def empty_list(what: str, span: Span) -> GameRuntimeError:
    """R004: `max`, `min`, `first` or `last` of an empty list."""
    return _R004.fail(span, f"{what} of an empty list")


def division_by_zero(span: Span) -> GameRuntimeError:
    """R005: `/` or `%` by zero."""
    return _R005.fail(span, "division by zero")


def number_too_large(span: Span) -> GameRuntimeError:
    """R046: a product of two computed numbers past 64 bits (squared again and again,
    a number would soon fill the memory)."""
    return _R046.fail(
        span,
        "the product of two computed numbers must lie within -9223372036854775808.."
        "9223372036854775807 (64 bits)",
        "a number multiplied by itself, or by another that grows, grows past any bound "
        "in a few dozen steps: bound it with min(...)",
    )


def not_in_zone(zone: str, span: Span) -> GameRuntimeError:
    """R006: `move` of an item that is not in the zone it is moved from."""
    return _R006.fail(span, f"that is not in zone '{zone}'")


def search_too_wide(board: str, cells: int, limit: int, span: Span) -> GameRuntimeError:
    """R044: path_length on a grid without bounds whose start, goals and walls lie so
    far apart that the box around them holds more cells than the limit of items."""
    return _R044.fail(
        span,
        f"path_length on '{board}' would search {cells} cells (the box around its start, "
        f"goals and walls); at most {limit} are allowed",
    )


def node_outside(node: int, board: str, size: int, span: Span) -> GameRuntimeError:
    """R007: a number used as a node of a board that is not one of its nodes."""
    return _R007.fail(
        span, f"{node} is not a node of board '{board}' (its nodes are 0..{size - 1})"
    )


def board_not_built(reason: str, span: Span, too_many: bool = False) -> GameRuntimeError:
    """R008: a board that cannot be built: no nodes, too many (past the limit of items:
    `too_many`), wrong arguments."""
    return _R008.fail(span, reason, _raise_it("items") if too_many else "")


def range_too_long(low: int, high: int, limit: int, span: Span) -> GameRuntimeError:
    """R009: `a..b` with more numbers than the limit."""
    return _R009.fail(
        span,
        f"{low}..{high} has {high - low + 1} numbers; at most {limit} are allowed",
        _raise_it("items"),
    )


def never_ends(what: str, span: Span) -> GameRuntimeError:
    """R010: bots alone kept a game going past their budget of decisions."""
    return _R010.fail(
        span,
        f"{what}: do its end rules ever hold?",
        _raise_it("decisions", "if the game is meant to last this long"),
    )


def nests_too_deeply_at_runtime(span: Span) -> GameRuntimeError:
    """R011: calls nested past what Python allows."""
    return _R011.fail(span, "the rules nest too deeply")


def nothing_to_draw(kind: str, span: Span) -> GameRuntimeError:
    """R012: `roll` of a die or `pick` from a list with nothing in it."""
    return _R012.fail(span, f"nothing to {kind} from")


def no_table_entry(key: object, span: Span) -> GameRuntimeError:
    """R013: `table[k]` with no entry for k."""
    return _R013.fail(span, f"the table has no entry for {key}")


def no_direction(d: int, span: Span) -> GameRuntimeError:
    """R045: a direction given to `neighbour` that is not 0-7."""
    return _R045.fail(
        span,
        f"{d} is not a direction: directions are 0-3 (north, east, south, west) and 4-7 "
        "(north-east, south-east, south-west, north-west)",
        "to turn, count modulo 4 or 8: (d + 1) % 4 is the next direction clockwise",
    )


def step_off_board(board: str, span: Span) -> GameRuntimeError:
    """R014: `step` past either end of a `line` board."""
    return _R014.fail(span, f"stepping off the end of board '{board}'")


def zone_of_nobody(span: Span) -> GameRuntimeError:
    """R015: `zone[p]` with p `none`."""
    return _R015.fail(span, "a zone of 'none': no player owns it")


def no_such_cell(span: Span) -> GameRuntimeError:
    """R016: `place` on a cell that is `none` (off the grid)."""
    return _R016.fail(span, "there is no such cell to place on")


def cell_taken(span: Span) -> GameRuntimeError:
    """R017: `place` on a cell that already holds a tile."""
    return _R017.fail(span, "that cell already holds a tile")


def not_a_number(text: str, span: Span) -> GameRuntimeError:
    """R018: `number(t)` of a text that is not a number."""
    return _R018.fail(span, f"'{text}' is not a number")


def board_attribute_length(name: str, values: int, nodes: int, span: Span) -> GameRuntimeError:
    """R019: a board attribute without exactly one value per node."""
    return _R019.fail(span, f"board attribute '{name}' has {values} values for {nodes} nodes")


def bad_kind_count(kind: str, count: object, span: Span) -> GameRuntimeError:
    """R020: a kind whose count is negative or not a number."""
    return _R020.fail(span, f"the count of '{kind}' is {count}")


def tile_sides(kind: str, sides: int, given: int, span: Span) -> GameRuntimeError:
    """R026: the `edges` a rule gives a tile (a default, a `set`) without one value per
    side of the grid (E124 is the same mistake in a data file, found before play)."""
    return _R026.fail(
        span, f"the 'edges' of a {kind} needs {sides} sides (N, E, S, W), not {given}"
    )


def table_too_large(table: str, limit: int, span: Span) -> GameRuntimeError:
    """R021: a table with more keys than the limit."""
    return _R021.fail(span, f"table '{table}' has more than {limit} keys", _raise_it("items"))


def kind_too_large(count: int, kind: str, limit: int, span: Span) -> GameRuntimeError:
    """R022: a kind with more pieces or cards than the limit."""
    return _R022.fail(
        span,
        f"{count} {kind}s; at most {limit} pieces or cards of a kind are allowed",
        _raise_it("items"),
    )


def none_used(span: Span) -> GameRuntimeError:
    """R030: `none` (no player, piece or card) used where a value is needed: an
    attribute of none, none as a number or an index."""
    return _R030.fail(
        span,
        "this uses none where a player, piece, card or number is needed "
        "(a variable never set, a choice passed, or 'first' of an empty list?)",
    )


def no_player(what: str, span: Span) -> GameRuntimeError:
    """R023: `none` where the rules need a player: `next_player(none)`,
    `prev_player(none)`, `order ... from none`, `react from none`, `choose ... by none`."""
    return _R023.fail(span, f"{what} is none, not a player")


def everyone_skipped(span: Span) -> GameRuntimeError:
    """R027: a phase's `skip when` holds for every player: nobody can take the turn."""
    return _R027.fail(
        span,
        "'skip when' holds for every player: nobody is left to take the turn",
        "end the game (or the phase) before the last player is skipped: an 'end when' "
        "that holds when fewer than two players are left",
    )


def set_outside(i: int | None, size: int, span: Span) -> GameRuntimeError:
    """R024: `set xs[i] = v` with i outside the list (negative indexes too)."""
    shown = "none" if i is None else i
    return _R024.fail(
        span,
        f"cannot set item {shown}: it is outside the list (it has {size} items, counted from 0)",
    )


def completion_budget(var: str, limit: int, span: Span) -> GameRuntimeError:
    """R025: a `complete` choice visited more states than the limit while it looked for
    a way to complete its options' effect."""
    return _R025.fail(
        span,
        f"looking for a way to complete each option of '{var}' visited more than {limit} states",
        _raise_it("completion", "if the effect is that large"),
    )


# ===================================================================== warnings (Wxxx)
# None today: a warning would be a W code here, built with `Entry.at`.


def bot_reads_hidden(bot: str, what: str, why: str, via: str, span: Span) -> Diagnostic:
    """E247: a bot's condition or rule (or a def it calls) reads what its player may not
    see: an attribute or global visible to none, one visible to owner of someone not
    known to be the bot's player, a hidden zone, or a face-down tile."""
    return _E247.at(
        span,
        f"bot '{bot}' reads {what}{via}, which its player may not see: {why}",
        "a bot may read only what its player's view shows: known(me, EXPR) reads what "
        "its player sees now, none for the rest; see 'Computer players' in "
        "docs/language.md",
    )


def is_step_budget(err: GameRuntimeError) -> bool:
    """Is this the R001 of `step_budget` (a bot's own budget turns it into R031)?"""
    return err.code == _R001.code


def bot_step_budget(bot: str, choice: str, budget: int, span: Span) -> GameRuntimeError:
    """R031: a bot's rules (or the defs they call) ran past the bot's own step budget
    while ranking the options of one choice (or checking its `for` condition, when
    `choice` is empty)."""
    what = f"ranking the options of '{choice}'" if choice else "checking its 'for' condition"
    return _R031.fail(
        span,
        f"bot '{bot}' ran more than {budget} rounds of loops {what}",
        "a rule of the bot (or a def it calls) loops without end? " + _raise_it("steps"),
    )


def estimate_step_budget(budget: int, span: Span) -> GameRuntimeError:
    """R031 too: the rules' `estimate` (or a def it calls) ran past its own step budget
    while a search bot scored a position."""
    return _R031.fail(
        span,
        f"the estimate ran more than {budget} rounds of loops scoring a position",
        "the estimate (or a def it calls) loops without end? " + _raise_it("steps"),
    )


# ============================================ board state, sides and generation
# (docs/language.md, "Board state, sides and generation")

_E250 = _entry("E250", "edge attribute on a board that is not a grid")
_E251 = _entry("E251", "board state read or set as a whole")
_E252 = _entry("E252", "two indexes on something other than an edge attribute")
_E253 = _entry("E253", "edge attribute indexed by something other than a side")
_E254 = _entry("E254", "generate on a board that is not a grid")
_E255 = _entry("E255", "reveal to players something that is not an item")
_E256 = _entry("E256", "estimate's playouts by bots, and no bot is declared")
_E257 = _entry("E257", "every cell of a grid without bounds")
_R040 = _entry("R040", "no path can be generated")
_R041 = _entry("R041", "too few sides or cells to generate")
_R042 = _entry("R042", "no such side")
_R043 = _entry("R043", "negative count to generate")
_R044 = _entry("R044", "path search too wide")
_R045 = _entry("R045", "no such direction")
_R046 = _entry("R046", "number too large")


def edge_needs_grid(name: str, board: str, shape: str, span: Span) -> Diagnostic:
    """E250: `edge NAME: ...` on a ring or line board (sides belong to grid cells)."""
    return _E250.at(
        span,
        f"edge attribute '{name}' needs a grid board, and '{board}' is a {shape}",
        "edges are the sides of a grid's cells; on a ring or a line use 'state' (one value "
        "per node)",
    )


def board_state_whole(name: str, board: str, edge: bool, span: Span) -> Diagnostic:
    """E251: a board's state or edge attribute used without an index (`maze.kind`,
    `set maze.kind = ...`): it is read and set one cell or side at a time."""
    how = (
        f"{board}.{name}[cell, direction] or {board}.{name}[side]"
        if edge
        else (f"{board}.{name}[cell]")
    )
    what = "edge" if edge else "state"
    return _E251.at(
        span,
        f"{what} '{name}' of board '{board}' is read and set one "
        f"{'side' if edge else 'node'} at a time",
        f"write {how}",
    )


def two_indexes(what: str, span: Span) -> Diagnostic:
    """E252: `x[a, b]` where x is not an edge attribute of a grid board."""
    return _E252.at(
        span,
        f"{what} takes one index: only an edge attribute takes two (a cell and a direction)",
        "write x[i]; 'b.edge[cell, direction]' is for 'edge' attributes of grid boards",
    )


def not_a_side(name: str, board: str, got: object, span: Span) -> Diagnostic:
    """E253: an edge attribute indexed by something that is not a side of its board."""
    return _E253.at(
        span,
        f"edge '{name}' of board '{board}' is indexed by a side(" + board + f"), not by {got}",
        f"write {board}.{name}[cell, direction] or {board}.{name}[side({board}, cell, direction)]",
    )


def generate_needs_grid(board: str, what: str, span: Span) -> Diagnostic:
    """E254: `generate ... on B` where B is not a grid board."""
    return _E254.at(span, f"generate needs a grid board, and '{board}' is {what}")


def open_grid_listed(what: str, board: str, span: Span) -> Diagnostic:
    """E257: something that needs every cell of a board (`nodes`, a state, edge or fixed
    attribute, a side, `generate`) on a grid without bounds, whose cells are endless."""
    return _E257.at(
        span,
        f"{what} needs every cell of board '{board}', and '{board}' is a grid without "
        "bounds: its cells never end",
        f"give the grid bounds (grid(x from, x to, y from, y to)), or reach its cells "
        f"with cell(), neighbour() and the tile functions (placed({board}), "
        f"spots({board}, c))",
    )


def reveal_needs_item(got: object, kinds: list[str], span: Span) -> Diagnostic:
    """E255: `reveal X to P` where X is not a piece, card or tile of a kind that a zone
    or a tiled board holds (only an item has a place to learn)."""
    held = ", ".join(kinds) if kinds else "none: no zone or tiled board is declared"
    return _E255.at(
        span,
        f"'reveal ... to' shows a player where an item lies, and {got} is not an item "
        f"a zone or tiled board holds (kinds held: {held})",
        "to show a tile on a board, write `reveal tile(BOARD, CELL) to PLAYER`",
    )


def no_bots_to_play(span: Span) -> Diagnostic:
    """E256: `estimate after N decisions by bots` in rules that declare no bot (the
    decisions past a search's tree would be random, as without `by bots`)."""
    return _E256.at(
        span,
        "'by bots' lets the declared bots take a search's playout decisions, and these "
        "rules declare no bot",
        "declare one (`bot NAME { when choosing VAR { prefer ... } }`), or leave out "
        "'by bots' for random playouts",
    )


# ======================================================================= measures
# (docs/language.md, "Measures")

_E260 = _entry("E260", "measure that is not a number")
_E280 = _entry("E280", "unknown display of an attribute")


def unknown_display(name: str, display: str, span: Span) -> Diagnostic:
    """E280: `display WORD` on an attribute, WORD not one the screens know, or
    `display node(B)` with B not a board."""
    return _E280.at(
        span,
        f"attribute '{name}' has an unknown display '{display}'",
        "write 'display direction' (0 north ... 3 west, drawn as arrows), 'display "
        "node(BOARD)' (a node's number, drawn as its name) or 'display bookkeeping' "
        "(left off the screens unless asked: 'board --all')",
    )


def measure_not_a_number(name: str, got: str, span: Span) -> Diagnostic:
    """E260: `measure NAME = EXPR` where EXPR is neither a number nor yes/no (the
    reports average measures, and give a yes/no one as the share of games it holds)."""
    return _E260.at(
        span,
        f"measure '{name}' must be a number or yes/no, not {got}",
        "count it: `len(...)`, `count(...)`, or compare it: `x == y` is a yes/no measure",
    )


def measure_step_budget(name: str, budget: int, span: Span) -> GameRuntimeError:
    """R031 too: a `measure` (or a def it calls) ran past its own step budget while a
    finished game was measured."""
    return _R031.fail(
        span,
        f"measure '{name}' ran more than {budget} rounds of loops measuring a game",
        "the measure (or a def it calls) loops without end? " + _raise_it("steps"),
    )


def no_path(length: int, bends: int | None, ends: str, span: Span) -> GameRuntimeError:
    """R040: `generate ... = path` found no path of that length (and bends, ends) in
    its bounded search: it is impossible, or too rare, on that board."""
    more = f" with at most {bends} bends" if bends is not None else ""
    return _R040.fail(
        span,
        f"generate found no path of {length} cells{more}{ends}",
        "the board may be too small for that path: ask for a shorter one, or more bends",
    )


def too_few_candidates(what: str, wanted: int, found: int, span: Span) -> GameRuntimeError:
    """R041: `generate ... = sides / rim sides / cells` ran out of candidates (meeting its
    `where`, and with `keep connected` keeping every cell reachable) before it had N."""
    return _R041.fail(
        span,
        f"generate wanted {wanted} {what} but only {found} could be drawn",
        "fewer meet the condition (or keep every cell reachable) than the count asks for",
    )


def no_such_side(board: str, cell: object, direction: object, span: Span) -> GameRuntimeError:
    """R042: `side(b, c, d)` (or `b.edge[c, d]`) with c none or not a cell, or d not 0..3."""
    shown = ["none" if v is None else v for v in (direction, cell)]
    return _R042.fail(
        span,
        f"there is no side {shown[0]} of cell {shown[1]} on board '{board}'",
        "the cell must be a cell of the board and the direction 0..3 (N, E, S, W)",
    )


def negative_generate(count: object, span: Span) -> GameRuntimeError:
    """R043: `generate` with a count (or path length, or bends) that is not a number 0 or
    more."""
    return _R043.fail(span, f"generate needs counts of 0 or more, not {count}")
