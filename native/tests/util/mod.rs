//! What the tests share: the workspace's fixtures (a temporary project, its
//! git repository, programs run in it), the built `rule-fairy` run in a
//! project, copies of the repository's launchers, and what the Codex and
//! review tests have in common.

pub(crate) mod codex;
pub(crate) mod review;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::thread;
use std::time::{Duration, Instant};

pub(crate) use rule_fairy_test_support::{
    copy_program, feed, stderr, stdout, write_program, Project, Run,
};
use serde_json::Value;

/// The built binary.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_rule-fairy");

/// The variables by which a host tells Rule Fairy its project and plugin;
/// removed, so a test sets them itself when it means to.
const HOST_VARIABLES: &[&str] = &[
    "RULE_FAIRY_PROJECT_DIR",
    "RULE_FAIRY_PLUGIN_ROOT",
    "PLUGIN_ROOT",
];

/// `run` without the host variables.
fn without_host(run: Run) -> Run {
    HOST_VARIABLES
        .iter()
        .fold(run, rule_fairy_test_support::Run::env_remove)
}

/// The built `rule-fairy` run in a project.
pub(crate) trait RuleFairy {
    /// `rule-fairy` in the project's directory, with the project's
    /// environment and no host variable.
    fn rule_fairy(&self) -> Run;

    /// `rule-fairy <args>` from the project's directory.
    fn run(&self, args: &[&str]) -> Output {
        self.rule_fairy().args(args).output()
    }

    /// `rule-fairy <args>` from `cwd`.
    fn run_in(&self, cwd: &Path, args: &[&str]) -> Output {
        self.rule_fairy().cwd(cwd).args(args).output()
    }

    /// `rule-fairy <args>` from the project's directory, with `env` set.
    fn run_with(&self, args: &[&str], env: &[(&str, String)]) -> Output {
        self.rule_fairy().args(args).envs(env).output()
    }

    /// Runs and expects success; returns standard output.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    }

    /// Runs and reads standard output as one JSON value.
    fn json(&self, args: &[&str]) -> Value {
        let out = self.run(args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)))
    }
}

impl RuleFairy for Project {
    fn rule_fairy(&self) -> Run {
        without_host(self.command(BIN))
    }
}

/// The repository this crate is built from: the plugin as it ships.
pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A plugin directory of its own holding a copy of the repository's
/// launcher `rel` at the same place, so the copy cannot find this
/// checkout's builds.
pub(crate) fn installed(rel: &str) -> Project {
    let plugin = Project::new();
    // Every launcher finds the program through hooks/find-program.
    for rel in [rel, "hooks/find-program"] {
        let copy = plugin.path(rel);
        fs::create_dir_all(copy.parent().unwrap()).unwrap();
        copy_program(repo_root().join(rel), &copy);
    }
    plugin
}

/// `launcher` run from `project` as a host's hook runs it: a bare
/// environment, only the system's `PATH` and the project's home.
pub(crate) fn launch(project: &Project, launcher: &Path) -> Run {
    project
        .command(launcher)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", project.home())
}

/// Waits for `child` at most `limit`, reading its output meanwhile. A
/// child still running then is killed and the test fails, naming `what`:
/// a hang becomes a failure instead of a test run that never ends.
pub(crate) fn within(mut child: std::process::Child, limit: Duration, what: &str) -> Output {
    use std::io::Read;
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let out = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}, so it was killed");
        }
        thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Makes a FIFO at `path`.
pub(crate) fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status();
    assert!(made.unwrap().success(), "mkfifo {}", path.display());
}

/// Sets a file's modification time `by` into the past.
pub(crate) fn age(path: &Path, by: Duration) {
    let when = std::time::SystemTime::now() - by;
    fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_times(fs::FileTimes::new().set_modified(when))
        .unwrap();
}
