//! Starting a program in a new pane.

use crate::config::SidebandMode;
use crate::origin::{Agent, Origin};
use crate::pane::PaneShared;
use crate::pane::program::Program;
use crate::pane::pty::{PaneEvents, Pty, SpawnSpec};
use crate::pane::state::PaneState;
use crate::pane::switch::SidebandSwitch;
use crate::pane::tags::{KEY_ENV, SidebandKey};
use crate::server::{Server, ServerEvent};
use crate::session::tree::{Creator, Pane, Tree};
use fugue_protocol::{CommandError, ErrorCode, PaneId, Spawn, WindowId};
use std::path::PathBuf;
use std::sync::Arc;

/// argv for a spawn request: the default program, a shell command line, or argv.
pub fn resolve_argv(server: &Server, spawn: &Spawn) -> Result<Vec<String>, CommandError> {
    match spawn.command.as_slice() {
        [] => Ok(server.config().default_argv()),
        [line] if line.trim().is_empty() => {
            Err(CommandError::invalid_argument("command", "it is empty"))
        }
        // One string with spaces is a shell command line, as in tmux.
        [line] if line.contains(char::is_whitespace) => {
            let shell = server
                .config()
                .default_argv()
                .into_iter()
                .next()
                .unwrap_or_else(|| "/bin/sh".into());
            Ok(vec![shell, "-c".into(), line.clone()])
        }
        argv => Ok(argv.to_vec()),
    }
}

/// The directory a new program starts in for `-c cwd`. A directory that does not
/// exist is tmux's case: the program starts in the home directory (else `/`), and
/// the server's log and message log (`show-messages`) say so. tmux's clients
/// (libtmux) pass paths they have not made yet and expect the pane to start.
fn start_dir(server: &Server, cwd: &str) -> Result<PathBuf, CommandError> {
    let path = PathBuf::from(cwd);
    if !path.is_absolute() {
        return Err(CommandError::invalid_argument(
            "cwd",
            format!("`{cwd}` is not an absolute path"),
        ));
    }
    if path.is_dir() {
        return Ok(path);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute() && h.is_dir())
        .unwrap_or_else(|| PathBuf::from("/"));
    tracing::warn!(
        "-c {cwd}: not a directory; the program starts in {}",
        home.display()
    );
    server.log_message(&format!(
        "-c {cwd}: not a directory; started in {}",
        home.display()
    ));
    Ok(home)
}

/// Who made a pane, from the origin of the command that made it.
fn creator(origin: &Origin) -> Creator {
    match origin {
        // The pane is kept for `children` only (see Creator::Person).
        Origin::Client { caller_pane, .. } => Creator::Person { pane: *caller_pane },
        // A person set the hook; the pane it ran for is not a parent.
        Origin::Hook { .. } => Creator::Person { pane: None },
        Origin::Mcp {
            connection,
            caller_pane,
            ..
        } => Creator::Mcp {
            connection: *connection,
            pane: *caller_pane,
        },
        Origin::Sideband { pane }
        | Origin::Delegated {
            pane,
            agent: Agent::Sideband,
            ..
        } => Creator::Sideband { pane: *pane },
        Origin::Delegated {
            pane,
            agent: Agent::Mcp { connection },
            ..
        } => Creator::Mcp {
            connection: *connection,
            pane: Some(*pane),
        },
        Origin::Delegated {
            pane,
            agent: Agent::Pane { .. },
            ..
        } => Creator::Agent { pane: *pane },
        Origin::Server => Creator::Server,
    }
}

/// What `spawn-agent` asks of the pane it is about to create.
pub struct AgentSetup {
    /// The preset: the pane is an agent's from its first moment, before its program
    /// can run the `fugue` CLI.
    pub preset: String,
    /// Make the pane's task pipe (see `held_task`) and hand its end back here.
    pub task_pipe: bool,
    pub pipe: Option<super::held_task::TaskPipe>,
}

/// A pane whose placeholder is in the tree and whose program is yet to start (see
/// [`crate::pane::program`]).
pub struct Launch {
    id: PaneId,
    spec: SpawnSpec,
    shared: Arc<PaneShared>,
    events: PaneEvents,
}

