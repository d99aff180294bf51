//! The stat data of working-tree files, each looked up relative to a handle on its
//! directory: files come in path order, so most share the directory of the one before,
//! and the kernel then resolves one name instead of every directory on the way from `/`.
//! What comes back is what `lstat` of the whole path gives (a link on the way to the
//! directory is followed as `lstat` follows it; the file itself never is).

use std::path::{Path, PathBuf};

use gix::index::entry::stat::Time;
use gix::index::entry::Stat;

/// What the working tree holds at a path, with its stat data as the index records them.
#[derive(Debug, Clone, Copy)]
pub(super) struct FileStat {
    pub kind: FileKind,
    /// As git's index compares them (times, device and inode truncated as git does).
    pub stat: Stat,
    /// The size in bytes, not truncated.
    pub len: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FileKind {
    File,
    Link,
    Dir,
    Other,
}

/// Looks paths under one root up, keeping a handle on the directory of the last one.
pub(super) struct DirStat {
    root: PathBuf,
    /// The directory (relative to the root, `/`-separated) of the last path looked up and,
    /// where it could be opened, a handle on it.
    #[cfg(unix)]
    dir: Option<(Vec<u8>, Option<rustix::fd::OwnedFd>)>,
}

impl DirStat {
    pub(super) fn new(root: &Path) -> Self {
        DirStat {
            root: root.to_path_buf(),
            #[cfg(unix)]
            dir: None,
        }
    }

    /// The stat data of `rel` (relative to the root, `/`-separated) without following it,
    /// as `lstat` of the joined path; `None` where that fails.
    #[cfg(unix)]
    pub(super) fn lstat(&mut self, rel: &[u8]) -> Option<FileStat> {
        use std::os::unix::ffi::OsStrExt as _;

        let (dir, name) = match memchr::memrchr(b'/', rel) {
            Some(slash) => (&rel[..slash], &rel[slash + 1..]),
            None => (&rel[..0], rel),
        };
        let same = self.dir.as_ref().is_some_and(|(last, _)| last == dir);
        if !same {
            let abs = if dir.is_empty() {
                self.root.clone()
            } else {
                self.root.join(std::ffi::OsStr::from_bytes(dir))
            };
            let flags = rustix::fs::OFlags::PATH
                | rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::CLOEXEC;
            let fd = rustix::fs::open(&abs, flags, rustix::fs::Mode::empty()).ok();
            self.dir = Some((dir.to_vec(), fd));
        }
        let fd = self.dir.as_ref()?.1.as_ref()?;
        let name = std::ffi::OsStr::from_bytes(name);
        let st = rustix::fs::statat(fd, name, rustix::fs::AtFlags::SYMLINK_NOFOLLOW).ok()?;
        Some(of_unix(&st))
    }

    #[cfg(not(unix))]
    pub(super) fn lstat(&mut self, rel: &[u8]) -> Option<FileStat> {
        let rel = gix::path::from_byte_slice(rel);
        let meta = gix::index::fs::Metadata::from_path_no_follow(&self.root.join(rel)).ok()?;
        let kind = if meta.is_symlink() {
            FileKind::Link
        } else if meta.is_file() {
            FileKind::File
        } else if meta.is_dir() {
            FileKind::Dir
        } else {
            FileKind::Other
        };
        Some(FileStat {
            kind,
            stat: Stat::from_fs(&meta).ok()?,
            len: meta.len(),
        })
    }
}

/// `st` as `gix::index::entry::Stat::from_fs` reads the same data: times before the
/// epoch (or unreadable) as zero, seconds, device, inode and size truncated to 32 bits.
#[cfg(unix)]
fn of_unix(st: &rustix::fs::Stat) -> FileStat {
    let kind = match rustix::fs::FileType::from_raw_mode(st.st_mode as rustix::fs::RawMode) {
        rustix::fs::FileType::RegularFile => FileKind::File,
        rustix::fs::FileType::Symlink => FileKind::Link,
        rustix::fs::FileType::Directory => FileKind::Dir,
        _ => FileKind::Other,
    };
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    let time = |secs: i64, nanos: i64| -> Time {
        match (u64::try_from(secs), u32::try_from(nanos)) {
            (Ok(secs), Ok(nanos)) if nanos < 1_000_000_000 => Time {
                // Truncation to 32 bits is on purpose: git compares the low bits.
                secs: secs as u32,
                nsecs: nanos,
            },
            _ => Time::default(),
        }
    };
    #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
    let stat = Stat {
        mtime: time(st.st_mtime as i64, st.st_mtime_nsec as i64),
        ctime: time(st.st_ctime as i64, st.st_ctime_nsec as i64),
        dev: st.st_dev as u32,
        ino: st.st_ino as u32,
        uid: st.st_uid as u32,
        gid: st.st_gid as u32,
        size: st.st_size as u32,
    };
    #[allow(clippy::unnecessary_cast)]
    let len = st.st_size as u64;
    FileStat { kind, stat, len }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `lstat` of the whole path gives, through gix as the index compares it.
    fn lstat_whole(root: &Path, rel: &str) -> Option<(bool, bool, Stat, u64)> {
        let meta = gix::index::fs::Metadata::from_path_no_follow(&root.join(rel)).ok()?;
        let stat = Stat::from_fs(&meta).ok()?;
        Some((meta.is_file(), meta.is_symlink(), stat, meta.len()))
    }

    fn lstat_here(stat: &mut DirStat, rel: &str) -> Option<(bool, bool, Stat, u64)> {
        let now = stat.lstat(rel.as_bytes())?;
        let file = now.kind == FileKind::File;
        Some((file, now.kind == FileKind::Link, now.stat, now.len))
    }

    #[test]
    fn a_lookup_by_directory_handle_gives_what_lstat_of_the_whole_path_gives() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/deep/er")).unwrap();
        std::fs::write(root.join("top.rs"), "fn a() {}\n").unwrap();
        std::fs::write(root.join("src/a.rs"), "fn b() {}\n// more\n").unwrap();
        std::fs::write(root.join("src/deep/er/c.rs"), "x").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("a.rs", root.join("src/link.rs")).unwrap();
            std::os::unix::fs::symlink("deep", root.join("src/through")).unwrap();
        }
        let mut stat = DirStat::new(root);
        let paths = [
            "src/a.rs",
            "src/deep/er/c.rs",
            "src/link.rs",
            "src/missing.rs",
            "src/through/er/c.rs",
            "top.rs",
            "src/a.rs",
            "nowhere/x.rs",
            "src",
        ];
        for rel in paths {
            assert_eq!(lstat_here(&mut stat, rel), lstat_whole(root, rel), "{rel}");
        }
        let file = stat.lstat(b"src/a.rs").unwrap();
        assert_eq!(
            (file.kind, file.len, file.stat.size),
            (FileKind::File, 18, 18)
        );
        #[cfg(unix)]
        assert_eq!(stat.lstat(b"src/link.rs").unwrap().kind, FileKind::Link);
        assert_eq!(stat.lstat(b"src").unwrap().kind, FileKind::Dir);
        assert!(stat.lstat(b"src/missing.rs").is_none());
    }
}
