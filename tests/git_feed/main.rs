//! The git feed (SPEC §6) against scenario repositories built with the `git` program.

mod base;
mod changes;
mod history;
mod scenario;
mod speed;
