//! The sideband surface: tags printed by agents in panes become Commands.
//!
//! The scanner (in the pane layer) finds tags; the pane's reader thread hands them
//! straight to [`offer`], which decides at once whether each may run: a repaint of a tag
//! already seen is skipped, a tag over the pane's rate is refused. Only tags that may
//! run are queued, in a small bounded queue per pane, for the pane's worker task, which
//! runs them in order through the one dispatcher with the origin "sideband, pane %N" and
//! writes their results; tags that can wait for long (an agent spawn, a sync message)
//! run on tasks of their own, a few at once, so they do not hold back later tags. Depth and count of spawned panes are bounded by the
//! dispatcher's policy, so a pane whose children print the same spawn tag cannot start a
//! runaway chain. Refusals are reported through a [`report::Reporter`], at most once per
//! second per pane however many tags a pane prints. Tags the scanner showed as text for
//! want of the pane's key are counted here: in the log (at most once a second per pane)
//! and in the pane's `untrusted.json`.

mod attrs;
mod commands;
pub mod limits;
mod report;
pub mod results;

use crate::attached::Control;
use crate::dispatch::dispatch_via;
use crate::hub::PaneSubscriber;
use crate::origin::Origin;
use crate::pane::tags::{Scanned, Tag};
use crate::server::Server;
use commands::Plan;
use fugue_protocol::{CommandError, ErrorCode, PaneId};
use limits::{PaneLimits, Verdict};
use parking_lot::Mutex;
use report::{Refusal, Reporter, Untrusted};
use results::Results;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc};

/// The longest a tag waits for its pane's program to be attached (see
/// [`crate::mux::Mux::until_started`]); past it the tag runs and is refused as
/// "still starting".
const START_WAIT: Duration = Duration::from_secs(10);

/// Tags that may run and wait for the pane's worker; more are refused as "busy". The
/// rate limit keeps this from filling unless the dispatcher is stuck.
const QUEUE: usize = 64;

/// Tags of one pane that may wait at once on their own tasks (agent spawns, sync
/// messages); one more waits for one of them to end before later tags run.
const LONG_AT_ONCE: usize = 4;

/// How often a pane's refusals are reported at most.
const REPORT_EVERY: Duration = Duration::from_secs(1);

/// Every pane's sideband state; subscribed to the server's pane events when the
/// server starts ([`Sideband::subscribe`]).
pub struct Sideband {
    /// Weak: the server's hub holds this, which must not keep the server alive.
    server: Weak<Server>,
    panes: Mutex<HashMap<PaneId, Entry>>,
    /// Where workers run: tags arrive on reader threads, outside the runtime.
    runtime: tokio::runtime::Handle,
}

impl Sideband {
    /// Hears `server`'s pane events from now on; workers run on `runtime`.
    pub fn subscribe(server: &Arc<Server>, runtime: tokio::runtime::Handle) {
        server.hub.subscribe(Arc::new(Sideband {
            server: Arc::downgrade(server),
            panes: Mutex::new(HashMap::new()),
            runtime,
        }));
    }
}

impl PaneSubscriber for Sideband {
    fn tags_found(&self, pane: PaneId, found: Scanned) {
        if let Some(server) = self.server.upgrade() {
            offer(self, &server, pane, found);
        }
    }

    /// Drops closed panes' queues (their workers then end).
    fn panes_closed(&self, panes: &[PaneId]) {
        let mut map = self.panes.lock();
        for p in panes {
            map.remove(p);
        }
    }
}

struct Entry {
    queue: mpsc::Sender<Queued>,
    shared: Arc<Shared>,
}

/// What a pane's reader thread and its worker share.
struct Shared {
    intake: Mutex<Intake>,
    /// Wakes the worker when there is something to report.
    wake: Notify,
}

struct Intake {
    limits: PaneLimits,
    /// Tags counted so far (names results of tags without an id).
    counter: u64,
    reporter: Reporter,
    /// Tags shown as text for want of the key since the pane started.
    untrusted: Untrusted,
}

/// A tag that may run.
struct Queued {
    tag: Tag,
    /// Its result file's name.
    stem: String,
}

