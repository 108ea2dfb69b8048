"""The composition root of the optional plugins, and the one listing of every plugin.

Built-in task families, scorers and agents register in their own packages
(`assets/families/__init__.py`, `assets/scorers/__init__.py`, `assets/agents/__init__.py`).
An optional plugin is one package registered HERE, explicitly, when the configuration
enables it; importing its package registers nothing:

* `rediscovery` (FIRE-Bench, docs/rediscovery.md): the `rediscovery` family and the
  `rediscovery_claims` scorer (`assets/rediscovery/plugin.py`). Off by default: the default
  release never holds it.
* `idea_review` (ScholarIdeas + ScholarEval, docs/idea_review.md): a second benchmark with its
  own small API (`assets/idea_review/pipeline.py`: tasks, answers, scores of the `ideas`
  pseudo-domain) and its own job, `idea_review_job`; it is always part of the code location, and
  its family enters the family registry only while that job runs (its stages are not the
  release's stages, so the release's stages never see it).

Configuration: `$FORESCI_HOME/plugins.yaml`, `enabled: [rediscovery]` (one state directory
builds with the plugins it names). The code location (`pipelines/definitions.py`) calls
`install_configured()` when it loads, so every run and every partition subprocess registers the
same plugins; `enable()` writes the file (`foresci demo-rediscovery` enables rediscovery in its
own state directory). `install(names)` is the same registration for a caller that composes
its own registries (a test, a notebook).

`listing(kind)` gives the rows `foresci families` / `scorers` / `agents` print: every
registered entry plus every optional plugin's entries whether installed or not, each with
its plugin and whether it is enabled in this process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from assets.agents.registry import all_agents
from assets.families import all_families
from assets.idea_review import family as idea_review
from assets.idea_review.pipeline import IDEA_AGENTS
from assets.rediscovery import plugin as rediscovery
from assets.rediscovery.family import RediscoveryFamily
from assets.rediscovery.scorer import RediscoveryClaims
from assets.scorers.registry import all_scorers, families_of
from core.paths import state_dir

CONFIG_FILE = "plugins.yaml"


@dataclass(frozen=True)
class Plugin:
    name: str
    summary: str
    register: Callable[[], None]  # idempotent
    families: Callable[[], list]  # the plugin's family objects (listed even when not installed)
    scorers: Callable[[], list]
    agents: Callable[[], list]
    always: str = ""  # non-empty: part of every build, in the named job (not a registry plugin)


def _rediscovery_register() -> None:
    rediscovery.register()


def _rediscovery_families() -> list:
    return [RediscoveryFamily()]


def _rediscovery_scorers() -> list:
    return [RediscoveryClaims()]


def _idea_review_register() -> None:
    idea_review.register()


def _idea_review_families() -> list:
    return [idea_review.IdeaReviewFamily()]


def _idea_review_agents() -> list:
    return list(IDEA_AGENTS)


PLUGINS: dict[str, Plugin] = {
    "rediscovery": Plugin(
        "rediscovery",
        "FIRE-Bench insight rediscovery: a family and its claim scorer",
        _rediscovery_register,
        _rediscovery_families,
        _rediscovery_scorers,
        lambda: [],
    ),
    "idea_review": Plugin(
        "idea_review",
        "ScholarIdeas + ScholarEval: a second benchmark in the `ideas` domain",
        _idea_review_register,
        _idea_review_families,
        lambda: [],
        _idea_review_agents,
        always="idea_review_job",
    ),
}
# Plugins the composition root may install from the configuration (idea review runs in its own job).
INSTALLABLE = tuple(n for n, p in PLUGINS.items() if not p.always)


class UnknownPluginNameError(ValueError):
    pass


def _check(names: Iterable[str]) -> list[str]:
    names = list(dict.fromkeys(names))
    unknown = [n for n in names if n not in INSTALLABLE]
    if unknown:
        raise UnknownPluginNameError(f"unknown plugin(s) {unknown}; installable: {list(INSTALLABLE)}")
    return names


_INSTALLED: list[str] = []


def install(names: Iterable[str]) -> list[str]:
    """Register the named plugins' families and scorers (idempotent); returns the names."""
    names = _check(names)
    for n in names:
        PLUGINS[n].register()
        if n not in _INSTALLED:
            _INSTALLED.append(n)
    return names


def installed() -> list[str]:
    return list(_INSTALLED)


def config_path(home: Path | None = None) -> Path:
    return (home or state_dir()) / CONFIG_FILE


def configured(home: Path | None = None) -> list[str]:
    """The plugins `$FORESCI_HOME/plugins.yaml` enables (none without the file)."""
    path = config_path(home)
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text()) or {}
    return _check(data.get("enabled") or [])


def enable(names: Iterable[str], home: Path | None = None) -> list[str]:
    """Enable plugins in a state directory (writes its plugins.yaml) and install them here."""
    names = _check([*configured(home), *names])
    path = config_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump({"enabled": names}))
    return install(names)


def install_configured(home: Path | None = None) -> list[str]:
    """The code location's one call: install what the state directory's configuration enables."""
    return install(configured(home))


def _plugin_state(plugin: Plugin) -> str:
    if plugin.always:
        return f"yes ({plugin.always})"
    return "yes" if plugin.name in _INSTALLED else "no"


def listing(kind: str) -> list[dict[str, str]]:
    """Rows of `foresci families` / `scorers` / `agents`: the registered entries (built-in, or an
    installed plugin's) and every optional plugin's entries, each with `plugin` and `enabled`."""
    if kind == "families":
        rows = {f.name: {**f.describe(), "plugin": "built-in", "enabled": "yes"} for f in all_families()}
        extra = {p: [(f.name, f.describe()) for f in plugin.families()] for p, plugin in PLUGINS.items()}
    elif kind == "scorers":
        rows = {s.name: {**s.describe(families_of(s)), "plugin": "built-in", "enabled": "yes"} for s in all_scorers()}
        extra = {
            p: [(s.name, s.describe([f.name for f in plugin.families()] or list(s.families or ()))) for s in plugin.scorers()]
            for p, plugin in PLUGINS.items()
        }
    elif kind == "agents":
        rows = {a.name: {**a.describe(), "plugin": "built-in", "enabled": "yes"} for a in all_agents()}
        extra = {p: [(a.name, a.describe()) for a in plugin.agents()] for p, plugin in PLUGINS.items()}
    else:
        raise ValueError(f"kind must be families, scorers or agents, not {kind!r}")
    for p, entries in extra.items():
        for name, row in entries:
            rows[name] = {**row, "plugin": p, "enabled": _plugin_state(PLUGINS[p])}
    return list(rows.values())
