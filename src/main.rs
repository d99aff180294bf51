use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = structgate::cli::Cli::parse();
    match structgate::run(cli) {
        Ok(exit) => ExitCode::from(exit as u8),
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(structgate::Exit::Error as u8)
        }
    }
}
