fn f() {
    1
}
#[cfg(test)]
fn t() {}