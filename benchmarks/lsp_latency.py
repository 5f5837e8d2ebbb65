"""How long `rulelang lsp` takes to publish the diagnostics of a rule file after an
edit: the time from sending `textDocument/didChange` to receiving
`textDocument/publishDiagnostics`, measured by a client over the server's stdio.

The server runs with `--debounce 0`, so the figures leave the debounce out: in an
editor, add the debounce (150 ms by default; `--debounce 150` measures with it). Each
edit changes the text, so nothing is answered from the cache of unchanged texts. The
first line per file is the file's opening (the first one parses and checks the
shipped game and the stdlib too, and loads the grammar).

    python benchmarks/lsp_latency.py [--edits 40] [--debounce 0] [FILE ...]

(default: rulesets/saboteur.rules, and its variant saboteur-official.rules, which
extends it)."""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rulelang.lsp.stdio_client import Client

HERE = Path(__file__).resolve().parent.parent
FILES = [HERE / "rulesets" / "saboteur.rules", HERE / "rulesets" / "saboteur-official.rules"]


def edits(text: str, n: int) -> list[tuple[str, str]]:
    """(what, text) pairs: a comment added, a number changed, a name mistyped (one
    E101), and a syntax error, in turn."""
    kinds = [
        ("comment", lambda i: text + f"\n# edit {i}\n"),
        ("number", lambda i: text.replace("= 3", f"= {3 + i}", 1) + f"\n# {i}\n"),
        ("mistyped name", lambda i: text + f"\nconst typo_{i} = player_cuont\n"),
        ("syntax error", lambda i: text + f"\nconst broken_{i} = = 1\n"),
    ]
    return [(kinds[i % 4][0], kinds[i % 4][1](i)) for i in range(n)]


def measure(client: Client, path: Path, n: int) -> dict[str, list[float]]:
    text = path.read_text(encoding="utf-8")
    sent = time.perf_counter()
    uri = client.open(path)
    came, _params = client.wait("textDocument/publishDiagnostics", uri)
    times: dict[str, list[float]] = {"(opened)": [(came - sent) * 1000]}
    for version, (what, new) in enumerate(edits(text, n), start=2):
        sent = time.perf_counter()
        client.change(uri, version, new)
        came, params = client.wait("textDocument/publishDiagnostics", uri)
        assert params["version"] == version
        assert (what in ("comment", "number")) == (params["diagnostics"] == []), what
        times.setdefault(what, []).append((came - sent) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, default=FILES)
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--debounce", type=int, default=0, help="the server's, in ms")
    args = parser.parse_args()
    client = Client("--debounce", str(args.debounce))
    client.start(str(HERE))
    try:
        for path in args.files:
            times = measure(client, path, args.edits)
            every = [t for what, ts in times.items() if what != "(opened)" for t in ts]
            print(f"{path.name}: {len(every)} edits, didChange -> publishDiagnostics (ms)")
            for what, ts in [*times.items(), ("all", every)]:
                ts = sorted(ts)
                p90 = ts[int(0.9 * (len(ts) - 1))]
                print(
                    f"  {what:<14} median {statistics.median(ts):6.1f}"
                    f"  p90 {p90:6.1f}  max {ts[-1]:6.1f}"
                )
    finally:
        client.stop()


if __name__ == "__main__":
    main()
