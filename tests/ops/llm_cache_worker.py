"""One worker process asking a list of prompts through the LLM client (as a celery worker's
step would), against a given API base and cache. Prints one JSON line: answers and usage.

    python -m tests.ops.llm_cache_worker API_BASE CACHE_DIR CACHE_URI|- PROMPTS_JSON
"""

from __future__ import annotations

import json
import sys


def main(api_base: str, cache_dir: str, cache_uri: str, prompts_json: str) -> dict:
    from concurrent.futures import ThreadPoolExecutor

    from resources.llm import LLMClient

    client = LLMClient(
        "openai/fake",
        api_base=api_base,
        api_key="k",
        cache_dir=cache_dir,
        cache_uri=None if cache_uri == "-" else cache_uri,
        backoff_s=0.0,
    )
    prompts = json.loads(prompts_json)
    print("ready", flush=True)  # imports done: wait for the test's "go", so workers start together
    sys.stdin.readline()
    with ThreadPoolExecutor(4) as pool:  # agents ask from threads too
        answers = list(pool.map(lambda p: client.text(p, purpose="agent:test"), prompts))
    usage = client.snapshot()
    return {"answers": answers, "calls": usage.calls, "cache_hits": usage.cache_hits}


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:5])), flush=True)
