// Impl types whose names drop lifetimes and higher-ranked bounds (the fuzzers' corpus
// had not reached these shapes of `impl` type; kept here so every run covers them).
// tree-sitter-rust reads `dyn 'static + Send` as a syntax error: measured what parsed.
trait Call {
    fn call(&self);
}

impl Call for dyn for<'b> Fn(&'b u8) {
    fn call(&self) {}
}

impl Call for Box<dyn 'static + Send> {
    fn call(&self) {}
}

impl<'a> Call for &'a (dyn Send + 'a) {
    fn call(&self) {}
}
