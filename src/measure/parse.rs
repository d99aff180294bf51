//! One parse, bounded in time and memory (stage 2, docs/src/reference/measurement.md#skipped).
//!
//! tree-sitter asks its progress callback how to go on only between parse actions, and
//! some inputs make one action run for minutes: at the end of a file of `a < b, a < b, …`
//! the parser builds a tree from each of thousands of stack versions, gigabytes in all,
//! with no check in between. So the parse runs on a worker thread of the measuring
//! thread, and every allocation tree-sitter makes goes through [`Budget`]: a parse that
//! passes `--parse-timeout`, or allocates more than [`memory_bound`] of its text, is
//! given up. The callback stops it where it checks; where it doesn't, its next allocation
//! parks the worker for good (it holds no lock, and the process's end takes it), and the
//! measuring thread goes on with a new worker.

use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, Once, PoisonError};
use std::time::{Duration, Instant};

use tree_sitter::{ParseOptions, ParseState, Parser, Tree};

use crate::lang::Lang;
use crate::model::SkipReason;

/// What any parse may allocate, however small its text.
const MEMORY_FLOOR: u64 = 128 << 20;

/// What a parse may allocate per byte of its text, beyond the floor: real code takes 8
/// (Rust) to 60 (C#) bytes per byte, in all it allocates while it parses.
const MEMORY_PER_BYTE: u64 = 96;

/// The most a parse of `len` bytes of text may allocate, in all, before it is given up.
pub fn memory_bound(len: usize) -> u64 {
    let len = u64::try_from(len).unwrap_or(u64::MAX);
    MEMORY_FLOOR.saturating_add(len.saturating_mul(MEMORY_PER_BYTE))
}

/// Parses `text` with `lang`, giving up after `timeout` (zero: never) with
/// [`SkipReason::ParseTimeout`], or past [`memory_bound`] with
/// [`SkipReason::ParseMemory`].
pub fn parse(lang: &'static Lang, text: &str, timeout: Duration) -> Result<Tree, SkipReason> {
    INSTALL.call_once(|| {
        // SAFETY: the functions below are the C allocator's own, wrapped; memory
        // allocated before (by the default, the same functions) is freed the same way.
        unsafe {
            tree_sitter::set_allocator(
                Some(budget_malloc),
                Some(budget_calloc),
                Some(budget_realloc),
                Some(budget_free),
            )
        }
    });
    let shared = Arc::new(Shared::default());
    let bound = memory_bound(text.len());
    let job = Job {
        lang,
        text: text.to_string(),
        bound,
        shared: Arc::clone(&shared),
    };
    if let Err(job) = hand_over(job) {
        // No thread to be had: parsed here, bounded where tree-sitter checks.
        return inline(&job, timeout);
    }
    let status = wait(&shared, timeout);
    let given_up = |reason| {
        shared.cancel.store(true, Ordering::Relaxed);
        // The worker is the given-up parse's now: the next one gets a new worker.
        WORKER.with_borrow_mut(Option::take);
        Err(reason)
    };
    match status {
        Status::Parsed(Some(tree)) => Ok(tree),
        Status::Parsed(None) => Err(SkipReason::Unreadable("the parser gave no tree".into())),
        Status::OverMemory => given_up(SkipReason::ParseMemory { bytes: bound }),
        Status::Running => given_up(SkipReason::ParseTimeout { timeout }),
    }
}

/// What the worker's parse came to, as the measuring thread waits for it.
#[derive(Default)]
enum Status {
    #[default]
    Running,
    Parsed(Option<Tree>),
    /// It allocated more than its bound: the worker is parked.
    OverMemory,
}

/// What a parse's worker and its measuring thread share.
#[derive(Default)]
struct Shared {
    status: Mutex<Status>,
    changed: Condvar,
    /// Set by the measuring thread when it gives the parse up.
    cancel: AtomicBool,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set(&self, status: Status) {
        *self.lock() = status;
        self.changed.notify_all();
    }
}

/// Waits until the parse is done, over its memory bound, or past `timeout` (zero:
/// never); gives its status, [`Status::Running`] when the time ran out.
fn wait(shared: &Shared, timeout: Duration) -> Status {
    let deadline = (!timeout.is_zero()).then(|| Instant::now() + timeout);
    let mut status = shared.lock();
    while matches!(*status, Status::Running) {
        status = match deadline {
            None => shared
                .changed
                .wait(status)
                .unwrap_or_else(PoisonError::into_inner),
            Some(deadline) => {
                let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                    break;
                };
                let waited = shared.changed.wait_timeout(status, left);
                waited.unwrap_or_else(PoisonError::into_inner).0
            }
        };
    }
    std::mem::take(&mut *status)
}

/// One parse for a worker.
struct Job {
    lang: &'static Lang,
    text: String,
    bound: u64,
    shared: Arc<Shared>,
}