/// Tags (and the counts of possible tags that overflowed the size bound or lacked the
/// pane's key) found in a pane's output. Called from the pane's reader thread; never
/// blocks on the runtime.
fn offer(sb: &Sideband, server: &Arc<Server>, pane: PaneId, found: Scanned) {
    let Some((queue, shared)) = entry(sb, server, pane) else {
        return;
    };
    let now = Instant::now();
    let mut report = false;
    let Scanned {
        tags,
        overflows,
        no_key,
        wrong_key,
    } = found;
    {
        let mut intake = shared.intake.lock();
        if overflows > 0 {
            intake.reporter.overflowed(overflows, now);
            report = true;
        }
        let untrusted = Untrusted {
            no_key: u64::from(no_key),
            wrong_key: u64::from(wrong_key),
        };
        if !untrusted.is_empty() {
            intake.untrusted.add(untrusted);
            intake.reporter.untrusted(untrusted, now);
            report = true;
        }
        for tag in tags {
            let verdict = intake.limits.check(tag.attr("id"), &tag.text, now);
            if verdict == Verdict::Repeat {
                tracing::debug!(
                    "pane {pane}: {} printed again (a repaint); not run again",
                    tag.shape()
                );
                continue;
            }
            intake.counter += 1;
            let stem = tag
                .attr("id")
                .and_then(results::file_stem)
                .unwrap_or_else(|| format!("tag-{}", intake.counter));
            let refused = |error: CommandError, reason: &str, tag: Tag, stem: String| Refusal {
                stem,
                command: tag.name,
                error,
                reason: reason.into(),
                has_file: false,
            };
            if verdict == Verdict::TooFast {
                let rate = server.config().sideband.rate_per_second;
                let error = CommandError::new(
                    ErrorCode::LimitExceeded,
                    format!("pane {pane} printed tags faster than the limit of {rate} per second"),
                )
                .with_suggestion("wait a moment and print the tag again with a new id");
                let r = refused(error, "rate limit", tag, stem);
                intake.reporter.refused(r, now);
                report = true;
                continue;
            }
            match queue.try_send(Queued { tag, stem }) {
                Ok(()) => {}
                Err(mpsc::error::TrySendError::Full(q)) => {
                    let error = CommandError::new(
                        ErrorCode::LimitExceeded,
                        format!("pane {pane} already has {QUEUE} tags waiting to run"),
                    )
                    .with_suggestion("wait for the results of earlier tags first");
                    let r = refused(error, "too many waiting", q.tag, q.stem);
                    intake.reporter.refused(r, now);
                    report = true;
                }
                // The pane is closing.
                Err(mpsc::error::TrySendError::Closed(_)) => return,
            }
        }
    }
    if report {
        shared.wake.notify_one();
    }
}

/// The pane's queue and shared state, made (with its worker) on its first tag.
fn entry(
    sb: &Sideband,
    server: &Arc<Server>,
    pane: PaneId,
) -> Option<(mpsc::Sender<Queued>, Arc<Shared>)> {
    let mut panes = sb.panes.lock();
    if let Some(e) = panes.get(&pane) {
        return Some((e.queue.clone(), Arc::clone(&e.shared)));
    }
    // Output read after a pane closed must not bring its results back.
    if !server.mux.has_pane(pane) {
        return None;
    }
    let runtime = &sb.runtime;
    let sb = server.config().sideband.clone();
    let shared = Arc::new(Shared {
        intake: Mutex::new(Intake {
            limits: PaneLimits::new(
                sb.rate_per_second,
                sb.burst,
                Duration::from_secs(sb.dedup_seconds),
                Instant::now(),
            ),
            counter: 0,
            reporter: Reporter::new(REPORT_EVERY),
            untrusted: Untrusted::default(),
        }),
        wake: Notify::new(),
    });
    let (tx, rx) = mpsc::channel(QUEUE);
    runtime.spawn(worker(Arc::clone(server), pane, Arc::clone(&shared), rx));
    panes.insert(
        pane,
        Entry {
            queue: tx.clone(),
            shared: Arc::clone(&shared),
        },
    );
    Some((tx, shared))
}

