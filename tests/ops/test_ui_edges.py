"""`make ui` as a user meets it: no community pop-up in the project's instance, and Ctrl-C
(SIGINT to the terminal's foreground process group) stops every process it started.

Slow (starting `dagster dev` loads the code location: ~20-30 s)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _graphql(port: int, query: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql",
        data=json.dumps({"query": query}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def test_make_ui_shows_no_popup_and_stops_on_ctrl_c(tmp_path):
    port = _free_port()
    home = tmp_path / "dagster_home"
    home.mkdir()
    shutil.copy(ROOT / "dagster.yaml", home / "dagster.yaml")
    proc = subprocess.Popen(
        ["make", "ui", f"UI_PORT={port}", f"DAGSTER_HOME={home}"],
        cwd=ROOT,
        stdout=open(tmp_path / "ui.log", "w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, "FORESCI_HOME": str(tmp_path / "fh")},
    )
    group = os.getpgid(proc.pid)
    try:
        deadline = time.monotonic() + 300
        answer = None
        while answer is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                answer = _graphql(port, "{ shouldShowNux }")
            except OSError:
                time.sleep(1)
        assert answer == {"data": {"shouldShowNux": False}}, (tmp_path / "ui.log").read_text()[-3000:]
        os.killpg(group, signal.SIGINT)  # what Ctrl-C sends: the whole foreground group
        proc.wait(timeout=60)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            left = subprocess.run(["pgrep", "-g", str(group)], capture_output=True, text=True).stdout.split()
            if not left:
                break
            time.sleep(0.5)
        assert not left, f"still running after Ctrl-C: {left}"
    finally:
        if subprocess.run(["pgrep", "-g", str(group)], capture_output=True).returncode == 0:
            os.killpg(group, signal.SIGKILL)
