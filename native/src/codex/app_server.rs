//! A minimal client for `codex app-server`: JSON-RPC, one JSON object per
//! line over the child's standard input and output. Only what trusting
//! hooks and reporting their trust need: requests with ids, answered in order; notifications the
//! server sends meanwhile are skipped.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde_json::{json, Value};

/// How long one request may take before the server counts as stuck.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

pub(crate) struct AppServer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
}

impl AppServer {
    /// Starts `<codex> app-server` and completes the handshake; the
    /// server's own diagnostics go to `stderr`.
    pub(crate) fn start(codex: &Path, stderr: Stdio) -> Result<AppServer, String> {
        let mut child = Command::new(codex)
            .arg("app-server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            // Its own process group: npm's `codex` is a Node launcher
            // whose child is the server, and both must end with us.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start `{} app-server`: {e}", codex.display()))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        // A reader thread, so a silent server ends in a timeout, not a hang.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = AppServer {
            child,
            stdin,
            lines,
            next_id: 0,
        };
        server.call(
            "initialize",
            json!({"clientInfo": {"name": "rule-fairy", "version": env!("CARGO_PKG_VERSION")}}),
        )?;
        server.send(&json!({"method": "initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        writeln!(self.stdin, "{message}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cannot write to codex app-server: {e}"))
    }

    /// Sends a request and returns its `result`, or the server's error.
    pub(crate) fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"id": id, "method": method, "params": params}))?;
        loop {
            let line = match self.lines.recv_timeout(ANSWER_TIMEOUT) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "codex app-server did not answer {method} within a minute"
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("codex app-server exited before answering {method}"))
                }
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id") != Some(&json!(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(format!("codex app-server refused {method}: {error}"));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}

impl Drop for AppServer {
    fn drop(&mut self) {
        // The whole group: killing the launcher alone leaves the server
        // running until it notices its input closed.
        if let Ok(group) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) with a negative pid signals that process
            // group; the group is the child's own, made at spawn.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
