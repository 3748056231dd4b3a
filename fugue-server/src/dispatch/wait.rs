//! Waiting on panes: for output, for quiet, for exit; and running a command to its end.
//!
//! Waits are woken by the pane's change notifications, never by polling: a matching
//! line is seen as soon as the reader thread has processed it. A wait for quiet sleeps
//! to one deadline, armed by the pane's last output (when it will have been quiet
//! long enough), and sleeps again only if output moved that moment.

use super::observe::{check_cursor, compile, target_or_cursor};
use super::{Exec, io, panes, sessions};
use crate::pane::PaneShared;
use crate::pane::lines::LineCursor;
use fugue_protocol::observe::{RunCommand, RunOutcome, WaitCondition, WaitFor, WaitOutcome};
use fugue_protocol::{
    AgentState, CommandError, Direction, ErrorCode, InputPart, NewSession, NewWindow, PaneId,
    Response, Spawn, SplitPane, Target,
};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// The timeout a caller gets: what it asked (or the default), capped.
pub(super) fn timeout_for(exec: &Exec<'_>, asked: Option<u64>) -> u64 {
    let w = &exec.server.config().waits;
    asked.unwrap_or(w.default_timeout_ms).min(w.max_timeout_ms)
}

pub(super) fn timed_out(what: String, pane: PaneId, timeout: u64, cap: u64) -> CommandError {
    CommandError::new(ErrorCode::Timeout, format!("{what} in pane {pane} within {timeout} ms")).with_suggestion(format!(
        "read_pane shows what the pane has now; wait again, with a longer timeout if needed (the server caps waits at {cap} ms)"
    ))
}

/// A pane's shared state, subscribed for change notifications.
struct Watch {
    pane: PaneId,
    shared: Arc<PaneShared>,
    notify: Arc<Notify>,
}

impl Watch {
    fn new(exec: &mut Exec<'_>, target: Option<&Target>) -> Result<Watch, CommandError> {
        let tree = exec.server.mux.tree();
        let pane = tree.resolve_pane(target, &exec.ctx)?;
        exec.resolved = Some(pane.to_string());
        let shared = Arc::clone(
            &tree
                .panes
                .get(&pane)
                .ok_or_else(|| CommandError::internal("pane vanished"))?
                .shared,
        );
        let notify = Arc::new(Notify::new());
        // Subscribe before the first check so no change between them is missed.
        shared.subscribe(&notify);
        Ok(Watch {
            pane,
            shared,
            notify,
        })
    }

    /// Waits for a change or the deadline; false at the deadline.
    async fn changed(&self, deadline: Instant) -> bool {
        tokio::select! {
            _ = self.notify.notified() => true,
            _ = tokio::time::sleep_until(deadline.into()) => false,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.shared.unsubscribe(&self.notify);
    }
}

/// A line of new output matching a pattern.
struct Found {
    line: String,
    matched: String,
    at: u64,
}

/// The first match of `re` in `text` that is not inside the terminal's echo of
/// something typed on this line (the lesson of an earlier system whose `expect` matched
/// the shell's echo of the command instead of its output).
fn find_output<'t>(
    re: &regex::Regex,
    text: &'t str,
    typed: &[crate::pane::Typed],
) -> Option<regex::Match<'t>> {
    let echoes: Vec<std::ops::Range<usize>> = typed
        .iter()
        .flat_map(|t| {
            text.match_indices(t.text.as_str())
                .map(|(i, s)| i..i + s.len())
        })
        .collect();
    re.find_iter(text).find(|m| {
        !echoes
            .iter()
            .any(|e| e.start <= m.start() && m.end() <= e.end)
    })
}

