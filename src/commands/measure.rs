//! `structgate measure`: walk → measure → judge each unit by its owning context's terms
//! (working tree) → a report value.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, Result};

use crate::cache::{self, Cache};
use crate::commands::Workspace;
use crate::judge::Exit;
use crate::judge::{self, FileTerms, Finding, Marks, Verdict};
use crate::measure::{self, Options};
use crate::model::{FileMeasure, FileOutcome, LeftOutReason, Metric, SkipReason, Unit, UnitKind};
use crate::reason::FileReason;
use crate::terms::{ContextTerms, Terms};

/// What `measure` was asked.
pub struct Request {
    pub cwd: PathBuf,
    pub paths: Vec<PathBuf>,
    pub contexts: Vec<PathBuf>,
    pub options: Options,
    /// Use the measurement cache (`--no-cache` turns it off).
    pub cache: bool,
    /// List only what is past a limit (`--over`).
    pub over_only: bool,
}

/// One measured file with its owner and, a byte a unit, how each stands ([`Marks`]): a
/// verdict is judged again only where it is shown in words ([`MeasureReport::judging`]),
/// so a full-tree report keeps no verdict per unit.
#[derive(Debug, Clone)]
pub struct MeasuredFile {
    pub measure: FileMeasure,
    pub context: Option<String>,
    /// True when the owning context has limits that apply to the file's language
    /// (statuses are shown).
    pub limited: bool,
    /// The owning context's place in the report's terms.
    owner: Option<usize>,
    /// How the file and each of its units stand, as judging found them.
    pub marks: Marks,
}

impl MeasuredFile {
    /// This file, owned and limited as it is, with `measure` and `marks` in its place:
    /// what a report keeps of it.
    pub fn with_measure(&self, measure: FileMeasure, marks: Marks) -> MeasuredFile {
        MeasuredFile {
            measure,
            context: self.context.clone(),
            limited: self.limited,
            owner: self.owner,
            marks,
        }
    }
}

/// One value of a unit, with its verdict; `None` where no limit applies.
#[derive(Debug, Clone)]
pub struct UnitVerdict {
    pub metric: Metric,
    pub value: u64,
    pub verdict: Option<Verdict>,
}

/// Everything `measure` prints.
#[derive(Debug, Clone, Default)]
pub struct MeasureReport {
    /// The measured files, in path order; empty when they were handed on one by one
    /// instead ([`run_each`]).
    pub files: Vec<MeasuredFile>,
    pub skipped: Vec<FileReason<SkipReason>>,
    /// Files left out by rule (test or generated code), with the rule (for `--verbose`).
    pub left_out: Vec<FileReason<LeftOutReason>>,
    /// One per judged key (same-name units merged at the worse value) that is not ok.
    pub findings: Vec<Finding>,
    pub warnings: Vec<String>,
    /// `path: syntax errors at lines ...; measured what parsed`, one per file.
    pub syntax_errors: Vec<String>,
    /// What the measurement cache did.
    pub cache: cache::Stats,
    /// How many files were measured and what they hold, kept or not.
    pub counts: Counts,
    /// The text lists only files and units past a limit (`--over`).
    pub over_only: bool,
    /// The terms the files were judged by.
    terms: Terms,
}

/// The totals of a report's measured files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub files: usize,
    pub functions: usize,
    pub types: usize,
    /// Whether a limit applied to any of them (statuses are shown).
    pub limited: bool,
}

impl MeasureReport {
    fn owner(&self, file: &MeasuredFile) -> Option<&ContextTerms> {
        file.owner.map(|i| &self.terms.contexts[i])
    }

    /// `file` with the terms that judge its values, looked up once for all of them.
    pub fn judging<'r>(&'r self, file: &'r MeasuredFile) -> Judging<'r> {
        Judging {
            file,
            terms: file_terms(self.owner(file), &file.measure.path),
        }
    }

    /// `1` when `--check` finds a value past its band and not tolerated, else `0`.
    pub fn exit(&self, check: bool) -> Exit {
        Exit::of_measure(check, &self.findings)
    }
}

