"""Two callgrind profiles side by side, per match: the machine instructions each C
function of CPython ran itself (not its callees), the largest differences first, then
per source file. See benchmarks/callgrind_match.py for the runs.

    python benchmarks/callgrind_diff.py fast.out plain.out --matches 100

Stdlib only; runs `callgrind_annotate` (installed with valgrind).
"""

from __future__ import annotations

import argparse
import re
import subprocess
from collections import Counter

ROW = re.compile(r"\s*([\d,]+) \([^)]*\)\s+(\S+)")


def per_function(path: str, matches: int) -> Counter[str]:
    """file:function -> instructions a match (recursive entries folded together)."""
    text = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--threshold=100", path],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found: Counter[str] = Counter()
    for line in text.splitlines():
        m = ROW.match(line)
        if m and "PROGRAM TOTALS" not in line:
            name = re.sub(r"'\d+$", "", m.group(2).split("/")[-1])
            found[name] += round(int(m.group(1).replace(",", "")) / matches)
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--matches", type=int, default=1, help="matches each profile counted")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args()
    a, b = per_function(args.first, args.matches), per_function(args.second, args.matches)
    total_a, total_b = sum(a.values()), sum(b.values())
    print(f"a match: {total_a:,} against {total_b:,} instructions ({total_a / total_b:.2f}x)")
    for title, key in (("function", lambda k: k), ("file", lambda k: k.split(":")[0])):
        left, right = Counter[str](), Counter[str]()
        for k, v in a.items():
            left[key(k)] += v
        for k, v in b.items():
            right[key(k)] += v
        print(f"\n{title:<60} {'first':>11} {'second':>11} {'excess':>11}")
        names = sorted(set(left) | set(right), key=lambda k: right[k] - left[k])
        for k in names[: args.top]:
            print(f"{k[:60]:<60} {left[k]:>11,} {right[k]:>11,} {left[k] - right[k]:>11,}")


if __name__ == "__main__":
    main()
