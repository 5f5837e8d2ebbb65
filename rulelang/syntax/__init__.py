"""Syntax layer: the only place that ever sees a lark tree (parser.py); ast_cache.py
keeps parsed files so that an unchanged file is not parsed again."""