/// One measured file and its terms ([`MeasureReport::judging`]): the verdicts on its
/// values, as the report shows them.
pub struct Judging<'r> {
    file: &'r MeasuredFile,
    terms: Option<FileTerms<'r>>,
}

impl Judging<'_> {
    /// Calls `each` with every unit of the file, in the order of its units, and its values
    /// in the registry's order, each with its verdict (`None` where no limit applies).
    pub fn each_unit(&self, each: &mut dyn FnMut(&Unit, &[UnitVerdict])) {
        // One buffer for every unit: a file holds thousands.
        let mut verdicts = Vec::new();
        for unit in &self.file.measure.units {
            self.unit(unit, &mut verdicts);
            each(unit, &verdicts);
        }
    }

    /// The values of `unit`, a unit of the file, in the registry's order, each with its
    /// verdict, into `verdicts` (cleared first).
    pub fn unit(&self, unit: &Unit, verdicts: &mut Vec<UnitVerdict>) {
        let path = &self.file.measure.path;
        let terms = self.terms.as_ref();
        verdicts.clear();
        verdicts.extend(unit.values().map(|(metric, value)| UnitVerdict {
            metric,
            value,
            verdict: terms.and_then(|t| t.unit_value(path, unit, metric, value)),
        }));
    }

    /// The verdicts on the file-level values (`file_lines`, `types_per_file`,
    /// `file_bytes`, `loaded_bytes`), where limited.
    pub fn file_verdicts(&self) -> Vec<Verdict> {
        let m = &self.file.measure;
        let Some(terms) = &self.terms else {
            return Vec::new();
        };
        let name = m.file_name();
        m.file_values()
            .into_iter()
            .filter_map(|(metric, value)| terms.value(&m.path, name, metric, value))
            .collect()
    }
}

/// The terms of the file at `path`, owned by `owner`, where its context has limits: what
/// the judge judges each of its values by.
fn file_terms<'a>(owner: Option<&'a ContextTerms>, path: &str) -> Option<FileTerms<'a>> {
    let owner = owner?;
    let limits = owner.limits.as_ref()?;
    Some(FileTerms::new(limits, &owner.allowances(), path, false))
}

/// `measure --dump-tree FILE` (`file` relative to `cwd`): the syntax tree of one file and
/// what the walk made of each node; an error naming the file when it has none.
pub fn dump_tree(cwd: &Path, file: &Path) -> Result<String> {
    let bytes = std::fs::read(cwd.join(file)).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => anyhow!("{}: no such file or directory", file.display()),
        _ => anyhow!("{}: {e}", file.display()),
    })?;
    let name = file.to_string_lossy();
    measure::dump_walk(&name, &bytes).ok_or_else(|| {
        anyhow!(
            "{}: no syntax tree (not UTF-8, or not a language structgate parses)",
            file.display()
        )
    })
}

pub fn run(request: &Request) -> Result<MeasureReport> {
    run_with(request, &measure::NoProgress)
}

/// [`run`], telling `progress` of each file measured.
pub fn run_with(request: &Request, progress: &dyn measure::Progress) -> Result<MeasureReport> {
    run_each(request, progress, true, &mut |_, _| Ok(()))
}

/// [`run_with`], handing each measured file to `each` in path order as soon as it is
/// final, with the report so far (whose terms judge it: [`MeasureReport::judging`]),
/// so that a report can be written while the rest is measured. The report keeps the
/// files only when `keep` is true; its counts, findings, skipped and left-out files are
/// complete either way. An error of `each` ends the run with it.
pub fn run_each(
    request: &Request,
    progress: &dyn measure::Progress,
    keep: bool,
    each: &mut (dyn FnMut(&MeasureReport, &MeasuredFile) -> std::io::Result<()> + Send),
) -> Result<MeasureReport> {
    let each = &mut |report: &MeasureReport, file: &MeasuredFile, _: Option<()>| each(report, file);
    run_packing(request, progress, (keep, None), each)
}

/// What a report makes of a measured file's units and their marks to keep until the
/// run ends ([`run_packing`]).
pub type Packer<'a, P> = &'a (dyn Fn(&FileMeasure, &Marks) -> P + Sync);

