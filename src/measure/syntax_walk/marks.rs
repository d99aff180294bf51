//! Where a file's unit marks (`{`, `=>`, ...) and block comment openings stand, for the
//! walk (`super`), found with one byte search per mark.

/// Where a byte (or a two-byte pattern) occurs in a file, to ask of any node whether its
/// bytes hold one in logarithmic time: a walk that asked each node's text would scan a
/// deeply nested expression once per level.
#[derive(Debug, Default)]
pub(super) struct Marks(Vec<usize>);

impl Marks {
    /// Every offset where `pattern` starts, overlaps included: a search for its first
    /// byte (`memchr`), each hit checked for the rest.
    pub(super) fn of(src: &[u8], pattern: &[u8]) -> Marks {
        let Some((&first, rest)) = pattern.split_first() else {
            return Marks::default();
        };
        let hits = memchr::memchr_iter(first, src);
        Marks(hits.filter(|&i| src[i + 1..].starts_with(rest)).collect())
    }

    /// Every offset where one of `patterns` starts, in order.
    pub(super) fn of_any(src: &[u8], patterns: &[&[u8]]) -> Marks {
        let mut offsets: Vec<usize> = Vec::new();
        for pattern in patterns {
            let found = Marks::of(src, pattern).0;
            offsets = if offsets.is_empty() {
                found
            } else {
                merged(&offsets, &found)
            };
        }
        Marks(offsets)
    }

    /// Whether a mark starts within `start..end`.
    pub(super) fn any_in(&self, start: usize, end: usize) -> bool {
        let first = self.0.partition_point(|&m| m < start);
        self.0.get(first).is_some_and(|&m| m < end)
    }
}

/// Two sorted lists of offsets as one.
fn merged(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] <= b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}