/// Scans lines from `next` for `re`; on the first line, only text from `first_col` on.
/// Lines are read whole (rows that wrap joined). Advances `next` to the last line,
/// which may still be growing.
fn scan(
    w: &Watch,
    re: &regex::Regex,
    next: &mut u64,
    first: &mut Option<(u64, u16)>,
    epoch: &mut u64,
) -> Option<Found> {
    let st = w.shared.state.lock();
    // A resize rewrapped the screen: carry on from where the same text went, so nothing
    // already scanned is matched again and nothing new is skipped.
    let moved = st.moved();
    if moved.epoch != *epoch {
        if moved.epoch == *epoch + 1 {
            *next = moved.map(*next, 0).0;
            *first = first.map(|(line, col)| moved.map(line, col));
        } else {
            // More than one since the last look (they came faster than output woke
            // this wait): the cursor is the only safe place.
            *next = st.cursor_line();
            *first = Some((st.cursor_line(), st.cursor().col));
        }
        *epoch = moved.epoch;
    }
    let end = st.last_content_line().max(st.cursor_line());
    *next = (*next).max(st.history_dropped());
    if *next > end {
        // The screen was redrawn above the old position: look from its top.
        *next = st.history_total().min(end);
        *first = None;
    }
    let mut n = *next;
    while n <= end {
        let col = match *first {
            Some((line, col)) if line == n => col,
            _ => 0,
        };
        let Some((text, last)) = st.logical_line(n, end, col) else {
            n += 1;
            continue;
        };
        let typed = w.shared.typed_on(n, last);
        if let Some(m) = find_output(re, &text, &typed) {
            return Some(Found {
                matched: m.as_str().to_string(),
                line: text.clone(),
                at: n,
            });
        }
        if last == end {
            break;
        }
        n = last + 1;
    }
    // The last line may still grow (and may have started rows above `end`).
    *next = n.min(end);
    None
}

