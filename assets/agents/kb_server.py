"""The loopback HTTP face of the knowledge-base tool, served to HTTP agents during a run.

`POST {session}/search {"query", "k", "mode"}`, `POST {session}/get {"arxiv_id"}` and
`GET {session}` (see docs/agents.md). The server faces code we do not control, so:

* **Bodies are validated** (pydantic, strict types, unknown keys refused): a wrong type,
  `k` outside 1..MAX_K, a non-object or malformed JSON body get **400** with a JSON
  `{"error": ...}` naming the field, never a dropped connection.
* **Bounded reads**: a body over `MAX_BODY_BYTES` gets **413** (its announced length is
  not read into memory); every socket read times out after `READ_TIMEOUT_S`, so a client
  that connects and stalls frees its thread instead of holding it for the run.
* **Concurrent**: one daemon thread per connection (`ThreadingHTTPServer`), so a slow
  client never delays another, and stopping the server never waits for a stuck one.
* Any other error inside a request is a **500** with a JSON message.
"""

from __future__ import annotations

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from assets.agents.kbtool import MAX_K, TracedKB, hit_dict

MAX_BODY_BYTES = 64 * 1024  # a query is a sentence or two; the largest real body is < 1 KB
READ_TIMEOUT_S = 10.0  # per socket read (request line, headers, body)
DRAIN_LIMIT_BYTES = 4 * 1024 * 1024  # an oversize body up to this is read and discarded so the 413 arrives


class SearchBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    query: str
    k: int = Field(10, ge=1, le=MAX_K)
    mode: Literal["hybrid", "dense", "text"] = "hybrid"


class GetBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    arxiv_id: str


class HTTPProblem(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _explain(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(map(str, e['loc'])) or 'body'}: {e['msg']}" for e in exc.errors())


def parse_body(raw: bytes, model: type[BaseModel]) -> BaseModel:
    """The request body as `model`, or HTTPProblem(400) saying what is wrong."""
    try:
        data = json.loads(raw or b"{}")
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HTTPProblem(400, f"body is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise HTTPProblem(400, f"body must be a JSON object, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise HTTPProblem(400, _explain(exc)) from exc


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a stuck client never blocks shutdown
    block_on_close = False

    def __init__(
        self, address, sessions: dict[str, TracedKB], lock: threading.Lock, *, read_timeout_s: float, max_body_bytes: int
    ):
        self.sessions, self.lock = sessions, lock
        self.read_timeout_s, self.max_body_bytes = read_timeout_s, max_body_bytes
        super().__init__(address, _Handler)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def setup(self):
        self.timeout = self.server.read_timeout_s  # set on the socket by setup(): every read is bounded
        super().setup()

    def log_message(self, *args):  # quiet
        pass

    def _send(self, code: int, body: dict) -> None:
        data = json.dumps(body).encode()
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):  # the client left
            self.close_connection = True

    def _session(self) -> tuple[TracedKB | None, str]:
        parts = self.path.split("?", 1)[0].strip("/").split("/")
        if len(parts) < 2 or parts[0] != "kb":
            return None, ""
        with self.server.lock:
            kb = self.server.sessions.get(parts[1])
        return kb, (parts[2] if len(parts) > 2 else "")

    def _body(self) -> bytes:
        declared = self.headers.get("Content-Length")
        if declared is None:
            if self.headers.get("Transfer-Encoding"):
                raise HTTPProblem(411, "send the body with a Content-Length (chunked bodies are not read)")
            return b""
        try:
            length = int(declared)
        except ValueError:
            raise HTTPProblem(400, f"bad Content-Length {declared[:40]!r}") from None
        if length < 0:
            raise HTTPProblem(400, f"bad Content-Length {length}")
        if length > self.server.max_body_bytes:
            self._unread = length
            raise HTTPProblem(413, f"body of {length} bytes is over the {self.server.max_body_bytes}-byte limit")
        data = self.rfile.read(length)  # TimeoutError after READ_TIMEOUT_S of silence
        if len(data) < length:
            raise HTTPProblem(400, f"body ended after {len(data)} of {length} bytes")
        return data

    def _drain(self) -> None:
        """Read and drop an oversize body (up to DRAIN_LIMIT_BYTES) after the 413 is sent:
        closing with unread bytes makes the kernel reset the connection, and a client still
        sending would then see a reset instead of our answer."""
        left = min(getattr(self, "_unread", 0), DRAIN_LIMIT_BYTES)
        try:
            while left > 0:
                chunk = self.rfile.read1(min(left, 65536))
                if not chunk:
                    break
                left -= len(chunk)
        except (OSError, ValueError):
            pass

    def do_GET(self):
        kb, op = self._session()
        if kb is None or op:
            return self._send(404, {"error": "unknown kb session"})
        self._send(200, {"cutoff": kb.cutoff.isoformat(), "operations": ["search", "get"], "max_k": MAX_K})

    def do_POST(self):
        try:
            kb, op = self._session()
            if kb is None:
                raise HTTPProblem(404, "unknown kb session")
            if op not in ("search", "get"):
                raise HTTPProblem(404, f"unknown operation {op!r}")
            raw = self._body()
            if op == "search":
                req = parse_body(raw, SearchBody)
                hits = kb.search(req.query, k=req.k, mode=req.mode)
                return self._send(200, {"hits": [hit_dict(h) for h in hits]})
            req = parse_body(raw, GetBody)
            hit = kb.get(req.arxiv_id)
            return self._send(200, {"hit": hit_dict(hit) if hit is not None else None})
        except HTTPProblem as exc:
            self.close_connection = True
            self._send(exc.status, {"error": exc.message})
            if exc.status == 413:
                self._drain()
        except TimeoutError:  # the client stopped sending mid-body: free the thread
            self.close_connection = True
            self._send(408, {"error": f"no data for {self.server.read_timeout_s:g} s"})
        except Exception as exc:  # noqa: BLE001 - a KB error is the server's, said as JSON
            self.close_connection = True
            self._send(500, {"error": f"{type(exc).__name__}: {exc}"})


class KBServer:
    """Serves cutoff-bound KB sessions on a loopback port for the duration of a run."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        read_timeout_s: float = READ_TIMEOUT_S,
        max_body_bytes: int = MAX_BODY_BYTES,
    ):
        self._sessions: dict[str, TracedKB] = {}
        self._lock = threading.Lock()
        self._server = _Server(
            (host, port), self._sessions, self._lock, read_timeout_s=read_timeout_s, max_body_bytes=max_body_bytes
        )
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def open_session(self, kb: TracedKB) -> str:
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._sessions[token] = kb
        return f"{self.base_url}/kb/{token}"

    def close_session(self, url: str) -> None:
        with self._lock:
            self._sessions.pop(url.rstrip("/").rsplit("/", 1)[-1], None)

    def start(self) -> KBServer:
        self._thread = threading.Thread(target=self._server.serve_forever, name="foresci-kb", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> KBServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
