"""The designer's workbench: rule tests written as text (`*.rulestest`: testfile.py
reads them, runner.py runs them, pytest_plugin.py lets pytest collect them) and the
starter files of `rulelang new` (starter.py). Above the public API: it plays games
only through `Game`, as any front end would."""
