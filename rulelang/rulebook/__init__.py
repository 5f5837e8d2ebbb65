"""A rulebook players can read, generated from a rule file alone: see build.py for
what it holds, markdown.py and page.py for how it is written."""
