//! One document's walk through its eager imports (docs/src/reference/documents.md), breadth
//! first from its roots, each distinct file counted once. Where a file's imports lead is
//! resolved once per [`Imports`] ([`Edge`]), and files are told apart by number, so a
//! walk costs a few operations per import it passes, however many documents share the
//! files it reaches.

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;

use super::{resolve, Imports, Node, Reached, MAX_HOPS};
use crate::measure::imports::ImportRef;
use crate::model::Loaded;

/// How many warnings one document's walk gives; the rest are counted in one more.
pub(super) const MAX_WARNINGS: usize = 50;

/// Where a file's imports lead, in the order written.
pub(super) struct Resolved {
    edges: Vec<Edge>,
    /// When each import leads to a distinct file, counted, with no link on the way (most
    /// files): those files by number, for a walk to take the new ones at once.
    plain: Option<Plain>,
}

/// The files a file's imports lead to, all plain.
struct Plain {
    /// Their numbers ([`Reached::id`]), as bits.
    bits: Vec<u64>,
    /// Each, by number.
    files: Vec<(usize, Arc<Reached>)>,
}

/// Where one import of a file leads.
#[derive(Debug)]
pub(super) enum Edge {
    /// Nowhere: the path as written is absolute, starts with `~` or leaves the repository.
    Written(&'static str),
    /// The path reached.
    To(Arc<Reached>),
}

/// One document's walk through its imports.
pub(super) struct Walk {
    /// The numbers ([`Reached::id`]) of the files counted, as bits.
    seen: Vec<u64>,
    /// The files counted, in the order reached.
    counted: Vec<Arc<str>>,
    /// The symbolic links passed through on the way to a file.
    links: BTreeSet<String>,
    /// The first link met that leaves the repository or points into `.git`.
    leaves: Option<String>,
    bytes: u64,
    warnings: Vec<String>,
    /// Warnings past [`MAX_WARNINGS`], counted.
    more: usize,
}

impl Walk {
    pub(super) fn new() -> Walk {
        Walk {
            seen: Vec::new(),
            counted: Vec::new(),
            links: BTreeSet::new(),
            leaves: None,
            bytes: 0,
            warnings: Vec::new(),
            more: 0,
        }
    }

    /// Notes links passed on the way to a root.
    pub(super) fn passed(&mut self, links: &[String]) {
        self.links.extend(links.iter().cloned());
    }

    /// Notes that `link`, on the way to a root, leaves the repository.
    pub(super) fn leaves_by(&mut self, link: &str) {
        self.leaves.get_or_insert_with(|| link.to_string());
    }

    /// What the walk loaded (its files sorted, the document among them), its warnings and
    /// the first link met that leaves the repository.
    pub(super) fn finish(mut self) -> (Loaded, Vec<String>, Option<String>) {
        if self.more > 0 {
            let more = self.more;
            self.warnings
                .push(format!("{more} more import warning(s) not shown"));
        }
        let mut imports: Vec<String> = self.counted.iter().map(|p| p.to_string()).collect();
        imports.sort();
        let loaded = Loaded {
            bytes: self.bytes,
            imports,
            links: self.links.into_iter().collect(),
        };
        (loaded, self.warnings, self.leaves)
    }

    /// The files of `plain` not counted yet, by number.
    fn fresh(&self, plain: &Plain) -> Vec<Arc<Reached>> {
        let mut fresh = Vec::new();
        for (w, bits) in plain.bits.iter().enumerate() {
            let mut new = bits & !self.seen.get(w).copied().unwrap_or(0);
            while new != 0 {
                let id = w * 64 + new.trailing_zeros() as usize;
                new &= new - 1;
                if let Ok(at) = plain.files.binary_search_by_key(&id, |(i, _)| *i) {
                    fresh.push(Arc::clone(&plain.files[at].1));
                }
            }
        }
        fresh
    }

    /// How many files of `plain` are not counted yet.
    fn unseen(&self, plain: &Plain) -> usize {
        let new = |(w, bits): (usize, &u64)| bits & !self.seen.get(w).copied().unwrap_or(0);
        let ones = plain.bits.iter().enumerate().map(new).map(u64::count_ones);
        ones.map(|n| n as usize).sum()
    }

    fn is_seen(&self, id: usize) -> bool {
        self.seen
            .get(id / 64)
            .is_some_and(|word| word & (1 << (id % 64)) != 0)
    }

    /// Counts the file `reached` (not seen before).
    fn count(&mut self, reached: &Reached, bytes: u64) {
        let word = reached.id / 64;
        if self.seen.len() <= word {
            self.seen.resize(word + 1, 0);
        }
        self.seen[word] |= 1 << (reached.id % 64);
        self.counted.push(Arc::clone(&reached.real));
        self.bytes = self.bytes.saturating_add(bytes);
    }

    /// Adds a warning once; past [`MAX_WARNINGS`] it is only counted.
    fn warn(&mut self, warning: String) {
        if self.warnings.contains(&warning) {
            return;
        }
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(warning);
        } else {
            self.more += 1;
        }
    }
}

