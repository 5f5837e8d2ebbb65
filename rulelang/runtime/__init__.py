"""Runtime: checked rules compiled once to Python source (codegen.py, exprgen.py,
straight.py: ops a paused game resumes at by their number), the state they run on
(state.py), and the public engine API over them (ruleset.py, engine.py, queries.py,
edit.py, views.py)."""
