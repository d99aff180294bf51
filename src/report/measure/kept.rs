//! `measure`'s text as it waits for the last file: every file pads its rows to widths
//! only the whole run knows, so each file is kept until then, its units packed into a
//! few bytes apiece ([`Kept`]) rather than held as measured, then written in one pass.

use std::io;

use super::{chars, digits, line_count_len, Widths};
use crate::commands::measure::MeasuredFile;
use crate::judge::{Mark, Marks};
use crate::model::{metric, FileMeasure, Source, Unit, UnitKind};

/// The measured files of a text report, kept in path order until the last is measured,
/// with the widths their rows pad to.
#[derive(Default)]
pub struct Kept {
    files: Vec<KeptFile>,
    /// The widest of all files, not yet capped.
    widest: Widths,
}

/// One kept file: the file without its units, and its units packed.
struct KeptFile {
    file: MeasuredFile,
    units: Packed,
}

/// A file's units packed ([`Kept::pack`]): their numbers, and the rest of each name past
/// what it shares with the name before it, one after another; with the widths the file's
/// rows need.
pub struct Packed {
    own: Widths,
    units: Box<[u8]>,
    names: Box<str>,
}

impl Kept {
    /// The units of `m`, marked `marks`, packed for [`Kept::add`]: made where the file
    /// was measured ([`crate::commands::measure::run_packing`]).
    pub fn pack(m: &FileMeasure, marks: &Marks) -> Packed {
        let (mut units, mut names) = (Vec::new(), String::new());
        let own = pack(m, marks, &mut units, &mut names);
        Packed {
            own,
            units: units.into_boxed_slice(),
            names: names.into_boxed_str(),
        }
    }

    /// Keeps `file`, its units `packed`, for the report.
    pub fn add(&mut self, file: &MeasuredFile, packed: Packed) {
        self.widest = self.widest.max(packed.own);
        self.files.push(KeptFile {
            file: without_units(file),
            units: packed,
        });
    }

    /// The widths every file pads to at least ([`Widths::shared`]).
    pub(super) fn shared(&self) -> Widths {
        self.widest.capped()
    }

    /// Calls `each` with each kept file, its own widths, and its units in their order,
    /// each with its mark.
    pub(super) fn each_file(
        &self,
        each: &mut dyn FnMut(&MeasuredFile, Widths, &mut Units) -> io::Result<()>,
    ) -> io::Result<()> {
        for kept in &self.files {
            let packed = &kept.units;
            let mut units = Units::new(&packed.units, &packed.names);
            each(&kept.file, packed.own, &mut units)?;
        }
        Ok(())
    }
}

/// `file` without its units and what the report has taken from it already (warnings,
/// syntax errors, its context's name): what its file row and a unit judged again need.
fn without_units(file: &MeasuredFile) -> MeasuredFile {
    let m = &file.measure;
    file.with_measure(
        FileMeasure {
            path: m.path.clone(),
            language: m.language,
            lines: m.lines,
            types: m.types,
            units: Vec::new(),
            warnings: Vec::new(),
            syntax_errors: None,
            bytes: m.bytes,
            loaded: m.loaded.clone(),
            chain: m.chain.clone(),
            directive_in_comment: m.directive_in_comment,
            unicode_escape: m.unicode_escape,
        },
        Marks::of_file(file.marks.file),
    )
}

/// Appends each unit of `m`, marked `marks`, to `units`: a byte of its kind, whether it is anonymous and
/// its mark; its start line and its lines less one; its stored values in the registry's
/// order; then the bytes its name shares with the name before it and the bytes of the
/// rest, which goes to `names`. Counts and values are LEB128. Gives the widths the file's
/// rows need (location, name and size, in characters).
fn pack(m: &FileMeasure, marks: &Marks, units: &mut Vec<u8>, names: &mut String) -> Widths {
    let path = chars(&m.path);
    let mut w = Widths {
        location: path + 2,
        name: chars(m.file_name()),
        size: 0,
    };
    let mut before = "";
    for (i, unit) in m.units.iter().enumerate() {
        let kind = match unit.kind {
            UnitKind::Function => 0,
            UnitKind::Type => 1,
        };
        let mark = match marks.unit(i) {
            Mark::Unjudged => 0,
            Mark::Ok => 1,
            Mark::Past => 2,
        };
        units.push(kind | u8::from(unit.anonymous) << 1 | mark << 2);
        push_count(units, u64::from(unit.start_line));
        push_count(units, u64::from(unit.end_line - unit.start_line));
        let location = path + 1 + digits(u64::from(unit.start_line));
        w.location = w.location.max(location);
        w.size = w.size.max(push_values(unit, units));
        w.name = w.name.max(chars(&unit.name));
        push_name(before, &unit.name, units, names);
        before = &unit.name;
    }
    w
}

