//! The sideband surface: tags printed by agents in panes become Commands.
//!
//! The scanner (in the pane layer) finds tags; here each pane's tags are run in order,
//! once each, within a rate, through the one dispatcher with the origin "sideband, pane
//! %N", and their results are written to the pane's result folder. Depth and count of
//! spawned panes are bounded by the dispatcher's policy, so a pane whose children print
//! the same spawn tag cannot start a runaway chain.

mod commands;
pub mod limits;
pub mod results;

use crate::dispatch::dispatch_via;
use crate::dispatch::origin::Origin;
use crate::pane::tags::Tag;
use crate::server::{Control, Server};
use commands::Plan;
use fugue_protocol::{
    CommandError, ErrorCode, InputPart, Key, PaneId, Response, SendInput, Target,
};
use limits::{PaneLimits, Verdict};
use parking_lot::Mutex;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Each pane's queue of tags, worked through in order by one task per pane.
#[derive(Default)]
pub struct Queues(Mutex<HashMap<PaneId, mpsc::UnboundedSender<Tag>>>);

/// Tags arrived from a pane's reader thread.
pub fn received(server: &Arc<Server>, pane: PaneId, tags: Vec<Tag>, overflowed: u32) {
    if overflowed > 0 {
        let max = server.config().sideband.max_tag_bytes;
        tracing::warn!(
            "pane {pane}: a possible sideband tag grew past {max} bytes and was shown as text"
        );
    }
    if tags.is_empty() {
        return;
    }
    let mut queues = server.sideband.0.lock();
    let tx = queues.entry(pane).or_insert_with(|| {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(worker(Arc::clone(server), pane, rx));
        tx
    });
    for tag in tags {
        let _ = tx.send(tag);
    }
}

/// Drops a closed pane's queue (its worker then ends).
pub fn forget(server: &Server, pane: PaneId) {
    server.sideband.0.lock().remove(&pane);
}

async fn worker(server: Arc<Server>, pane: PaneId, mut rx: mpsc::UnboundedReceiver<Tag>) {
    let sb = server.config().sideband.clone();
    let mut limits = PaneLimits::new(
        sb.rate_per_second,
        sb.burst,
        Duration::from_secs(sb.dedup_seconds),
        Instant::now(),
    );
    let mut counter = 0u64;
    while let Some(tag) = rx.recv().await {
        if !server.tree.lock().panes.contains_key(&pane) {
            break;
        }
        counter += 1;
        run(&server, pane, &mut limits, tag, counter).await;
    }
}

async fn run(server: &Arc<Server>, pane: PaneId, limits: &mut PaneLimits, tag: Tag, counter: u64) {
    let given = tag.attr("id");
    let id = match given {
        Some(g) => match results::file_stem(g) {
            Some(stem) => stem,
            None => {
                let e = CommandError::invalid_argument(
                    "id",
                    format!("`{g}` cannot name a result file"),
                )
                .with_suggestion(
                    "ids may hold letters, digits, `.`, `_` and `-`, at most 64 of them",
                );
                finish(server, pane, &format!("tag-{counter}"), &tag.name, Err(e));
                return;
            }
        },
        None => format!("tag-{counter}"),
    };
    let outcome = match limits.check(given, &tag.text, Instant::now()) {
        Verdict::Repeat => {
            tracing::debug!(
                "pane {pane}: {} repeated (a repaint); not run again",
                tag.text
            );
            return;
        }
        Verdict::TooFast => Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "pane {pane} printed tags faster than the limit of {} per second",
                server.config().sideband.rate_per_second
            ),
        )
        .with_suggestion("wait a moment and print the tag again with a new id")),
        Verdict::Run => execute(server, pane, &tag).await,
    };
    finish(server, pane, &id, &tag.name, outcome);
}

/// Runs a tag's commands through the dispatcher.
async fn execute(server: &Arc<Server>, pane: PaneId, tag: &Tag) -> Result<Value, CommandError> {
    let origin = Origin::Sideband { pane };
    let via = crate::pane::tags::TAG_NAMES
        .iter()
        .find(|n| **n == tag.name)
        .copied();
    match commands::plan(tag, pane)? {
        Plan::One(command) => dispatch_via(server, &origin, command, via)
            .await
            .map(crate::surfaces::mcp::handler::render),
        Plan::SpawnWithTask(split, task) => {
            let created = dispatch_via(
                server,
                &origin,
                fugue_protocol::Command::SplitPane(split),
                via,
            )
            .await?;
            let Response::Created(c) = &created else {
                return Err(CommandError::internal("spawn answered unexpectedly"));
            };
            let enter = Key::new(
                fugue_protocol::keys::KeyCode::Enter,
                fugue_protocol::keys::Mods::NONE,
            );
            let input = fugue_protocol::Command::SendInput(SendInput {
                target: Some(Target::Pane(c.pane)),
                parts: vec![InputPart::Paste(task), InputPart::Key(enter)],
            });
            dispatch_via(server, &origin, input, via).await?;
            Ok(crate::surfaces::mcp::handler::render(created))
        }
    }
}

/// Writes the result file and reports refusals.
fn finish(
    server: &Arc<Server>,
    pane: PaneId,
    id: &str,
    command: &str,
    outcome: Result<Value, CommandError>,
) {
    if let Err(e) = &outcome {
        let refused = matches!(e.code, ErrorCode::Forbidden | ErrorCode::LimitExceeded);
        if refused {
            tracing::warn!("pane {pane}: sideband {command} refused: {}", e.message);
            let session = server.tree.lock().locate(pane).map(|(s, _)| s);
            if let Some(s) = session {
                server.tell_clients(
                    Some(s),
                    Control::Notice(format!("sideband {pane}: {}", e.message)),
                );
            }
        } else {
            tracing::info!("pane {pane}: sideband {command} failed: {}", e.message);
        }
    }
    let body = results::body(id, command, &outcome);
    if let Err(e) = results::write(&server.sideband_dir(pane), id, &body) {
        tracing::warn!("pane {pane}: cannot write the sideband result {id}: {e}");
    }
}
