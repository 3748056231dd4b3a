//! `restore`, `restore --list`, `restore --discard`: bringing back sessions the journal
//! holds that are not running (`persist.rs`), as they were: the same split trees
//! (sized for the session's area, then for the clients that attach), names, titles,
//! working directories, pane ids when free, agents with their results.

use super::Exec;
use super::restore_plan::{Run, plan};
use super::spawn::{prepare_pane, with_new_pane};
use crate::journal::model::{Key, Model, PaneRec, SessionRec};
use crate::session::layout::Layout;
use crate::session::tree::{Creator, Session, Window};
use fugue_protocol::cmd;
use fugue_protocol::restore::RestoreOutcome;
use fugue_protocol::{CommandError, PaneId, Response, SessionId, Spawn, WindowId};
use std::collections::HashMap;
use std::time::{Duration, UNIX_EPOCH};

use crate::persist::restorable;

fn unknown(exec: &Exec<'_>, model: &Model, name: &str) -> CommandError {
    if exec.server.mux.tree().session_by_name(name).is_some() {
        return CommandError::unknown_target(format!(
            "session `{name}` is running, not waiting to be restored"
        ))
        .with_suggestion(
            "a starting server restores what its journal holds (`[server] restore`); attach with `fugue attach -t NAME`",
        );
    }
    let names: Vec<String> = model.sessions().map(|s| s.name.clone()).collect();
    let e = CommandError::unknown_target(format!("no restorable session `{name}`"));
    if names.is_empty() {
        e.with_suggestion("nothing is left to restore")
    } else {
        e.with_suggestion(format!("restorable: {}", names.join(", ")))
    }
}

pub fn restore(
    exec: &mut Exec<'_>,
    name: Option<String>,
    list: bool,
) -> Result<Response, CommandError> {
    let server = exec.server;
    let all = server.persist.restorable.lock().clone();
    if list {
        return Ok(Response::Restore(RestoreOutcome {
            restorable: restorable(&all),
            ask: server
                .persist
                .ask
                .load(std::sync::atomic::Ordering::Relaxed),
            ..Default::default()
        }));
    }
    let wanted: Vec<u32> = match &name {
        Some(n) => vec![
            all.sessions()
                .find(|s| &s.name == n)
                .ok_or_else(|| unknown(exec, &all, n))?
                .id,
        ],
        None => all.sessions().map(|s| s.id).collect(),
    };
    exec.resolved = name.clone();
    let mut restored = Vec::new();
    let mut mapping = Vec::new();
    let mut failures = Vec::new();
    // Old window ids and the windows made for them, for the links of other sessions.
    let mut windows: HashMap<u32, WindowId> = HashMap::new();
    // Sessions restored with links or a group, and those holding only links (their
    // windows are written with another session): made once those windows are back.
    let mut linked: Vec<(String, SessionRec)> = Vec::new();
    let mut only_links: Vec<(SessionRec, Model)> = Vec::new();
    for sid in wanted {
        let Some(s) = all.sessions().find(|s| s.id == sid).cloned() else {
            continue;
        };
        let Some(one) = all.session_named(&s.name) else {
            continue;
        };
        // Out of the restorable set first: a capture while it is being made must
        // not hold it twice (restorable and running).
        server.persist.restorable.lock().remove_session(sid);
        if one.windows_of(s.id).is_empty() && !s.links.is_empty() {
            only_links.push((s, one));
            continue;
        }
        match restore_session(exec, &s, &one) {
            Ok((made, map, made_windows)) => {
                windows.extend(made_windows);
                if !s.links.is_empty() || s.group.is_some() {
                    linked.push((made.clone(), s.clone()));
                }
                restored.push(made);
                mapping.extend(map);
            }
            Err(e) => {
                tracing::warn!("restore of session {}: {}", s.name, e.message);
                // Kept for another try.
                server.persist.restorable.lock().merge(&one);
                failures.push(format!("{}: {}", s.name, e.message));
            }
        }
    }
    for (s, one) in only_links {
        match super::restore_links::session_of_links(server, &s, &windows) {
            Ok(made) => {
                linked.push((made.clone(), s));
                restored.push(made);
            }
            Err(e) => {
                tracing::warn!("restore of session {}: {e}", s.name);
                server.persist.restorable.lock().merge(&one);
                failures.push(format!("{}: {e}", s.name));
            }
        }
    }
    super::restore_links::relink(server, &linked, &windows);
    // Server-wide things come back with the first restore.
    restore_buffers_and_runtime(exec);
    let moved: Vec<(u32, u32)> = mapping.iter().copied().filter(|(a, b)| a != b).collect();
    if let Some(j) = server.persist.journal() {
        let mut m = crate::persist::mark("restored");
        m.panes = moved.clone();
        m.sessions = restored.clone();
        j.mark(m);
    }
    exec.detail = Some(serde_json::json!({
        "restored": restored,
        "panes_renumbered": moved,
        "failed": failures,
    }));
    server.persist.changed();
    if restored.is_empty() && !failures.is_empty() {
        return Err(CommandError::internal(format!(
            "nothing was restored: {}",
            failures.join("; ")
        )));
    }
    if !restored.is_empty() {
        server.mark_had_sessions();
    }
    server.mux.changed();
    let left = server.persist.restorable.lock().clone();
    Ok(Response::Restore(RestoreOutcome {
        restored,
        discarded: Vec::new(),
        restorable: restorable(&left),
        ask: false,
    }))
}