pub async fn wait_for(exec: &mut Exec<'_>, c: WaitFor) -> Result<Response, CommandError> {
    let cap = exec.server.config().waits.max_timeout_ms;
    let timeout = timeout_for(exec, c.timeout_ms);
    let after = match &c.condition {
        WaitCondition::Text { after, .. } => after.clone(),
        _ => None,
    };
    let target = target_or_cursor(c.target, after.as_deref());
    let w = match Watch::new(exec, target.as_ref()) {
        Ok(w) => w,
        // A quick program's pane may be gone before its exit is waited for: the
        // status it ended with is still the answer (for callers who may see every
        // pane: a scoped caller cannot be shown whose it was).
        Err(e)
            if e.code == ErrorCode::UnknownTarget && matches!(c.condition, WaitCondition::Exit) =>
        {
            let recent = match target {
                Some(Target::Pane(id))
                    if !crate::dispatch::scope::Scope::limited(
                        &exec.server.config(),
                        exec.origin,
                    ) =>
                {
                    exec.server
                        .recent_exits
                        .lock()
                        .iter()
                        .rev()
                        .find(|(p, _)| *p == id)
                        .map(|(p, s)| (*p, *s))
                }
                _ => None,
            };
            let Some((pane, status)) = recent else {
                return Err(e);
            };
            exec.resolved = Some(pane.to_string());
            return Ok(Response::Waited(WaitOutcome {
                pane,
                line: None,
                matched: None,
                exit_status: Some(status),
                state: None,
                // The pane is gone: nothing to read after.
                cursor: String::new(),
                waited_ms: 0,
                timeout_ms: timeout,
            }));
        }
        Err(e) => return Err(e),
    };
    let started = Instant::now();
    let deadline = started + Duration::from_millis(timeout);
    let instance = exec.server.instance;
    let outcome = |line: Option<String>,
                   matched: Option<String>,
                   exit_status: Option<i32>,
                   at: u64| WaitOutcome {
        pane: w.pane,
        line,
        matched,
        exit_status,
        state: None,
        cursor: LineCursor {
            pane: w.pane,
            line: at,
            instance,
            // Callers hold no lock on the state here.
            epoch: w.shared.state.lock().moved().epoch,
        }
        .encode(),
        waited_ms: started.elapsed().as_millis() as u64,
        timeout_ms: timeout,
    };
    match c.condition {
        WaitCondition::Text { pattern, after } => {
            let re = compile("text", &pattern)?;
            let (mut next, mut first, mut epoch) = {
                let st = w.shared.state.lock();
                let (next, first) = match &after {
                    Some(a) => (st.line_of(&check_cursor(exec, a, w.pane)?), None),
                    None => (st.cursor_line(), Some((st.cursor_line(), st.cursor().col))),
                };
                (next, first, st.moved().epoch)
            };
            loop {
                // Read the exit flag first: output before the exit is all processed by
                // the time it is set, so one more scan sees everything.
                let exited = w.shared.exit_status();
                if let Some(f) = scan(&w, &re, &mut next, &mut first, &mut epoch) {
                    return Ok(Response::Waited(outcome(
                        Some(f.line),
                        Some(f.matched),
                        None,
                        f.at,
                    )));
                }
                if let Some(status) = exited {
                    return Err(CommandError::new(
                        ErrorCode::PaneExited,
                        format!(
                            "pane {} exited (status {status}) before a line matched `{pattern}`",
                            w.pane
                        ),
                    )
                    .with_suggestion("read_pane shows its last output"));
                }
                if !w.changed(deadline).await {
                    return Err(timed_out(
                        format!("no line matched `{pattern}`"),
                        w.pane,
                        timeout,
                        cap,
                    ));
                }
            }
        }
        WaitCondition::Idle { ms } => {
            if ms == 0 || ms > 3_600_000 {
                return Err(CommandError::invalid_argument(
                    "idle_ms",
                    "expected 1 to 3600000 ms",
                ));
            }
            loop {
                let quiet = w.shared.last_output().elapsed();
                let want = Duration::from_millis(ms);
                if quiet >= want {
                    let at = w.shared.state.lock().cursor_line();
                    return Ok(Response::Waited(outcome(
                        None,
                        None,
                        w.shared.exit_status(),
                        at,
                    )));
                }
                let wake = Instant::now() + (want - quiet);
                if wake > deadline {
                    tokio::time::sleep_until(deadline.into()).await;
                    return Err(timed_out(
                        format!("output did not pause for {ms} ms"),
                        w.pane,
                        timeout,
                        cap,
                    ));
                }
                tokio::time::sleep_until(wake.into()).await;
            }
        }
        WaitCondition::State(want) => {
            let t = exec.server.agents.watch(&exec.server.mux, w.pane)?;
            let mut rx = t.watch();
            loop {
                let v = rx.borrow_and_update().clone();
                if v.state == want {
                    let at = w.shared.state.lock().cursor_line();
                    let mut o = outcome(None, None, v.exit_code, at);
                    o.state = Some(v.state);
                    return Ok(Response::Waited(o));
                }
                if v.state == AgentState::Exited {
                    let code = v
                        .exit_code
                        .map(|c| format!(" (status {c})"))
                        .unwrap_or_default();
                    return Err(CommandError::new(
                        ErrorCode::PaneExited,
                        format!("pane {} exited{code} before it was {want}", w.pane),
                    )
                    .with_suggestion(
                        "read_pane shows its last output; get_result what it reported",
                    ));
                }
                tokio::select! {
                    r = rx.changed() => if r.is_err() {
                        return Err(CommandError::new(ErrorCode::PaneExited, format!("pane {} closed", w.pane)));
                    },
                    _ = tokio::time::sleep_until(deadline.into()) => {
                        return Err(timed_out(
                            format!("the state did not become {want} (it is {})", v.state),
                            w.pane,
                            timeout,
                            cap,
                        ));
                    }
                }
            }
        }
        WaitCondition::Exit => loop {
            if let Some(status) = w.shared.exit_status() {
                let at = w.shared.state.lock().cursor_line();
                return Ok(Response::Waited(outcome(None, None, Some(status), at)));
            }
            if !w.changed(deadline).await {
                return Err(timed_out(
                    "the program did not exit".into(),
                    w.pane,
                    timeout,
                    cap,
                ));
            }
        },
    }
}

/// Most lines of output `run-command` returns (the last ones).
const RUN_OUTPUT_LINES: u32 = 2000;

pub async fn run_command(exec: &mut Exec<'_>, c: RunCommand) -> Result<Response, CommandError> {
    if c.command.trim().is_empty() {
        return Err(CommandError::invalid_argument("command", "it is empty"));
    }
    match c.pane.clone() {
        Some(pane) => run_in_pane(exec, &pane, c).await,
        None => run_in_new_pane(exec, c).await,
    }
}

