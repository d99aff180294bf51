//! Stage 3 of the pipeline, on disk: reads and writes `structure-baseline.tsv`
//! (docs/src/reference/baseline.md). Parsing is strict (every malformed line is an error naming `file:line`);
//! rendering is canonical (the same baseline always gives the same bytes).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::baseline::{Baseline, EntryKey};
use crate::model::Metric;

#[cfg(test)]
mod tests;

/// The first line of every baseline file (docs/src/reference/baseline.md).
pub const TITLE: &str = "# path\tunit\tmetric\tvalue \u{2014} units over their Limits when measured, each tolerated up to its value";
/// The `# measured with:` keys that are not metrics.
pub const TOLERANCE_KEY: &str = "tolerance_percent";
const NEW_FILE_BYTES_KEY: &str = crate::limits::NEW_FILE_BYTES_KEY;
const PINNED_KEY: &str = crate::limits::PINNED_KEY;
const MEASURED_WITH: &str = "measured with:";
const OWNED: &str = "owned:";
const UNITS: &str = "units:";
/// How the repository root (`""`) is written in `# owned:`.
const ROOT_DIR: &str = ".";
const CONFLICT_MARKERS: [&str; 4] = ["<<<<<<<", "|||||||", "=======", ">>>>>>>"];

/// A read baseline and the problems that did not stop reading it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    pub baseline: Baseline,
    /// Each names the file and the line(s), e.g. a duplicate entry.
    pub warnings: Vec<String>,
}

/// A line of a baseline file that can't be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct TsvError {
    pub file: String,
    /// 1-based.
    pub line: usize,
    pub message: String,
}

/// Reads a baseline file. `file` names it in errors and warnings. A leading UTF-8 BOM
/// and CRLF line ends are accepted.
pub fn parse(bytes: &[u8], file: &str) -> Result<Parsed, TsvError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let before = bytes.get(..e.valid_up_to()).unwrap_or_default();
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        tsv_error(file, line, "not valid UTF-8".to_string())
    })?;
    let mut reader = Reader::new(file);
    for (index, raw) in text.split('\n').enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        reader
            .line(index + 1, line)
            .map_err(|message| tsv_error(file, index + 1, message))?;
    }
    Ok(Parsed {
        baseline: reader.baseline,
        warnings: reader.warnings,
    })
}

fn tsv_error(file: &str, line: usize, message: String) -> TsvError {
    TsvError {
        file: file.to_string(),
        line,
        message,
    }
}

/// State while reading one file line by line.
struct Reader<'a> {
    file: &'a str,
    baseline: Baseline,
    warnings: Vec<String>,
    /// The line each entry was first read from, for duplicate warnings.
    entry_lines: BTreeMap<EntryKey, usize>,
    measured_with_line: Option<usize>,
    owned_line: Option<usize>,
    units_line: Option<usize>,
}

impl<'a> Reader<'a> {
    fn new(file: &'a str) -> Self {
        Reader {
            file,
            baseline: Baseline::default(),
            warnings: Vec::new(),
            entry_lines: BTreeMap::new(),
            measured_with_line: None,
            owned_line: None,
            units_line: None,
        }
    }

    fn line(&mut self, number: usize, line: &str) -> Result<(), String> {
        if line.trim().is_empty() {
            return Ok(());
        }
        if let Some(comment) = line.strip_prefix('#') {
            return self.header(number, comment.trim_start());
        }
        if let Some(marker) = conflict_marker(line) {
            return Err(format!(
                "this looks like a merge conflict marker ({marker:?}): resolve the \
                 conflict in the baseline, then run `structgate baseline refresh`"
            ));
        }
        let (key, value) = entry(line)?;
        self.insert(number, key, value);
        Ok(())
    }

    /// A `#` line: `# measured with:`, `# owned:`, or a comment (ignored).
    fn header(&mut self, number: usize, comment: &str) -> Result<(), String> {
        if let Some(rest) = comment.strip_prefix(MEASURED_WITH) {
            first_header(&mut self.measured_with_line, number, "# measured with:")?;
            self.baseline.measured_with = Some(measured_with(rest)?);
        } else if let Some(rest) = comment.strip_prefix(OWNED) {
            first_header(&mut self.owned_line, number, "# owned:")?;
            self.baseline.owned = Some(owned(rest)?);
        } else if let Some(rest) = comment.strip_prefix(UNITS) {
            first_header(&mut self.units_line, number, "# units:")?;
            self.baseline.units = Some(units(rest)?);
        }
        Ok(())
    }

