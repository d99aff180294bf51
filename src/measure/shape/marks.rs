//! Where a file's tokens that can count for shape stand
//! (docs/src/reference/metrics.md#shape-metrics): every construct that adds to a unit's
//! nesting, cyclomatic or cognitive complexity holds one of its language's
//! [`Forms::marks`] (`if`, `case`, `&&`, `?`, `=>`, ...) among its own bytes, so a
//! subtree whose bytes hold none adds nothing and the pass does not walk it. One scan of
//! the file finds them all; whether a node holds one is a binary search.
//!
//! A word mark counts where it stands as a whole word (no letter, digit or `_` on
//! either side); more marks than tokens (a word in a string or a comment) only make the
//! pass walk a subtree it could have left.

use super::Forms;

/// The offsets of a file's marks, in order.
pub(in crate::measure) struct Marks(Vec<usize>);

/// Which bytes are a word's: ASCII letters, digits and `_`.
const WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = b.is_ascii_alphanumeric() || b == b'_';
        byte += 1;
    }
    table
};

fn is_word_byte(byte: u8) -> bool {
    WORD[usize::from(byte)]
}

impl Marks {
    /// Every mark of `forms` in `src`.
    pub(in crate::measure) fn of(forms: &Forms, src: &[u8]) -> Marks {
        let (words, signs): (Vec<&[u8]>, Vec<&[u8]>) = forms
            .marks
            .iter()
            .map(|m| m.as_bytes())
            .partition(|m| m.first().is_some_and(|b| is_word_byte(*b)));
        // What a byte may start: the lengths of the word marks it starts (a bit per
        // length), a sign mark; most bytes start neither and are passed over.
        let mut lengths = [0u64; 256];
        let mut may_start = [false; 256];
        for word in &words {
            lengths[usize::from(word[0])] |= 1u64 << word.len().min(63);
            may_start[usize::from(word[0])] = true;
        }
        for sign in &signs {
            may_start[usize::from(sign[0])] = true;
        }
        let mut offsets = Vec::new();
        let mut i = 0;
        while let Some(&byte) = src.get(i) {
            if !may_start[usize::from(byte)] {
                i += 1;
                continue;
            }
            let word_lengths = lengths[usize::from(byte)];
            if word_lengths == 0 {
                // A sign mark's first byte is no word's.
                if signs.iter().any(|s| src[i..].starts_with(s)) {
                    offsets.push(i);
                }
                i += 1;
                continue;
            }
            // A word mark counts at a word's start only.
            if i > 0 && is_word_byte(src[i - 1]) {
                i += 1;
                continue;
            }
            let length = src[i + 1..]
                .iter()
                .position(|b| !is_word_byte(*b))
                .map_or(src.len() - i, |n| n + 1);
            let end = i + length;
            let may_be = word_lengths >> length.min(63) & 1 == 1;
            if may_be && words.contains(&&src[i..end]) {
                offsets.push(i);
            }
            i = end;
        }
        Marks(offsets)
    }

    /// Whether a mark starts within `start..end`.
    pub(in crate::measure) fn any_in(&self, start: usize, end: usize) -> bool {
        let first = self.0.partition_point(|&m| m < start);
        self.0.get(first).is_some_and(|&m| m < end)
    }
}
