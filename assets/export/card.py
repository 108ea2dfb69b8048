"""The dataset cards of a Hugging Face export: the public card and the private gold card.

The YAML header follows the Hub's dataset card metadata (license, configs with
data_files, task_categories, size_categories, ...); `datasets.load_dataset(<dir>,
name=<config>)` reads the configs from it. The prose says what a user needs to use the
benchmark honestly: the cutoff and window, that the gold is hidden (and where it lives),
how to score, and what to cite.
"""

from __future__ import annotations

from assets.families.registry import get_family
from assets.release.card import card_markdown, statistics_markdown
from core.papers import source_kind

TASK_CATEGORIES = ("question-answering", "multiple-choice", "text-generation")

# The papers foresci implements (docs/architecture.md, "Where each paper's idea lives").
# Identifiers only where the paper text we hold gives them; the rest by title and authors.
CITATIONS = (
    (
        "ForeSci",
        "Qiuyu Tian, Haojie Yin, Yingce Xia, Youyong Kong, Zequn Liu. ForeSci: Evaluating LLM Agents "
        "for Forward-Looking AI Research Judgment. arXiv:2606.00644.",
        "the benchmark design: corpus, temporal taxonomy, the four task families, hidden future targets, "
        "the Fact / FTA / Trace / Persuasiveness metrics",
    ),
    (
        "DeepResearch Arena",
        "DeepResearch Arena: The First Exam of LLMs' Research Abilities via Seminar-Grounded Tasks.",
        "Elo task ranking, the prefix-continuation leakage probe",
    ),
    (
        "FIRE-Bench",
        "Zhen Wang, Fan Bai, Zhongyan Luo, et al. FIRE-Bench: Evaluating Agents on the Rediscovery of Scientific Insights.",
        "claim-level precision / recall / F1",
    ),
    (
        "ScholarEval",
        "ScholarEval: Research Idea Evaluation Grounded in Literature.",
        "literature-grounded idea review (opt-in family)",
    ),
    (
        "Xcientist",
        "Hanqi Li, Ziyue Yang, Zijian Hu, et al. Externalizing Research Synthesis and Validation in AI "
        "Scientists through a Research Harness. arXiv:2606.18874.",
        "inspectable artifacts with provenance",
    ),
)


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def yaml_header(
    configs: dict[str, int], licence: str, pretty_name: str, *, gated: bool = False, splits: dict[str, list[str]] | None = None
) -> str:
    """The Hub metadata; `splits`: config -> its splits (default: one `test` split each)."""
    lines = [
        "---",
        f"license: {licence}",
        f"pretty_name: {pretty_name}",
        "language:",
        "- en",
        "task_categories:",
        *[f"- {c}" for c in TASK_CATEGORIES],
        "size_categories:",
        f"- {size_category(sum(configs.values()))}",
        "tags:",
        "- forecasting",
        "- research-judgement",
        "- temporal-split",
        "- foresci",
    ]
    if gated:
        lines += [
            'extra_gated_prompt: "Hidden gold targets of a foresci release: for scoring only. Do not '
            'publish, train on, or show them to an evaluated system."'
        ]
    lines.append("configs:")
    for i, config in enumerate(configs):
        lines += [f"- config_name: {config}", "  data_files:"]
        for split in (splits or {}).get(config, ["test"]):
            lines += [f"  - split: {split}", f"    path: {config}/{split}.parquet"]
        if i == 0:
            lines.append("  default: true")
    lines.append("---")
    return "\n".join(lines)


def card_licence(releases) -> tuple[str, dict[str, str]]:
    """The card's licence and the licence of each KB source kind: CC0-1.0 when every KB row's
    text is CC0 (arXiv metadata), else `other` (the table in the card says which rows)."""
    by_kind: dict[str, str] = {}
    for r in releases:
        for row in r.kb_rows:
            by_kind.setdefault(source_kind(row.get("source") or ""), row.get("licence") or "unknown")
    licences = set(by_kind.values())
    return ("cc0-1.0" if licences == {"CC0-1.0"} else "other"), dict(sorted(by_kind.items()))


