"""The LLM response cache, shared by every worker so no distinct request is paid twice.

Two tiers (docs/scaling.md, "The LLM response cache"):

* **A diskcache directory** (SQLite; `cache_dir`): shared by every process on one host
  (celery workers, parallel runs, agent threads). A miss takes a per-request lock in the same
  cache (`diskcache.Lock`, an atomic `add` in SQLite), re-reads, and only then calls the model:
  concurrent identical requests make one call, and the others read its reply. The lock expires
  after the call's `timeout_s` (plus a margin), so a worker killed mid-call cannot block the
  request for good. SQLite's locking needs a local file system: not NFS or a shared volume
  across hosts.
* **An object-store tier** (`cache_uri`, e.g. `s3://bucket/foresci/llm_cache`), optional, for
  workers on several hosts: one JSON object per request hash, read on a local miss and written
  after every paid call. A reply paid on any host is never paid again on another. Two hosts
  asking the same new request at the same instant could both pay (no cross-host lock); the same
  request only recurs within one partition's step, and the run queue's per-partition limits keep
  a partition on one run at a time.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any

import diskcache
import pyarrow.fs as pafs

LOCK_MARGIN_S = 30.0


class ObjectStoreTier:
    """Replies as `<base>/<hash[:2]>/<hash>.json` on a pyarrow filesystem (s3:// or a folder)."""

    def __init__(self, uri: str):
        self.fs, self.base = pafs.FileSystem.from_uri(uri)

    def _path(self, key: str) -> str:
        return f"{self.base}/{key[:2]}/{key}.json"

    def get(self, key: str) -> Any | None:
        try:
            with self.fs.open_input_stream(self._path(key)) as f:
                return json.loads(f.read())
        except (FileNotFoundError, OSError):
            return None

    def set(self, key: str, value: Any) -> None:
        path = self._path(key)
        self.fs.create_dir(path.rsplit("/", 1)[0], recursive=True)
        with self.fs.open_output_stream(path) as out:  # one PUT: readers see all of it or nothing
            out.write(json.dumps(value).encode())


class ResponseCache:
    """diskcache on this host, then the optional object-store tier."""

    def __init__(self, cache_dir: str, cache_uri: str | None = None):
        self.local = diskcache.Cache(cache_dir)
        self.remote = ObjectStoreTier(cache_uri) if cache_uri else None

    def get(self, key: str) -> Any | None:
        hit = self.local.get(key)
        if hit is None and self.remote is not None:
            hit = self.remote.get(key)
            if hit is not None:
                self.local.set(key, hit)
        return hit

    def set(self, key: str, value: Any) -> None:
        self.local.set(key, value)
        if self.remote is not None:
            self.remote.set(key, value)

    @contextmanager
    def single_flight(self, key: str, timeout_s: float):
        """Held while one process (or thread) on this host asks the model for `key`."""
        lock = diskcache.Lock(self.local, f"lock:{key}", expire=timeout_s + LOCK_MARGIN_S)
        with lock:
            yield