pub fn discard(exec: &mut Exec<'_>, name: Option<String>) -> Result<Response, CommandError> {
    let server = exec.server;
    let mut gone = Vec::new();
    {
        let mut r = server.persist.restorable.lock();
        let ids: Vec<(u32, String)> = match &name {
            Some(n) => {
                let s = r
                    .sessions()
                    .find(|s| &s.name == n)
                    .ok_or_else(|| unknown(exec, &r, n))?;
                vec![(s.id, s.name.clone())]
            }
            None => r.sessions().map(|s| (s.id, s.name.clone())).collect(),
        };
        for (id, n) in ids {
            r.remove_session(id);
            gone.push(n);
        }
        if name.is_none() {
            // Everything: buffers and settings that were waiting go too.
            *r = Model::default();
        }
    }
    exec.resolved = name;
    if let Some(j) = server.persist.journal() {
        let mut m = crate::persist::mark("discarded");
        m.sessions = gone.clone();
        j.mark(m);
        server.persist.changed();
        // Forgotten on disk before the answer: `--discard` really forgets.
        j.flush(Duration::from_secs(5));
    }
    let left = server.persist.restorable.lock().clone();
    Ok(Response::Restore(RestoreOutcome {
        restored: Vec::new(),
        discarded: gone,
        restorable: restorable(&left),
        ask: false,
    }))
}

/// A free session name: the journal's, or with `-restored`, `-restored-2`, ...
pub(super) fn free_name(tree: &crate::session::Tree, name: &str) -> String {
    if tree.session_by_name(name).is_none() {
        return name.to_string();
    }
    (1..)
        .map(|i| match i {
            1 => format!("{name}-restored"),
            i => format!("{name}-restored-{i}"),
        })
        .find(|n| tree.session_by_name(n).is_none())
        .unwrap_or_default()
}

/// Who made a pane, from its description, with panes renumbered.
fn creator(described: &str, map: &HashMap<u32, PaneId>) -> Creator {
    let pane = |s: &str| {
        let n = s.trim_start_matches('%').parse::<u32>().ok()?;
        Some(map.get(&n).copied().unwrap_or(PaneId(n)))
    };
    let words: Vec<&str> = described.split_whitespace().collect();
    match words.as_slice() {
        ["mcp", c, "in", p] => Creator::Mcp {
            connection: c.parse().unwrap_or(0),
            pane: pane(p),
        },
        ["mcp", c] => Creator::Mcp {
            connection: c.parse().unwrap_or(0),
            pane: None,
        },
        ["sideband", p] => pane(p).map_or(Creator::Server, |pane| Creator::Sideband { pane }),
        ["agent", p] => pane(p).map_or(Creator::Server, |pane| Creator::Agent { pane }),
        ["server"] => Creator::Server,
        _ => Creator::Person { pane: None },
    }
}

/// A restored session's name, its panes' old and new ids, and its windows'.
type Restored = (String, Vec<(u32, u32)>, HashMap<u32, WindowId>);

