//! `rule-fairy completions SHELL` and `rule-fairy man`: both written from
//! the clap definitions, so they never fall behind the commands.

use std::process::ExitCode;

pub(crate) fn completions(shell: clap_complete::Shell) -> Result<ExitCode, String> {
    let mut command = crate::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "rule-fairy", &mut out);
    crate::output::print(&String::from_utf8_lossy(&out))?;
    Ok(ExitCode::SUCCESS)
}

/// The page for `rule-fairy` with a section per subcommand, nested ones
/// (`gate scan`) included.
pub(crate) fn man() -> Result<ExitCode, String> {
    let command = crate::command();
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut out).map_err(|e| e.to_string())?;
    man.render_name_section(&mut out)
        .map_err(|e| e.to_string())?;
    man.render_synopsis_section(&mut out)
        .map_err(|e| e.to_string())?;
    man.render_description_section(&mut out)
        .map_err(|e| e.to_string())?;
    man.render_options_section(&mut out)
        .map_err(|e| e.to_string())?;
    out.extend_from_slice(b".SH COMMANDS\n");
    for (name, sub) in subcommands(&command, "rule-fairy") {
        let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
        out.extend_from_slice(format!(".TP\n\\fB{name}\\fR\n{}\n", roff_text(&about)).as_bytes());
    }
    man.render_version_section(&mut out)
        .map_err(|e| e.to_string())?;
    crate::output::print(&String::from_utf8_lossy(&out))?;
    Ok(ExitCode::SUCCESS)
}

/// Every subcommand, depth first, with its full name.
fn subcommands(command: &clap::Command, prefix: &str) -> Vec<(String, clap::Command)> {
    let mut out = Vec::new();
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("{prefix} {}", sub.get_name());
        out.push((name.clone(), sub.clone()));
        out.extend(subcommands(sub, &name));
    }
    out
}

/// Text in a roff paragraph: a leading `.` or `'` would read as a request.
fn roff_text(text: &str) -> String {
    text.replace('\\', "\\\\")
        .lines()
        .map(|l| {
            if l.starts_with(['.', '\'']) {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