def public_card(releases, configs: dict[str, int]) -> str:
    licence, by_kind = card_licence(releases)
    families = [c for c in configs if c not in ("kb", "releases")]
    parts = sorted({(r.domain, r.cutoff) for r in releases})
    windows = sorted({(str(t.window_start), str(t.window_end), t.horizon) for r in releases for t in r.tasks})
    cutoffs = sorted({c for _, c in parts})
    versions = {f"{r.domain} @ {r.cutoff}": r.manifest.get("release_version", "") for r in releases}
    lines = [
        yaml_header(configs, licence, "foresci release"),
        "",
        "# foresci release",
        "",
        "Forward-looking research-judgement tasks built by foresci (a benchmark factory on Dagster) from a corpus of "
        "arXiv papers: at a cutoff date *t* only papers published up to *t* are used; the tasks ask what "
        "happens in the window after *t*, and the answers (hidden gold) were measured from the papers "
        "that really appeared in that window.",
        "",
        "## Cutoff and window",
        "",
        f"- partitions (domain @ cutoff): {', '.join(f'{d} @ {c}' for d, c in parts)}",
        f"- cutoff(s): {', '.join(cutoffs)} — every KB paper is dated on or before its partition's cutoff",
        "- window(s) (start .. end, horizon): " + "; ".join(f"{a} .. {b} ({h})" for a, b, h in windows),
        "- release versions: " + ", ".join(f"{k}: `{v}`" for k, v in versions.items()),
        "",
        "## Configs",
        "",
        "| config | rows | what |",
        "|---|---|---|",
    ]
    for family in families:
        fam = get_family(family)
        lines.append(f"| `{family}` | {configs[family]} | {fam.title}: {fam.summary} (answer kind: {fam.answer_kind}) |")
    lines += [
        f"| `kb` | {configs.get('kb', 0)} | the cutoff-bound knowledge base: arxiv_id, title, abstract, "
        "published, label, source, licence, per (domain, cutoff) |",
        f"| `releases` | {configs.get('releases', 0)} | one row per released partition: version, window, "
        "counts, the release manifest (sha256 of the original release files) |",
        "",
        "```python",
        "from datasets import load_dataset",
        f'tasks = load_dataset("<this repo or directory>", name="{families[0] if families else "kb"}", split="test")',
        'kb = load_dataset("<this repo or directory>", name="kb", split="test")',
        "```",
        "",
        "Each task row holds the public task only (question, instructions, answer requirements, options, "
        "support paper ids). An answer follows the family's answer schema (`foresci families`).",
        "",
        *common_sections(licence, by_kind),
    ]
    return "\n".join(lines) + "\n"


def common_sections(licence: str, by_kind: dict[str, str], *, per_cutoff: bool = False) -> list[str]:
    """The sections every public card shares: how the gold is hidden, how to score, rebuilding
    the KB, the licence and the citations. `per_cutoff`: the export has a split per cutoff."""
    files = "`<family>/<split>.parquet`" if per_cutoff else "`<family>/test.parquet`"
    lines = [
        "## How the gold is hidden",
        "",
        "The gold targets (preferred ranking, trajectory, slots, claim bank, future paper ids) are **not "
        "in this dataset**. They are published apart, as a private dataset with the same configs "
        "(`<family>/test.parquet`: task_id, domain, cutoff, gold_json), meant for a private or gated "
        "repository that only scorers read. Before this export was written, its files were read back "
        "and checked by foresci's release validator: no gold-only key, no gold claim, slot or future "
        "title in any public text, no other task's answer in a task.",
        "",
        "## How to score",
        "",
        "Run the knowledge base and the tasks through foresci's scorers with the private gold:",
        "",
        "- Inspect AI: `inspect eval foresci/<family> -T release=<this directory> -T gold=<private "
        "directory> --model <model>` (the model gets a cutoff-bound `kb_search` / `kb_get` tool; the "
        "scorer is foresci's scorer registry; docs/export.md).",
        "- foresci itself: `foresci import-release` or the bring-your-own-agent contract (docs/agents.md).",
        "",
        "Metrics (ForeSci App. C.1): Future-Target Alignment (FTA: reference-guided, ranking F1 for "
        "rankings), Trace linkage (cited evidence returned by the KB and linked to the decision), and, "
        "with a judge model, Prediction Factuality (Fact P/R/F1) and Reviewer Persuasiveness. Without a "
        "judge model the model-graded metrics are null, never 0.",
        "",
        "## Rebuilding the knowledge base",
        "",
        "The `kb` config holds every KB paper's id, title, abstract and date, so the cutoff-bound KB can "
        "be rebuilt exactly (`assets.export.hf.kb_papers` + `assets.knowledge_base.logic.build_kb` with "
        "the shipped embedder): the same queries return the same papers.",
        "",
        "## Licence",
        "",
        f"`license: {licence}` above covers the task texts. The KB's titles and abstracts keep the licence "
        "of their source, per row in the `licence` column:",
        "",
        "| source | licence |",
        "|---|---|",
        *[f"| {kind} | {lic} |" for kind, lic in by_kind.items()],
        "",
        "arXiv releases article metadata (titles, authors, abstracts) under CC0 1.0; the `github:` sources "
        "are public digests of that metadata.",
        "",
        "## Citation",
        "",
        "If you use this dataset, cite the papers foresci implements:",
        "",
    ]
    lines = [x.replace("`<family>/test.parquet`", files) for x in lines]
    lines += [f"- **{name}** — {ref} ({what})" for name, ref, what in CITATIONS]
    return lines


