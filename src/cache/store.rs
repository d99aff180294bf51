//! The cache's files: 256 shards under `.git/structgate/cache/`, one per first byte of
//! the blob id, each a header line naming the versions it was written by, then entries
//! `[length u32][crc32 u32][key + outcome]`. A shard written by another version is
//! ignored whole; an entry whose checksum, length or encoding is wrong is ignored and
//! dropped at the next write. Writes go to a temp file renamed over the shard, so a
//! concurrent reader sees the old shard or the new one, never half of one.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use super::Key;
use crate::baseline::tsv::temp_prefix;

/// The file's first bytes; the version stamp follows on the same line.
const MAGIC: &[u8] = b"structgate measurement cache ";
/// Bytes of entries no command used in its run that a rewritten shard keeps.
const UNUSED_KEPT: usize = 256 * 1024;
const SHARDS: usize = 256;

/// What this run made of an entry: not asked for, used, or found unusable.
const UNUSED: u8 = 0;
const USED: u8 = 1;
const BAD: u8 = 2;

/// Where one entry's outcome lies in its shard's bytes (the key is just before it).
struct Slot {
    start: usize,
    end: usize,
    state: AtomicU8,
}

/// The hasher of [`Key`]s: a key hashes to bytes of its blob id (a SHA-1), kept as they
/// are, where the standard SipHash would hash them again.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

type KeyMap<V> = HashMap<Key, V, BuildHasherDefault<KeyHasher>>;

/// A shard as read from disk: its bytes and where each valid entry's payload lies.
#[derive(Default)]
struct Shard {
    data: Vec<u8>,
    slots: KeyMap<Slot>,
    /// Keys in file order (the order a rewrite keeps unused entries in).
    order: Vec<Key>,
}

pub(super) struct Store {
    dir: PathBuf,
    header: Vec<u8>,
    shards: Vec<OnceLock<Shard>>,
    /// Payloads (key + outcome) measured in this run, per shard.
    added: Vec<Mutex<KeyMap<Vec<u8>>>>,
}

impl Store {
    pub(super) fn new(dir: PathBuf, stamp: &str) -> Store {
        let mut header = MAGIC.to_vec();
        header.extend_from_slice(stamp.as_bytes());
        header.push(b'\n');
        Store {
            dir,
            header,
            shards: (0..SHARDS).map(|_| OnceLock::new()).collect(),
            added: (0..SHARDS).map(|_| Mutex::new(KeyMap::default())).collect(),
        }
    }

