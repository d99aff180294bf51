//! The measurement cache: what measuring a file gave, kept under `.git/structgate/cache/`
//! for the next run, keyed by the git blob id of the file's bytes, the grammar it is
//! parsed with (`.ts` and `.tsx` are one language, two grammars) and whether a
//! generated-code header leaves it out. It wraps stage 2 without changing it:
//! a miss is measured by [`measure::measure_file`] and stored; a hit is that same outcome
//! with the file's path. For a tracked file whose stat data match the index the id is
//! free (`crate::git::IndexIds`): a hit reads neither the file nor parses it.
//!
//! The cache never decides anything: a shard written by another build of the measurer or
//! other grammars is ignored, a damaged entry is measured afresh and rewritten, and a
//! cache that cannot be written costs speed, never a result.

mod store;

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::git::{blob_id, BlobId, IndexIds, Repo};
use crate::lang::Lang;
use crate::measure::{self, Memo, Options, Scan};
use crate::model::{FileOutcome, Language, SkipReason};

use store::{Store, KEY_LEN};

/// The versions a cache entry must have been written by: the shard and entry format
/// (`v3`: a file's unit names as one text), structgate, the measurer's source (a digest,
/// see build.rs) and the locked grammar crates.
const STAMP: &str = concat!(
    "v3 structgate ",
    env!("CARGO_PKG_VERSION"),
    " measurer ",
    env!("STRUCTGATE_MEASURER_DIGEST"),
    " ",
    env!("STRUCTGATE_GRAMMARS")
);

/// The `grammar` of a key whose entry is a Markdown file's import scan
/// ([`measure::Scan`]), not a measured outcome: no grammar has this id.
const SCAN: u8 = u8::MAX - 1;

/// The `grammar` of a key whose entry is a Markdown document's outcome: a document is
/// measured in bytes and lines, by no grammar (docs/src/reference/documents.md). What it
/// loads depends on other files and is never kept.
const DOCUMENT: u8 = u8::MAX - 2;

/// What a cache entry is keyed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    id: [u8; 20],
    grammar: u8,
    honour_generated_header: u8,
}

/// A key's hash is eight bytes of its blob id, already as spread as a hash can be (the
/// first byte picks the shard, the same for every key of one); [`store::KeyHasher`]
/// keeps it as it is.
impl std::hash::Hash for Key {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let mut word = [0u8; 8];
        word.copy_from_slice(&self.id[1..9]);
        let kind = u64::from(self.grammar) << 1 | u64::from(self.honour_generated_header);
        state.write_u64(u64::from_le_bytes(word) ^ kind);
    }
}

impl Key {
    fn new(id: BlobId, grammar: u8, options: &Options) -> Key {
        Key {
            id: id.0,
            grammar,
            honour_generated_header: u8::from(options.honour_generated_header),
        }
    }

    fn encode(&self) -> [u8; KEY_LEN] {
        let mut out = [0u8; KEY_LEN];
        out[..20].copy_from_slice(&self.id);
        out[20] = self.grammar;
        out[21] = self.honour_generated_header;
        out
    }

    fn decode(bytes: &[u8]) -> Option<Key> {
        Some(Key {
            id: bytes.get(..20)?.try_into().ok()?,
            grammar: *bytes.get(20)?,
            honour_generated_header: *bytes.get(21)?,
        })
    }
}

/// How much a run measured and how much it took from the cache.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Files parsed (measured by `measure_file`).
    pub parsed: usize,
    /// Files whose outcome came from the cache.
    pub cached: usize,
    /// Why the cache could not be written, if it could not.
    pub write_error: Option<String>,
}

impl Stats {
    pub fn add(&mut self, other: Stats) {
        self.parsed += other.parsed;
        self.cached += other.cached;
        self.write_error = self.write_error.take().or(other.write_error);
    }
}

/// The cache of one run; [`Cache::finish`] writes what it learnt.
pub struct Cache {
    store: Option<Store>,
    index: Option<IndexIds>,
    parsed: AtomicUsize,
    cached: AtomicUsize,
}

impl Cache {
    /// A cache for measuring a few given files (the gate): ids are hashed from bytes.
    /// Off when `enabled` is false or there is no repository to keep it in.
    pub fn open(repo: Option<&Repo>, enabled: bool) -> Cache {
        let store = repo
            .filter(|_| enabled)
            .map(|r| Store::new(r.structgate_dir().join("cache"), STAMP));
        Cache {
            store,
            index: None,
            parsed: AtomicUsize::new(0),
            cached: AtomicUsize::new(0),
        }
    }

    /// A cache for measuring whole trees: also reads the index, whose ids are free for
    /// tracked files that are stat-clean.
    pub fn open_for_tree(repo: Option<&Repo>, enabled: bool) -> Cache {
        let mut cache = Cache::open(repo, enabled);
        if cache.store.is_some() {
            cache.index = repo.and_then(|r| r.index_ids().ok().flatten());
        }
        cache
    }

    /// Writes the new entries and says what the run did.
    pub fn finish(self) -> Stats {
        let write_error = self.store.as_ref().and_then(|s| s.flush().err());
        Stats {
            parsed: self.parsed.into_inner(),
            cached: self.cached.into_inner(),
            write_error,
        }
    }