impl Imports<'_> {
    /// Walks from `roots` (each at no hops), breadth first, counting each distinct file
    /// once.
    pub(super) fn walk(&self, mut walk: Walk, roots: Vec<Arc<Reached>>) -> Walk {
        let mut queue = VecDeque::new();
        for root in roots {
            if let Node::Counted { bytes, .. } = *root.node {
                if !walk.is_seen(root.id) {
                    walk.count(&root, bytes);
                    queue.push_back((root, 0usize));
                }
            }
        }
        while let Some((importer, depth)) = queue.pop_front() {
            let Node::Counted { refs, note, .. } = &*importer.node else {
                continue;
            };
            if let Some(note) = note {
                walk.warn(format!("{}: {note}", importer.real));
            }
            let resolved = match importer.given {
                true => Arc::new(self.resolve_all(&importer.real, refs)),
                false => self.edges(&importer.real, refs),
            };
            match &resolved.plain {
                // Plain imports within reach: the new files at once, by number.
                Some(plain) if depth < MAX_HOPS => {
                    for next in walk.fresh(plain) {
                        if let Node::Counted { bytes, .. } = *next.node {
                            walk.count(&next, bytes);
                        }
                        queue.push_back((next, depth + 1));
                    }
                }
                // Plain imports past reach, once no more warnings are shown: counted.
                Some(plain) if walk.warnings.len() >= MAX_WARNINGS => {
                    walk.more += walk.unseen(plain);
                }
                _ => {
                    for (r, edge) in refs.iter().zip(&resolved.edges) {
                        if let Some(next) = follow(&mut walk, &importer.real, r, edge, depth) {
                            queue.push_back((next, depth + 1));
                        }
                    }
                }
            }
        }
        walk
    }

    /// Where the imports `refs` of the file at `importer` lead, resolved once.
    fn edges(&self, importer: &Arc<str>, refs: &[ImportRef]) -> Arc<Resolved> {
        let memo = || {
            self.edges
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some(edges) = memo().get(importer) {
            return Arc::clone(edges);
        }
        let edges = Arc::new(self.resolve_all(importer, refs));
        memo().insert(Arc::clone(importer), Arc::clone(&edges));
        edges
    }

    /// Where the imports `refs` of the file at `importer` lead.
    fn resolve_all(&self, importer: &str, refs: &[ImportRef]) -> Resolved {
        let edges: Vec<Edge> = refs
            .iter()
            .map(|r| match resolve(importer, &r.path) {
                Ok(target) => Edge::To(self.reach(&target)),
                Err(why) => Edge::Written(why),
            })
            .collect();
        let plain = plain(&edges);
        Resolved { edges, plain }
    }
}

/// The files `edges` lead to, when each leads to a distinct file counted with no link on
/// the way.
fn plain(edges: &[Edge]) -> Option<Plain> {
    let mut files = Vec::with_capacity(edges.len());
    for edge in edges {
        let Edge::To(reached) = edge else {
            return None;
        };
        if !reached.links.is_empty() || !matches!(*reached.node, Node::Counted { .. }) {
            return None;
        }
        files.push((reached.id, Arc::clone(reached)));
    }
    files.sort_by_key(|(id, _)| *id);
    let distinct = files.windows(2).all(|w| w[0].0 != w[1].0);
    let mut bits = vec![0u64; files.last().map_or(0, |(id, _)| id / 64 + 1)];
    for (id, _) in &files {
        bits[id / 64] |= 1 << (id % 64);
    }
    distinct.then_some(Plain { bits, files })
}

/// Follows the import `r` of `importer` (at `depth` hops from the document) along `edge`:
/// counts the file it reaches, if new, and gives it for its imports to be followed in
/// turn; says why when it is not followed.
fn follow(
    walk: &mut Walk,
    importer: &str,
    r: &ImportRef,
    edge: &Edge,
    depth: usize,
) -> Option<Arc<Reached>> {
    if let Edge::To(reached) = edge {
        if walk.is_seen(reached.id) {
            // Counted already; a link on this way to it is loaded through all the same.
            if depth < MAX_HOPS && !reached.links.is_empty() {
                walk.passed(&reached.links);
            }
            return None;
        }
    }
    let why = match edge {
        _ if depth >= MAX_HOPS => format!("more than {MAX_HOPS} imports away from the document"),
        Edge::Written(why) => why.to_string(),
        Edge::To(reached) => {
            if !reached.links.is_empty() {
                walk.passed(&reached.links);
            }
            match &*reached.node {
                Node::NotFollowed(why) => why.clone(),
                Node::Leaves { link } => {
                    walk.leaves_by(link);
                    return None;
                }
                Node::Counted { bytes, .. } => {
                    walk.count(reached, *bytes);
                    return Some(Arc::clone(reached));
                }
            }
        }
    };
    walk.warn(format!(
        "import \"@{}\" at {importer}:{} not followed: {why}",
        r.path, r.line
    ));
    None
}
