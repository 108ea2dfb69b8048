"""The whole release as one export (`foresci export hf --release`, docs/export.md): the release
card `foresci release` wrote, its built partitions' release files and the method statistics over
their released tasks, read as the card reads them (`pipelines.release.read_partition`)."""

from __future__ import annotations


def read_release_card(store, name: str = "") -> dict:
    """The release card (card.json) of release `name` (its version folder: the name, or
    r-<card version>), or the latest one `foresci release` wrote."""
    import json

    import pyarrow.fs as pafs

    from assets.export.hf import ExportError
    from assets.release.card import card_path

    path = card_path(store, "card.json", name or None)
    if store.fs.get_file_info(path).type != pafs.FileType.File:
        raise ExportError(
            f"no release card at {path}: write one with `foresci release` "
            "(or `foresci release --no-build --allow-missing` over what is built)"
            + (f"; is {name!r} the release's name (or r-<card version>)?" if name else "")
        )
    return json.loads(store.read_bytes(path))


def release_export(store, name: str = ""):
    """The whole release of a card: its built partitions' release files (the card's partitions),
    the method statistics over their released tasks (`release_statistics`) and the export
    (`export_release_hf`)."""
    from assets.export.hf import ExportError, export_release_hf, read_release
    from assets.release.card import release_statistics
    from pipelines.release import read_partition

    card = read_release_card(store, name)
    if not card["partitions"]:
        raise ExportError("the release card has no built partition: nothing to export")
    horizon = {c["cutoff"]: c["horizon_months"] for c in card["cutoffs"]}
    pairs = [(p["domain"], p["cutoff"]) for p in card["partitions"]]
    releases = [read_release(store, d, c) for d, c in pairs]
    parts = [read_partition(store, d, c, horizon[c]) for d, c in pairs]
    # a card written before the statistics joined it: compute them as the release does
    return export_release_hf(releases, card, card.get("statistics") or release_statistics(parts))