/// What [`run_packing`] hands each measured file to, in path order, with the report so
/// far and the file's units packed.
pub type EachPacked<'a, P> =
    &'a mut (dyn FnMut(&MeasureReport, &MeasuredFile, Option<P>) -> std::io::Result<()> + Send);

/// [`run_each`], and where `pack` is given, each file's units packed by it on the thread
/// that measured the file, handed to `each` with the file, whose units are then left out
/// (freed where they were made).
pub fn run_packing<P: Send>(
    request: &Request,
    progress: &dyn measure::Progress,
    (keep, pack): (bool, Option<Packer<P>>),
    each: EachPacked<P>,
) -> Result<MeasureReport> {
    let ws = Workspace::open(&request.cwd)?;
    let (mut terms, restrict) = ws.terms(&request.cwd, &request.contexts)?;
    carry_renames(&ws, &mut terms)?;
    let targets: Vec<String> = request
        .paths
        .iter()
        .map(|path| ws.relative(&request.cwd, path))
        .collect::<Result<_>>()?;
    let cache = Cache::open_for_tree(ws.repo.as_ref(), request.cache);
    let restricted = !restrict.is_empty();
    let reading = terms.clone();
    let reads_imports = |path: &str| reading.reads_imports(path);
    // Files their context's exclude globs name are left out unread.
    let (memo, contexts) = (&cache, &reading.index);
    let memo = measure::Excluding { memo, contexts };
    let mut report = MeasureReport {
        warnings: [
            terms.all_warnings(),
            crate::report::terms::unrecorded_warnings(&terms),
        ]
        .concat(),
        terms,
        over_only: request.over_only,
        ..MeasureReport::default()
    };
    // Each file is judged on the thread that measured it; only what the report keeps of
    // it waits for the files before it.
    // Only a report that shows each unit reads its marks.
    let marking = keep || pack.is_some();
    let judging = |outcome: FileOutcome| Judged::of(&reading, outcome, (marking, pack));
    let mut take = |judged: Judged<P>| report.take(judged, (restricted, keep), &mut *each);
    let handing = measure::Handing {
        prepare: &judging,
        each: &mut take,
    };
    let options = &request.options;
    measure::measure_tree_handing(
        &ws.tree,
        &targets,
        options,
        progress,
        &memo,
        &reads_imports,
        handing,
    )?;
    report.cache = cache.finish();
    Ok(report)
}

/// One file's outcome and, when measured, its owner, its values past their limits, how
/// each unit stands and what its units hold; with a [`Packer`], its units packed.
struct Judged<P> {
    outcome: FileOutcome,
    /// The owning context's place in the terms.
    owner: Option<usize>,
    findings: Vec<Finding>,
    marks: Marks,
    units: UnitCounts,
    packed: Option<P>,
}

/// What a file's units hold, counted before they may be left out ([`run_packing`]).
#[derive(Debug, Clone, Copy, Default)]
struct UnitCounts {
    functions: usize,
    types: usize,
    /// An anonymous-function unit among them.
    anonymous: bool,
}

impl UnitCounts {
    fn of(units: &[Unit]) -> UnitCounts {
        let mut counts = UnitCounts::default();
        for unit in units {
            match unit.kind {
                UnitKind::Function => counts.functions += 1,
                UnitKind::Type => counts.types += 1,
            }
            counts.anonymous |= unit.anonymous;
        }
        counts
    }
}

impl<P> Judged<P> {
    /// `outcome` judged by `terms`, the report's own, its units marked where `marking`;
    /// its units packed by `pack`, if any, then left out.
    fn of(
        terms: &Terms,
        mut outcome: FileOutcome,
        (marking, pack): (bool, Option<Packer<P>>),
    ) -> Judged<P> {
        let FileOutcome::Measured(m) = &mut outcome else {
            let (owner, findings, marks) = (None, Vec::new(), Marks::default());
            return Judged {
                outcome,
                owner,
                findings,
                marks,
                units: UnitCounts::default(),
                packed: None,
            };
        };
        let owner = terms.owner_index(&m.path);
        let limited = owner.and_then(|i| {
            let o = &terms.contexts[i];
            Some((o, o.limits.as_ref()?))
        });
        let (findings, marks) = limited.map_or_else(Default::default, |(o, limits)| {
            let allowances = &o.allowances();
            match marking {
                true => judge::file_judged(limits, m, allowances),
                false => (judge::file_past(limits, m, allowances), Marks::default()),
            }
        });
        let units = UnitCounts::of(&m.units);
        let packed = pack.map(|pack| pack(m, &marks));
        if packed.is_some() {
            m.units = Vec::new();
        }
        Judged {
            outcome,
            owner,
            findings,
            marks,
            units,
            packed,
        }
    }
}