def private_card(releases, configs: dict[str, int]) -> str:
    parts = sorted({(r.domain, r.cutoff) for r in releases})
    return "\n".join(
        [
            yaml_header(configs, "other", "foresci release gold (private)", gated=True),
            "",
            "# foresci release: hidden gold (private)",
            "",
            "The gold targets of the public foresci release exported next to this directory "
            f"(partitions: {', '.join(f'{d} @ {c}' for d, c in parts)}). Keep this repository private or gated: "
            "a gold that reaches an evaluated model or its training data voids the benchmark.",
            "",
            "One config per family; each row is `task_id, family, domain, cutoff, gold_json` where `gold_json` is a "
            "foresci `GoldTarget` (core/records.py). Scorers read it; agents never do.",
            "",
        ]
    )


# -- a whole release: a split per cutoff -----------------------------------------------------------


def cutoff_split(cutoff: str) -> str:
    """The split of a cutoff in a release export: `cutoff_2025_12_31` (Hub split names are
    `\\w+(\\.\\w+)*`: no hyphens)."""
    return "cutoff_" + str(cutoff).replace("-", "_")


def demoted(markdown: str, levels: int = 1) -> str:
    """Markdown with every heading `levels` deeper (the release card inside the dataset card)."""
    return "\n".join(("#" * levels + line) if line.startswith("#") else line for line in markdown.splitlines())


def release_card_section(card: dict) -> list[str]:
    """The release card's markdown (`card_markdown`, as `foresci release` writes card.md), one
    heading level down, with a line saying where it comes from."""
    title, *rest = demoted(card_markdown(card), 1).splitlines()
    return [
        title,
        "",
        "The release card as `foresci release` wrote it (card.md; every figure is in `release_card/card.json`).",
        *rest,
    ]