async fn run_in_new_pane(exec: &mut Exec<'_>, c: RunCommand) -> Result<Response, CommandError> {
    let cap = exec.server.config().waits.max_timeout_ms;
    let timeout = timeout_for(exec, c.timeout_ms);
    let shell = exec
        .server
        .config()
        .default_argv()
        .into_iter()
        .next()
        .unwrap_or_else(|| "/bin/sh".into());
    let title: String = c.command.chars().take(40).collect();
    let spawn = Spawn {
        command: vec![shell, "-c".into(), c.command.clone()],
        cwd: c.cwd.clone(),
        env: c.env.clone(),
        title: Some(title),
        sideband: None,
        // Kept until its output has been read; closed afterwards unless `keep`.
        remain: Some(true),
    };
    let created = place_run_pane(exec, c.split_from.clone(), spawn)?;
    let Response::Created(created) = created else {
        return Err(CommandError::internal(
            "creating the pane answered unexpectedly",
        ));
    };
    let started = Instant::now();
    let deadline = started + Duration::from_millis(timeout);
    let w = Watch::new(exec, Some(&Target::Pane(created.pane)))?;
    let status = loop {
        if let Some(s) = w.shared.exit_status() {
            break s;
        }
        if !w.changed(deadline).await {
            // Advice names close_pane only to a caller allowed to close panes.
            let stop = if super::advice::may_destroy(exec) {
                "close_pane it"
            } else {
                "stop it with send_input {\"keys\": [\"C-c\"]}"
            };
            return Err(timed_out("the command did not finish".into(), w.pane, timeout, cap)
                .with_suggestion(format!(
                    "it is still running in pane {}: wait_for exit on it, read_pane it, or {stop}",
                    w.pane
                )));
        }
    };
    let (mut output, truncated) = {
        let st = w.shared.state.lock();
        let span = st.lines_between(
            st.history_dropped(),
            st.last_content_line(),
            RUN_OUTPUT_LINES,
            false,
        );
        (span.lines, span.truncated || span.missed > 0)
    };
    // The dead-pane notice of a kept pane is not the command's output.
    if output
        .last()
        .is_some_and(|l| l.starts_with("Pane is dead (status"))
    {
        output.pop();
    }
    while output.last().is_some_and(|l| l.is_empty()) {
        output.pop();
    }
    let pane = w.pane;
    drop(w);
    if !c.keep {
        let _ = panes::kill_pane(exec, Some(&Target::Pane(pane)));
    }
    exec.resolved = Some(pane.to_string());
    Ok(Response::Ran(RunOutcome {
        pane,
        exit_status: status,
        output: output.join("\n"),
        truncated,
        duration_ms: started.elapsed().as_millis() as u64,
    }))
}

/// Where a command run to completion gets its pane: split from the pane asked for, or
/// from the caller's own pane, so a person sees it next to the agent; a new window when
/// there is no such pane or it has no room left (concurrent runs would otherwise split
/// one pane until nothing fits); a new session when there is none.
fn place_run_pane(
    exec: &mut Exec<'_>,
    split_from: Option<Target>,
    spawn: Spawn,
) -> Result<Response, CommandError> {
    // No session, or (for a caller outside any pane, limited to its own panes) none it
    // may add a window to: a session of its own.
    let no_room = {
        let tree = exec.server.mux.tree();
        let usable = |s: &crate::session::tree::Session| {
            super::scope::session_panes(&tree, s.id)
                .iter()
                .any(|p| exec.scope.allows(*p))
        };
        match tree.current_session(&exec.ctx) {
            Ok(sid) => {
                split_from.is_none()
                    && exec.ctx.caller_pane.is_none()
                    && !tree.session(sid).is_some_and(usable)
            }
            Err(_) => true,
        }
    };
    if no_room {
        return sessions::new_session(
            exec,
            NewSession {
                spawn,
                ..NewSession::default()
            },
        );
    }
    let from = split_from.or_else(|| {
        let tree = exec.server.mux.tree();
        exec.ctx
            .caller_pane
            .filter(|p| tree.panes.contains_key(p))
            .map(Target::Pane)
    });
    let session = match &from {
        Some(from) => {
            let split = panes::split(
                exec,
                SplitPane {
                    target: Some(from.clone()),
                    direction: Direction::Down,
                    size: None,
                    select: false,
                    zoom: false,
                    full: false,
                    spawn: spawn.clone(),
                    task: None,
                },
            );
            match split {
                Err(e) if e.code == ErrorCode::LimitExceeded => {}
                other => return other,
            }
            let tree = exec.server.mux.tree();
            let pane = tree.resolve_pane(Some(from), &exec.ctx)?;
            tree.locate(pane).map(|(s, _)| Target::SessionId(s))
        }
        None => None,
    };
    sessions::new_window(
        exec,
        NewWindow {
            target: session,
            name: None,
            select: false,
            spawn,
            ..Default::default()
        },
    )
}