    /// Records an entry; of two for one key the lower value stands, with a warning.
    fn insert(&mut self, number: usize, key: EntryKey, value: u64) {
        let Some(&first) = self.entry_lines.get(&key) else {
            self.entry_lines.insert(key.clone(), number);
            self.baseline.entries.insert(key, value);
            return;
        };
        let stored = self.baseline.entries.entry(key.clone()).or_insert(value);
        *stored = (*stored).min(value);
        self.warnings.push(format!(
            "{}:{number}: duplicate entry for {} {} {} (also at line {first}); the lower \
             value {} stands",
            self.file,
            escape(&key.path),
            escape(&key.unit),
            key.metric,
            *stored
        ));
    }
}

/// The marker a line opens with, when it is a git merge-conflict marker line.
fn conflict_marker(line: &str) -> Option<&str> {
    if line.contains('\t') {
        return None;
    }
    let marker = CONFLICT_MARKERS.into_iter().find(|m| line.starts_with(m))?;
    let rest = &line[marker.len()..];
    (rest.is_empty() || rest.starts_with(' ')).then_some(line)
}

fn first_header(seen: &mut Option<usize>, number: usize, name: &str) -> Result<(), String> {
    if let Some(first) = seen {
        return Err(format!(
            "a second {name:?} line (the first is at line {first})"
        ));
    }
    *seen = Some(number);
    Ok(())
}

/// The pairs after `# measured with:`. `pinned=KEY,KEY` is kept as one `pinned.KEY` = 1
/// pair per metric (as [`crate::limits::Limits::measured_with`] gives them).
fn measured_with(rest: &str) -> Result<BTreeMap<String, u64>, String> {
    let mut pairs = BTreeMap::new();
    for pair in rest.split_whitespace() {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!(
                "malformed \"# measured with:\" pair {pair:?}: expected key=value"
            ));
        };
        let read = if key == PINNED_KEY {
            pinned(value)?
        } else {
            vec![(key.to_string(), header_number(key, value)?)]
        };
        for (key, number) in read {
            if pairs.insert(key.clone(), number).is_some() {
                return Err(format!("\"# measured with:\" lists {key} twice"));
            }
        }
    }
    Ok(pairs)
}

/// `pinned=KEY,KEY`: metric keys.
fn pinned(value: &str) -> Result<Vec<(String, u64)>, String> {
    value
        .split(',')
        .map(|key| match Metric::from_key(key) {
            Some(metric) => Ok((format!("{PINNED_KEY}.{metric}"), 1)),
            None => Err(format!(
                "\"# measured with:\" pinned={value:?} names {key:?}, not a metric (known: {})",
                known_metrics()
            )),
        })
        .collect()
}

/// The number of one `key=value` pair: a limit (a metric, `new_file_bytes`, or a tier's
/// `tier.NAME.KEY`) is positive; `tolerance_percent` may be 0.
fn header_number(key: &str, value: &str) -> Result<u64, String> {
    let limit_key = |k: &str| Metric::from_key(k).is_some() || k == NEW_FILE_BYTES_KEY;
    let is_limit = limit_key(key)
        || key
            .strip_prefix("tier.")
            .and_then(|rest| rest.split_once('.'))
            .is_some_and(|(name, k)| !name.is_empty() && limit_key(k));
    if !is_limit && key != TOLERANCE_KEY {
        return Err(format!(
            "unknown limit {key:?} in \"# measured with:\" (known: {}, {NEW_FILE_BYTES_KEY}, \
             {PINNED_KEY}, tier.NAME.KEY, {TOLERANCE_KEY})",
            known_metrics()
        ));
    }
    whole_number(value)
        .filter(|n| *n > 0 || !is_limit)
        .ok_or_else(|| {
            let what = if is_limit { "positive " } else { "" };
            format!("\"# measured with:\" {key}={value:?} is not a {what}whole number")
        })
}

