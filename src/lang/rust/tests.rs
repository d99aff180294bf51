//! Unit tests of Rust naming: cleaned types, impl names and test attributes.

use tree_sitter::{Node, Parser, Tree};

use super::{clean_type, impl_decl, is_test_attribute};

fn parse(src: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .unwrap();
    parser.parse(src, None).unwrap()
}

fn first_of_kind<'t>(tree: &'t Tree, kind: &str) -> Node<'t> {
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == kind {
            return node;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    panic!("no {kind}");
}

/// The unit name and the scope segment of the first `impl` in `src`.
fn impl_names(src: &str) -> (String, String) {
    let tree = parse(src);
    let decl = impl_decl(first_of_kind(&tree, "impl_item"), src.as_bytes());
    (decl.unit.unwrap().name, decl.scope.unwrap())
}

/// The cleaned text of the type in `type T = <ty>;`.
fn cleaned(ty: &str) -> String {
    let src = format!("type T = {ty};");
    let tree = parse(&src);
    let alias = first_of_kind(&tree, "type_item");
    clean_type(alias.child_by_field_name("type").unwrap(), src.as_bytes())
}

#[test]
fn generic_lists_are_removed_also_nested() {
    assert_eq!(cleaned("Vec<T>"), "Vec");
    assert_eq!(cleaned("HashMap<String, Vec<Option<u8>>>"), "HashMap");
    assert_eq!(
        cleaned("std::collections::HashMap<K, V>"),
        "std::collections::HashMap"
    );
    assert_eq!(cleaned("(Vec<u8>, Box<str>)"), "(Vec, Box)");
    assert_eq!(cleaned("Iterator<Item = u8>"), "Iterator");
}

#[test]
fn lifetimes_go_with_the_space_after_them() {
    assert_eq!(cleaned("&'a Foo"), "&Foo");
    assert_eq!(cleaned("&'a   mut Foo<'a>"), "&mut Foo");
    assert_eq!(cleaned("&'static str"), "&str");
    assert_eq!(cleaned("&Foo"), "&Foo");
}

#[test]
fn dyn_bounds_lose_their_lifetimes() {
    assert_eq!(cleaned("dyn Trait + 'a"), "dyn Trait");
    assert_eq!(cleaned("dyn Trait + Send + 'a"), "dyn Trait + Send");
    assert_eq!(cleaned("Box<dyn Trait + 'a>"), "Box");
    assert_eq!(cleaned("dyn for<'a> Fn(&'a u8) -> u8"), "dyn Fn(&u8) -> u8");
}

#[test]
fn whitespace_collapses_and_comments_go() {
    assert_eq!(cleaned("fmt ::\n   Debug"), "fmt :: Debug");
    assert_eq!(cleaned("[u8;   N]"), "[u8; N]");
    assert_eq!(cleaned("Foo /* note */ "), "Foo");
    assert_eq!(cleaned("for<'a> fn(&'a u8)"), "fn(&u8)");
}

#[test]
fn impl_names_follow_spec_examples() {
    let names = |src: &str| impl_names(src);
    assert_eq!(
        names("impl<'a, T: Clone> fmt::Debug for Parser<'a, T> {}"),
        (
            "impl fmt::Debug for Parser".into(),
            "<Parser as fmt::Debug>".into()
        )
    );
    assert_eq!(
        names("impl Parser {}"),
        ("impl Parser".into(), "Parser".into())
    );
    assert_eq!(
        names("impl<'de> Visitor<'de> for ContentVisitor<'de> {}"),
        (
            "impl Visitor for ContentVisitor".into(),
            "<ContentVisitor as Visitor>".into()
        )
    );
}