/// Makes a pane for a command, starting its program with the tree unlocked:
/// `plan` runs under the lock and returns what `finish` needs with a [`Launch`] (from
/// [`prepare_pane`]); the program then starts with the lock released; `finish` runs
/// under the lock again to place the pane. Whatever changed meanwhile is `finish`'s to
/// check: if it fails, or the placeholder was closed, the pane goes and its program
/// is ended.
pub fn with_new_pane<T, R>(
    exec: &mut super::Exec<'_>,
    plan: impl FnOnce(&mut super::Exec<'_>, &mut Tree) -> Result<(T, Launch), CommandError>,
    finish: impl FnOnce(&mut super::Exec<'_>, &mut Tree, T, PaneId) -> Result<R, CommandError>,
) -> Result<R, CommandError> {
    let server = Arc::clone(exec.server);
    let (planned, launch) = plan(exec, &mut server.mux.tree())?;
    // Until the pane is placed, a process the kernel finds in no pane waits before
    // it is believed (surfaces/peer.rs): it may be this pane's program.
    let _starting = server.mux.starting();
    let id = launch.id;
    // Off the tree lock, and handed off the async worker too: a spawn can take long
    // under load, and the worker's other tasks (clients' frames) move on meanwhile.
    let started = match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
        Ok(tokio::runtime::RuntimeFlavor::MultiThread) => {
            tokio::task::block_in_place(|| launch.start())
        }
        _ => launch.start(),
    };
    let mut tree = server.mux.tree();
    let pty = match started {
        Ok(pty) => pty,
        Err(e) => {
            tree.panes.remove(&id);
            drop(tree);
            server.panes_closed(&[id]);
            return Err(e);
        }
    };
    let Some(pane) = tree.panes.get_mut(&id) else {
        // Closed while its program started (kill-pane %N, kill-server).
        pty.kill();
        return Err(CommandError::new(
            ErrorCode::PaneExited,
            format!("pane {id} was closed while its program started"),
        ));
    };
    if let Some(status) = pane.pty.attach(pty) {
        // Its exit was heard before it was attached: hear it again, now it counts.
        let _ = server.events.send(ServerEvent::PaneExited {
            pane: id,
            status,
            generation: 0,
        });
    }
    let size = pane.size;
    pane.pty.resize(size.0, size.1);
    match finish(exec, &mut tree, planned, id) {
        Ok(r) => Ok(r),
        Err(e) => {
            if let Some((pane, _)) = tree.remove_pane(id) {
                pane.pty.kill();
            }
            drop(tree);
            server.panes_closed(&[id]);
            Err(e)
        }
    }
}

/// Puts a placeholder pane for `window` (of `session`, none for a session still being
/// made) with inner size `size` in the tree (in no layout: the caller places it) and
/// returns what starts its program.
pub fn prepare_pane(
    exec: &mut super::Exec<'_>,
    tree: &mut Tree,
    (session, window): (Option<fugue_protocol::SessionId>, WindowId),
    spawn: &Spawn,
    size: (u16, u16),
    default_cwd: Option<PathBuf>,
) -> Result<Launch, CommandError> {
    let server = exec.server;
    let origin = exec.origin;
    let argv = resolve_argv(server, spawn)?;
    let cwd = match &spawn.cwd {
        // tmux's `-c` is a format (`-c '#{pane_current_path}'`), expanded in the scope
        // of the window's active pane, else the caller's.
        Some(c) if c.contains('#') => {
            let pane = tree
                .window(window)
                .map(|w| w.active)
                .filter(|p| tree.panes.contains_key(p))
                .or_else(|| tree.resolve_pane(None, &exec.ctx).ok());
            Some(start_dir(
                server,
                &super::formats::expand(server, tree, pane, c, exec.origin),
            )?)
        }
        Some(c) => Some(start_dir(server, c)?),
        None => default_cwd.filter(|d| d.is_dir()),
    };
    for (k, _) in &spawn.env {
        if k.is_empty() || k.contains('=') || k.contains('\0') {
            return Err(CommandError::invalid_argument(
                "env",
                format!("`{k}` is not a valid variable name"),
            ));
        }
    }
    let config = server.config();
    let creator = creator(origin);
    // An agent's pane is a generation below the pane the agent runs in.
    let depth = creator
        .pane()
        .and_then(|p| tree.panes.get(&p))
        .map(|p| p.depth + 1)
        .unwrap_or(0);
    let id = tree.pane_id_or_new(exec.want_pane.take());
    let number = session.unwrap_or_else(|| tree.next_session_id()).0;
    let mut env = pane_env(server, id, spawn, session, number);
    // Made before the program starts, so the wrapper finds it; set after the preset's
    // environment, so that cannot point it elsewhere.
    let mut pipe = None;
    if let Some(setup) = exec.agent.as_ref().filter(|a| a.task_pipe) {
        let (end, path) =
            super::held_task::TaskPipe::create(&server.sideband_dir(id)).map_err(|e| {
                CommandError::internal(format!(
                    "cannot make the task pipe for agent `{}`: {e}",
                    setup.preset
                ))
            })?;
        env.push((
            super::held_task::PIPE_ENV.to_string(),
            path.to_string_lossy().into_owned(),
        ));
        env.push((super::held_task::END_ENV.to_string(), end.end().to_string()));
        pipe = Some(end);
    }
    let (cols, rows) = (size.0.max(1), size.1.max(1));
    let sb = &config.sideband;
    // A pane an agent's tag spawned scans only if the tag asked for it.
    let explicit = match (&creator, spawn.sideband) {
        (Creator::Sideband { .. }, None) => Some(false),
        (_, asked) => asked,
    };
    let switch = SidebandSwitch::new(
        explicit,
        sb.mode == SidebandMode::Off,
        sb.mode == SidebandMode::Auto,
        Arc::from(sb.enable_for.clone()),
    )
    .with_release_after(std::time::Duration::from_millis(sb.release_after_ms));
    // A pane that may be scanned gets a key of its own, which its tags must carry: text
    // the program only shows (a file, a web page) cannot know it.
    let key = switch.may_scan().then(SidebandKey::generate).and_then(|k| {
        k.map_err(|e| tracing::warn!("pane {id}: {e}; its sideband tags will not run"))
            .ok()
    });
    // Always set, empty without a key: a server started inside a pane must not hand
    // that pane's key on to its own panes.
    env.push((
        KEY_ENV.to_string(),
        key.as_ref()
            .map(|k| k.expose().to_string())
            .unwrap_or_default(),
    ));
    let switch = switch.with_key(key.clone());
    // tmux's history-limit of the pane's session (its own value, else the global one,
    // which the configuration holds), fixed for the pane's life as in tmux.
    let history_limit = session
        .and_then(|s| {
            let options = server.options.lock();
            let (v, _) = options.effective(crate::options::Level::Session(s), "history-limit")?;
            usize::try_from(v.number()).ok()
        })
        .unwrap_or(config.server.history_limit);
    let mut state = PaneState::new(cols, rows, history_limit);
    state.set_sideband(sb.max_tag_bytes, key);
    state.set_osc_limit(config.server.max_osc_bytes);
    state.set_title_reports(config.server.allow_title_reports);
    state.set_outer_colors(server.outer_colors.clone());
    if let Some(bytes) = exec.preload.take() {
        // Before the program's first byte: a restored pane's saved content.
        let _ = state.process(&bytes);
    }
    let shared = PaneShared::new(id, state, switch);
    // Weak: a pane's reader thread must not keep a stopped server alive.
    let hub_server = Arc::downgrade(server);
    shared.set_announce(Box::new(move |change| {
        if let Some(server) = hub_server.upgrade() {
            server.hub.publish(change);
        }
    }));
    let spec = SpawnSpec {
        argv: argv.clone(),
        cwd: cwd.clone(),
        env,
        cols,
        rows,
        max_input_bytes: config.server.max_input_bytes,
    };
    let events = pane_events(server, id, 0);
    let mut pane = Pane::new(
        id,
        Arc::clone(&shared),
        Program::starting(),
        window,
        (cols, rows),
        argv,
        cwd,
    );
    pane.title = spawn.title.clone().filter(|t| !t.is_empty());
    pane.start_command = crate::session::tree::start_command(&spawn.command);
    pane.sideband = explicit == Some(true);
    pane.remain = spawn.remain;
    pane.env = spawn
        .env
        .iter()
        .filter(|(k, _)| k != KEY_ENV)
        .cloned()
        .collect();
    pane.creator = creator;
    pane.depth = depth;
    if let Some(setup) = exec.agent.as_mut() {
        // Marked in the placeholder, before the program can run: its first `fugue`
        // call is judged as the agent's.
        pane.agent = Some(setup.preset.clone());
        setup.pipe = pipe;
    }
    tree.panes.insert(id, pane);
    Ok(Launch {
        id,
        spec,
        shared,
        events,
    })
}

/// The environment fugue gives a pane's program, then the caller's (less the sideband
/// key, which is fugue's to give).
fn pane_env(
    server: &Server,
    id: PaneId,
    spawn: &Spawn,
    session: Option<fugue_protocol::SessionId>,
    session_number: u32,
) -> Vec<(String, String)> {
    let config = server.config();
    let mut env = vec![
        ("TERM".to_string(), config.server.term.clone()),
        ("COLORTERM".to_string(), "truecolor".to_string()),
        ("FUGUE_PANE_ID".to_string(), id.to_string()),
        (
            "FUGUE_SOCKET".to_string(),
            server.socket.to_string_lossy().into_owned(),
        ),
        (
            "FUGUE_SIDEBAND_DIR".to_string(),
            server.sideband_dir(id).to_string_lossy().into_owned(),
        ),
    ];
    // tmux's environments (set-environment), then the caller's -e.
    let overrides = server.environment.lock().overrides(session);
    // With tmux-compat, TMUX, TMUX_PANE and a PATH with the `tmux` folder first, ahead
    // of the PATH the pane would have had (the caller's, else set-environment's).
    let tmux = if config.server.tmux_compat {
        let path = overrides
            .iter()
            .chain(spawn.env.iter())
            .rev()
            .find(|(k, _)| k == "PATH")
            .map(|(_, v)| v.as_str());
        server.tmux_env(id, session_number, path)
    } else {
        Vec::new()
    };
    let own_path = tmux.iter().any(|(k, _)| k == "PATH");
    let keep = |k: &String| k != KEY_ENV && !(own_path && k == "PATH");
    env.extend(overrides.into_iter().filter(|(k, _)| keep(k)));
    env.extend(spawn.env.iter().filter(|(k, _)| keep(k)).cloned());
    env.extend(tmux);
    env
}

/// What a pane's threads report, for its `generation`-th program.
fn pane_events(server: &Arc<Server>, id: PaneId, generation: u32) -> PaneEvents {
    let exit_events = server.events.clone();
    // Weak: the reader thread must not keep a stopped server alive.
    let tag_server = Arc::downgrade(server);
    let signal_server = Arc::downgrade(server);
    PaneEvents {
        on_exit: Box::new(move |status| {
            let _ = exit_events.send(ServerEvent::PaneExited {
                pane: id,
                status,
                generation,
            });
        }),
        on_tags: Box::new(move |found| {
            if let Some(server) = tag_server.upgrade() {
                server.hub.tags_found(id, found);
            }
        }),
        on_signals: Box::new(move |signals| signal_server.upgrade()?.pane_signals(id, signals)),
        tap: Arc::clone(&server.hub.tap),
    }
}

/// What starts a new program in an existing pane (`respawn-pane`): the pane keeps its
/// id, screen, history and sideband key; its `generation` must already be the new one.
/// An empty command runs the pane's last program again, as tmux does.
pub fn relaunch(
    exec: &super::Exec<'_>,
    tree: &Tree,
    id: PaneId,
    spawn: &Spawn,
) -> Result<Launch, CommandError> {
    let server = exec.server;
    let pane = tree
        .panes
        .get(&id)
        .ok_or_else(|| CommandError::unknown_target(format!("no pane {id}")))?;
    let argv = if spawn.command.is_empty() {
        pane.argv.clone()
    } else {
        resolve_argv(server, spawn)?
    };
    let cwd = match &spawn.cwd {
        Some(c) if c.contains('#') => Some(start_dir(
            server,
            &super::formats::expand(server, tree, Some(id), c, exec.origin),
        )?),
        Some(c) => Some(start_dir(server, c)?),
        None => pane.cwd.clone().filter(|d| d.is_dir()),
    };
    for (k, _) in &spawn.env {
        if k.is_empty() || k.contains('=') || k.contains('\0') {
            return Err(CommandError::invalid_argument(
                "env",
                format!("`{k}` is not a valid variable name"),
            ));
        }
    }
    let session = tree.locate(id).map(|(s, _)| s);
    let number = session.map_or(0, |s| s.0);
    let mut env = pane_env(server, id, spawn, session, number);
    env.push((
        KEY_ENV.to_string(),
        pane.shared
            .sideband
            .key()
            .map(|k| k.expose().to_string())
            .unwrap_or_default(),
    ));
    let (cols, rows) = (pane.size.0.max(1), pane.size.1.max(1));
    Ok(Launch {
        id,
        spec: SpawnSpec {
            argv,
            cwd,
            env,
            cols,
            rows,
            max_input_bytes: server.config().server.max_input_bytes,
        },
        shared: Arc::clone(&pane.shared),
        events: pane_events(server, id, pane.generation),
    })
}

impl Launch {
    /// The argv and directory the program will run with.
    pub fn program(&self) -> (&[String], Option<&PathBuf>) {
        (&self.spec.argv, self.spec.cwd.as_ref())
    }

    /// Starts the program (call with the tree unlocked).
    pub fn start(self) -> Result<Pty, CommandError> {
        // Test hook, in debug builds only: a spawn whose environment asks for it is
        // attached late, its program already running, so a test can show that nothing
        // else waits for it and that the program is judged as its own pane's.
        let delay = cfg!(debug_assertions)
            .then(|| {
                self.spec
                    .env
                    .iter()
                    .find(|(k, _)| k == "FUGUE_TEST_SPAWN_DELAY_MS")
                    .and_then(|(_, v)| v.parse::<u64>().ok())
            })
            .flatten();
        let pty = Pty::spawn(self.spec, self.shared, self.events)
            .map_err(|e| CommandError::invalid_argument("command", e))?;
        if let Some(ms) = delay {
            std::thread::sleep(std::time::Duration::from_millis(ms.min(10_000)));
        }
        Ok(pty)
    }
}