    /// The payload stored for `key` past the key itself (marked as used), or added by
    /// this run (the same bytes at another path).
    pub(super) fn get(&self, key: &Key) -> Option<Cow<'_, [u8]>> {
        let shard = self.shard(key);
        if let Some(slot) = shard.slots.get(key) {
            slot.state.store(USED, Ordering::Relaxed);
            return shard.data.get(slot.start..slot.end).map(Cow::Borrowed);
        }
        let added = self.added[shard_of(key)].lock().ok()?;
        let payload = added.get(key)?.get(KEY_LEN..)?;
        Some(Cow::Owned(payload.to_vec()))
    }

    /// Marks an entry found unusable, so the next write drops it.
    pub(super) fn forget(&self, key: &Key) {
        if let Some(slot) = self.shard(key).slots.get(key) {
            slot.state.store(BAD, Ordering::Relaxed);
        }
    }

    /// Records a new payload (key + outcome) to write at [`Store::flush`].
    pub(super) fn put(&self, key: Key, payload: Vec<u8>) {
        if let Ok(mut added) = self.added[shard_of(&key)].lock() {
            added.insert(key, payload);
        }
    }

    /// Writes every shard that gained entries; the first error, if any.
    pub(super) fn flush(&self) -> Result<(), String> {
        let mut first_error = None;
        let mut cleaned = false;
        for (i, added) in self.added.iter().enumerate() {
            let added = match added.lock() {
                Ok(mut added) => std::mem::take(&mut *added),
                Err(_) => continue,
            };
            if added.is_empty() {
                continue;
            }
            if !cleaned {
                crate::baseline::leftovers::remove_stale_temps_in(&self.dir);
                cleaned = true;
            }
            if let Err(e) = self.write_shard(i, added) {
                first_error.get_or_insert(e);
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    fn shard(&self, key: &Key) -> &Shard {
        let i = shard_of(key);
        self.shards[i].get_or_init(|| self.read_shard(i))
    }

    fn path(&self, i: usize) -> PathBuf {
        self.dir.join(format!("{i:02x}"))
    }

    fn read_shard(&self, i: usize) -> Shard {
        match std::fs::read(self.path(i)) {
            Ok(data) => parse(data, &self.header),
            Err(_) => Shard::default(),
        }
    }

    /// New entries first, then the entries this run used, then others (also those a
    /// concurrent run wrote since this one read the shard) while they fit.
    fn write_shard(&self, i: usize, added: KeyMap<Vec<u8>>) -> Result<(), String> {
        let ours = self.shards[i].get_or_init(|| self.read_shard(i));
        let theirs = self.read_shard(i);
        let bad = |k: &&Key| ours.slots[*k].state.load(Ordering::Relaxed) == BAD;
        let mut seen: HashSet<Key> = ours.order.iter().filter(bad).copied().collect();
        let mut out = self.header.clone();
        for (key, payload) in &added {
            if seen.insert(*key) {
                frame(&mut out, payload);
            }
        }
        for key in &ours.order {
            let slot = &ours.slots[key];
            if slot.state.load(Ordering::Relaxed) == USED && seen.insert(*key) {
                frame(&mut out, &ours.data[slot.start - KEY_LEN..slot.end]);
            }
        }
        let kept_from = out.len();
        for shard in [ours, &theirs] {
            for key in &shard.order {
                let slot = &shard.slots[key];
                let payload = &shard.data[slot.start - KEY_LEN..slot.end];
                if out.len() - kept_from + payload.len() > UNUSED_KEPT {
                    break;
                }
                if slot.state.load(Ordering::Relaxed) != BAD && seen.insert(*key) {
                    frame(&mut out, payload);
                }
            }
        }
        write_atomic(&self.dir, &self.path(i), &out)
    }
}

/// Bytes of an encoded [`Key`] at the start of every payload.
pub(super) const KEY_LEN: usize = 22;

fn shard_of(key: &Key) -> usize {
    usize::from(key.id[0])
}

fn frame(out: &mut Vec<u8>, payload: &[u8]) {
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// The valid entries of a shard's bytes; nothing when the header is another version's.
fn parse(data: Vec<u8>, header: &[u8]) -> Shard {
    let mut shard = Shard::default();
    if !data.starts_with(header) {
        return shard;
    }
    let mut at = header.len();
    while let Some(frame) = data.get(at..at + 8) {
        let len = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        let crc = u32::from_le_bytes([frame[4], frame[5], frame[6], frame[7]]);
        let start = at + 8;
        let Some(payload) = data.get(start..start.saturating_add(len)) else {
            break;
        };
        at = start + len;
        if crc32fast::hash(payload) != crc || len < KEY_LEN {
            continue;
        }
        let Some(key) = Key::decode(&payload[..KEY_LEN]) else {
            continue;
        };
        let slot = Slot {
            start: start + KEY_LEN,
            end: at,
            state: AtomicU8::new(UNUSED),
        };
        if shard.slots.insert(key, slot).is_none() {
            shard.order.push(key);
        }
    }
    shard.data = data;
    shard
}

/// Writes `bytes` to a temp file in `dir` (`.NAME.tmp.PID.N`, the baseline's naming),
/// then renames it over `path` (temp files of runs that died before their rename are
/// removed by [`Store::flush`]). Not synced: a shard lost to a power cut is only a slower next run.
fn write_atomic(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), String> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let fail = |what: &str, e: std::io::Error| format!("{what} {}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(|e| fail("creating the directory of", e))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("shard");
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!("{}{}.{n}", temp_prefix(name), std::process::id()));
    let written = std::fs::File::create(&temp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&temp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(fail("writing", e));
    }
    Ok(())
}
