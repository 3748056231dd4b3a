//! Plain `fugue` after a crash or a reboot whose sessions the server kept restorable
//! (`[server] restore = "ask"`, or `"auto"` after a reboot): asks once on the
//! terminal, before the client takes it over, whether to bring them back.

use crate::connection::Connection;
use fugue_protocol::cmd;
use fugue_protocol::{Command, Response};
use std::io::{BufRead, IsTerminal, Write};

pub async fn ask(conn: &mut Connection) -> anyhow::Result<()> {
    if !std::io::stdin().is_terminal() {
        return Ok(());
    }
    let list = Command::Restore(cmd::Restore {
        name: None,
        list: true,
    });
    let Ok(Response::Restore(r)) = conn.call(list).await? else {
        return Ok(());
    };
    if !r.ask || r.restorable.is_empty() {
        return Ok(());
    }
    let names: Vec<String> = r
        .restorable
        .iter()
        .map(|s| format!("{} ({} windows, {} panes)", s.name, s.windows, s.panes))
        .collect();
    let mut err = std::io::stderr();
    write!(
        err,
        "fugue: the previous server left {}.\r\nRestore {}? [Y/n] ",
        names.join(", "),
        if names.len() == 1 { "it" } else { "them" }
    )?;
    err.flush()?;
    let answer = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    })
    .await??;
    let answer = answer.trim().to_ascii_lowercase();
    if !(answer.is_empty() || answer.starts_with('y')) {
        writeln!(
            err,
            "fugue: kept; `fugue restore` brings them back, `fugue restore --discard` forgets them"
        )?;
        return Ok(());
    }
    let restore = Command::Restore(cmd::Restore {
        name: None,
        list: false,
    });
    if let Err(e) = conn.call(restore).await? {
        writeln!(err, "fugue: {}", e.message)?;
    }
    Ok(())
}
