"""The shipped role catalog (assets/evidence/roles.yaml): every role's members are distinct,
resolvable alternatives (no member a synonym or sub-family of another), each glossed on its own."""

import re

import pytest

from assets.evidence.approaches import MAX_MEMBERS, MIN_MEMBERS, load_roles, offered_members
from core.registry import load_registry
from tests.factories import screened_paper

ROLES = load_roles()


def test_the_catalog_loads_with_unique_ids_and_known_domains():
    assert len(ROLES) >= 8 and len({r.role_id for r in ROLES}) == len(ROLES)
    domains = set(load_registry().domains)
    for r in ROLES:
        assert r.domains and len(r.members) >= MIN_MEMBERS
        assert len({m.member_id for m in r.members}) == len(r.members)
        if domains:
            assert set(r.domains) <= domains
        re.compile(r.scope)


@pytest.mark.parametrize("role", ROLES, ids=[r.role_id for r in ROLES])
def test_every_member_is_named_by_its_own_names_and_by_no_other_member(role):
    for m in role.members:
        assert m.names or m.phrases, m.member_id
        forms = [n for n in m.names if re.fullmatch(r"[\w\- .]+", n)] + list(m.phrases)
        assert forms, f"{m.member_id}: no literal name to check"
        for form in forms:
            # names only: a member's co-occurring terms (`requires`) and foil senses are sentence context,
            # tested on their own below
            sentence = f"We build on {form} for training."
            assert m.matcher().names_in(sentence), (m.member_id, form)  # resolvable
            others = [o.member_id for o in role.members if o is not m and o.matcher().names_in(sentence)]
            assert not others, f"{form!r} of {m.member_id} is also named by {others}: a synonym or sub-family"


@pytest.mark.parametrize("role", ROLES, ids=[r.role_id for r in ROLES])
def test_excludes_and_requirements_compile_and_are_not_bare_generic_words(role):
    for m in role.members:
        for x in m.exclude + m.requires:
            re.compile(x)
        # ambiguous bare names the independent reader found counted for something else (dev labels)
        assert "reward model" not in m.phrases and "reward models" not in m.phrases, m.member_id
        assert "SQL" not in m.names and "hierarchical retrieval" not in m.phrases and "SPLADE" not in m.names, m.member_id


def test_hybrid_retrieval_needs_a_sparse_and_a_dense_side():
    hybrid = next(m for r in ROLES if r.role_id == "retriever" for m in r.members if m.member_id == "hybrid").matcher()
    assert not hybrid.named("We propose graph-guided hybrid retrieval over our knowledge graph.")
    assert hybrid.named("We use hybrid retrieval that fuses BM25 and dense scores.")


@pytest.mark.parametrize("role", ROLES, ids=[r.role_id for r in ROLES])
def test_names_are_whole_and_glosses_define_their_own_member(role):
    for m in role.members:
        assert m.name and not m.name.endswith(("…", "...")) and len(m.gloss.split()) >= 8
        for o in role.members:
            if o is not m:  # a gloss that names another option describes that option
                assert not o.matcher().named(m.gloss), (m.member_id, o.member_id)


def test_offered_members_are_the_most_used_alive_ones():
    role = next(r for r in ROLES if r.role_id == "policy_optimisation")
    from datetime import date

    cut = date(2025, 12, 31)
    papers = []
    for name, n in (("GRPO", 9), ("DPO", 5), ("PPO", 4), ("KTO", 2), ("SimPO", 3)):
        for i in range(n):
            papers.append(
                screened_paper(
                    f"{name}{i}",
                    f"Training with {name} for reasoning {i}",
                    "We use reinforcement learning to post-train language models.",
                    date(2025, 10, 1 + i),
                )
            )
    papers.append(
        screened_paper(
            "late", "Training with KTO later", "We use reinforcement learning to post-train language models.", date(2026, 2, 1)
        )
    )
    offered = offered_members(role, papers, cut)
    assert [u.member.member_id for u in offered] == ["grpo", "dpo", "ppo", "simpo"]  # KTO: 2 < MIN_ALIVE; 2026 ignored
    assert len(offered) <= MAX_MEMBERS
