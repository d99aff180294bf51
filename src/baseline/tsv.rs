//! Reading and writing `structure-baseline.tsv` (SPEC §5).