/// Appends the stored values of `unit` to `units`, giving the characters of its size
/// (`12 lines  params 3`).
fn push_values(unit: &Unit, units: &mut Vec<u8>) -> usize {
    let mut size = 0;
    for (j, (metric, value)) in unit.values().enumerate() {
        let row = metric.def();
        size += if j > 0 { 2 } else { 0 };
        size += match row.source {
            Source::Lines => line_count_len(value),
            _ => row.field.len() + 1 + digits(value),
        };
        if let Source::Stored = row.source {
            push_count(units, value);
        }
    }
    size
}

/// Appends `name` as the count of the bytes it shares with `before` to `units`, and the
/// count and the bytes of the rest, the rest to `names`.
fn push_name(before: &str, name: &str, units: &mut Vec<u8>, names: &mut String) {
    let mut shared = before
        .bytes()
        .zip(name.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    // Bytes equal up to a character's end in one name end it in the other too.
    while !name.is_char_boundary(shared) {
        shared -= 1;
    }
    push_count(units, shared as u64);
    push_count(units, (name.len() - shared) as u64);
    names.push_str(&name[shared..]);
}

fn push_count(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// A kept file's units, unpacked one by one into one [`Unit`] ([`Units::next`]).
pub(super) struct Units<'a> {
    bytes: &'a [u8],
    /// The rest of the names' ends, the next unit's first.
    names: &'a str,
    /// The unit last unpacked, without its name.
    unit: Unit,
    /// The name of the unit last unpacked.
    name: String,
}

impl<'a> Units<'a> {
    fn new(bytes: &'a [u8], names: &'a str) -> Units<'a> {
        Units {
            bytes,
            names,
            unit: Unit::new(String::new(), UnitKind::Function, 1, 1),
            name: String::new(),
        }
    }

    /// Unpacks the next unit ([`Units::unit`], [`Units::name`]), giving its mark.
    pub(super) fn next(&mut self) -> Option<Mark> {
        let (&head, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        let kind = match head & 1 {
            0 => UnitKind::Function,
            _ => UnitKind::Type,
        };
        let mark = match head >> 2 {
            0 => Mark::Unjudged,
            1 => Mark::Ok,
            _ => Mark::Past,
        };
        let start = self.count() as u32;
        let end = start + self.count() as u32;
        let anonymous = head & 2 != 0;
        (self.unit.kind, self.unit.anonymous) = (kind, anonymous);
        (self.unit.start_line, self.unit.end_line) = (start, end);
        for row in metric::of_unit_kind(kind) {
            if let Source::Stored = row.source {
                let value = self.count();
                self.unit.set_value(row.metric, value);
            }
        }
        let shared = self.count() as usize;
        let len = self.count() as usize;
        // Packed at characters' ends: the slices are whole characters.
        let (end, rest) = self.names.split_at(len);
        self.names = rest;
        self.name.truncate(shared);
        self.name.push_str(end);
        Some(mark)
    }

    /// The unit [`Units::next`] unpacked last, without its name.
    pub(super) fn unit(&self) -> &Unit {
        &self.unit
    }

    /// The name of the unit [`Units::next`] gave last.
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    fn count(&mut self) -> u64 {
        let mut n = 0u64;
        let mut shift = 0;
        while let Some((&byte, rest)) = self.bytes.split_first() {
            self.bytes = rest;
            n |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                break;
            }
            shift += 7;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Metric;

    /// Each unit comes back as it was measured, name, span, values and all, with its
    /// mark: names that share bytes up to the middle of a character among them.
    #[test]
    fn packed_units_come_back_as_measured() {
        let mut units = vec![
            Unit::new("Größe::a".into(), UnitKind::Type, 1, 400),
            Unit::new("Größe::b".into(), UnitKind::Function, 3, 9),
            Unit::new("Grüße".into(), UnitKind::Function, 12, 12),
            Unit::new("<anonymous@200>".into(), UnitKind::Function, 200, 70_000),
        ];
        units[1].set_value(Metric::FunctionParams, 3);
        units[1].set_value(Metric::FunctionCognitive, 300);
        units[3].anonymous = true;
        let m = FileMeasure {
            lines: 70_000,
            types: 1,
            bytes: 100,
            ..FileMeasure::rust_for_test("src/größe.rs", units.clone())
        };
        let marks = Marks::of_file(Mark::Ok);
        let packed = Kept::pack(&m, &marks);
        let mut unpacked = Units::new(&packed.units, &packed.names);
        let mut back = Vec::new();
        while let Some(mark) = unpacked.next() {
            let mut unit = unpacked.unit().clone();
            unit.name = unpacked.name().into();
            back.push((unit, mark));
        }
        let expected: Vec<(Unit, Mark)> = units.into_iter().map(|u| (u, Mark::Unjudged)).collect();
        assert_eq!(back, expected);
        // `src/größe.rs:200` in characters, and the name `<anonymous@200>`.
        assert_eq!((packed.own.location, packed.own.name), (16, 15));
    }
}
