"""The LLM response cache across workers (docs/scaling.md): workers share it, so a loopback
OpenAI-compatible server sees each distinct request once, however many workers ask it and
however their requests interleave. On one host the workers share the diskcache directory (a
per-request lock makes concurrent identical requests one call); on several hosts (separate
local directories) the object-store tier carries replies between them."""

import json
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

from core.paths import REPO_ROOT
from tests.loopback import Loopback, Reply
from tests.ops.fake_openai import FakeOpenAI, completion
from tests.ops.servers import moto_s3

pytestmark = pytest.mark.slow
PROMPTS = [f"Which direction grows after the cutoff? variant {i}" for i in range(6)]


class SlowEchoOpenAI(FakeOpenAI):
    """Answers each prompt with its own text after a pause: a paid call takes time, so two
    workers asking the same prompt overlap unless something makes one of them wait."""

    def __init__(self, pause_s: float = 1.0):
        self.pause_s, self.lock, self.seen = pause_s, threading.Lock(), Counter()
        super().__init__()
        self.server = Loopback(self._answer)

    def _answer(self, req) -> Reply:
        prompt = json.loads(req.body)["messages"][-1]["content"]
        with self.lock:
            self.seen[prompt] += 1
        time.sleep(self.pause_s)
        return Reply.json(completion(f"answer to: {prompt}"))


def _workers(api_base: str, caches: list[tuple[str, str]], prompts: list[str]) -> list[dict]:
    """One process per (cache_dir, cache_uri); they start asking at the same moment."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.ops.llm_cache_worker", api_base, cache_dir, uri, json.dumps(prompts)],
            cwd=REPO_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for cache_dir, uri in caches
    ]
    for p in procs:
        assert p.stdout.readline().strip() == "ready", p.stderr.read()[-2000:]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * len(procs), [err[-2000:] for _, err in outs]
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in outs]


def test_workers_on_one_host_share_the_cache_and_pay_each_request_once(tmp_path):
    shared = str(tmp_path / "llm_cache")
    with SlowEchoOpenAI() as server:
        first = _workers(server.api_base, [(shared, "-"), (shared, "-")], PROMPTS + PROMPTS[:2])
        assert dict(server.seen) == {p: 1 for p in PROMPTS}
        expected = [f"answer to: {p}" for p in PROMPTS + PROMPTS[:2]]
        assert all(w["answers"] == expected for w in first)
        assert sum(w["calls"] for w in first) == len(PROMPTS)
        # a later worker (a rerun, a retried step) pays nothing
        (again,) = _workers(server.api_base, [(shared, "-")], PROMPTS)
        assert (again["calls"], again["cache_hits"]) == (0, len(PROMPTS))
        assert dict(server.seen) == {p: 1 for p in PROMPTS}


def test_workers_on_separate_hosts_share_replies_through_object_storage(tmp_path, monkeypatch):
    with moto_s3() as s3, SlowEchoOpenAI(pause_s=0.0) as server:
        s3.create_bucket("foresci-cache")
        for name, value in s3.env.items():
            monkeypatch.setenv(name, value)  # the worker processes inherit the endpoint and keys
        uri = "s3://foresci-cache/llm_cache"
        (host_a,) = _workers(server.api_base, [(str(tmp_path / "host_a"), uri)], PROMPTS[:4])
        (host_b,) = _workers(server.api_base, [(str(tmp_path / "host_b"), uri)], PROMPTS)
        assert dict(server.seen) == {p: 1 for p in PROMPTS}  # host B paid only what A had not asked
        assert (host_a["calls"], host_b["calls"], host_b["cache_hits"]) == (4, 2, 4)
        assert host_b["answers"] == [f"answer to: {p}" for p in PROMPTS]
