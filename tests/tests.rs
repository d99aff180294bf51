//! structgate's integration tests, one binary (each file under tests/ is a module of it,
//! grouped by feature): they run the built binary against scratch repositories.

mod baseline_cli;
mod bounded_memory;
mod cache;
mod ci_recipes;
mod common;
mod contracts_cli;
mod crash_safety;
mod doc_chains;
mod doc_pins_gate;
mod doc_pins_terms;
mod docs;
mod formats;
mod fuzz_regressions;
mod gate;
mod gate_bases;
mod gate_contracts;
mod gate_docs;
mod gate_git_edges;
mod gate_integrity;
mod gate_terms;
mod git_feed;
mod hostile_inputs;
mod hostile_paths;
mod hostile_sources;
mod init_cli;
mod limits_cli;
mod measure_cli;
mod measure_fixtures;
mod measure_languages;
mod measure_python_go_java;
mod measure_renames;
mod merge_driver;
mod run_in_process;
mod snapshots;
mod terminal;
