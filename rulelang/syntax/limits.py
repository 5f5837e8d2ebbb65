"""How deeply rules may nest: past this, a rule file is refused with a diagnostic
instead of overflowing the parser or the generated Python (which allows about 200
nested parentheses and 100 levels of indentation)."""

MAX_NESTING = 60  # expressions within expressions, or blocks within blocks
