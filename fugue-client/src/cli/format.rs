//! `-F` formats: the CLI's side of the one format engine
//! (`fugue_protocol::format`, docs/formats.md). The answers of list verbs become a
//! [`Snapshot`](fugue_protocol::format::vars::Snapshot); each line is the format expanded in one object's scope. As in tmux, a
//! format is never refused: unknown variables are empty.

use crate::connection::Connection;
use anyhow::bail;
use fugue_protocol::cmd;
use fugue_protocol::format::FormatContext;
use fugue_protocol::{Command, Created, PaneScope, Response, Target};

pub use fugue_protocol::format::local::{host, now, snapshot, utc_offset};

pub use fugue_verbs::render::pane_lines;

/// A context of one lookup function (titles).
pub struct Lookup<F: Fn(&str) -> Option<String>>(pub F);

impl<F: Fn(&str) -> Option<String>> FormatContext for Lookup<F> {
    fn var(&self, name: &str) -> Option<String> {
        (self.0)(name)
    }
    fn now(&self) -> i64 {
        now()
    }
    fn utc_offset(&self, at: i64) -> i64 {
        utc_offset(at)
    }
}

/// Prints what `-P` asks for: the new pane in `-F`, read back from the server since the
/// answer holds only ids.
pub async fn created_line(
    conn: &mut Connection,
    c: &Created,
    fmt: Option<&str>,
) -> anyhow::Result<String> {
    let Some(fmt) = fmt else {
        return Ok(c.pane.to_string());
    };
    let list = match conn
        .call(Command::ListPanes(cmd::ListPanes {
            target: Some(Target::Pane(c.pane)),
            scope: PaneScope::Pane,
            values: Vec::new(),
        }))
        .await?
    {
        Ok(Response::Panes(list)) => list,
        Ok(other) => bail!("unexpected answer to list-panes: {other:?}"),
        Err(e) => bail!(
            "{} was created, but -F could not read it back: {}",
            c.pane,
            e.display_with_suggestion()
        ),
    };
    if list.is_empty() {
        bail!("{} was created, but it is gone already", c.pane);
    }
    let sessions = match conn.call(Command::ListSessions).await? {
        Ok(Response::Sessions(s)) => s,
        _ => Vec::new(),
    };
    Ok(pane_lines(fmt, &list, &sessions)
        .into_iter()
        .next()
        .unwrap_or_default())
}
