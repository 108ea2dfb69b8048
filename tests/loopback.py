"""A real HTTP server on 127.0.0.1 that replays recorded responses, for client tests.

    with Loopback(handler) as server:        # handler(Request) -> Reply
        server.faults["/api/query"] = [Fault.status(429), Fault.timeout(1.0)]
        requests.get(server.url + "/api/query")

`faults[path]` is a queue consumed one per request to that path (path without query);
`sticky[path]` is a predicate: while it returns a Fault for a request, that fault is
served every time (to make a whole window fail until the test clears it). Every request
is logged in `server.log` (method, path, query dict, body) for request counting. The
server runs in a daemon thread and is shut down and closed on exit.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, str]
    body: bytes
    headers: dict[str, str]

    def json(self):
        return json.loads(self.body or b"null")


@dataclass
class Reply:
    status: int = 200
    body: bytes | str = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def json(data, status: int = 200) -> Reply:
        return Reply(status, json.dumps(data), "application/json")


@dataclass
class Fault:
    kind: str  # status | timeout | truncate | drop
    status: int = 500
    seconds: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)

    @staticmethod
    def http(status: int, retry_after: str | None = None) -> Fault:
        return Fault("status", status, headers={"Retry-After": retry_after} if retry_after else {})

    @staticmethod
    def timeout(seconds: float) -> Fault:
        """Answer normally, but only after `seconds` (longer than the client's timeout)."""
        return Fault("timeout", seconds=seconds)

    @staticmethod
    def truncate() -> Fault:
        """200 with the first half of the real body (a cut page)."""
        return Fault("truncate")

    @staticmethod
    def drop() -> Fault:
        """Announce the full Content-Length, send half, close the connection."""
        return Fault("drop")


class Loopback:
    def __init__(self, handler: Callable[[Request], Reply]):
        self.handler = handler
        self.faults: dict[str, list[Fault]] = defaultdict(list)
        self.sticky: dict[str, Callable[[Request], Fault | None]] = {}
        self.log: list[Request] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _serve(self):
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                req = Request(
                    self.command,
                    parts.path,
                    {k: v[0] for k, v in parse_qs(parts.query).items()},
                    body,
                    {k.lower(): v for k, v in self.headers.items()},
                )
                with outer._lock:
                    outer.log.append(req)
                    fault = outer.faults[req.path].pop(0) if outer.faults.get(req.path) else None
                    sticky = outer.sticky.get(req.path)
                if fault is None and sticky is not None:
                    fault = sticky(req)
                if fault is not None and fault.kind == "status":
                    return self._send(
                        Reply(fault.status, json.dumps({"error": f"injected {fault.status}"}), headers=fault.headers)
                    )
                if fault is not None and fault.kind == "timeout":
                    time.sleep(fault.seconds)
                reply = outer.handler(req)
                data = reply.body.encode() if isinstance(reply.body, str) else reply.body
                if fault is not None and fault.kind == "truncate":
                    reply = Reply(reply.status, data[: len(data) // 2], reply.content_type, reply.headers)
                if fault is not None and fault.kind == "drop":
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self._send(reply)

            def _send(self, reply: Reply):
                data = reply.body.encode() if isinstance(reply.body, str) else reply.body
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

            do_GET = do_POST = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def requests_to(self, path: str) -> list[Request]:
        with self._lock:
            return [r for r in self.log if r.path == path]

    def __enter__(self) -> Loopback:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)
