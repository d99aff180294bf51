//! Per-language data for the measurer: which node kinds are units and how they are named
//! (SPEC §4). One file per language.
