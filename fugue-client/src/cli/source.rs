//! `source-file` / `source`: a file of tmux commands (a `~/.tmux.conf`), run by the
//! client that asks for it (`fugue source-file`, or `C-b :`).
//!
//! Why the client and not the server: a line becomes a Command through the CLI's verb
//! table (`line.rs`), which lives in the client, and `~`, `$VAR`, `if-shell` and
//! `run-shell` are the caller's environment and shell, as in tmux where the file is
//! read by whoever runs `source-file`. Each command is then one request through the
//! dispatcher, so a file does exactly what the same lines typed as `fugue VERB` do.
//!
//! Errors are printed per line as tmux prints them, `FILE:LINE: message`. Unlike tmux
//! (which runs nothing of a file with a parse error), a line fugue cannot run does not
//! stop the rest: a tmux.conf written for tmux uses commands fugue does not have, and
//! what fugue does have should still apply. The exit status is 1 if any line failed,
//! as tmux's.

use anyhow::Context;
use fugue_protocol::Command;
use fugue_protocol::cmd;
use fugue_protocol::tmux_cmd::{self, Argv, Env, ProcessEnv};
use fugue_verbs::line;
use std::io::Read;
use std::time::Duration;

/// Files sourced from files, as deep as this (a file that sources itself stops).
pub const MAX_NESTING: usize = 16;
/// A file larger than this is refused (tmux.conf files are a few KiB).
pub const MAX_FILE: u64 = 4 << 20;
/// `run-shell` and `if-shell` commands are killed after this long.
pub const SHELL_TIMEOUT: Duration = Duration::from_secs(10);
/// Output of a `run-shell` kept (the rest is dropped).
pub const MAX_SHELL_OUTPUT: usize = 64 * 1024;

/// `source-file`'s flags.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flags {
    /// `-q`: a missing file is no error.
    pub quiet: bool,
    /// `-n`: parse only, run nothing.
    pub parse_only: bool,
    /// `-v`: print each command before running it.
    pub verbose: bool,
    /// `-F`: the paths are formats, expanded as the file's lines are.
    pub expand: bool,
}

/// One step of a file: a command to send, a line that failed, or text to print.
#[derive(Debug)]
pub enum Step {
    Run {
        at: String,
        command: Box<Command>,
    },
    /// `run-shell`: run when its turn comes, after the commands above it took effect
    /// (a plugin manager's `run` reads the options the lines before it set).
    Shell {
        at: String,
        cmd: String,
        cwd: Option<String>,
    },
    Error(String),
    Print(String),
}

/// `~` or `~/x` as the home directory.
pub fn expand_home(path: &str) -> String {
    let home = ProcessEnv.home();
    match (path.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{home}{rest}")
        }
        _ => path.to_string(),
    }
}

/// Reads a file (bounded).
fn read(path: &str) -> Result<String, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{path}: {}", io_message(&e)))?;
    let mut text = String::new();
    f.take(MAX_FILE + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("{path}: {}", io_message(&e)))?;
    if text.len() as u64 > MAX_FILE {
        return Err(format!("{path}: file too large (over {MAX_FILE} bytes)"));
    }
    Ok(text)
}