async fn worker(
    server: Arc<Server>,
    pane: PaneId,
    shared: Arc<Shared>,
    mut rx: mpsc::Receiver<Queued>,
) {
    let results = Arc::new(Mutex::new(Results::new(server.sideband_dir(pane))));
    let long = Arc::new(tokio::sync::Semaphore::new(LONG_AT_ONCE));
    loop {
        let due = shared.intake.lock().reporter.due();
        tokio::select! {
            queued = rx.recv() => {
                let Some(q) = queued else { break };
                if !alive(&server, pane) {
                    break;
                }
                // A program can print a tag before the command starting it has
                // attached it; the tag waits for that instead of being refused.
                server.mux.until_started(pane, START_WAIT).await;
                if waits_long(&q.tag) {
                    // An agent spawn or a sync message can wait for seconds: it runs on
                    // its own, so the pane's later tags (its own report, above all)
                    // are not held back. Others run in order, as printed.
                    let Ok(permit) = Arc::clone(&long).acquire_owned().await else {
                        break;
                    };
                    let (server, shared, results) =
                        (Arc::clone(&server), Arc::clone(&shared), Arc::clone(&results));
                    tokio::spawn(async move {
                        run(&server, pane, &shared, &results, q).await;
                        shared.wake.notify_one();
                        drop(permit);
                    });
                } else {
                    run(&server, pane, &shared, &results, q).await;
                }
            }
            _ = shared.wake.notified() => {}
            _ = sleep_until(due), if due.is_some() => {}
        }
        if !alive(&server, pane) {
            break;
        }
        deliver(&server, pane, &shared, &mut results.lock());
    }
}

/// Tags that may wait long: an agent spawn (until the agent is ready) and a message
/// delivered synchronously (until the recipient is free).
fn waits_long(tag: &Tag) -> bool {
    match tag.name.as_str() {
        "spawn" => tag.attr("agent").is_some(),
        "message" => tag.attr("delivery") == Some("sync"),
        _ => false,
    }
}

fn alive(server: &Server, pane: PaneId) -> bool {
    server.mux.has_pane(pane)
}

async fn sleep_until(when: Option<Instant>) {
    match when {
        Some(t) => tokio::time::sleep_until(t.into()).await,
        None => std::future::pending().await,
    }
}

async fn run(
    server: &Arc<Server>,
    pane: PaneId,
    shared: &Shared,
    results: &Mutex<Results>,
    q: Queued,
) {
    let Queued { tag, stem } = q;
    let outcome = match tag.attr("id") {
        Some(given) if results::file_stem(given).is_none() => Err(CommandError::invalid_argument(
            "id",
            format!("`{given}` cannot name a result file"),
        )
        .with_suggestion(
            "ids may hold letters, digits, `.`, `_` and `-`, at most 64 of them (not `refused`)",
        )),
        _ => execute(server, pane, &tag).await,
    };
    let body = results::body(&stem, &tag.name, &outcome);
    // A tag that ran on past its pane's end writes nothing: the pane's folder is gone.
    if !alive(server, pane) {
        return;
    }
    if let Err(e) = results.lock().write(&stem, &body) {
        tracing::warn!("pane {pane}: cannot write the sideband result {stem}: {e}");
    }
    if wants_input(server, pane) {
        type_result(server, pane, &stem, &body).await;
    }
    if let Err(error) = outcome {
        let reason = error.code.as_str().to_string();
        let r = Refusal {
            stem,
            command: tag.name,
            error,
            reason,
            has_file: true,
        };
        shared.intake.lock().reporter.refused(r, Instant::now());
    }
}

/// Whether the pane's agent preset asks for results as typed input
/// (`sideband_results = "input"`).
fn wants_input(server: &Server, pane: PaneId) -> bool {
    let Some(preset) = server.agents.get(pane).and_then(|t| t.preset.clone()) else {
        return false;
    };
    server
        .config()
        .agents
        .get(&preset)
        .is_some_and(|p| p.sideband_results == crate::config::SidebandResults::Input)
}

/// Longest result typed into an agent: a bigger one is typed as a pointer to its file
/// (the agent's input box is not the place for a megabyte of JSON).
const TYPED_RESULT_MAX: usize = 16 * 1024;

