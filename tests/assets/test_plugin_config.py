"""The composition root of the optional plugins (assets/plugins.py): configuration, explicit
installation, and the one listing that always shows every plugin with whether it is enabled."""

from __future__ import annotations

import pytest

from assets import plugins
from assets.families.registry import family_names, unregister_family
from assets.scorers.registry import SCORERS, unregister_scorer


@pytest.fixture()
def clean():
    yield
    if "rediscovery" in family_names():
        unregister_family("rediscovery")
    if "rediscovery_claims" in SCORERS.names():
        unregister_scorer("rediscovery_claims")
    plugins._INSTALLED[:] = [n for n in plugins._INSTALLED if n != "rediscovery"]


def test_a_state_directory_without_configuration_installs_nothing(tmp_path, clean):
    assert plugins.configured(tmp_path) == [] and plugins.install_configured(tmp_path) == []
    assert "rediscovery" not in family_names()
    rows = {r["family"]: r for r in plugins.listing("families")}
    assert rows["rediscovery"]["enabled"] == "no" and rows["rediscovery"]["plugin"] == "rediscovery"
    assert rows["idea_review"]["enabled"] == "yes (idea_review_job)"
    assert rows["direction"]["plugin"] == "built-in"


def test_enable_writes_the_configuration_and_installs_family_and_scorer(tmp_path, clean):
    plugins.enable(["rediscovery"], tmp_path)
    assert (tmp_path / "plugins.yaml").read_text().strip() == "enabled:\n- rediscovery"
    assert plugins.configured(tmp_path) == ["rediscovery"]
    assert "rediscovery" in family_names() and "rediscovery_claims" in SCORERS.names()
    plugins.install_configured(tmp_path)  # idempotent
    assert family_names().count("rediscovery") == 1
    scorers = {r["scorer"]: r for r in plugins.listing("scorers")}
    assert scorers["rediscovery_claims"]["enabled"] == "yes" and scorers["rediscovery_claims"]["families"] == "rediscovery"
    agents = {r["agent"]: r for r in plugins.listing("agents")}
    assert agents["scholareval"]["plugin"] == "idea_review" and agents["momentum"]["plugin"] == "built-in"


def test_an_unknown_plugin_is_an_error(tmp_path):
    with pytest.raises(plugins.UnknownPluginNameError):
        plugins.install(["no_such_plugin"])
    (tmp_path / "plugins.yaml").write_text("enabled: [idea_review]\n")  # its own job, not installable
    with pytest.raises(plugins.UnknownPluginNameError):
        plugins.configured(tmp_path)
    with pytest.raises(ValueError):
        plugins.listing("nonsense")
