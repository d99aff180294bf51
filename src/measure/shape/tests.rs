//! The marks that let the shape pass leave out what cannot count
//! (docs/src/reference/metrics.md#shape-metrics).

use super::marks::Marks;
use super::pass::{Pass, Scratch};
use super::{forms, table, Roots};
use crate::lang::Lang;
use crate::measure::parse::parse;

fn offsets(path: &str, src: &str) -> Vec<usize> {
    let lang = Lang::for_path(path).unwrap();
    let marks = Marks::of(forms(lang), src.as_bytes());
    (0..src.len()).filter(|&i| marks.any_in(i, i + 1)).collect()
}

#[test]
fn a_word_mark_counts_as_a_whole_word_and_a_sign_anywhere() {
    // `if`, `or` and `for` stand alone; `notify`, `order`, `format` and `elif_` are
    // other words.
    let src = "notify(x if y or order) [format for a in b] elif_=1";
    assert_eq!(offsets("a.py", src), [9, 14, 32]);
    // `?` and `&&` anywhere, `?.` too; `&` and `|` alone are no mark.
    assert_eq!(offsets("a.ts", "a?.b && c & d | e"), [1, 5]);
    assert_eq!(offsets("a.rs", "x=>match y {_=>loop{}}"), [1, 3, 13, 15]);
    // At the file's start, and after a byte that is no ASCII letter; inside a word or
    // with more of it after, none.
    assert_eq!(
        offsets("a.py", "if x: pass\nfoo_if elif1 \u{e9}if"),
        [0, 26]
    );
}

/// The pass over the only function of `src`.
fn pass_over(path: &str, src: &str) -> (u32, u32, [u32; 3]) {
    let lang = Lang::for_path(path).unwrap();
    let tree = parse(lang, src, std::time::Duration::ZERO).unwrap();
    let function = tree.root_node().named_child(0).unwrap();
    let roots = Roots::new(vec![function.id()]);
    let marks = Marks::of(forms(lang), src.as_bytes());
    let mut pass = Pass::new(forms(lang), table(lang), (&roots, &marks), src.as_bytes());
    pass.unit_code(function, &mut Scratch::new(), None);
    (
        pass.entered,
        pass.steps,
        [pass.nesting, pass.cyclomatic, pass.cognitive],
    )
}

/// The named nodes the pass counts in the only function of `src`, and its values.
fn entered(path: &str, src: &str) -> (u32, [u32; 3]) {
    let (entered, _, values) = pass_over(path, src);
    (entered, values)
}

#[test]
fn the_pass_leaves_the_siblings_after_the_last_mark_unvisited() {
    // The block's statements after the `if` hold no mark: the cursor steps through the
    // function's `def`, name, parameters, `:` and block (4), the `if`'s keyword,
    // condition, `:` and body (3), and no further.
    let tail = "    x = 1\n    y = 2\n    z = 3\n    return x\n";
    let src = format!("def f(a):\n    if a:\n        return 1\n{tail}");
    assert_eq!(pass_over("a.py", &src), (3, 7, [1, 2, 1]));
    // The same statements before it are each stepped over (4 more).
    let src = format!("def f(a):\n{tail}    if a:\n        return 1\n");
    assert_eq!(pass_over("a.py", &src), (3, 11, [1, 2, 1]));
}

#[test]
fn the_pass_enters_only_nodes_whose_bytes_hold_a_mark_or_an_else() {
    // The function, its block and the `if`: the statement before it, the `if`'s
    // condition and its body hold no mark, nor anything in them.
    let src = "def f(a):\n    x = g(a, [1, 2, 3], {'k': (4, 5)})\n    if a:\n        return x\n";
    assert_eq!(entered("a.py", src), (3, [1, 2, 1]));
    // An `else` counts though it holds no mark: its branch is entered.
    let src = "def f(a):\n    if a:\n        return 1\n    else:\n        return 2\n";
    assert_eq!(entered("a.py", src), (4, [1, 2, 2]));
    // A function without a mark: the function alone.
    let src = "function f(a) { return g(a, [1, 2], { k: a.b?.c }); }";
    assert_eq!(entered("a.js", src).1, [0, 1, 0]);
    assert_eq!(entered("a.js", "function f(a) { return [1, 2]; }").0, 0);
}

#[test]
fn a_field_looked_up_once_gives_the_child_its_name_gives() {
    let field = super::Field::new("parameters");
    let lang = Lang::for_path("a.rs").unwrap();
    let src = "fn f(self: Box<Self>, a: u8) {}\nstruct S;\n";
    let tree = parse(lang, src, std::time::Duration::ZERO).unwrap();
    let function = tree.root_node().named_child(0).unwrap();
    let list = field.of(function).unwrap();
    assert_eq!(Some(list), function.child_by_field_name("parameters"));
    assert_eq!(
        list.utf8_text(src.as_bytes()),
        Ok("(self: Box<Self>, a: u8)")
    );
    // Asked again, and of a node without the field.
    assert_eq!(field.of(function), Some(list));
    assert_eq!(field.of(tree.root_node().named_child(1).unwrap()), None);
    assert_eq!((forms(lang).params)(function, src.as_bytes()), 1);
}