    /// The cached outcome of a tracked, stat-clean file, found without reading it.
    fn clean_hit(&self, rel: &str, options: &Options) -> Option<FileOutcome> {
        let (store, index) = (self.store.as_ref()?, self.index.as_ref()?);
        let grammar = cacheable(rel)?;
        let (id, size) = index.clean_id(rel)?;
        if size > options.max_file_size {
            return None;
        }
        self.lookup(store, &Key::new(id, grammar, options), rel)
    }

    fn measure_bytes(&self, path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome> {
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        let grammar = cacheable(path).filter(|_| size <= options.max_file_size);
        let Some(grammar) = grammar else {
            // Left out by its path, too large, or not a measured language: not parsed.
            return measure::measure_file(path, bytes, options);
        };
        let Some(store) = self.store.as_ref() else {
            return self.parse(path, bytes, options, grammar);
        };
        let key = Key::new(self.id_of(path, bytes), grammar, options);
        if let Some(hit) = self.lookup(store, &key, path) {
            return Some(hit);
        }
        let outcome = self.parse(path, bytes, options, grammar)?;
        if !lasting(&outcome) {
            return Some(outcome);
        }
        if let Ok(encoded) = postcard::to_allocvec(&outcome) {
            let mut payload = key.encode().to_vec();
            payload.extend_from_slice(&encoded);
            store.put(key, payload);
        }
        Some(outcome)
    }

    /// The blob id of `bytes`, read from `path`: the one the index recorded when the file
    /// still matches its stat data now that it has been read (so it was not changed
    /// while it was read, as `git status` would tell) and git converted none of its
    /// bytes ([`IndexIds::clean_id_of`]), else hashed from the bytes.
    fn id_of(&self, path: &str, bytes: &[u8]) -> BlobId {
        let recorded = self.index.as_ref();
        let recorded = recorded.and_then(|index| index.clean_id_of(path, bytes));
        recorded.unwrap_or_else(|| blob_id(bytes))
    }

    /// Measures `bytes`; counted as parsed unless a document (no grammar parses it).
    fn parse(
        &self,
        path: &str,
        bytes: &[u8],
        options: &Options,
        grammar: u8,
    ) -> Option<FileOutcome> {
        let outcome = measure::measure_file(path, bytes, options);
        if outcome.is_some() && grammar != DOCUMENT {
            self.parsed.fetch_add(1, Ordering::Relaxed);
        }
        outcome
    }

    fn lookup(&self, store: &Store, key: &Key, path: &str) -> Option<FileOutcome> {
        let payload = store.get(key)?;
        let Ok(outcome) = postcard::from_bytes::<FileOutcome>(&payload) else {
            store.forget(key);
            return None;
        };
        if key.grammar != DOCUMENT {
            self.cached.fetch_add(1, Ordering::Relaxed);
        }
        Some(with_path(outcome, path))
    }
}

/// Whether an outcome depends on the file's bytes alone: a parse that ran out of time or
/// a file that could not be read says something of this run, not of the bytes.
fn lasting(outcome: &FileOutcome) -> bool {
    !matches!(
        outcome,
        FileOutcome::Skipped {
            reason: SkipReason::ParseTimeout { .. }
                | SkipReason::ParseMemory { .. }
                | SkipReason::Unreadable(_),
            ..
        }
    )
}

/// The grammar of a file whose outcome depends on its own bytes alone ([`DOCUMENT`] for a
/// Markdown document), unless a path rule leaves it out (those are decided without
/// reading it: nothing to cache).
fn cacheable(path: &str) -> Option<u8> {
    let grammar = match Lang::for_path(path) {
        Some(lang) => lang.grammar_id(),
        None if Language::of_path(path) == Some(Language::Markdown) => DOCUMENT,
        None => return None,
    };
    measure::left_out_by_path(path).is_none().then_some(grammar)
}

/// A cached outcome for the file at `path` (the same bytes may sit at several paths).
fn with_path(outcome: FileOutcome, path: &str) -> FileOutcome {
    match outcome {
        FileOutcome::Measured(mut m) => {
            if m.path != path {
                m.path = path.to_string();
            }
            FileOutcome::Measured(m)
        }
        FileOutcome::Skipped { reason, .. } => FileOutcome::Skipped {
            path: path.to_string(),
            reason,
        },
        FileOutcome::LeftOut { reason, .. } => FileOutcome::LeftOut {
            path: path.to_string(),
            reason,
        },
    }
}

impl Memo for Cache {
    fn recall(&self, rel: &str, options: &Options) -> Option<FileOutcome> {
        self.clean_hit(rel, options)
    }

    fn measure(&self, path: &str, bytes: &[u8], options: &Options) -> Option<FileOutcome> {
        self.measure_bytes(path, bytes, options)
    }

    fn scan(&self, path: &str, bytes: &[u8], fresh: &dyn Fn() -> Scan) -> Scan {
        let Some(store) = self.store.as_ref() else {
            return fresh();
        };
        let key = Key {
            id: self.id_of(path, bytes).0,
            grammar: SCAN,
            honour_generated_header: 0,
        };
        if let Some(payload) = store.get(&key) {
            match postcard::from_bytes::<Scan>(&payload) {
                Ok(scan) => return scan,
                Err(_) => store.forget(&key),
            }
        }
        let scan = fresh();
        if let Ok(encoded) = postcard::to_allocvec(&scan) {
            let mut payload = key.encode().to_vec();
            payload.extend_from_slice(&encoded);
            store.put(key, payload);
        }
        scan
    }
}

#[cfg(test)]
mod tests;
