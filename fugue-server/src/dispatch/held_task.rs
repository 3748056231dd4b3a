//! A held task for an agent that takes its task on its command line.
//!
//! Such a program cannot start before its task exists, yet `depends_on` promises a
//! pane at once (`starting`, task `waiting`). So the pane starts a small POSIX `sh`
//! wrapper instead of the program. The server makes a named pipe in the pane's
//! private folder (0700; the pipe 0600) and keeps one end of it open, read-write, for
//! as long as the pane lives; the wrapper opens it and blocks reading it (no polling).
//! When the dependencies have reported, the server writes the final task there and the
//! wrapper `exec`s the preset's program with the task in its arguments, as if it had
//! been started with it. When the task cannot be given (a dependency ended without a
//! result, the results make it too large), the server writes why instead, and the
//! wrapper prints that and starts the program without a task, as a typed task that was
//! not given leaves the agent at its prompt.
//!
//! The server's end stays open until the pane ends because a pipe loses what was
//! written to it when every end is closed, and the wrapper may not have opened it yet
//! when the task is written.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};
use tokio::io::AsyncWriteExt;
use tokio::net::unix::pipe;

/// The pipe's name in the pane's folder.
const PIPE: &str = "task.fifo";

/// The environment variables that tell the wrapper where its pipe is, and the line
/// that ends the server's message in it.
pub const PIPE_ENV: &str = "FUGUE_TASK_PIPE";
pub const END_ENV: &str = "FUGUE_TASK_END";

/// The server's end of a pane's task pipe.
pub struct TaskPipe {
    tx: pipe::Sender,
    /// Ends the message; a line no task contains.
    end: String,
}

impl TaskPipe {
    /// Makes the pipe in `dir` (created 0700) and opens the server's end. Needs the
    /// runtime (the end is registered with it).
    pub fn create(dir: &Path) -> io::Result<(TaskPipe, PathBuf)> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        // An existing folder keeps its mode: make sure it is private.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        let path = dir.join(PIPE);
        let _ = std::fs::remove_file(&path);
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in the path"))?;
        // SAFETY: a valid NUL-terminated path; mkfifo does not keep the pointer.
        if unsafe { libc::mkfifo(c.as_ptr(), 0o600) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // Read-write: opening neither blocks nor fails for want of a reader.
        let tx = pipe::OpenOptions::new()
            .read_write(true)
            .open_sender(&path)?;
        Ok((
            TaskPipe {
                tx,
                end: end_marker(),
            },
            path,
        ))
    }

    /// Gives the wrapper its task: it starts the program with it.
    pub async fn give(&mut self, task: &str) -> io::Result<()> {
        self.write("task", task).await
    }

    /// Tells the wrapper the task will not come: it prints `why` and starts the
    /// program without one.
    pub async fn refuse(&mut self, why: &str) -> io::Result<()> {
        self.write("none", why).await
    }

    async fn write(&mut self, how: &str, body: &str) -> io::Result<()> {
        if body.lines().any(|l| l == self.end) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the task holds the pipe's end marker",
            ));
        }
        let mut msg = String::with_capacity(body.len() + 64);
        for part in [how, "\n", body, "\n", &self.end, "\n"] {
            msg.push_str(part);
        }
        self.tx.write_all(msg.as_bytes()).await?;
        self.tx.flush().await
    }

    /// The line that ends a message, for the wrapper's environment.
    pub fn end(&self) -> &str {
        &self.end
    }
}

/// The wrapper's argv: `sh -c SCRIPT`, then the program and its arguments; the task
/// goes where `task_args` say (each `{task}` replaced). The wrapper reads up to a line
/// holding the pipe's end marker, which is in its environment.
pub fn wrapper_argv(program: &[String], task_args: &[String]) -> Vec<String> {
    let words: Vec<String> = task_args
        .iter()
        .map(|a| {
            a.split("{task}")
                .map(quote)
                .collect::<Vec<_>>()
                .join("\"$body\"")
        })
        .collect();
    let script = format!(
        r#"f=${env} end=${end_env}; unset {env} {end_env}
exec 3<"$f" || exit 127
rm -f "$f"
printf 'fugue: this agent starts when the results its task needs have come\n'
IFS= read -r how <&3 || exit 1
nl='
'
body= ended=
while IFS= read -r line <&3; do
  if [ "$line" = {end} ]; then ended=1; break; fi
  body=$body$line$nl
done
exec 3<&-
[ -n "$ended" ] || exit 1
body=${{body%"$nl"}}
if [ "$how" = task ]; then
  exec "$@" {words}
fi
printf 'fugue: the task was not given: %s\n' "$body"
exec "$@"
"#,
        env = PIPE_ENV,
        end = "\"$end\"",
        end_env = END_ENV,
        words = words.join(" "),
    );
    let mut argv = vec![
        "/bin/sh".to_string(),
        "-c".to_string(),
        script,
        "fugue-task-wrapper".to_string(),
    ];
    argv.extend(program.iter().cloned());
    argv
}

/// A word for `sh`, taken literally.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A line no task will hold by chance: 128 random bits.
fn end_marker() -> String {
    let mut bits = String::from("fugue-task-end-");
    for _ in 0..2 {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(std::process::id().into());
        bits.push_str(&format!("{:016x}", h.finish()));
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_for_sh() {
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_ne!(end_marker(), end_marker());
    }
}