#[test]
fn impl_names_drop_unsafe_and_where_and_keep_negation() {
    let name = |src: &str| impl_names(src).0;
    assert_eq!(
        name("unsafe impl<T: Send> Send for Wrapper<T> {}"),
        "impl Send for Wrapper"
    );
    assert_eq!(
        name("impl<T> Trait for Vec<T> where T: Clone {}"),
        "impl Trait for Vec"
    );
    assert_eq!(
        name("impl<T> From<T> for Wrapper<T> {}"),
        "impl From for Wrapper"
    );
    assert_eq!(name("impl !Send for X {}"), "impl !Send for X");
    assert_eq!(
        name("impl<const N: usize> Foo for [u8; N] {}"),
        "impl Foo for [u8; N]"
    );
    assert_eq!(
        name("impl r#async::Tr for r#type {}"),
        "impl r#async::Tr for r#type"
    );
}

#[test]
fn inherent_impls_on_non_paths_are_bracketed_for_their_functions() {
    assert_eq!(
        impl_names("impl<'a> dyn Trait + 'a {}"),
        ("impl dyn Trait".into(), "<dyn Trait>".into())
    );
    assert_eq!(
        impl_names("impl [u8] {}"),
        ("impl [u8]".into(), "<[u8]>".into())
    );
    assert_eq!(
        impl_names("impl<T> Foo<T> {}"),
        ("impl Foo".into(), "Foo".into())
    );
    assert_eq!(
        impl_names("impl a::b::C {}"),
        ("impl a::b::C".into(), "a::b::C".into())
    );
}

fn attribute_is_test(attr: &str) -> bool {
    let src = format!("{attr}\nfn f() {{}}");
    let tree = parse(&src);
    is_test_attribute(first_of_kind(&tree, "attribute_item"), src.as_bytes())
}

#[test]
fn cfg_test_and_all_with_test_leave_items_out() {
    assert!(attribute_is_test("#[cfg(test)]"));
    assert!(attribute_is_test("#[cfg( test )]"));
    assert!(attribute_is_test("#[cfg(all(test, feature = \"x\"))]"));
    assert!(attribute_is_test("#[cfg(all(feature = \"x\",\n  test))]"));
    assert!(attribute_is_test("#[cfg(all(test))]"));
}

#[test]
fn other_cfgs_do_not_leave_items_out() {
    assert!(!attribute_is_test("#[cfg(all(unix, not(test)))]"));
    assert!(!attribute_is_test("#[cfg(any(test, feature = \"x\"))]"));
    assert!(!attribute_is_test("#[cfg(not(test))]"));
    assert!(!attribute_is_test("#[cfg(feature = \"test\")]"));
    assert!(!attribute_is_test("#[cfg_attr(test, derive(Debug))]"));
    assert!(!attribute_is_test("#[test]"));
    assert!(!attribute_is_test("#[cfg(all(any(test, x), y))]"));
}

#[test]
fn cfg_attributes_are_judged_on_tokens_not_text() {
    let hostile = "#[cfg(all(not(feature = \")\"), any(unix, test, windows)))]";
    assert!(!attribute_is_test(hostile));
    assert!(!attribute_is_test(
        "#[cfg(all(feature = \")(\", any(test)))]"
    ));
    assert!(!attribute_is_test(
        "#[cfg(all(feature = r#\")\"#, any(unix, test)))]"
    ));
    assert!(!attribute_is_test("#[cfg(all(feature = \"a,test\"))]"));
    assert!(attribute_is_test("#[cfg(all(feature = \")\", test))]"));
    assert!(attribute_is_test("#[cfg(all(/* ) */ test))]"));
    assert!(attribute_is_test("#[cfg(all(unix, // )\n test))]"));
    assert!(attribute_is_test("#[ cfg ( test ) ]"));
    assert!(attribute_is_test("#[cfg(test,)]"));
    assert!(attribute_is_test("#[cfg(all(unix, test,))]"));
}

#[test]
fn a_predicate_of_more_than_test_is_not_test_code() {
    assert!(!attribute_is_test("#[cfg(test, unix)]"));
    assert!(!attribute_is_test("#[cfg(all(test) , unix)]"));
    assert!(!attribute_is_test("#[cfg(all x (test))]"));
    assert!(!attribute_is_test("#[cfg[test]]"));
    assert!(!attribute_is_test("#[cfg]"));
    assert!(!attribute_is_test("#[cfg = \"test\"]"));
    assert!(!attribute_is_test("#[core::cfg(test)]"));
}
