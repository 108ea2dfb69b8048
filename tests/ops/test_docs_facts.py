"""The numbers and names the docs state about the code location match the code."""

import re
from pathlib import Path

from pipelines.definitions import ALL_ASSETS, ALL_CHECKS, SEED_ASSETS, defs
from pipelines.prospective import PROSPECTIVE_ASSETS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _groups(assets) -> dict[str, str]:
    return {a.key.to_user_string(): a.group_names_by_key[a.key] for a in assets}


def test_architecture_states_the_asset_and_check_counts():
    text = DOCS.joinpath("architecture.md").read_text()
    m = re.search(
        r"over (\d+) assets\s+\(plus (\d+) prospective ones and (\d+) idea-review ones\) and (\d+) "
        r"asset checks \(an invariants check for each of the (\d+)",
        text,
    )
    assert m, "docs/architecture.md no longer states the counts in the sentence this test reads"
    assets, prospective, seeds, checks, invariants = map(int, m.groups())
    assert (assets, prospective, seeds, checks) == (len(ALL_ASSETS), len(PROSPECTIVE_ASSETS), len(SEED_ASSETS), len(ALL_CHECKS))
    assert invariants == sum(c.node_def.name.endswith("_invariants") for c in ALL_CHECKS)


def test_architecture_table_lists_every_asset_with_its_group():
    text = DOCS.joinpath("architecture.md").read_text()
    rows = dict(re.findall(r"^\| `(\w+)` \| ([\w()\s]+?) \|", text, flags=re.M))
    documented = {name: group for name, group in rows.items() if not group.startswith("(")}  # side tables
    assert documented == _groups(ALL_ASSETS)


def test_usage_states_the_asset_counts_groups_and_jobs():
    text = DOCS.joinpath("usage.md").read_text()
    m = re.search(
        r"shows the (\d+) release assets in groups ([^.]*?), and the (\d+) prospective ones "
        r"\(group `(\w+)`\), and the (\d+)\s+idea-review ones \(group `(\w+)`",
        text,
    )
    assert m, "docs/usage.md no longer states the counts in the sentence this test reads"
    assert int(m.group(1)) == len(ALL_ASSETS) and int(m.group(3)) == len(PROSPECTIVE_ASSETS)
    assert set(re.findall(r"`(\w+)`", m.group(2))) == set(_groups(ALL_ASSETS).values())
    assert {m.group(4)} == set(_groups(PROSPECTIVE_ASSETS).values())
    assert int(m.group(5)) == len(SEED_ASSETS) and {m.group(6)} == set(_groups(SEED_ASSETS).values())
    jobs = {j.name for j in defs.jobs}
    stated = set(re.findall(r"`(\w+_job)`", text))
    assert stated == jobs
    sensors = {s.name for s in defs.sensors}
    assert sensors <= set(re.findall(r"`(\w+_sensor)`", text))
