//! `rule-fairy doctor`: whether Rule Fairy is set up to work, host by host
//! and in the project, each problem with its fix. It only reads: nothing
//! is written, made or repaired, whatever it finds.

mod claude;
mod codex;
mod manifest;
mod project;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use report::{Check, Report, Section, Status};

#[derive(Args)]
pub(crate) struct DoctorArgs {
    /// The project root (default: found from the working directory).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

impl DoctorArgs {
    /// Whether the report is asked for as JSON.
    pub(crate) fn json(&self) -> bool {
        self.json
    }
}

pub(crate) fn run(args: &DoctorArgs) -> Result<ExitCode, String> {
    let report = diagnose(args);
    if args.json {
        crate::output::print_line(&report.json().to_string())?;
    } else {
        crate::output::print(&report.text())?;
    }
    Ok(if report.status() == Status::Broken {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn diagnose(args: &DoctorArgs) -> Report {
    let root = crate::location::project_root(args.project.as_deref());
    // Hosts' questions about a project are asked from its root; without
    // one, from where doctor runs.
    let cwd = match &root {
        Ok(root) => PathBuf::from(root),
        Err(_) => std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
    };
    Report {
        sections: vec![
            program(),
            claude::section(root.as_deref().ok()),
            codex::section(&cwd),
            project::section(&root),
        ],
    }
}

fn program() -> Section {
    let mut section = Section::new("program", "Rule Fairy");
    let gate = if cfg!(feature = "gate") {
        "with the gate"
    } else {
        "without the gate"
    };
    section.push(
        Check::ok(
            "version",
            "version",
            format!("rule-fairy {}, built {gate}", manifest::PROGRAM_VERSION),
        )
        .with("version", manifest::PROGRAM_VERSION),
    );
    section
}

/// The person's home directory, where the hosts keep their configuration
/// unless told otherwise.
fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
}

/// The first executable file named `name` in a `PATH` directory.
fn find_program(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(name))
        .find(|candidate| {
            std::fs::metadata(candidate)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}