def release_dataset_card(releases, card: dict, statistics: dict, splits: dict[str, dict[str, int]]) -> str:
    """The dataset card of a whole release (`assets.export.hf.export_release_hf`): the Hub header
    (a split per cutoff in every config), the splits and configs, the release card as the
    release wrote it (`assets.release.card.card_markdown`: counts per family x domain x cutoff,
    built / released / dropped by reason, validity, independent tasks) and the method
    statistics (`assets.release.card.statistics_markdown`), then the shared sections."""
    licence, by_kind = card_licence(releases)
    configs = {name: sum(rows.values()) for name, rows in splits.items()}
    families = [c for c in configs if c not in ("kb", "releases")]
    split_names = {name: list(rows) for name, rows in splits.items()}
    name = card["name"] or f"r-{card['card_version']}"
    kb_rows = {cutoff_split(r.cutoff): 0 for r in releases}
    for r in releases:
        kb_rows[cutoff_split(r.cutoff)] += len(r.kb_rows)
    lines = [
        yaml_header(configs, licence, f"foresci benchmark release {name}", splits=split_names),
        "",
        f"# foresci benchmark release {name}",
        "",
        "Forward-looking research-judgement tasks built by foresci (a benchmark factory on Dagster) from a corpus of "
        "arXiv papers: at a cutoff date *t* only papers published up to *t* are used; the tasks ask what "
        "happens in the window after *t*, and the answers (hidden gold) were measured from the papers "
        "that really appeared in that window. This dataset is the whole release: every built partition "
        f"(domain x cutoff) of release card `{card['card_version']}`, the released (gated) tasks only.",
        "",
        "## Splits: one per cutoff",
        "",
        "Every config has one split per cutoff (where it has rows); every row carries its `domain` and `cutoff`. "
        "**Answer a task "
        "with the `kb` split of its own cutoff only**: a later cutoff's tasks and KB papers are published "
        "after an earlier cutoff, inside its future window.",
        "",
        "| split | cutoff | horizon | future window | released tasks | KB papers |",
        "|---|---|---|---|---|---|",
    ]
    for c in card["cutoffs"]:
        split = cutoff_split(c["cutoff"])
        if split not in kb_rows:
            continue
        tasks = sum(splits[f].get(split, 0) for f in families)
        lines.append(
            f"| `{split}` | {c['cutoff']} | {c['horizon_months']} months | {c['window_start']} .. "
            f"{c['window_end']} | {tasks} | {kb_rows[split]} |"
        )
    lines += [
        "",
        "## Configs",
        "",
        "| config | " + " | ".join(f"`{s}`" for s in kb_rows) + " | what |",
        "|---|" + "---|" * len(kb_rows) + "---|",
    ]
    what = {
        "kb": "the cutoff-bound knowledge base: arxiv_id, title, abstract, published, label, source, licence",
        "releases": "one row per released partition: version, window, counts, the release manifest",
    }
    for config in configs:
        if config in what:
            desc = what[config]
        else:
            fam = get_family(config)
            desc = f"{fam.title} (answer kind: {fam.answer_kind})"
        lines.append(f"| `{config}` | " + " | ".join(str(splits[config].get(s, 0)) for s in kb_rows) + f" | {desc} |")
    first = next(iter(kb_rows))
    lines += [
        "",
        "```python",
        "from datasets import load_dataset",
        f'tasks = load_dataset("<this repo or directory>", name="{families[0] if families else "kb"}", split="{first}")',
        f'kb = load_dataset("<this repo or directory>", name="kb", split="{first}")  # the same cutoff',
        "```",
        "",
        "Each task row holds the public task only (question, instructions, answer requirements, options, "
        "support paper ids). An answer follows the family's answer schema (`foresci families`). "
        "`release_card/` holds the release card (`card.json`, `card.md`) and `statistics.json`.",
        "",
        *release_card_section(card),
        "",
        # a card written since the statistics joined it carries them in its own markdown
        *([] if card.get("statistics") else [statistics_markdown(statistics, heading="##")]),
        *common_sections(licence, by_kind, per_cutoff=True),
    ]
    return "\n".join(lines) + "\n"


def private_release_card(releases, card: dict, splits: dict[str, dict[str, int]]) -> str:
    """The private gold card of a whole release: the same configs and splits as the public one."""
    parts = sorted({(r.domain, r.cutoff) for r in releases})
    return "\n".join(
        [
            yaml_header(
                {n: sum(v.values()) for n, v in splits.items()},
                "other",
                "foresci benchmark release gold (private)",
                gated=True,
                splits={n: list(v) for n, v in splits.items()},
            ),
            "",
            "# foresci benchmark release: hidden gold (private)",
            "",
            f"The gold targets of the public foresci release (card `{card['card_version']}`) exported next to this "
            f"directory (partitions: {', '.join(f'{d} @ {c}' for d, c in parts)}), a split per cutoff as there. Keep "
            "this repository private or gated: a gold that reaches an evaluated model or its training data voids "
            "the benchmark.",
            "",
            "One config per family; each row is `task_id, family, domain, cutoff, gold_json` where `gold_json` is a "
            "foresci `GoldTarget` (core/records.py). Scorers read it; agents never do.",
            "",
        ]
    )
