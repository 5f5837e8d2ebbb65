"""Text rendering of views: what a player sees, as the terminal shows it (text.py), and
the map of a grid or tiled board (board_map.py). The command line and the interop
adapters both use it."""
