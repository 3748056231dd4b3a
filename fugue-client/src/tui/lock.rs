//! Locking the terminal, as tmux's client does on `lock-server`, `lock-session`,
//! `lock-client` or after `lock-after-time` seconds without a key: the terminal goes
//! back to its normal state, the session's `lock-command` runs in it (reading the
//! keyboard itself), and when it exits the client takes the terminal back and draws
//! everything. The loop is not polled meanwhile, so no key meant for the lock program
//! is read by the client.

use super::Screen;
use super::state::App;
use crate::connection::Connection;
use std::time::{Duration, Instant};

/// When the client locks itself for want of keys (`lock-after-time`), if it does.
pub fn due(app: &App) -> Option<Instant> {
    let secs = app.status_opts.lock_after_secs;
    (secs > 0).then(|| app.last_input + Duration::from_secs(u64::from(secs)))
}

/// Runs `lock-command` in the terminal and takes it back when the command exits. A
/// command that cannot start or fails says so on the status line (tmux says nothing,
/// and its default, BSD's `lock -np`, does not exist on most Linux systems).
pub async fn lock(screen: &mut Screen, conn: &mut Connection, app: &mut App) -> anyhow::Result<()> {
    let command = app.status_opts.lock_command.clone();
    if command.trim().is_empty() {
        return Ok(());
    }
    super::restore();
    let status = tokio::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(&command)
        .kill_on_drop(true)
        .status()
        .await;
    super::set_up()?;
    app.outer.set_up(Instant::now());
    super::resumed(screen, conn, app).await?;
    app.last_input = Instant::now();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => {
            tracing::warn!("lock-command {command:?} ended with {s}");
            app.notice(format!("lock-command failed ({s}): {command}"));
        }
        Err(e) => {
            tracing::warn!("lock-command {command:?} did not start: {e}");
            app.notice(format!("lock-command did not start: {e}"));
        }
    }
    Ok(())
}
