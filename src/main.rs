use std::process::ExitCode;

fn main() -> ExitCode {
    structgate::ends_process();
    match structgate::run_with_args(std::env::args_os()) {
        Ok(exit) => exit.code(),
        Err(failure) => {
            structgate::report::console::failure(&failure);
            failure.exit().code()
        }
    }
}
