mod a { fn f() { fn g() {} } impl<'a, T: Clone> fmt::Debug for P<'a, T> where T: X { fn fmt() {} } }
#[cfg(all(test, unix))]
mod tests { fn t() {} }
impl dyn Trait + 'a { unsafe fn r#async() {} }