async fn run_in_pane(
    exec: &mut Exec<'_>,
    pane: &Target,
    c: RunCommand,
) -> Result<Response, CommandError> {
    if c.command.contains(['\n', '\r']) {
        return Err(CommandError::invalid_argument(
            "command",
            "it spans several lines; that works only in a new pane",
        )
        .with_suggestion("leave out `pane` to run it in a new pane, or join the lines with `;`"));
    }
    if c.cwd.is_some() || !c.env.is_empty() {
        return Err(
            CommandError::invalid_argument("cwd", "cwd and env apply only to a new pane")
                .with_suggestion("leave out `pane`, or put `cd DIR && VAR=value` in the command"),
        );
    }
    let cap = exec.server.config().waits.max_timeout_ms;
    let timeout = timeout_for(exec, c.timeout_ms);
    let w = Watch::new(exec, Some(pane))?;
    let tag = exec.server.next_nonce();
    // The markers are written so that the typed line does not contain them literally:
    // only the command's own output does.
    let begin = format!("__FUGUE_BEGIN_{tag:x}");
    let end_re = compile("pattern", &format!(r"^__FUGUE_END_{tag:x}_(\d+)$"))?;
    let line = format!(
        " printf '\\n__FUGUE_%s_{tag:x}\\n' BEGIN; {}; printf '\\n__FUGUE_%s_{tag:x}_%s\\n' END \"$?\"",
        c.command
    );
    let (mut next, mut first, mut epoch) = {
        let st = w.shared.state.lock();
        let at = st.cursor_line();
        (at, Some((at, st.cursor().col)), st.moved().epoch)
    };
    let started = Instant::now();
    let enter = fugue_protocol::Key::new(
        fugue_protocol::keys::KeyCode::Enter,
        fugue_protocol::keys::Mods::NONE,
    );
    io::deliver(
        exec.server,
        w.pane,
        &[InputPart::Text(line), InputPart::Key(enter)],
    )
    .await?;
    exec.server.agents.submitted(&exec.server.mux, w.pane);
    let deadline = started + Duration::from_millis(timeout);
    let found = loop {
        let exited = w.shared.exit_status();
        if let Some(f) = scan(&w, &end_re, &mut next, &mut first, &mut epoch) {
            break f;
        }
        if let Some(status) = exited {
            return Err(CommandError::new(
                ErrorCode::PaneExited,
                format!(
                    "pane {} exited (status {status}) before the command finished",
                    w.pane
                ),
            ));
        }
        if !w.changed(deadline).await {
            return Err(timed_out(
                "the command did not finish".into(),
                w.pane,
                timeout,
                cap,
            ));
        }
    };
    let status = end_re
        .captures(&found.line)
        .and_then(|c| c.get(1))
        .and_then(|m| m.as_str().parse().ok())
        .unwrap_or(-1);
    let (output, truncated) = {
        let st = w.shared.state.lock();
        let from = (st.history_dropped()..found.at)
            .rev()
            .find(|n| st.abs_line(*n, false).is_some_and(|l| l == begin))
            .map(|n| n + 1);
        match from {
            Some(from) if from < found.at => {
                let span = st.lines_between(from, found.at - 1, RUN_OUTPUT_LINES, false);
                let mut lines = span.lines;
                // The end marker starts with a newline of its own.
                if lines.last().is_some_and(|l| l.is_empty()) {
                    lines.pop();
                }
                (lines.join("\n"), span.truncated || span.missed > 0)
            }
            Some(_) => (String::new(), false),
            None => (String::new(), true),
        }
    };
    Ok(Response::Ran(RunOutcome {
        pane: w.pane,
        exit_status: status,
        output,
        truncated,
        duration_ms: started.elapsed().as_millis() as u64,
    }))
}

super::handler!(fugue_protocol::WaitFor, |exec, c| wait_for(exec, c).await);
super::handler!(fugue_protocol::RunCommand, |exec, c| run_command(exec, c)
    .await);
