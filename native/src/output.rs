//! Standard output for every command. A reader may go away before the
//! output is written (`rule-fairy check | head`, a hook whose caller gave
//! up): the write then fails with a broken pipe, which is no error of the
//! command's. Nothing here panics on a failed write (behaviour §5.1,
//! "Output").

use std::io::{self, Write};

/// Writes `text` to standard output whole and flushes it. `Err` when it
/// could not be written out whole, the broken pipe included: the caller
/// that records what it printed (a Codex hook) records nothing then.
pub(crate) fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

/// Prints `text` for a person or a script. A reader that went away is
/// not told (there is no one to tell); any other failure, a full disk
/// under a redirection say, is an error for standard error.
pub(crate) fn print(text: &str) -> Result<(), String> {
    match write_stdout(text) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

/// [`print()`] with a line end.
pub(crate) fn print_line(text: &str) -> Result<(), String> {
    print(&format!("{text}\n"))
}

/// A line on standard error. A closed standard error loses the line and
/// nothing else.
pub(crate) fn warn(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