/// The revision after `# units:`: one structgate knows (1 or 2).
fn units(rest: &str) -> Result<u32, String> {
    let value = rest.trim();
    match value.parse::<u32>() {
        Ok(n) if (1..=crate::baseline::UNITS_REVISION).contains(&n) => Ok(n),
        Ok(n) if n > crate::baseline::UNITS_REVISION => Err(format!(
            "\"# units: {n}\" is a revision this structgate doesn't know (it knows 1 and {}): \
             the baseline was written by a newer structgate",
            crate::baseline::UNITS_REVISION
        )),
        _ => Err(format!(
            "\"# units:\" {value:?} is not a revision (1 or {})",
            crate::baseline::UNITS_REVISION
        )),
    }
}

/// The directories after `# owned:`, tab-separated; `.` is the repository root.
fn owned(rest: &str) -> Result<Vec<String>, String> {
    let mut dirs = Vec::new();
    for (index, piece) in rest.split('\t').enumerate() {
        let piece = if index == 0 { piece.trim() } else { piece };
        if piece.is_empty() {
            continue;
        }
        let dir = unescape(piece).map_err(|e| format!("{e} in \"# owned:\""))?;
        dirs.push(if dir == ROOT_DIR { String::new() } else { dir });
    }
    Ok(dirs)
}

/// One entry line: path, unit, metric, value.
fn entry(line: &str) -> Result<(EntryKey, u64), String> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [path, unit, metric, value] = fields.as_slice() else {
        return Err(format!(
            "expected 4 tab-separated fields (path, unit, metric, value), found {}",
            fields.len()
        ));
    };
    let path = unescape(path).map_err(|e| format!("{e} in the path"))?;
    let unit = unescape(unit).map_err(|e| format!("{e} in the unit name"))?;
    if path.is_empty() {
        return Err("the path is empty".to_string());
    }
    if unit.is_empty() {
        return Err("the unit name is empty".to_string());
    }
    let metric = Metric::from_key(metric)
        .ok_or_else(|| format!("unknown metric {metric:?} (known: {})", known_metrics()))?;
    let value = whole_number(value)
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("value {value:?} is not a positive whole number"))?;
    Ok((EntryKey { path, unit, metric }, value))
}

fn known_metrics() -> String {
    let keys: Vec<&str> = Metric::ALL.iter().map(|m| m.key()).collect();
    keys.join(", ")
}

/// ASCII digits only (no sign, no spaces), within `u64`.
fn whole_number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Undoes [`escape`]: `\\` `\t` `\n` `\r` (and `\#`); any other escape is an error.
fn unescape(field: &str) -> Result<String, String> {
    if !field.contains('\\') {
        return Ok(field.to_string());
    }
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('t') => '\t',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('#') => '#',
            Some(other) => return Err(format!("unknown escape \"\\{other}\"")),
            None => return Err("a lone \"\\\" at the end of a field".to_string()),
        });
    }
    Ok(out)
}

/// Escapes `\` tab LF CR as `\\` `\t` `\n` `\r` (docs/src/reference/baseline.md).
pub fn escape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    for c in field.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            other => out.push(other),
        }
    }
    out
}

/// The first field of an entry line: escaped, and a leading `#` written `\#` so the
/// line isn't read back as a comment.
fn path_field(path: &str) -> String {
    let escaped = escape(path);
    match escaped.strip_prefix('#') {
        Some(rest) => format!("\\#{rest}"),
        None => escaped,
    }
}

/// The pairs of `# measured with:` as the header writes them, separated by spaces:
/// `function_lines=10 pinned=file_bytes,loaded_bytes tolerance_percent=0`.
pub fn measured_with_text(pairs: &BTreeMap<String, u64>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut pins: Vec<&str> = Vec::new();
    for (key, value) in pairs {
        if let Some(metric) = key.strip_prefix("pinned.") {
            pins.push(metric);
            continue;
        }
        if !pins.is_empty() {
            out.push(format!("{PINNED_KEY}={}", pins.join(",")));
            pins.clear();
        }
        out.push(format!("{key}={value}"));
    }
    if !pins.is_empty() {
        out.push(format!("{PINNED_KEY}={}", pins.join(",")));
    }
    out.join(" ")
}

