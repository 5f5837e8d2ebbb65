"""Keeping games: the SQLite store of every game played (store.py, `rulelang games`)
and portable saved-game files (saves.py, `play --save`, `resume`)."""
