// The languages structgate measures, written once: each line names a language and the
// file under src/lang/ that holds its record (`pub static RECORD`). src/model.rs makes the
// `Language` enum and `Language::ALL` of this list, src/lang.rs the modules and
// `Language::record`; the order is the one `--help`, the package description and the
// docs name them in (docs/dev/adding-a-language.md).
languages! {
    CSharp => csharp,
    Rust => rust,
    TypeScript => typescript,
    JavaScript => javascript,
    Python => python,
    Go => go,
    Java => java,
    Markdown => markdown,
}
