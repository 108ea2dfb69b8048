"""Loopback servers for the scale-out tests, each a real process started on a free port and
stopped by its PID: moto's S3-compatible server, Redis (the celery broker), celery workers.

    with moto_s3() as s3:            # s3.endpoint, s3.env (AWS_* variables for clients)
        s3.create_bucket("warehouse")
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode} before listening on {port}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise TimeoutError(f"{proc.args[0]} did not listen on {port} within {timeout}s")


def stop(proc: subprocess.Popen, timeout: float = 20.0) -> None:
    """SIGTERM the process group we started (by its PID), then SIGKILL if it lingers."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout)


@dataclass
class S3Server:
    endpoint: str

    @property
    def env(self) -> dict[str, str]:
        """What pyarrow's S3 filesystem, LanceDB and boto3 read: endpoint and (fake) credentials."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_REGION": "us-east-1",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ALLOW_HTTP": "true",
            "AWS_EC2_METADATA_DISABLED": "true",
        }

    def create_bucket(self, name: str) -> None:
        import boto3

        boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            region_name="us-east-1",
        ).create_bucket(Bucket=name)


@contextmanager
def moto_s3():
    port = free_port()
    proc = subprocess.Popen(
        [str(VENV_BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(port, proc)
        yield S3Server(f"http://127.0.0.1:{port}")
    finally:
        stop(proc)


def redis_binary() -> str | None:
    return shutil.which("redis-server")


@contextmanager
def redis_server(workdir: Path):
    """A throwaway Redis on 127.0.0.1 (no persistence); yields its URL."""
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [redis_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(port, proc)
        yield f"redis://127.0.0.1:{port}"
    finally:
        stop(proc)
