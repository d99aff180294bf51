//! A progress bar on stderr for long measuring runs (indicatif). It is drawn only on a
//! terminal and never in `--quiet` mode, so piped and CI output stays byte for byte the
//! same.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::measure::Progress;

/// `measure` shows a bar from this many files on; `baseline` always does.
pub const MEASURE_MIN_FILES: u64 = 500;

/// A bar that stays hidden until [`Progress::begin`] learns the run is long enough.
pub struct Bar {
    bar: ProgressBar,
    show: bool,
    min_files: u64,
}

impl Bar {
    /// `show` is the caller's decision (stderr is a terminal, not `--quiet`); the bar
    /// appears only when a run has at least `min_files` files.
    pub fn new(show: bool, min_files: u64, label: &'static str) -> Bar {
        let style = ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} files, {elapsed_precise} (eta {eta})",
        )
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        let bar = ProgressBar::hidden().with_style(style).with_prefix(label);
        Bar {
            bar,
            show,
            min_files,
        }
    }
}

impl Progress for Bar {
    fn begin(&self, files: u64) {
        self.bar.set_length(files);
        if self.show && files >= self.min_files.max(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    fn advance(&self) {
        self.bar.inc(1);
    }

    fn end(&self) {
        self.bar.finish_and_clear();
    }
}
