//! `fugue restore`: sessions a killed, crashed or rebooted server left in its journal.

use anyhow::bail;
use fugue_protocol::restore::RestoreOutcome;
use fugue_protocol::{Command, Response};
use std::io::Write;

#[derive(Debug, clap::Args)]
pub struct RestoreArgs {
    /// Only list what can be restored.
    #[arg(short = 'l', long, conflicts_with = "discard")]
    pub list: bool,
    /// Forget it instead (every restorable session, or NAME): it cannot be restored
    /// afterwards.
    #[arg(short = 'd', long)]
    pub discard: bool,
    /// Print the answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// A session's name; none: every restorable session.
    pub name: Option<String>,
}

pub struct RestorePrinter {
    json: bool,
}

pub fn command_for(a: RestoreArgs) -> anyhow::Result<(Command, RestorePrinter)> {
    let printer = RestorePrinter { json: a.json };
    let command = if a.discard {
        Command::DiscardRestorable { name: a.name }
    } else {
        Command::Restore {
            name: a.name,
            list: a.list,
        }
    };
    Ok((command, printer))
}

fn ago(ms: u64) -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0);
    let s = now.saturating_sub(ms) / 1000;
    match s {
        0..60 => format!("{s}s ago"),
        60..3600 => format!("{}m ago", s / 60),
        3600..86400 => format!("{}h ago", s / 3600),
        _ => format!("{}d ago", s / 86400),
    }
}

pub fn print(out: &mut impl Write, p: &RestorePrinter, resp: &Response) -> anyhow::Result<()> {
    let Response::Restore(r) = resp else {
        bail!("unexpected answer: {resp:?}");
    };
    if p.json {
        writeln!(out, "{}", serde_json::to_string(r)?)?;
        return Ok(());
    }
    let RestoreOutcome {
        restored,
        discarded,
        restorable,
        ..
    } = r;
    for name in restored {
        writeln!(out, "restored: {name}")?;
    }
    for name in discarded {
        writeln!(out, "discarded: {name}")?;
    }
    if restored.is_empty() && discarded.is_empty() {
        if restorable.is_empty() {
            writeln!(out, "nothing to restore")?;
        }
        for s in restorable {
            writeln!(
                out,
                "{}: {} windows, {} panes{} (created {})",
                s.name,
                s.windows,
                s.panes,
                if s.agents > 0 {
                    format!(", {} agents", s.agents)
                } else {
                    String::new()
                },
                ago(s.created_ms)
            )?;
        }
    }
    Ok(())
}
