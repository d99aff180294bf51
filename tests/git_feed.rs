//! The git feed (docs/src/reference/gate.md) against scenario repositories built with the `git` program.

mod base;
mod changes;
mod changes_of;
mod history;
mod scenario;
mod speed;