/// Types a tag's result into its agent, as `send_message` types a message: once the
/// agent is idle and no person is typing there, as one line, then Enter. Queued
/// (async): a pane's later tags do not wait for it. The result file is written anyway.
async fn type_result(server: &Arc<Server>, pane: PaneId, stem: &str, body: &Value) {
    let json = body.to_string();
    let text = if json.len() <= TYPED_RESULT_MAX {
        format!("fugue result {stem}: {json}")
    } else {
        format!(
            "fugue result {stem}: {} bytes, in $FUGUE_SIDEBAND_DIR/{stem}.json",
            json.len()
        )
    };
    let command = fugue_protocol::Command::SendMessage(fugue_protocol::SendMessage {
        to: fugue_protocol::MessageTo::Pane(fugue_protocol::Target::Pane(pane)),
        text,
        delivery: fugue_protocol::Delivery::Async,
        quiescence_ms: None,
        timeout_ms: None,
        plain: true,
    });
    // The server delivers it (audited as such): the tag's own origin may be barred
    // from typing into its pane (a person's first pane), and this is the answer to
    // what it asked, not a new action of its own.
    if let Err(e) = dispatch_via(server, &Origin::Server, command, Some("sideband result")).await {
        tracing::warn!("pane {pane}: the result {stem} could not be typed: {e}");
    }
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
            .map(crate::surfaces::answer::to_json),
    }
}

/// Reports what the pane's reporter says is due: in the log, in result files and as a
/// notice to people attached to the pane's session.
fn deliver(server: &Arc<Server>, pane: PaneId, shared: &Shared, results: &mut Results) {
    let (due, untrusted_total) = {
        let mut intake = shared.intake.lock();
        (intake.reporter.take(Instant::now()), intake.untrusted)
    };
    let max = server.config().sideband.max_tag_bytes;
    let mut untrusted = due.untrusted;
    if let Some(s) = &due.summary {
        untrusted.add(s.untrusted);
    }
    if !untrusted.is_empty() {
        let n = untrusted;
        tracing::warn!(
            "pane {pane}: {} shown as text, not run ({} since the pane started)",
            n.describe(),
            untrusted_total.describe()
        );
        let body = results::untrusted_body(untrusted_total.no_key, untrusted_total.wrong_key);
        if let Err(e) = results.write(results::UNTRUSTED_STEM, &body) {
            tracing::warn!("pane {pane}: cannot write the sideband untrusted count: {e}");
        }
    }
    if due.overflows > 0 {
        tracing::warn!(
            "pane {pane}: a possible sideband tag grew past {max} bytes and was shown as text"
        );
    }
    if let Some(r) = due.refusal {
        tracing::warn!(
            "pane {pane}: sideband <fugue:{}> (result {}) refused: {}",
            r.command,
            r.stem,
            r.error.message
        );
        notify(
            server,
            pane,
            format!(
                "sideband {pane}: <fugue:{}> refused: {}",
                r.command, r.error.message
            ),
        );
        if !r.has_file {
            let body = results::body(&r.stem, &r.command, &Err(r.error));
            if let Err(e) = results.write(&r.stem, &body) {
                tracing::warn!(
                    "pane {pane}: cannot write the sideband result {}: {e}",
                    r.stem
                );
            }
        }
    }
    let Some(s) = due.summary else { return };
    if s.overflows > 0 {
        tracing::warn!(
            "pane {pane}: {} more possible sideband tags grew past {max} bytes and were shown as text",
            s.overflows
        );
    }
    if s.count == 0 {
        return;
    }
    let more = if s.count as usize > s.ids.len() {
        ", …"
    } else {
        ""
    };
    tracing::warn!(
        "pane {pane}: sideband: {} in the last second (results {}{more})",
        s.describe(),
        s.ids.join(", ")
    );
    notify(server, pane, format!("sideband {pane}: {}", s.describe()));
    let body = results::summary_body(
        &s,
        "print fewer tags, more slowly; a tag listed here did not run: print it again with a new id",
    );
    if let Err(e) = results.write(results::SUMMARY_STEM, &body) {
        tracing::warn!("pane {pane}: cannot write the sideband refusal summary: {e}");
    }
}

fn notify(server: &Server, pane: PaneId, text: String) {
    let session = server.mux.session_of_pane(pane);
    if let Some(s) = session {
        server.mux.attached.tell(Some(s), Control::Notice(text));
    }
}
