//! The fixtures Rule Fairy's tests and benchmarks share: a temporary
//! project to write files in ([`Project`]), a git repository in it that no
//! setting of the machine reaches ([`Project::init_git`], [`Project::git`]),
//! and programs run in it with their arguments, standard input, environment
//! and directory given, their exit status and output kept ([`Run`]).
//!
//! A project lies in a temporary directory of its own, beside a home
//! directory holding an empty git configuration. Every command a project
//! starts ([`Project::command`], and through it [`Project::git`] and
//! [`Project::sh`]) runs with that home, a neutral identity, and neither
//! the machine's global nor its system git configuration, so a setting such
//! as `diff.noprefix`, a global ignore file or a signing key cannot change
//! a result.

use std::ffi::OsStr;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;

/// The author and committer of every commit a project makes.
const NAME: &str = "Test";
const EMAIL: &str = "test@example.com";

/// Variables that point git at another repository or add configuration
/// to it; removed from every command a project starts.
const GIT_OVERRIDES: &[&str] = &[
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_CEILING_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_CONFIG",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_PARAMETERS",
    "GIT_DIR",
    "GIT_INDEX_FILE",
    "GIT_NAMESPACE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_WORK_TREE",
];

/// A TypeScript ast-grep rule against `eval(...)`, with a note citing the
/// defect it exists for: the gate's tests and the binary's share it.
pub const NO_EVAL: &str = "id: no-eval
language: TypeScript
severity: error
message: Do not call eval on $ARG.
note: |-
  PR #12 defect 1: eval ran a string from the request body.
  Parse it instead.
rule:
  pattern: eval($ARG)
";

/// Writes `text` to `path` as a program (mode 0755) that a test may run
/// at once. The file is written by a `cp` child process, never opened for
/// writing in this one: a test process runs many threads, and a child
/// another thread forks meanwhile inherits every open descriptor until it
/// execs, so a program this process had just written could fail to start
/// with "Text file busy".
pub fn write_program(path: impl AsRef<Path>, text: impl AsRef<[u8]>) {
    let path = path.as_ref();
    let draft = path.with_extension("draft");
    fs::write(&draft, text).unwrap();
    copy_program(&draft, path);
    fs::remove_file(&draft).unwrap();
}

/// Copies the program `from` to `to` (mode 0755), written by a child
/// process for the reason [`write_program`] gives.
pub fn copy_program(from: impl AsRef<Path>, to: impl AsRef<Path>) {
    let (from, to) = (from.as_ref(), to.as_ref());
    let status = Command::new("install")
        .arg("-m")
        .arg("0755")
        .arg(from)
        .arg(to)
        .status()
        .unwrap_or_else(|e| panic!("install {}: {e}", to.display()));
    assert!(
        status.success(),
        "install {} -> {}",
        from.display(),
        to.display()
    );
}

/// A project directory in a temporary directory of its own, removed with
/// everything in it when the project is dropped.
pub struct Project {
    _dir: tempfile::TempDir,
    /// The temporary directory, its path canonical.
    base: PathBuf,
    root: PathBuf,
}

impl Default for Project {
    fn default() -> Self {
        Project::new()
    }
}

impl Project {
    /// An empty project, in no repository and with no rule.
    pub fn new() -> Project {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let base = fs::canonicalize(dir.path()).unwrap();
        let root = base.join("project");
        fs::create_dir(&root).unwrap();
        fs::create_dir(base.join("home")).unwrap();
        fs::write(base.join("home/.gitconfig"), "").unwrap();
        Project {
            _dir: dir,
            base,
            root,
        }
    }

    /// The project's directory, its path canonical.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The home directory every command of the project sees, outside the
    /// project.
    pub fn home(&self) -> PathBuf {
        self.base.join("home")
    }

