//! How `fugue restore` shows its answer.

use anyhow::bail;
use fugue_protocol::Response;
use fugue_protocol::restore::RestoreOutcome;
use fugue_verbs::RestorePrinter;
use std::io::Write;

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
