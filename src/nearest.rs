//! The readers' "did you mean": the known key nearest to one a user wrote, by edit
//! distance (an adjacent swap counts as one edit). Used by the Limits reader for every
//! unknown key, and by the `context.yaml` reader for near misses only.

/// The known key a misspelt `key` most likely means: the same key in another case or
/// with `-` for `_`, a key it is a part of or that is a part of it (`tolerance` for
/// `tolerance_percent`), or the nearest within a third of its length (two edits at
/// least). `None` when nothing is that near.
pub fn nearest<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    let key = normal(key);
    let mut best: Option<(usize, &'k str)> = None;
    for &candidate in known {
        let distance = distance(&key, candidate);
        let contained = key.len() >= 4 && (candidate.contains(&key) || key.contains(candidate));
        let near = contained || distance <= (candidate.len() / 3).max(2);
        if near && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The known key `key` is one slip away from, where `key` isn't itself known: the same
/// key in another case or with `-` for `_`, or one edit from a known key of five
/// letters or more. Stricter than [`nearest`], for files whose other keys belong to
/// other tools (`data` is not a misspelt `meta`).
pub fn near_miss<'k>(key: &str, known: &[&'k str]) -> Option<&'k str> {
    if known.contains(&key) {
        return None;
    }
    let key = normal(key);
    known.iter().copied().find(|candidate| {
        key == *candidate || (candidate.len() >= 5 && distance(&key, candidate) == 1)
    })
}

/// Lower case, `-` and spaces read as `_`.
fn normal(key: &str) -> String {
    key.trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`: the
/// optimal string alignment distance, over characters.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: two back (for swaps), the last, and the one being filled.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use super::{distance, near_miss, nearest};

    const LIMITS: &[&str] = &[
        "file_bytes",
        "file_lines",
        "function_lines",
        "type_lines",
        "types_per_file",
        "tolerance_percent",
    ];

    #[test]
    fn distance_counts_each_edit_and_a_swap_as_one() {
        assert_eq!(distance("type_line", "type_lines"), 1);
        assert_eq!(distance("sorucs", "sources"), 2);
        assert_eq!(distance("fucntion_lines", "function_lines"), 1);
        assert_eq!(distance("", "meta"), 4);
        assert_eq!(distance("same", "same"), 0);
    }

    #[test]
    fn nearest_finds_the_key_a_typo_means() {
        assert_eq!(nearest("tolerance", LIMITS), Some("tolerance_percent"));
        assert_eq!(nearest("type_line", LIMITS), Some("type_lines"));
        assert_eq!(nearest("Function-Lines", LIMITS), Some("function_lines"));
        assert_eq!(
            nearest("max_function_lines", LIMITS),
            Some("function_lines")
        );
        assert_eq!(nearest("file_line", LIMITS), Some("file_lines"));
        assert_eq!(nearest("bogus", LIMITS), None);
        assert_eq!(nearest("method_lines", LIMITS), None);
    }

    #[test]
    fn a_near_miss_is_one_slip_from_a_long_enough_key() {
        let keys = &["meta", "sources"];
        assert_eq!(near_miss("source", keys), Some("sources"));
        assert_eq!(near_miss("Sources", keys), Some("sources"));
        assert_eq!(near_miss("META", keys), Some("meta"));
        assert_eq!(near_miss("sources", keys), None);
        assert_eq!(near_miss("data", keys), None);
        assert_eq!(near_miss("sourcemaps", keys), None);
        assert_eq!(near_miss("owners", keys), None);
    }
}
