"""An example external research agent for foresci ("bring your own agent").

Standard library only, so it can be copied anywhere. It implements the contract of
docs/agents.md twice:

* as a Python entry point:   external_agents: ["docs.examples.byo_agent:answer"]
* as an HTTP agent:          python docs/examples/byo_agent.py --port 8765
                             external_agents: ["byo=http://127.0.0.1:8765/answer"]

The agent itself is deliberately simple (no language model, backbone "none"): it
searches the cutoff-bound knowledge base for each candidate, ranks candidates by the
mean similarity of their closest papers, and cites what it read. Replace `answer` with
your own agent; keep its signature and return shape.
"""

from __future__ import annotations

import argparse
import json
import re
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PROTOCOL = "foresci-agent/1"
LIMIT_CUES = ("however", "limited", "limitation", "challenge", "bottleneck", "costly", "fail", "struggle", "lack")


def _subject(task: dict) -> str:
    quoted = re.search(r"'([^']{4,200})'", task["question"])
    return quoted.group(1) if quoted else task["title"]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if len(s.strip()) > 20]


def answer(task: dict, kb) -> dict:
    """The agent: `task` is the public task (dict), `kb` has search(query, k, mode) and get(arxiv_id)."""
    family, options = task["family"], task.get("options", [])
    queries: list[str] = []
    if family == "bottleneck":
        subject = _subject(task)
        queries = [f"{subject} limitations challenges bottleneck"]
        hits = kb.search(queries[0], k=10, mode="hybrid")
        limits = [(h, s) for h in hits for s in _sentences(h["snippet"]) if any(c in s.lower() for c in LIMIT_CUES)]
        bottleneck = limits[0][1] if limits else f"unclear from the pre-cutoff evidence on {subject}"
        newest = max(hits, key=lambda h: h["published"]) if hits else None
        used = list(dict.fromkeys([h["arxiv_id"] for h, _ in limits[:3]] + ([newest["arxiv_id"]] if newest else [])))
        body = {
            "bottleneck": bottleneck[:200],
            "opportunity": f"the approach of '{newest['title']}'" if newest else "unclear",
            "mechanism": "the limitation recurs across the retrieved pre-cutoff papers",
            "claims": [f"Pre-cutoff work on {subject} reports: {s[:200]}" for _, s in limits[:3]],
        }
        return {
            "answer": body,
            "evidence_ids": used,
            "backbone": "none",
            "retrieval_queries": queries,
            "artifacts": {"limitations_found": len(limits)},
        }

    if not options:  # an open question (e.g. an imported ForeSci release): the newest matching work
        queries = [task["question"]]
        hits = sorted(kb.search(queries[0], k=10, mode="hybrid"), key=lambda h: h["published"], reverse=True)[:3]
        picks = [h["title"] for h in hits] or ["unclear from the pre-cutoff evidence"]
        body = {
            "choice": picks[0],
            "ranking": picks,
            "claims": [f"Recent pre-cutoff work ({h['published']}): {h['title']}" for h in hits],
        }
        if family == "direction":
            body.update(trajectory="accelerating", rationale="the newest closely matching pre-cutoff work")
        elif family == "planning":
            body.update(go_no_go=f"Go on '{picks[0]}' first.")
        return {
            "answer": body,
            "evidence_ids": [h["arxiv_id"] for h in hits],
            "backbone": "none",
            "retrieval_queries": queries,
            "artifacts": {"open_question": True},
        }

    scores, cited = {}, []
    for opt in options:
        query = f"{task['question']} {opt['text']}" if family == "venue" else opt["text"]
        queries.append(query)
        hits = kb.search(query, k=5, mode="dense")
        scores[opt["option_id"]] = sum(h["score"] for h in hits) / len(hits) if hits else 0.0
        cited += [h["arxiv_id"] for h in hits[:2]]
    ranking = sorted(scores, key=lambda oid: -scores[oid])
    text = {o["option_id"]: o["text"] for o in options}
    claims = [f"'{text[ranking[0]]}' has the closest pre-cutoff support (mean similarity {scores[ranking[0]]:.3f})."]
    body: dict = {"ranking": ranking, "claims": claims}
    if family == "direction":
        body.update(choice=ranking[0], trajectory="steady", rationale="closest pre-cutoff support")
    elif family == "planning":
        body.update(go_no_go=f"Go on '{text[ranking[0]]}' first.")
    elif family == "venue":
        body.update(framing=f"Frame the contribution for {text[ranking[0]]}.")
    return {
        "answer": body,
        "evidence_ids": list(dict.fromkeys(cited)),
        "backbone": "none",
        "retrieval_queries": queries,
        "artifacts": {"option_scores": scores},
    }


# -- the HTTP side of the contract ----------------------------------------------------------


class HTTPKB:
    """The knowledge-base tool over HTTP: same interface as the in-process one."""

    def __init__(self, endpoint: str, cutoff: str = "", evidence: list | None = None, timeout: float = 30.0):
        self.endpoint, self.cutoff, self.timeout = endpoint.rstrip("/"), cutoff, timeout
        self.evidence = list(evidence or [])  # pre-retrieved hits of the question, sent with the request

    def _post(self, op: str, payload: dict) -> dict:
        req = urllib.request.Request(
            f"{self.endpoint}/{op}",
            data=json.dumps(payload).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            return json.loads(resp.read())

    def search(self, query: str, k: int = 10, mode: str = "hybrid") -> list[dict]:
        return self._post("search", {"query": query, "k": k, "mode": mode})["hits"]

    def get(self, arxiv_id: str) -> dict | None:
        return self._post("get", {"arxiv_id": arxiv_id})["hit"]


def make_server(host: str = "127.0.0.1", port: int = 8765, answer_fn=answer) -> ThreadingHTTPServer:
    """An HTTP agent: POST /answer with an AgentRequest -> AgentResponse; GET /health."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _send(self, code: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self._send(200, {"ok": True, "protocol": PROTOCOL})

        def do_POST(self):
            try:
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                if request.get("protocol") != PROTOCOL:
                    return self._send(400, {"error": f"unsupported protocol {request.get('protocol')!r}"})
                kb = HTTPKB(request["kb"]["endpoint"], request["kb"].get("cutoff", ""), request.get("evidence"))
                self._send(200, answer_fn(request["task"], kb))
            except Exception as exc:  # noqa: BLE001 - report, do not crash the server
                self._send(500, {"error": f"{type(exc).__name__}: {exc}"})

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    return server


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    srv = make_server(args.host, args.port)
    print(f"byo agent listening on http://{args.host}:{srv.server_address[1]}/answer", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()