/// Writes a baseline: the title, `# measured with:`, `# owned:` and `# units:` where present,
/// then the entries sorted by path, unit and metric key. LF line ends, UTF-8.
pub fn render(baseline: &Baseline) -> String {
    let mut out = String::new();
    out.push_str(TITLE);
    out.push('\n');
    if let Some(pairs) = &baseline.measured_with {
        out.push_str("# measured with:");
        for pair in measured_with_text(pairs).split_terminator(' ') {
            let _ = write!(out, " {pair}");
        }
        out.push('\n');
    }
    if let Some(dirs) = &baseline.owned {
        out.push_str("# owned:");
        for dir in dirs {
            out.push('\t');
            out.push_str(&if dir.is_empty() {
                ROOT_DIR.to_string()
            } else {
                escape(dir)
            });
        }
        out.push('\n');
    }
    if let Some(revision) = baseline.units {
        let _ = writeln!(out, "# units: {revision}");
    }
    let mut entries: Vec<(&EntryKey, &u64)> = baseline.entries.iter().collect();
    entries.sort_by(|(a, _), (b, _)| {
        (&a.path, &a.unit, a.metric.key()).cmp(&(&b.path, &b.unit, b.metric.key()))
    });
    for (key, value) in entries {
        let (path, unit) = (path_field(&key.path), escape(&key.unit));
        let _ = writeln!(out, "{path}\t{unit}\t{}\t{value}", key.metric);
    }
    out
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Replaces `path` with `contents` atomically: a temporary file beside it
/// (`.NAME.tmp.PID.N`), written, synced, then renamed over `path`. On any failure the
/// temporary file is removed and `path` is left as it was; the error names `path`.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    write_via_temp(path, |file| file.write_all(contents))
}

/// [`write_atomic`] with the writing step given, so tests can make it fail.
fn write_via_temp(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    write_steps(path, fill, || Ok(()))
}

/// [`write_via_temp`] with a step between the synced temp file and the rename, so tests
/// can fail or crash there.
fn write_steps(
    path: &Path,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    let temp = temp_path(path)?;
    let mut file = File::options()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(|e| {
            let dir = dir_of(path).display();
            annotate(
                e,
                format!(
                    "cannot write {}: cannot create a file in {dir}",
                    path.display()
                ),
            )
        })?;
    let result = fill_and_sync(&mut file, path, fill).and_then(|()| {
        drop(file);
        before_rename().map_err(|e| annotate(e, format!("cannot replace {}", path.display())))?;
        fs::rename(&temp, path)
            .map_err(|e| annotate(e, format!("cannot replace {}", path.display())))
    });
    if result.is_err() {
        let _ = fs::remove_file(&temp);
        return result;
    }
    sync_parent(path);
    Ok(())
}

fn fill_and_sync(
    file: &mut File,
    path: &Path,
    fill: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    fill(file)
        .and_then(|()| {
            if let Ok(meta) = fs::metadata(path) {
                file.set_permissions(meta.permissions())?;
            }
            file.sync_all()
        })
        .map_err(|e| annotate(e, format!("cannot write {}", path.display())))
}

/// A fresh temporary name in the directory of `path`.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("cannot write {}: it names no file", path.display()),
        )
    })?;
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = format!(
        "{}{}.{n}",
        temp_prefix(&name.to_string_lossy()),
        std::process::id()
    );
    Ok(path.with_file_name(temp))
}

/// Temporary files of the file named `name` start with this, then `PID.N`.
pub fn temp_prefix(name: &str) -> String {
    format!(".{name}.tmp.")
}

/// Makes the rename durable where the platform allows; failures here are not errors.
fn sync_parent(path: &Path) {
    if let Ok(handle) = File::open(dir_of(path)) {
        let _ = handle.sync_all();
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

fn annotate(error: io::Error, context: String) -> io::Error {
    io::Error::new(error.kind(), format!("{context}: {error}"))
}
