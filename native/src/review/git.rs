//! Running git and gh for the review commands. A failure names the command
//! line, its exit code and what it printed on standard error, so a review
//! that cannot fetch says exactly what went wrong.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// One external command: program, arguments, extra environment, input.
pub(super) struct Run<'a> {
    program: &'a str,
    args: Vec<String>,
    env: Vec<(&'a str, String)>,
    input: Option<Vec<u8>>,
}

impl<'a> Run<'a> {
    pub(super) fn git<S: AsRef<str>>(args: &[S]) -> Run<'a> {
        Run::new("git", args)
    }

    pub(super) fn gh<S: AsRef<str>>(args: &[S]) -> Run<'a> {
        Run::new("gh", args)
    }

    fn new<S: AsRef<str>>(program: &'a str, args: &[S]) -> Run<'a> {
        Run {
            program,
            args: args.iter().map(|a| a.as_ref().to_string()).collect(),
            env: Vec::new(),
            input: None,
        }
    }

    pub(super) fn env(mut self, key: &'a str, value: impl Into<String>) -> Self {
        self.env.push((key, value.into()));
        self
    }

    pub(super) fn input(mut self, bytes: Vec<u8>) -> Self {
        self.input = Some(bytes);
        self
    }

    fn command_line(&self) -> String {
        std::iter::once(self.program.to_string())
            .chain(self.args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Runs in `dir`; standard output on exit 0, otherwise
    /// `<command line> failed (exit <n>): <standard error>`.
    pub(super) fn output(self, dir: &Path) -> Result<Vec<u8>, String> {
        let line = self.command_line();
        let mut command = Command::new(self.program);
        command
            .args(&self.args)
            .current_dir(dir)
            .stdin(if self.input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in &self.env {
            command.env(key, value);
        }
        let mut child = command.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!(
                    "{line} failed: {} is not installed or not on PATH",
                    self.program
                )
            }
            _ => format!("{line} failed: {e}"),
        })?;
        // Writing on another thread: a large input and a large output
        // would otherwise each wait for the other.
        let feeder = match (self.input, child.stdin.take()) {
            (Some(bytes), Some(mut stdin)) => {
                Some(std::thread::spawn(move || stdin.write_all(&bytes)))
            }
            _ => None,
        };
        let out = child
            .wait_with_output()
            .map_err(|e| format!("{line} failed: {e}"))?;
        if let Some(feeder) = feeder {
            let _ = feeder.join();
        }
        if out.status.success() {
            return Ok(out.stdout);
        }
        let code = out
            .status
            .code()
            .map_or_else(|| "a signal".to_string(), |c| c.to_string());
        Err(format!(
            "{line} failed (exit {code}): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }

    /// Like [`Run::output`], as trimmed text.
    pub(super) fn text(self, dir: &Path) -> Result<String, String> {
        self.output(dir)
            .map(|out| String::from_utf8_lossy(&out).trim().to_string())
    }
}

/// The commit HEAD points at; `None` outside git or before the first commit.
pub(super) fn head_oid(dir: &Path) -> Option<String> {
    Run::git(&["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])
        .text(dir)
        .ok()
        .filter(|oid| !oid.is_empty())
}

/// `owner/repo` of the `origin` remote when it is on GitHub.
pub(super) fn repo_slug(dir: &Path) -> Option<String> {
    let url = Run::git(&["remote", "get-url", "origin"]).text(dir).ok()?;
    github_slug(&url)
}

/// `owner/repo` from a GitHub remote URL: `github.com` then `:` or `/`,
/// the owner, the name, an optional `.git` and trailing `/`.
///
/// ```text
/// git@github.com:owner/repo.git, https://github.com/owner/repo,
/// ssh://git@github.com/owner/repo.git/  ->  owner/repo
/// ```
pub(super) fn github_slug(url: &str) -> Option<String> {
    let url = url.trim();
    let at = url.find("github.com")?;
    let rest = url[at + "github.com".len()..].strip_prefix([':', '/'])?;
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let rest = rest.strip_suffix(".git").unwrap_or(rest);
    let (owner, name) = rest.split_once('/')?;
    let valid = |part: &str| !part.is_empty() && !part.contains(['/', ' ', '\t']);
    (valid(owner) && valid(name)).then(|| format!("{owner}/{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_from_the_url_forms_github_uses() {
        for url in [
            "git@github.com:owner/repo.git",
            "https://github.com/owner/repo.git",
            "https://github.com/owner/repo",
            "ssh://git@github.com/owner/repo.git",
            "https://github.com/owner/repo/",
        ] {
            assert_eq!(github_slug(url).as_deref(), Some("owner/repo"), "{url}");
        }
        for url in [
            "https://gitlab.com/owner/repo.git",
            "https://github.com/owner",
            "https://github.com/owner/repo/tree/main",
        ] {
            assert_eq!(github_slug(url), None, "{url}");
        }
    }

    #[test]
    fn a_failing_command_names_itself() {
        let dir = tempfile::tempdir().unwrap();
        let err = Run::git(&["rev-parse", "nope"])
            .output(dir.path())
            .unwrap_err();
        assert!(
            err.starts_with("git rev-parse nope failed (exit 128): "),
            "{err}"
        );
        let err = Run::new("rule-fairy-no-such-program", &["x"])
            .output(dir.path())
            .unwrap_err();
        assert_eq!(
            err,
            "rule-fairy-no-such-program x failed: rule-fairy-no-such-program is not installed or not on PATH"
        );
    }
}