impl MeasureReport {
    /// Adds one outcome: a measured file counted, its findings kept, handed to `each`
    /// and, with `keep`, kept; a skipped or left-out file listed (when `restricted`, only
    /// those a chosen context owns).
    fn take<P>(
        &mut self,
        judged: Judged<P>,
        (restricted, keep): (bool, bool),
        each: EachPacked<P>,
    ) -> Result<()> {
        let Judged {
            outcome,
            owner,
            findings,
            marks,
            units,
            packed,
        } = judged;
        match outcome {
            FileOutcome::Measured(m) => {
                let judged = (owner, findings, marks, units);
                if let Some(file) = self.add_file(restricted, m, judged) {
                    each(self, &file, packed)?;
                    if keep {
                        self.files.push(file);
                    }
                }
            }
            FileOutcome::Skipped { path, reason } => self.skipped.push(FileReason { path, reason }),
            FileOutcome::LeftOut { path, reason } => {
                if !restricted || self.terms.owner(&path).is_some() {
                    self.left_out.push(FileReason { path, reason });
                }
            }
        }
        Ok(())
    }

    /// Counts a measured file, owned by the context at `index` and judged to `findings`
    /// and `marks`; `None` when `restricted` (`--context`) and no chosen context owns it.
    fn add_file(
        &mut self,
        restricted: bool,
        m: FileMeasure,
        (index, findings, marks, units): (Option<usize>, Vec<Finding>, Marks, UnitCounts),
    ) -> Option<MeasuredFile> {
        let owner = index.map(|i| &self.terms.contexts[i]);
        if restricted && owner.is_none() {
            return None;
        }
        for w in &m.warnings {
            self.warnings.push(format!("{}: {w}", m.path));
        }
        if let Some(w) = &m.syntax_errors {
            self.syntax_errors.push(format!("{}: {w}", m.path));
        }
        if let Some(owner) = owner.filter(|o| o.limits.is_some()) {
            // judge::leaves_anonymous_unjudged, of units that may be left out by now
            // (docs/src/reference/baseline.md#units).
            if units.anonymous && !judge::judges_anonymous(owner.baseline.as_ref()) {
                let note = crate::baseline::predating_units_note(&owner.context.name);
                if !self.warnings.contains(&note) {
                    self.warnings.push(note);
                }
            }
        }
        self.findings.extend(findings);
        let limited = judge::limits_apply(owner.and_then(|o| o.limits.as_ref()), m.language);
        let counts = &mut self.counts;
        counts.files += 1;
        counts.limited |= limited;
        counts.functions += units.functions;
        counts.types += units.types;
        Some(MeasuredFile {
            context: owner.map(|o| o.context.name.clone()),
            limited,
            owner: index,
            measure: m,
            marks,
        })
    }
}

/// Each baseline as `baseline refresh` would move it: the entries of a file renamed since
/// the baseline was last changed tolerate it at its new path, so `measure --check` agrees
/// with the gate and with what the refresh will write (docs/src/reference/baseline.md).
fn carry_renames(ws: &Workspace, terms: &mut Terms) -> Result<()> {
    for ctx in terms.contexts.iter_mut().filter(|c| c.limits.is_some()) {
        let renames = ws.baseline_renames(ctx)?;
        if let (false, Some(baseline)) = (renames.is_empty(), &ctx.baseline) {
            ctx.baseline = Some(judge::carried(baseline, &renames).0);
        }
    }
    Ok(())
}
