"""Adapters that turn any ruleset into the game interfaces of research tools.

- `rulelang.interop.pettingzoo`: a PettingZoo AEC environment (`env(...)`);
- `rulelang.interop.openspiel`: an OpenSpiel game, registered with `pyspiel` as
  `"rulelang"` (`load(...)` or `pyspiel.load_game("rulelang", {...})`).

Each needs its optional dependency (`pip install 'rulelang[interop]'`), so nothing is
imported here: import the module you use. docs/interop.md describes both.
"""
