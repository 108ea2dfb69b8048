"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 (ephemeral port), for
driving the real LLM client path (litellm -> HTTP) through rate limits, hangs and replies
that ignore the schema.

    with FakeOpenAI(reply='{"label": "yes"}') as fake:   # every request answers this content
        fake.server.faults[fake.PATH] = [Fault.http(429, retry_after="2")]
        client = LLMClient("openai/fake", api_base=fake.api_base, api_key="k", ...)
        fake.requests()                                  # what reached the server

`hang=True` makes every request block until the server stops (a hung model server). It is
`tests.loopback.Loopback` (ThreadingHTTPServer, daemon threads) underneath; leaving the
block releases hung handlers, shuts the server down and closes its socket.
"""

from __future__ import annotations

import json
import threading

from tests.loopback import Loopback, Reply, Request


def completion(content: str, model: str = "fake") -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 7, "completion_tokens": 5, "total_tokens": 12},
    }


class FakeOpenAI:
    PATH = "/v1/chat/completions"

    def __init__(self, reply: str = "", *, hang: bool = False):
        self.reply, self.hang = reply, hang
        self._release = threading.Event()
        self.server = Loopback(self._handle)

    def _handle(self, req: Request) -> Reply:
        if self.hang:
            self._release.wait()  # until the test leaves the `with` block
        return Reply.json(completion(self.reply))

    @property
    def api_base(self) -> str:
        return self.server.url + "/v1"

    def requests(self) -> list[dict]:
        """Bodies of the chat-completion requests received so far."""
        return [json.loads(r.body) for r in self.server.requests_to(self.PATH)]

    def __enter__(self) -> FakeOpenAI:
        self.server.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._release.set()
        self.server.__exit__(*exc)
