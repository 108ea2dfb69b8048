"""The Dagster instance at $DAGSTER_HOME, initialised once before any run uses it.

Dagster creates and migrates its SQLite schema (runs, event log, schedules) the first
time a process opens a fresh home. Several processes doing that at once race inside
alembic (duplicate `alembic_version` rows, "more than one head") and can leave the home
unusable. `init_instance` therefore serialises that first open with an exclusive file
lock in the home, creates every storage's schema, copies the repo's `dagster.yaml` and
seeds the registry's default cutoffs; later calls find the marker file and open the
instance without waiting (adding a cutoff takes the lock for one insert). Every CLI command that touches
the instance and `make init` call it, so concurrent `foresci materialize` processes on a
fresh home are safe.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dagster as dg

from assets.partitions import CUTOFF_PARTITIONS
from core.paths import REPO_ROOT

CUTOFF = CUTOFF_PARTITIONS.name
LOCK_NAME = ".foresci-init.lock"
MARKER_NAME = ".foresci-initialised"


def dagster_home() -> Path:
    """$DAGSTER_HOME, else `<repo>/.dagster_home` (set in the environment, as Dagster reads it)."""
    if not os.environ.get("DAGSTER_HOME"):
        os.environ["DAGSTER_HOME"] = str(REPO_ROOT / ".dagster_home")
    return Path(os.environ["DAGSTER_HOME"]).resolve()


@contextmanager
def home_lock(home: Path) -> Iterator[None]:
    """Exclusive lock on the home, held across processes (flock is released if a process dies)."""
    home.mkdir(parents=True, exist_ok=True)
    with open(home / LOCK_NAME, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def init_instance(extra_cutoffs: list[str] = ()) -> tuple[dg.DagsterInstance, list[str]]:
    """Open the instance, creating its schema first if the home is fresh; add the registry's
    default cutoffs and `extra_cutoffs` (already validated by the caller) to the dynamic
    `cutoff` dimension. Idempotent and safe to call from many processes at once.
    Returns the instance and the cutoffs this call added."""
    home = dagster_home()
    if not (home / MARKER_NAME).exists():  # only a fresh home needs the lock to open
        with home_lock(home):
            config = home / "dagster.yaml"
            if not config.exists():
                shutil.copyfile(REPO_ROOT / "dagster.yaml", config)
            if not (home / MARKER_NAME).exists():
                _create_schema(dg.DagsterInstance.get())
                (home / MARKER_NAME).write_text("schema created by foresci init\n")
    instance = dg.DagsterInstance.get()
    added: list[str] = []
    if _missing_cutoffs(instance, extra_cutoffs):
        with home_lock(home):  # two processes adding the same key must not both insert it
            added = _missing_cutoffs(instance, extra_cutoffs)
            if added:
                instance.add_dynamic_partitions(CUTOFF, added)
    return instance, added


def _create_schema(instance: dg.DagsterInstance) -> None:
    """Touch each storage, so its tables exist before any run (each is created on first use)."""
    instance.get_runs(limit=1)
    instance.get_dynamic_partitions(CUTOFF)
    instance.all_instigator_state()
    instance.get_latest_materialization_event(dg.AssetKey("corpus_snapshot"))


def _missing_cutoffs(instance: dg.DagsterInstance, extra: list[str]) -> list[str]:
    """The registry's default cutoffs and `extra` that are not yet partitions."""
    from core.registry import load_registry

    wanted = sorted(set(load_registry().default_cutoffs) | set(extra))
    existing = set(instance.get_dynamic_partitions(CUTOFF))
    return [c for c in wanted if c not in existing]


def remove_cutoff(cutoff: str) -> dict:
    """Remove `cutoff` from the dynamic `cutoff` dimension (and from the user cutoffs file);
    the Parquet data of its partitions is left where it is. Returns what was done."""
    from core.registry import forget_user_cutoff

    instance, _ = init_instance()
    with home_lock(dagster_home()):
        present = instance.has_dynamic_partition(CUTOFF, cutoff)
        if present:
            instance.delete_dynamic_partition(CUTOFF, cutoff)
    return {"cutoff": cutoff, "partition_removed": present, "user_cutoff_forgotten": forget_user_cutoff(cutoff)}
