//! structgate's integration tests, one binary (each file under tests/ is a module of it,
//! grouped by feature): they run the built binary against scratch repositories.

mod baseline_cli;
mod bounded_memory;
mod bounded_work;
mod cache;
mod ci_recipes;
mod common;
mod context_files;
mod contracts_cli;
mod crash_safety;
mod doc_book;
mod doc_budgets;
mod doc_chains;
mod doc_pins_gate;
mod doc_pins_terms;
mod formats;
mod fuzz_regressions;
mod gate;
mod gate_adoption;
mod gate_anonymous;
mod gate_bases;
mod gate_contracts;
mod gate_docs;
mod gate_git_edges;
mod gate_groups;
mod gate_integrity;
mod gate_moves;
mod gate_shape;
mod gate_terms;
mod gate_terms_warnings;
mod gate_unseen;
mod git_feed;
mod hook;
mod hostile_inputs;
mod hostile_paths;
mod hostile_sources;
mod init_agent;
mod init_cli;
mod languages;
mod limits_cli;
mod measure_cli;
mod measure_fixtures;
mod measure_renames;
mod measure_shape;
mod merge_driver;
mod module_graph;
mod run_in_process;
mod snapshots;
mod terminal;
/// The calling thread's CPU clock, the one the unit tests use.
#[path = "../src/thread_cpu.rs"]
mod thread_cpu;
