"""The family toolbox: the shared machinery a task family builds and measures with.

`building.py` (`TaskBuilder`, `Draft`, option tasks, support packets, the curation rules) and
`measure.py` (`GoldContext`: window papers, variant matching, momentum and stability) sit
below `assets/families/` in the layer order: a family imports them, the stages (`tasks`,
`gold`) hand them to the families they iterate, and they import no family and no stage."""
