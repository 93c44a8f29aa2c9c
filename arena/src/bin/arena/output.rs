//! Standard output that tolerates a reader going away: `arena summary x.csv | head` closes the
//! pipe early, which is not an error worth a message, let alone a panic.

use std::io::Write;

use ringside_arena::{Error, ErrorKind};

/// Writes `text` to standard output. A closed pipe ends the program at once with success;
/// any other failure is an error.
pub fn print(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::new(
            ErrorKind::Io,
            format!("cannot write to standard output: {e}"),
        )),
    }
}