/// Recreates one session; returns its name and the panes' and windows' old and new
/// ids.
fn restore_session(
    exec: &mut Exec<'_>,
    s: &SessionRec,
    model: &Model,
) -> Result<Restored, CommandError> {
    let server = exec.server;
    let config = server.config();
    let mut sid: Option<SessionId> = None;
    let mut name = String::new();
    let mut map: HashMap<u32, PaneId> = HashMap::new();
    let mut agents = Vec::new();
    let mut window_ids: HashMap<u32, WindowId> = HashMap::new();
    for w in model.windows_of(s.id) {
        let Ok(mut layout) = serde_json::from_value::<Layout>(w.layout.clone()) else {
            tracing::warn!(
                "restore: window {} of {} has a layout that does not parse; left out",
                w.name,
                s.name
            );
            continue;
        };
        let recs: HashMap<u32, &PaneRec> = model
            .panes_of(w.id)
            .into_iter()
            .map(|p| (p.id, p))
            .collect();
        let order = layout.panes();
        if order.iter().any(|p| !recs.contains_key(&p.0)) {
            tracing::warn!(
                "restore: window {} of {} names panes the journal lacks; left out",
                w.name,
                s.name
            );
            continue;
        }
        let wid = server.mux.tree().window_id_or_new(WindowId(w.id));
        let mut made = Vec::new();
        for old in order {
            let rec = recs[&old.0];
            let run = plan(rec, &config);
            let cwd = rec.cwd.clone().filter(|c| std::path::Path::new(c).is_dir());
            let spawn = Spawn {
                command: run.argv(),
                cwd,
                env: rec.env.clone(),
                title: rec.title.clone(),
                sideband: rec.sideband.then_some(true),
                remain: if matches!(run, Run::Dead(_)) {
                    Some(true)
                } else {
                    rec.remain
                },
            };
            exec.want_pane = Some(old);
            exec.preload = server
                .persist
                .journal()
                .and_then(|j| crate::persist::preload(&j.dir, old.0));
            let size = (rec.size.0.max(1), rec.size.1.max(1));
            let spawned = with_new_pane(
                exec,
                |exec, tree| {
                    Ok((
                        (),
                        prepare_pane(exec, tree, (sid, wid), &spawn, size, None)?,
                    ))
                },
                |_, _, (), id| Ok(id),
            );
            exec.want_pane = None;
            exec.preload = None;
            let id = match spawned {
                Ok(id) => id,
                Err(e) => {
                    // Panes already made for this window go with it.
                    let mut tree = server.mux.tree();
                    for p in &made {
                        if let Some(pane) = tree.panes.remove(p) {
                            pane.pty.kill();
                        }
                    }
                    drop(tree);
                    server.panes_closed(&made);
                    return Err(e);
                }
            };
            made.push(id);
            map.insert(old.0, id);
            if let Some(a) = &rec.agent {
                agents.push((id, a.clone()));
            }
            let mut tree = server.mux.tree();
            if let Some(p) = tree.panes.get_mut(&id) {
                // What it was started with, not the guard around it: a second
                // restore guards the same command again, not the guard.
                p.argv = rec.argv.clone();
                p.start_command = rec.start_command.clone();
                p.depth = rec.depth;
                p.agent = rec.agent.as_ref().and_then(|a| a.preset.clone());
            }
        }
        for (old, new) in &map {
            if PaneId(*old) != *new {
                layout.replace(PaneId(*old), *new);
            }
        }
        let active = map.get(&w.active_pane).copied().unwrap_or_else(|| made[0]);
        let mut tree = server.mux.tree();
        // A program that ended while the others started took its pane with it: the
        // layout must not name a pane that is gone.
        let gone: Vec<PaneId> = made
            .iter()
            .copied()
            .filter(|p| !tree.panes.contains_key(p))
            .collect();
        if gone.len() == made.len() {
            continue;
        }
        for p in &gone {
            layout.remove(*p);
        }
        let active = if gone.contains(&active) {
            layout.panes()[0]
        } else {
            active
        };
        let zoomed = w.zoomed && layout.len() > 1;
        let window = Window {
            layout,
            zoomed,
            ..Window::of_pane(wid, active, w.name.clone(), w.auto_name)
        };
        window_ids.insert(w.id, wid);
        let this = match sid {
            Some(sid) => {
                if let Some(session) = tree.session(sid) {
                    let index = if session.windows.iter().any(|x| x.index == w.index) {
                        session.free_index()
                    } else {
                        w.index
                    };
                    tree.add_window(sid, index, window);
                }
                sid
            }
            None => {
                let id = tree.session_id_or_new(SessionId(s.id));
                name = free_name(&tree, &s.name);
                let last_used = tree.touch();
                let first_pane = made
                    .first()
                    .copied()
                    .filter(|p| tree.panes.get(p).is_some_and(|p| p.creator.is_person()));
                tree.windows.insert(wid, window);
                tree.sessions.push(Session {
                    created: UNIX_EPOCH + Duration::from_millis(s.created_ms),
                    last_used,
                    size: s.size,
                    first_pane,
                    ..Session::new(id, name.clone(), wid, w.index)
                });
                sid = Some(id);
                id
            }
        };
        for p in &made {
            let Some(rec) = map
                .iter()
                .find(|(_, n)| *n == p)
                .and_then(|(o, _)| recs.get(o))
            else {
                continue;
            };
            let c = creator(&rec.creator, &map);
            if let Some(pane) = tree.panes.get_mut(p) {
                pane.creator = c;
                pane.window = wid;
            }
        }
        server.relayout(&mut tree, this);
    }
    let Some(sid) = sid else {
        return Err(CommandError::internal(format!(
            "session `{}` has no window that could be restored",
            s.name
        )));
    };
    {
        let mut tree = server.mux.tree();
        if let Some(active) = window_ids.get(&s.active_window).copied()
            && let Some(session) = tree.session_mut(sid)
        {
            session.active = active;
        }
    }
    for (pane, a) in agents {
        restore_agent(exec, pane, &a, &map);
    }
    let pairs = map.iter().map(|(o, n)| (*o, n.0)).collect();
    Ok((name, pairs, window_ids))
}

