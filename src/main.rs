use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = structgate::cli::parse();
    let color = cli.color;
    match structgate::run(cli) {
        Ok(exit) => ExitCode::from(exit as u8),
        Err(err) => {
            structgate::report::console::error(&format!("{err:#}"), color);
            ExitCode::from(structgate::Exit::Error as u8)
        }
    }
}
