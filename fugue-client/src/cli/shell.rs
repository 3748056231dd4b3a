//! `run-shell` and `if-shell` from the CLI (the terminal client runs them for bindings
//! and `C-b :` in tui/shell_cmds.rs; hooks in the server). The shell command's formats
//! are expanded against the server's state first, as tmux does.

use crate::autostart::ServerAddr;
use fugue_protocol::cmd;
use std::io::Write;
use std::time::Duration;

/// Expands formats for `target` (else the pane the CLI runs in, else the server's
/// globals); text without `#` is taken as it is, with no server asked.
pub async fn expand(addr: &ServerAddr, target: Option<&str>, text: &str) -> String {
    if !text.contains('#') {
        return text.to_string();
    }
    let Ok(mut conn) = crate::autostart::connect(addr, fugue_protocol::ClientKind::Cli).await
    else {
        return text.to_string();
    };
    let Some(snap) = super::source::server_snapshot(&mut conn).await else {
        return text.to_string();
    };
    match default_pane(&mut conn, target).await {
        Some(p) => fugue_protocol::format::expand(text, &snap.pane(p)),
        None => fugue_protocol::format::expand(text, &snap.global()),
    }
}

/// A job's environment for the server at `addr` ([`super::source::job_env`]), which is
/// asked once for its pid if no connection has asked yet.
async fn job_env(addr: &ServerAddr) -> Vec<(String, String)> {
    if fugue_protocol::format::local::server().is_none() {
        let _ = crate::autostart::connect(addr, fugue_protocol::ClientKind::Cli).await;
    }
    super::source::job_env()
}

/// The pane a format is expanded for: the target's (a session's or window's active
/// pane), else the caller's default, as the server resolves them for any command.
async fn default_pane(
    conn: &mut crate::connection::Connection,
    target: Option<&str>,
) -> Option<fugue_protocol::PaneId> {
    use fugue_protocol::{Command, PaneScope, Response, Target};
    let target = target.map(|t| t.parse::<Target>()).transpose().ok()?;
    match conn
        .call(Command::ListPanes(cmd::ListPanes {
            target,
            scope: PaneScope::Pane,
            values: Vec::new(),
        }))
        .await
    {
        Ok(Ok(Response::Panes(list))) => list.first().map(|p| p.id),
        _ => None,
    }
}

/// Runs `sh -c command` with the caller's terminal as its output (in `cwd`, `-c`,
/// when given); its exit status.
pub async fn run_shell(
    addr: &ServerAddr,
    target: Option<&str>,
    delay: Option<f64>,
    cwd: Option<&str>,
    command: &str,
) -> anyhow::Result<i32> {
    if let Some(d) = delay.filter(|d| d.is_finite() && *d > 0.0) {
        // tmux takes fractions of a second; a day is more than any script waits.
        tokio::time::sleep(Duration::from_secs_f64(d.min(86_400.0))).await;
    }
    let command = expand(addr, target, command).await;
    let _ = std::io::stdout().flush();
    let mut sh = tokio::process::Command::new("/bin/sh");
    sh.envs(job_env(addr).await);
    if let Some(dir) = cwd.map(fugue_verbs::shell_args::start_directory) {
        sh.current_dir(&dir).env("PWD", &dir);
    }
    let status = sh
        .arg("-c")
        .arg(&command)
        .stdin(std::process::Stdio::null())
        .status()
        .await
        .map_err(|e| anyhow::anyhow!("cannot run /bin/sh: {e}"))?;
    Ok(status.code().unwrap_or(1))
}

/// Whether `if-shell`'s condition holds.
pub async fn condition(
    addr: &ServerAddr,
    target: Option<&str>,
    format: bool,
    condition: &str,
) -> anyhow::Result<bool> {
    let text = expand(addr, target, condition).await;
    if format {
        return Ok(fugue_protocol::format::is_true(&text));
    }
    let status = tokio::process::Command::new("/bin/sh")
        .envs(job_env(addr).await)
        .arg("-c")
        .arg(&text)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .await
        .map_err(|e| anyhow::anyhow!("cannot run /bin/sh: {e}"))?;
    Ok(status.success())
}