/// Tracks a restored agent pane again, with its tags, result and state `restored`.
fn restore_agent(
    exec: &Exec<'_>,
    pane: PaneId,
    a: &crate::journal::model::AgentRec,
    _map: &HashMap<u32, PaneId>,
) {
    let server = exec.server;
    let config = server.config();
    let heuristics = a
        .preset
        .as_ref()
        .and_then(|p| config.agents.0.get(p))
        .and_then(|p| crate::agents::Heuristics::from_preset(p).ok())
        .unwrap_or_else(crate::agents::Heuristics::plain);
    let spec = crate::agents::TrackSpec {
        preset: a.preset.clone(),
        tags: a.tags.clone(),
        heuristics,
        agent: true,
        ready: false,
    };
    match server.agents.track(&server.mux, pane, spec) {
        Ok(t) => t.restored(a.result.clone()),
        Err(e) => {
            tracing::warn!("restore: agent pane {pane} not tracked: {}", e.message);
            return;
        }
    }
    // Messages that were waiting are queued again, oldest first, as the server's own.
    if a.messages.is_empty() {
        return;
    }
    let commands: Vec<fugue_protocol::Command> = a
        .messages
        .iter()
        .map(|text| {
            fugue_protocol::Command::SendMessage(fugue_protocol::SendMessage {
                to: fugue_protocol::MessageTo::Pane(fugue_protocol::Target::Pane(pane)),
                text: text.clone(),
                delivery: fugue_protocol::Delivery::Async,
                quiescence_ms: None,
                timeout_ms: None,
                // Messages an agent had waiting go back to that agent's pane.
                plain: false,
            })
        })
        .collect();
    let server = std::sync::Arc::clone(server);
    tokio::spawn(async move {
        for command in commands {
            if let Err(e) = super::dispatch(&server, &crate::origin::Origin::Server, command).await
            {
                tracing::warn!(
                    "restore: a message for {pane} not queued again: {}",
                    e.message
                );
            }
        }
    });
}

