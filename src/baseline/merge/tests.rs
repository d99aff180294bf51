use super::merge;
use crate::baseline::tsv::{parse, render, TITLE};
use crate::baseline::Baseline;

fn baseline(lines: &[&str]) -> Baseline {
    let mut text = String::new();
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    parse(text.as_bytes(), "test.tsv").expect("parses").baseline
}

/// Merges and renders, without the title line.
fn merged(base: &[&str], ours: &[&str], theirs: &[&str]) -> String {
    let out = render(&merge(&baseline(base), &baseline(ours), &baseline(theirs)));
    out.strip_prefix(TITLE)
        .and_then(|rest| rest.strip_prefix('\n'))
        .expect("title first")
        .to_string()
}

const A: &str = "a.cs\tA.Run\tfunction_lines\t20";
const B: &str = "b.cs\tB.Run\tfunction_lines\t30";
const C: &str = "c.cs\tC\ttype_lines\t400";

#[test]
fn removed_on_either_side_stays_removed() {
    assert_eq!(merged(&[A, B], &[B], &[A, B]), format!("{B}\n"));
    assert_eq!(merged(&[A, B], &[A, B], &[A]), format!("{A}\n"));
    // Removed on one side, lowered on the other: still removed.
    let lowered = "b.cs\tB.Run\tfunction_lines\t25";
    assert_eq!(merged(&[A, B], &[A], &[A, lowered]), format!("{A}\n"));
}

#[test]
fn lowered_on_either_side_takes_the_lower_value() {
    let a15 = "a.cs\tA.Run\tfunction_lines\t15";
    let a18 = "a.cs\tA.Run\tfunction_lines\t18";
    assert_eq!(merged(&[A], &[a15], &[A]), format!("{a15}\n"));
    assert_eq!(merged(&[A], &[A], &[a15]), format!("{a15}\n"));
    assert_eq!(merged(&[A], &[a18], &[a15]), format!("{a15}\n"));
}

#[test]
fn a_raise_on_one_side_is_not_carried() {
    let a25 = "a.cs\tA.Run\tfunction_lines\t25";
    assert_eq!(merged(&[A], &[a25], &[A]), format!("{A}\n"));
}

#[test]
fn added_on_one_side_is_kept_and_on_both_at_the_lower_value() {
    assert_eq!(merged(&[A], &[A, B], &[A, C]), format!("{A}\n{B}\n{C}\n"));
    let b22 = "b.cs\tB.Run\tfunction_lines\t22";
    assert_eq!(merged(&[], &[B], &[b22]), format!("{b22}\n"));
}

#[test]
fn measured_with_changed_on_one_side_takes_that_side() {
    let old = "# measured with: function_lines=20 tolerance_percent=0";
    let new = "# measured with: function_lines=15 tolerance_percent=10";
    assert_eq!(merged(&[old], &[old], &[new]), format!("{new}\n"));
    assert_eq!(merged(&[old], &[new], &[old]), format!("{new}\n"));
}

#[test]
fn measured_with_changed_on_both_merges_key_by_key_lower_wins() {
    let old = "# measured with: function_lines=20 tolerance_percent=0 type_lines=300";
    let ours = "# measured with: function_lines=18 tolerance_percent=0 type_lines=300";
    let theirs = "# measured with: function_lines=25 tolerance_percent=10";
    assert_eq!(
        merged(&[old], &[ours], &[theirs]),
        "# measured with: function_lines=18 tolerance_percent=10\n"
    );
}

#[test]
fn a_header_on_one_side_only_is_kept() {
    let mw = "# measured with: function_lines=20 tolerance_percent=0";
    let owned = "# owned:\tsrc";
    assert_eq!(merged(&[], &[mw], &[owned]), format!("{mw}\n{owned}\n"));
}

#[test]
fn owned_directories_added_kept_removed_dropped() {
    let old = "# owned:\tsrc\tweb";
    let ours = "# owned:\tlib\tsrc\tweb";
    let theirs = "# owned:\tsrc";
    assert_eq!(merged(&[old], &[ours], &[theirs]), "# owned:\tlib\tsrc\n");
    assert_eq!(
        merged(&[], &["# owned:\t."], &["# owned:\tsrc"]),
        "# owned:\t.\tsrc\n"
    );
}

#[test]
fn identical_sides_merge_to_the_same_bytes() {
    let side = [
        "# measured with: function_lines=20 tolerance_percent=0",
        "# owned:\tsrc",
        A,
        B,
    ];
    let text = merged(&[], &side, &side);
    assert_eq!(text, format!("{}\n", side.join("\n")));
}

#[test]
fn units_take_the_lower_revision_no_line_lowest() {
    let two = "# units: 2";
    assert_eq!(merged(&[], &[two], &[two]), format!("{two}\n"));
    // A side written before anonymous-function units recorded none of its own.
    assert_eq!(merged(&[two], &[two], &[]), "");
    assert_eq!(merged(&[], &[], &[two, A]), format!("{A}\n"));
}