    /// `rel` below the project's directory.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.join(rel)
    }

    /// Writes `content` to `rel`, creating its directories.
    pub fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> &Self {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        self
    }

    /// Writes the rule file `name` in the default rules directory,
    /// `.cursor/rules`.
    pub fn rule(&self, name: &str, content: impl AsRef<[u8]>) -> &Self {
        self.write(&format!(".cursor/rules/{name}"), content)
    }

    /// `count` generated rules in `.cursor/rules/gen`, the benchmarks'
    /// large rule set: rule `i` fires on its own module's TypeScript files,
    /// on `*_{i}.test.ts`, and on three keywords of its own.
    pub fn generated_rules(&self, count: usize) -> &Self {
        for i in 0..count {
            self.rule(
                &format!("gen/rule{i:04}.mdc"),
                format!(
                    "---\ndescription: generated rule {i}\nglobs: src/mod{i}/**/*.ts, **/*_{i}.test.ts\npromptAnyOf: topic{i}, feature{i}x, area {i}\n---\n# Rule {i}\n\nBody of rule {i}, a few lines long.\n\n- one\n- two\n"
                ),
            );
        }
        self
    }

    /// The text of `rel`; panics naming it when it cannot be read.
    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    /// Whether `rel` exists, a broken link included.
    pub fn exists(&self, rel: &str) -> bool {
        fs::symlink_metadata(self.path(rel)).is_ok()
    }

    /// Removes the file `rel`.
    pub fn remove(&self, rel: &str) {
        fs::remove_file(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    }

    /// A symbolic link at `rel` to `target` as written, replacing a file
    /// or link there.
    pub fn link(&self, rel: &str, target: impl AsRef<Path>) -> &Self {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&path);
        std::os::unix::fs::symlink(target, path).unwrap();
        self
    }

    /// The directory `rel` below the project, created.
    pub fn dir(&self, rel: &str) -> PathBuf {
        let path = self.path(rel);
        fs::create_dir_all(&path).unwrap();
        path
    }

    /// A directory `name` beside the project, created: in the same
    /// temporary directory, outside the project and its repository.
    pub fn beside(&self, name: &str) -> PathBuf {
        let path = self.base.join(name);
        fs::create_dir_all(&path).unwrap();
        path
    }

    /// Makes the project a git repository on `main`, with no commit.
    pub fn init_git(&self) -> &Self {
        self.git(&["init", "-q", "--initial-branch=main"]);
        self
    }

    /// Runs git in the project; panics when it fails. Returns its standard
    /// output without the trailing newline.
    pub fn git(&self, args: &[&str]) -> String {
        let out = self.command("git").args(args).output();
        assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
        stdout(&out).trim_end().to_string()
    }

    /// Stages every file and commits it.
    pub fn commit_all(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// Runs a bash script in the project, as an agent's shell would; panics
    /// when it fails.
    pub fn sh(&self, script: &str) {
        let out = self.command("bash").arg("-c").arg(script).output();
        assert!(out.status.success(), "{script}: {}", stderr(&out));
    }

    /// `program` to run in the project's directory, with the project's home,
    /// the neutral git identity and no git configuration of the machine.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Run {
        let home = self.home();
        let mut run = Run::new(program)
            .cwd(&self.root)
            .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
            .env("HOME", home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", NAME)
            .env("GIT_AUTHOR_EMAIL", EMAIL)
            .env("GIT_COMMITTER_NAME", NAME)
            .env("GIT_COMMITTER_EMAIL", EMAIL);
        for name in GIT_OVERRIDES {
            run = run.env_remove(name);
        }
        run
    }
}

/// A program to run: its arguments, directory, environment and standard
/// input, set one at a time.
pub struct Run {
    command: Command,
    stdin: Option<Vec<u8>>,
    keep_output: bool,
    closed_stdout: bool,
}

impl Run {
    /// `program` with no arguments, in this process's directory and
    /// environment, its standard input empty.
    pub fn new(program: impl AsRef<OsStr>) -> Run {
        Run {
            command: Command::new(program),
            stdin: None,
            keep_output: true,
            closed_stdout: false,
        }
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Run {
        self.command.arg(arg);
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.command.args(args);
        self
    }

    /// Runs in `dir`.
    pub fn cwd(mut self, dir: impl AsRef<Path>) -> Run {
        self.command.current_dir(dir);
        self
    }

    /// Sets one variable of the environment.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Run {
        self.command.env(key, value);
        self
    }

    /// Sets each of `vars`.
    pub fn envs<K: AsRef<OsStr>, V: AsRef<OsStr>>(mut self, vars: &[(K, V)]) -> Run {
        for (key, value) in vars {
            self.command.env(key, value);
        }
        self
    }

    /// Removes one variable of the environment.
    pub fn env_remove(mut self, key: impl AsRef<OsStr>) -> Run {
        self.command.env_remove(key);
        self
    }

    /// Starts from an empty environment: only what is set after this call
    /// reaches the program.
    pub fn env_clear(mut self) -> Run {
        self.command.env_clear();
        self
    }

    /// Gives the program `input` on its standard input, then its end.
    pub fn stdin(mut self, input: impl Into<Vec<u8>>) -> Run {
        self.stdin = Some(input.into());
        self
    }

    /// Discards standard output and error rather than keeping them.
    pub fn discard_output(mut self) -> Run {
        self.keep_output = false;
        self
    }

    /// Gives the program a standard output whose reader is gone: a pipe
    /// whose reading end is closed before the program starts, so every
    /// write to it fails (a broken pipe), as under `| head` once `head`
    /// exited. Its standard error is still kept.
    pub fn closed_stdout(mut self) -> Run {
        self.closed_stdout = true;
        self
    }

