"""The code location's operational defaults: named jobs that run in one process, automation
that starts stopped."""

import dagster as dg

from pipelines.definitions import ALL_ASSETS, ALL_CHECKS, defs


def test_every_job_runs_in_one_process():
    # a process per step re-imports the code location: a UI release took ~10x the CLI's time
    for name in ("release_job", "prospective_package_job", "prospective_scoring_job"):
        assert defs.resolve_job_def(name).executor_def is dg.in_process_executor, name
    # "Materialize" on the asset graph runs the implicit asset job
    assert defs.resolve_implicit_global_asset_job_def().executor_def is dg.in_process_executor


def test_release_job_builds_every_release_asset_and_check():
    job = defs.resolve_job_def("release_job")
    graph = job.asset_layer.asset_graph
    selected = {k.to_user_string() for k in graph.get_all_asset_keys() if graph.get(k).is_executable}
    assert selected == {a.key.to_user_string() for a in ALL_ASSETS}
    assert set(graph.asset_check_keys) == {key for c in ALL_CHECKS for key in c.check_keys}


def test_sensors_start_stopped():
    # with no stored state (a fresh instance) the daemon ticks a sensor only if its default
    # status is RUNNING: none adds a partition or launches a run until a user turns it on
    assert {s.name for s in defs.sensors} == {"default_cutoffs_sensor", "prospective_cutoff_sensor", "prospective_scoring_sensor"}
    for sensor in defs.sensors:
        assert sensor.default_status == dg.DefaultSensorStatus.STOPPED, sensor.name