/// The OS's message without Rust's " (os error N)".
fn io_message(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// What `source-file PATH...` does, in order. Paths may be globs as tmux takes them
/// only as literal names here.
pub fn plan(paths: &[String], flags: Flags, expand: Expand<'_>) -> Vec<Step> {
    let mut steps = Vec::new();
    for p in paths {
        plan_file(&expand_home(p), flags, expand, 0, &mut steps);
    }
    steps
}

/// How a file's formats (`%if` conditions, `if-shell -F`) are expanded: against the
/// server's state when the caller could read it, else taken literally.
pub type Expand<'a> = &'a dyn Fn(&str) -> String;

fn plan_file(path: &str, flags: Flags, expand: Expand<'_>, depth: usize, steps: &mut Vec<Step>) {
    if depth >= MAX_NESTING {
        steps.push(Step::Error(format!("{path}: too many nested files")));
        return;
    }
    let text = match read(path) {
        Ok(t) => t,
        Err(_) if flags.quiet && !std::path::Path::new(path).exists() => return,
        Err(e) => {
            steps.push(Step::Error(e));
            return;
        }
    };
    let (cmds, errors) = tmux_cmd::parse_file_with(&text, &ProcessEnv, expand);
    let mut errors = errors.into_iter().peekable();
    for c in cmds {
        while let Some((l, e)) = errors.next_if(|(l, _)| *l <= c.line) {
            steps.push(Step::Error(format!("{path}:{l}: {e}")));
        }
        let at = format!("{path}:{}", c.line);
        plan_argv(&at, c.argv, flags, expand, depth, steps);
    }
    for (l, e) in errors {
        steps.push(Step::Error(format!("{path}:{l}: {e}")));
    }
}

/// One command of a file (or of an `if-shell` branch).
fn plan_argv(
    at: &str,
    argv: Argv,
    flags: Flags,
    expand: Expand<'_>,
    depth: usize,
    steps: &mut Vec<Step>,
) {
    if flags.verbose {
        steps.push(Step::Print(format!(
            "{at}: {}",
            tmux_cmd::print_sequence(std::slice::from_ref(&argv))
        )));
    }
    let name = argv.first().map(String::as_str).unwrap_or_default();
    match name {
        "source-file" | "source" => {
            let (inner, paths) = source_args(&argv[1..]);
            let inner = Flags {
                parse_only: flags.parse_only || inner.parse_only,
                verbose: flags.verbose || inner.verbose,
                quiet: inner.quiet,
                expand: inner.expand,
            };
            for p in paths {
                let p = if inner.expand { expand(&p) } else { p };
                plan_file(&expand_home(&p), inner, expand, depth + 1, steps);
            }
        }
        "if-shell" | "if" => match if_shell(&argv[1..], flags.parse_only, expand) {
            Ok(Some(branch)) => match tmux_cmd::parse(&branch, &ProcessEnv) {
                Ok(cmds) => {
                    for c in cmds {
                        plan_argv(at, c, flags, expand, depth, steps);
                    }
                }
                Err(e) => steps.push(Step::Error(format!("{at}: {e}"))),
            },
            Ok(None) => {}
            Err(e) => steps.push(Step::Error(format!("{at}: {e}"))),
        },
        "run-shell" | "run" => match fugue_verbs::shell_args::run_shell_args(&argv[1..]) {
            Ok(_) if flags.parse_only => {}
            Ok((cmd, cwd)) => steps.push(Step::Shell {
                at: at.to_string(),
                cmd,
                cwd,
            }),
            Err(e) => steps.push(Step::Error(format!("{at}: {e}"))),
        },
        _ if line::client_command(&argv) => {
            steps.push(Step::Error(format!(
                "{at}: {name}: only a terminal client runs this (bind it to a key)"
            )));
        }
        _ => match line::command_for_argv(&argv, &fugue_verbs::Caller::process()) {
            Ok(_) if flags.parse_only => {}
            Ok(command) => steps.push(Step::Run {
                at: at.to_string(),
                command: Box::new(command),
            }),
            Err(e) => steps.push(Step::Error(format!("{at}: {e}"))),
        },
    }
}

/// `source-file [-nqv] path...`.
pub fn source_args(args: &[String]) -> (Flags, Vec<String>) {
    let mut flags = Flags::default();
    let mut paths = Vec::new();
    let mut options = true;
    for a in args {
        match a.strip_prefix('-') {
            Some("-") if options => options = false,
            Some(f) if options && !f.is_empty() => {
                for c in f.chars() {
                    match c {
                        'q' => flags.quiet = true,
                        'n' => flags.parse_only = true,
                        'v' => flags.verbose = true,
                        'F' => flags.expand = true,
                        _ => {}
                    }
                }
            }
            _ => {
                options = false;
                paths.push(a.clone());
            }
        }
    }
    (flags, paths)
}

/// `if-shell [-bF] [-t target] condition command [command]`: the branch to run.
/// With `-F` the condition is a format, true when it expands to something not empty and
/// not `0`; otherwise it is a shell command whose exit status decides.
fn if_shell(
    args: &[String],
    parse_only: bool,
    expand: Expand<'_>,
) -> Result<Option<String>, String> {
    let (format, cond, then, otherwise) = fugue_verbs::shell_args::if_shell_args(args)?;
    if parse_only {
        return Ok(None);
    }
    let truth = if format {
        fugue_protocol::format::is_true(&expand(&cond))
    } else {
        shell(&cond)?.0
    };
    Ok(if truth { Some(then) } else { otherwise })
}

/// Runs `sh -c cmd` with [`SHELL_TIMEOUT`]: whether it succeeded, and its output
/// (stdout then stderr, at most [`MAX_SHELL_OUTPUT`] bytes).
pub fn shell(cmd: &str) -> Result<(bool, String), String> {
    shell_in(cmd, None)
}

/// What a job (`run-shell`, `if-shell`) gets besides this process's environment, as
/// tmux gives its jobs: the server it runs for in `FUGUE_SOCKET` and `TMUX`, and the
/// `tmux` name first on PATH, so a plugin's `tmux ...` reaches this server and not the
/// default one or the terminal's own tmux. Nothing before a server answered.
pub fn job_env() -> Vec<(String, String)> {
    let Some((pid, socket)) = fugue_protocol::format::local::server() else {
        return Vec::new();
    };
    // tmux's third field is the session; a job from the CLI has none here.
    let mut env = vec![
        ("FUGUE_SOCKET".to_string(), socket.clone()),
        ("TMUX".to_string(), format!("{socket},{pid},")),
    ];
    let shim = fugue_protocol::paths::tmux_shim_dir(std::path::Path::new(&socket));
    if shim.join("tmux").exists() {
        // An empty PATH stays without an empty entry (which would be the job's cwd).
        let path = match std::env::var("PATH").ok().filter(|p| !p.is_empty()) {
            Some(rest) => format!("{}:{rest}", shim.display()),
            None => shim.display().to_string(),
        };
        env.push(("PATH".to_string(), path));
    }
    env
}

/// [`shell`] starting in `cwd` (`run-shell -c`), when given.
pub fn shell_in(cmd: &str, cwd: Option<&str>) -> Result<(bool, String), String> {
    let dir = tempfile_dir();
    let out_path = dir.join(format!("fugue-run-{}-{}", std::process::id(), unique()));
    let out = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut sh = std::process::Command::new("/bin/sh");
    sh.envs(job_env());
    if let Some(d) = cwd.map(fugue_verbs::shell_args::start_directory) {
        sh.current_dir(&d).env("PWD", &d);
    }
    let mut child = sh
        .arg("-c")
        .arg(cmd)
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("{cmd}: {e}"))?;
    // Waited for on a thread of its own, so the timeout is a wait, not a poll.
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = match rx.recv_timeout(SHELL_TIMEOUT) {
        Ok(Ok(s)) => Some(s),
        Ok(Err(e)) => return Err(e.to_string()),
        Err(_) => {
            if let Ok(pid) = libc::pid_t::try_from(pid) {
                // SAFETY: signals the child we started; its waiter thread reaps it.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            None
        }
    };
    let mut text = String::new();
    if let Ok(f) = std::fs::File::open(&out_path) {
        let _ = f.take(MAX_SHELL_OUTPUT as u64).read_to_string(&mut text);
    }
    let _ = std::fs::remove_file(&out_path);
    match status {
        Some(s) => Ok((s.success(), text)),
        None => Err(format!(
            "'{cmd}' timed out after {}s",
            SHELL_TIMEOUT.as_secs()
        )),
    }
}

fn tempfile_dir() -> std::path::PathBuf {
    std::env::temp_dir()
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// `fugue source-file`: runs the plan against the server, printing what tmux prints.
pub async fn run(
    addr: &crate::autostart::ServerAddr,
    paths: &[String],
    flags: Flags,
) -> anyhow::Result<i32> {
    // The server's state for the file's formats, as tmux expands them in its own; with
    // no server to ask (or -n), conditions are taken literally.
    let mut conn = None;
    let snap = if flags.parse_only {
        None
    } else {
        match crate::autostart::connect(addr, fugue_protocol::ClientKind::Cli).await {
            Ok(mut c) => {
                let snap = server_snapshot(&mut c).await;
                conn = Some(c);
                snap
            }
            Err(_) => None,
        }
    };
    let pane = std::env::var("FUGUE_PANE_ID")
        .ok()
        .and_then(|p| p.parse::<fugue_protocol::PaneId>().ok());
    let expand = |s: &str| match &snap {
        Some(snap) => match pane {
            Some(p) => fugue_protocol::format::expand(s, &snap.pane(p)),
            None => fugue_protocol::format::expand(s, &snap.global()),
        },
        None => s.to_string(),
    };
    let expanded: Vec<String>;
    let paths = if flags.expand {
        let mut out = Vec::with_capacity(paths.len());
        for p in paths {
            // The server expands it as `display-message -p` does (options, the most
            // recent session); without one, the snapshot's variables do.
            let by_server = match conn.as_mut() {
                Some(c) => format_path(c, pane, p).await,
                None => None,
            };
            out.push(by_server.unwrap_or_else(|| expand(p)));
        }
        expanded = out;
        &expanded[..]
    } else {
        paths
    };
    let steps = plan(paths, flags, &expand);
    let mut failed = false;
    for step in steps {
        match step {
            Step::Print(t) => println!("{t}"),
            Step::Error(e) => {
                failed = true;
                eprintln!("{e}");
            }
            Step::Shell { at, cmd, cwd } => {
                let ran = tokio::task::spawn_blocking(move || shell_in(&cmd, cwd.as_deref())).await;
                match ran {
                    Ok(Ok((_, out))) if !out.is_empty() => {
                        println!("{}", out.trim_end_matches('\n'))
                    }
                    Ok(Ok(_)) => {}
                    Ok(Err(e)) => {
                        failed = true;
                        eprintln!("{at}: {e}");
                    }
                    Err(e) => {
                        failed = true;
                        eprintln!("{at}: {e}");
                    }
                }
            }
            Step::Run { at, command } => {
                if conn.is_none() {
                    conn = Some(
                        crate::autostart::connect(addr, fugue_protocol::ClientKind::Cli)
                            .await
                            .context("source-file: no server")?,
                    );
                }
                let Some(c) = conn.as_mut() else { continue };
                if let Err(e) = c.call(*command).await? {
                    failed = true;
                    eprintln!("{at}: {}", e.display_with_suggestion());
                }
            }
        }
    }
    Ok(i32::from(failed))
}

/// Every session and pane, for the file's formats; None if the server will not say.
/// `source-file -F`'s path expanded by the server in the caller's pane's scope (or
/// the most recent session's), as tmux expands it in its current target.
async fn format_path(
    conn: &mut crate::connection::Connection,
    pane: Option<fugue_protocol::PaneId>,
    path: &str,
) -> Option<String> {
    use fugue_protocol::{Command, Response, Target};
    let asked = Command::FormatText(cmd::FormatText {
        target: pane.map(Target::Pane),
        text: path.to_string(),
        mode: Default::default(),
    });
    match conn.call(asked).await {
        Ok(Ok(Response::Captured(t))) => Some(t.trim_end_matches('\n').to_string()),
        _ => None,
    }
}

pub async fn server_snapshot(
    conn: &mut crate::connection::Connection,
) -> Option<fugue_protocol::format::vars::Snapshot> {
    use fugue_protocol::{Command, PaneScope, Response};
    let Ok(Ok(Response::Sessions(sessions))) = conn.call(Command::ListSessions).await else {
        return None;
    };
    let Ok(Ok(Response::Panes(panes))) = conn
        .call(Command::ListPanes(cmd::ListPanes {
            target: None,
            scope: PaneScope::All,
            values: Vec::new(),
        }))
        .await
    else {
        return None;
    };
    Some(super::format::snapshot(sessions, panes, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_paths() {
        let a: Vec<String> = ["-qv", "a", "-n"].iter().map(|s| s.to_string()).collect();
        let (f, p) = source_args(&a);
        assert!(f.quiet && f.verbose && !f.parse_only);
        assert_eq!(p, ["a", "-n"]);
    }

    #[test]
    fn a_missing_file_is_an_error_unless_quiet() {
        let p = vec!["/nonexistent/fugue.conf".to_string()];
        match plan(&p, Flags::default(), &|s: &str| s.to_string()).as_slice() {
            [Step::Error(e)] => assert_eq!(e, "/nonexistent/fugue.conf: No such file or directory"),
            other => panic!("{other:?}"),
        }
        let quiet = Flags {
            quiet: true,
            ..Flags::default()
        };
        assert!(plan(&p, quiet, &|s: &str| s.to_string()).is_empty());
    }

    /// `%if`/`%elif` conditions and `if-shell -F` are formats, expanded before they are
    /// judged, as tmux's (an acceptance pass found them taken literally).
    #[test]
    fn conditions_are_expanded_as_formats() {
        let dir = tempfile_dir().join(format!("fugue-cond-{}-{}", std::process::id(), unique()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("c.conf");
        std::fs::write(
            &file,
            "%if \"#{==:a,b}\"\nset -g @b2 if\n%else\nset -g @b2 else\n%endif\n\
             if-shell -F \"#{==:a,b}\" \"set -g @q yes\" \"set -g @q no\"\n",
        )
        .unwrap();
        let fmt = |s: &str| {
            let snap = fugue_protocol::format::vars::Snapshot::default();
            fugue_protocol::format::expand(s, &snap.global())
        };
        let steps = plan(&[file.display().to_string()], Flags::default(), &fmt);
        let commands: Vec<String> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Run { command, .. } => Some(format!("{command:?}")),
                _ => None,
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(commands.len(), 2, "{steps:?}");
        assert!(commands[0].contains("\"else\""), "{commands:?}");
        assert!(commands[1].contains("\"no\""), "{commands:?}");
    }

    #[test]
    fn shell_output_is_bounded_and_timed() {
        let (ok, out) = shell("yes | head -c 200000").unwrap();
        assert!(ok);
        assert_eq!(out.len(), MAX_SHELL_OUTPUT);
        assert!(!shell("exit 3").unwrap().0);
    }
}