    /// Runs to its exit and returns its status and output. Panics when the
    /// program cannot start, or when it does not take all of the standard
    /// input given (it exited first, or closed its input).
    pub fn output(mut self) -> Output {
        let input = self.stdin.take();
        self.command.stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        let mut child = self.start();
        let writer = input.map(|bytes| {
            let mut pipe = child.stdin.take().unwrap();
            thread::spawn(move || pipe.write_all(&bytes))
        });
        let out = child.wait_with_output().unwrap();
        if let Some(writer) = writer {
            writer
                .join()
                .unwrap()
                .unwrap_or_else(|e| panic!("writing the standard input: {e}"));
        }
        out
    }

    /// Starts the program with a pipe to its standard input, left for the
    /// caller to write and close ([`feed`]; the input given with
    /// [`Run::stdin`] is not used), and pipes from its output unless
    /// discarded.
    pub fn spawn(mut self) -> Child {
        self.command.stdin(Stdio::piped());
        self.start()
    }

    fn start(&mut self) -> Child {
        let (out, err) = if self.keep_output {
            (Stdio::piped(), Stdio::piped())
        } else {
            (Stdio::null(), Stdio::null())
        };
        self.command.stdout(out).stderr(err);
        if self.closed_stdout {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            self.command.stdout(writer);
        }
        // A program a test just wrote can be busy for a moment: another
        // test's process, forked while the file was open for writing, holds
        // the descriptor until it execs (the close-on-exec flag then drops
        // it). Starting again shortly after succeeds.
        let mut tries = 0;
        loop {
            match self.command.spawn() {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                    tries += 1;
                    thread::sleep(std::time::Duration::from_millis(10));
                }
                started => {
                    return started.unwrap_or_else(|e| {
                        panic!(
                            "cannot start {}: {e}",
                            self.command.get_program().to_string_lossy()
                        )
                    })
                }
            }
        }
    }
}

/// Writes `input` to the standard input of `child`, started with
/// [`Run::spawn`], and closes it.
pub fn feed(child: &mut Child, input: &[u8]) {
    let mut pipe = child.stdin.take().expect("a pipe to standard input");
    pipe.write_all(input)
        .unwrap_or_else(|e| panic!("writing the standard input: {e}"));
}

/// A program's standard output, lossily decoded.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A program's standard error, lossily decoded.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A program's exit code; panics when a signal ended it.
pub fn code(out: &Output) -> i32 {
    out.status
        .code()
        .unwrap_or_else(|| panic!("ended by a signal: {:?}", out.status))
}

/// The median of `runs` timings of `run`, after `warmup` untimed calls:
/// the whole-process benchmarks' one measure.
pub fn median_time(
    warmup: usize,
    runs: usize,
    mut run: impl FnMut() -> std::time::Duration,
) -> std::time::Duration {
    for _ in 0..warmup {
        run();
    }
    let mut times: Vec<std::time::Duration> = (0..runs).map(|_| run()).collect();
    times.sort();
    times[runs / 2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_sees_the_neutral_identity_and_no_configuration_of_the_machine() {
        let p = Project::new();
        p.init_git().write("a.txt", "a\n").commit_all("first");
        assert_eq!(
            p.git(&["log", "-1", "--format=%an <%ae> / %cn <%ce>"]),
            "Test <test@example.com> / Test <test@example.com>"
        );
        let origins = p.git(&["config", "--list", "--show-origin"]);
        assert!(!origins.is_empty());
        for line in origins.lines() {
            assert!(line.starts_with("file:.git/config\t"), "{line}");
        }
        assert_eq!(
            p.git(&["rev-parse", "--show-toplevel"]),
            p.root().display().to_string()
        );
    }

    #[test]
    fn a_run_gets_its_input_variables_and_directory_and_keeps_its_output() {
        let p = Project::new();
        let sub = p.dir("sub");
        let out = p
            .command("sh")
            .args(["-c", "cat; pwd; echo \"$GREETING\" >&2; exit 3"])
            .cwd(&sub)
            .env("GREETING", "hello")
            .stdin("input\n")
            .output();
        assert_eq!(code(&out), 3);
        assert_eq!(stdout(&out), format!("input\n{}\n", sub.display()));
        assert_eq!(stderr(&out), "hello\n");
        let home = p.command("sh").args(["-c", "echo \"$HOME\""]).output();
        assert_eq!(stdout(&home), format!("{}\n", p.home().display()));
    }

    #[test]
    #[should_panic(expected = "writing the standard input")]
    fn input_the_program_leaves_unread_fails_the_run() {
        Run::new("true").stdin(vec![b'x'; 1 << 20]).output();
    }

    #[test]
    fn files_beside_the_project_stay_outside_it() {
        let p = Project::new();
        let beside = p.beside("bin");
        assert!(beside.is_dir());
        assert!(!beside.starts_with(p.root()));
        p.rule("a.mdc", "# A").link("b.mdc", ".cursor/rules/a.mdc");
        assert_eq!(p.read("b.mdc"), "# A");
        p.remove("b.mdc");
        assert!(!p.exists("b.mdc") && p.exists(".cursor/rules/a.mdc"));
    }
}
