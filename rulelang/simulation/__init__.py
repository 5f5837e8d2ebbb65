"""Simulation: many games played by bots, in processes or on Dask, and summed up.

`run.simulate` plays them (`worker.play_chunk` in each process) and returns a
`summary.Summary`; the command line (cli/simulate.py) and the reports read it."""