/// Paste buffers and runtime settings waiting in the journal, put back once.
fn restore_buffers_and_runtime(exec: &mut Exec<'_>) {
    let server = exec.server;
    let (buffers, runtime) = {
        let mut r = server.persist.restorable.lock();
        let buffers: Vec<_> = r.buffers().cloned().collect();
        let runtime = r.runtime().cloned();
        r.items
            .retain(|k, _| !matches!(k, Key::Buffer(_) | Key::Runtime));
        (buffers, runtime)
    };
    {
        let mut b = server.buffers.lock();
        for rec in buffers {
            b.restore(crate::buffers::Buffer {
                name: rec.name,
                data: rec.data,
                created: rec.created,
                automatic: rec.automatic,
                owner: rec.owner,
            });
        }
    }
    for v in runtime.map(|r| r.commands).unwrap_or_default() {
        let Ok(command) = serde_json::from_value::<fugue_protocol::Command>(v) else {
            continue;
        };
        use fugue_protocol::Command as C;
        // Through the commands' own handlers, so it is checked and applied as before,
        // and kept for the next restore.
        let kept = command.clone();
        let r = match command {
            C::SetOption(c) => super::options::set_option(exec, c),
            C::BindKey(b) => super::key_bindings::bind_key(exec, b),
            C::UnbindKey(cmd::UnbindKey {
                table,
                key,
                all,
                quiet,
            }) => super::key_bindings::unbind_key(exec, &table, key, all, quiet),
            _ => continue,
        };
        match r {
            Ok(_) => server.persist.runtime_command(&kept),
            Err(e) => tracing::warn!("restore: a runtime setting did not apply: {}", e.message),
        }
    }
}

/// Why a starting server restores or keeps what its journal holds.
pub fn decide(
    when: crate::config::RestoreWhen,
    previous_boot: Option<&str>,
    boot: Option<&str>,
) -> (bool, &'static str) {
    use crate::config::RestoreWhen::*;
    match when {
        Always => (true, "restore = \"always\""),
        Never => (false, "restore = \"never\""),
        Ask => (false, "restore = \"ask\""),
        Auto => match (previous_boot, boot) {
            (Some(a), Some(b)) if a != b => (
                false,
                "the machine rebooted since (restore = \"auto\" asks after a reboot)",
            ),
            _ => (true, "the previous server was killed or crashed"),
        },
    }
}

/// At start: restores the journal's sessions, or leaves them restorable, as
/// `[server] restore` says.
pub async fn at_start(server: &std::sync::Arc<crate::server::Server>) {
    let names: Vec<String> = server
        .persist
        .restorable
        .lock()
        .sessions()
        .map(|s| s.name.clone())
        .collect();
    if names.is_empty() {
        return;
    }
    let previous = server.persist.previous.lock().clone();
    let boot = crate::persist::boot_id();
    let (go, why) = decide(
        server.config().server.restore,
        previous.as_ref().and_then(|m| m.boot_id.as_deref()),
        boot.as_deref(),
    );
    if !go {
        let asks = why.contains("ask");
        server
            .persist
            .ask
            .store(asks, std::sync::atomic::Ordering::Relaxed);
        tracing::info!(
            "journal: {} sessions can be restored ({}); not restoring: {why}; `fugue restore` brings them back",
            names.len(),
            names.join(", ")
        );
        return;
    }
    tracing::info!("journal: restoring {} ({why})", names.join(", "));
    let command = fugue_protocol::Command::Restore(cmd::Restore {
        name: None,
        list: false,
    });
    match super::dispatch(server, &crate::origin::Origin::Server, command).await {
        Ok(_) => {}
        Err(e) => tracing::warn!("journal: restore failed: {}", e.display_with_suggestion()),
    }
}

super::handler!(cmd::Restore, |exec, cmd::Restore { name, list }| restore(
    exec, name, list
));
super::handler!(
    cmd::DiscardRestorable,
    |exec, cmd::DiscardRestorable { name }| discard(exec, name)
);

#[cfg(test)]
mod tests {
    use super::decide;
    use crate::config::RestoreWhen;

    #[test]
    fn auto_restores_after_a_kill_and_asks_after_a_reboot() {
        let (go, _) = decide(RestoreWhen::Auto, Some("boot-a"), Some("boot-a"));
        assert!(go, "same boot: the server was killed or crashed");
        let (go, why) = decide(RestoreWhen::Auto, Some("boot-a"), Some("boot-b"));
        assert!(!go && why.contains("rebooted") && why.contains("ask"));
        assert!(
            decide(RestoreWhen::Auto, None, Some("b")).0,
            "no boot id known"
        );
        assert!(decide(RestoreWhen::Always, Some("a"), Some("b")).0);
        let (go, why) = decide(RestoreWhen::Never, Some("a"), Some("a"));
        assert!(!go && !why.contains("ask"));
        assert!(!decide(RestoreWhen::Ask, Some("a"), Some("a")).0);
    }
}
