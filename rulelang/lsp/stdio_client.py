"""A small client that drives `rulelang lsp` over its stdin and stdout with JSON-RPC
frames, as an editor does: for the tests, the latency benchmark, and for trying the
server by hand (`python -m rulelang.lsp.stdio_client FILE` prints what it answers)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any


class ServerError(Exception):
    """An error response: its message is the server's."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", ""))
        self.code = error.get("code")


class Client:
    """One server process; `request` waits for the answer, `wait` for a notification."""

    def __init__(self, *args: str, cwd: str | None = None) -> None:
        command = [sys.executable, "-m", "rulelang.cli.main", "lsp", *args]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd
        )
        self.next_id = 0
        self.answers: dict[int, queue.Queue[dict[str, Any]]] = {}
        self.notes: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out: IO[bytes] = self.proc.stdout  # type: ignore[assignment]
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            msg = json.loads(out.read(length))
            if "id" in msg and "method" not in msg:
                self.answers.setdefault(msg["id"], queue.Queue()).put(msg)
            elif "id" not in msg:
                self.notes.put((time.perf_counter(), msg))

    def _send(self, msg: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **msg}).encode()
        stdin: IO[bytes] = self.proc.stdin  # type: ignore[assignment]
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()

    def request(self, method: str, params: Any, timeout: float = 10) -> Any:
        self.next_id += 1
        box = self.answers.setdefault(self.next_id, queue.Queue())
        self._send({"id": self.next_id, "method": method, "params": params})
        msg = box.get(timeout=timeout)
        if "error" in msg:
            raise ServerError(msg["error"])
        return msg.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def wait(self, method: str, uri: str = "", timeout: float = 10) -> tuple[float, Any]:
        """The next notification `method` (for `uri`), and when it came."""
        deadline = time.monotonic() + timeout
        while True:
            at, msg = self.notes.get(timeout=max(deadline - time.monotonic(), 0.001))
            params = msg.get("params") or {}
            if msg.get("method") == method and (not uri or params.get("uri") == uri):
                return at, params

    def start(self, root: str = "") -> Any:
        result = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": Path(root).as_uri() if root else None,
                "capabilities": {},
            },
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str | None = None) -> str:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8") if text is None else text
        item = {"uri": uri, "languageId": "rulelang", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})
        return uri

    def change(self, uri: str, version: int, text: str) -> None:
        """Replace the whole text (an editor sends pieces; the server takes either)."""
        doc = {"uri": uri, "version": version}
        self.notify(
            "textDocument/didChange", {"textDocument": doc, "contentChanges": [{"text": text}]}
        )

    def at(self, uri: str, line: int, character: int) -> dict[str, Any]:
        """Params naming a place: 0-based, as the protocol counts."""
        return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}

    def stop(self) -> int:
        """Shut the server down as an editor does; its exit status."""
        try:
            self.request("shutdown", None, timeout=5)
            self.notify("exit", None)
            code = self.proc.wait(timeout=5)
        except Exception:  # no answer: it is stopped all the same
            self.proc.kill()
            code = self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if pipe is not None:
                pipe.close()
        return code


def main(argv: list[str]) -> int:
    """Open a file, print its diagnostics and outline: the server tried by hand."""
    path = Path(argv[0])
    client = Client()
    print(json.dumps(client.start(), indent=1))
    uri = client.open(path)
    print(json.dumps(client.wait("textDocument/publishDiagnostics", uri)[1], indent=1))
    outline = client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    print("\n".join(f"{s['detail']:>8} {s['name']}" for s in outline))
    return client.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