thread_local! {
    /// The measuring thread's worker: where its parses run.
    static WORKER: RefCell<Option<mpsc::Sender<Job>>> = const { RefCell::new(None) };
    /// On a worker, while it parses: what tree-sitter may still allocate.
    static LEFT: Cell<u64> = const { Cell::new(u64::MAX) };
    /// On a worker, while it runs a job: the job's shared state (null otherwise).
    static PARSING: Cell<*const Shared> = const { Cell::new(std::ptr::null()) };
    /// One parser per thread and grammar (by [`Lang::name`]), made on first use.
    static PARSERS: RefCell<Vec<(&'static str, Parser)>> = const { RefCell::new(Vec::new()) };
}

static INSTALL: Once = Once::new();

/// Gives `job` to this thread's worker (started on first use, or after the last one was
/// given up with its parse); the job back when no worker thread can be started.
fn hand_over(job: Job) -> Result<(), Job> {
    WORKER.with_borrow_mut(|worker| {
        let job = match worker.as_ref() {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        match spawn() {
            Some(jobs) => {
                let sent = jobs.send(job).map_err(|mpsc::SendError(job)| job);
                *worker = Some(jobs);
                sent
            }
            None => Err(job),
        }
    })
}

/// A worker thread, taking jobs until its measuring thread drops it; `None` when no
/// thread can be started.
fn spawn() -> Option<mpsc::Sender<Job>> {
    let (jobs, taken) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("structgate-parse".into())
        .spawn(move || {
            while let Ok(job) = taken.recv() {
                PARSING.set(Arc::as_ptr(&job.shared));
                let tree = run(&job, None);
                PARSING.set(std::ptr::null());
                job.shared.set(Status::Parsed(tree));
            }
        })
        .ok()?;
    Some(jobs)
}

/// Runs `job` on the measuring thread itself, stopped by the progress callback alone.
fn inline(job: &Job, timeout: Duration) -> Result<Tree, SkipReason> {
    let deadline = (!timeout.is_zero()).then(|| Instant::now() + timeout);
    match run(job, deadline) {
        Some(tree) => Ok(tree),
        None if job.shared.cancel.load(Ordering::Relaxed) => {
            Err(SkipReason::ParseTimeout { timeout })
        }
        None => Err(SkipReason::Unreadable("the parser gave no tree".into())),
    }
}

/// Runs one job on this thread, stopped once its measuring thread gives it up or past
/// `deadline`; on a worker, its allocations are counted against its bound.
fn run(job: &Job, deadline: Option<Instant>) -> Option<Tree> {
    let cancel = &job.shared.cancel;
    let mut stop = |_: &ParseState| {
        if deadline.is_some_and(|d| Instant::now() > d) {
            cancel.store(true, Ordering::Relaxed);
        }
        cancel.load(Ordering::Relaxed)
    };
    PARSERS.with_borrow_mut(|parsers| {
        let index = match parsers.iter().position(|(name, _)| *name == job.lang.name) {
            Some(index) => index,
            None => {
                let mut parser = Parser::new();
                parser.set_language(&(job.lang.grammar)()).ok()?;
                parsers.push((job.lang.name, parser));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers.get_mut(index)?.1;
        let bytes = job.text.as_bytes();
        let mut read = |at: usize, _| bytes.get(at..).unwrap_or_default();
        let options = ParseOptions::new().progress_callback(&mut stop);
        LEFT.set(job.bound);
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        LEFT.set(u64::MAX);
        if tree.is_none() {
            // A stopped parse resumes on the next call unless reset.
            parser.reset();
        }
        tree
    })
}

/// Counts `size` bytes against the parse running on this thread, if any: past its bound,
/// or once its measuring thread gave it up, the worker says so and parks for good.
fn spend(size: usize) {
    let shared = PARSING.get();
    if shared.is_null() {
        return;
    }
    // SAFETY: set by the worker from the job it holds, and cleared before it drops it.
    let shared = unsafe { &*shared };
    let size = u64::try_from(size).unwrap_or(u64::MAX);
    let over = LEFT.get() < size;
    LEFT.set(LEFT.get().saturating_sub(size));
    if over || shared.cancel.load(Ordering::Relaxed) {
        if over {
            shared.set(Status::OverMemory);
        }
        loop {
            std::thread::park();
        }
    }
}

extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn calloc(count: usize, size: usize) -> *mut c_void;
    fn realloc(ptr: *mut c_void, size: usize) -> *mut c_void;
    fn free(ptr: *mut c_void);
}

/// The allocation failed: as tree-sitter's own allocator, end the process.
fn out_of_memory() -> ! {
    std::process::abort()
}

unsafe extern "C" fn budget_malloc(size: usize) -> *mut c_void {
    spend(size);
    let ptr = malloc(size);
    if ptr.is_null() && size > 0 {
        out_of_memory();
    }
    ptr
}

unsafe extern "C" fn budget_calloc(count: usize, size: usize) -> *mut c_void {
    spend(count.saturating_mul(size));
    let ptr = calloc(count, size);
    if ptr.is_null() && count > 0 && size > 0 {
        out_of_memory();
    }
    ptr
}

unsafe extern "C" fn budget_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
    spend(size);
    let ptr = realloc(ptr, size);
    if ptr.is_null() && size > 0 {
        out_of_memory();
    }
    ptr
}

unsafe extern "C" fn budget_free(ptr: *mut c_void) {
    free(ptr);
}
