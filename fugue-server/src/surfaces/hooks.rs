//! The hooks surface: runs the commands a hook holds when the hub publishes its event.
//!
//! Each command line becomes a Command through the same verb table as the CLI's
//! (`fugue_verbs`) and goes through the dispatcher with [`Origin::Hook`]: checked,
//! executed and audited as `hook NAME`, with the event's object as its default target.
//! `run-shell` and `if-shell`, which a terminal client runs itself, run here on the
//! server's blocking threads.
//!
//! Bounds (`hooks/mod.rs`, docs/hooks.md): a hook that sets off hooks stops at
//! [`MAX_DEPTH`]; at most [`MAX_RUNS_PER_SECOND`] hooks start per second (past it they
//! are skipped with a log line); a shell command is ended after [`SHELL_TIMEOUT`] and
//! keeps at most [`MAX_SHELL_OUTPUT`] bytes of output for the log.

use crate::hooks::names;
use crate::hub::{Event, PaneSubscriber};
use crate::origin::Origin;
use crate::pane::tags::Scanned;
use crate::server::Server;
use fugue_protocol::PaneId;
use fugue_protocol::tmux_cmd::{self, Argv, NoEnv};
use fugue_verbs::Caller;
use parking_lot::Mutex;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use crate::hooks::{MAX_DEPTH, MAX_RUNS_PER_SECOND, MAX_SHELL_OUTPUT, SHELL_TIMEOUT};
/// `if-shell` branches nested in a hook, at most.
const MAX_NESTING: u8 = 8;

pub struct Hooks {
    server: Weak<Server>,
    runtime: tokio::runtime::Handle,
    /// The second the count is for, and hooks started in it.
    budget: Mutex<(Instant, u32)>,
}

impl Hooks {
    pub fn subscribe(server: &Arc<Server>, runtime: tokio::runtime::Handle) {
        runtime.spawn(agent_changes(
            Arc::downgrade(server),
            server.agents.changes(),
        ));
        server.hub.subscribe(Arc::new(Hooks {
            server: Arc::downgrade(server),
            runtime,
            budget: Mutex::new((Instant::now(), 0)),
        }));
    }

    fn take_budget(&self) -> bool {
        let mut b = self.budget.lock();
        if b.0.elapsed() >= Duration::from_secs(1) {
            *b = (Instant::now(), 0);
        }
        b.1 = b.1.saturating_add(1);
        b.1 <= MAX_RUNS_PER_SECOND
    }
}

impl PaneSubscriber for Hooks {
    fn tags_found(&self, _pane: PaneId, _found: Scanned) {}
    fn panes_closed(&self, _panes: &[PaneId]) {}

    fn event(&self, event: &Event) {
        let Some(server) = self.server.upgrade() else {
            return;
        };
        let Some(def) = names::find(event.hook) else {
            tracing::warn!("no hook is called {}", event.hook);
            return;
        };
        let commands = server
            .hooks
            .lock()
            .commands(def.name, def.scope, event.object);
        if commands.is_empty() {
            return;
        }
        if event.depth >= MAX_DEPTH {
            tracing::warn!(
                "hook {} not run: hooks set each other off {MAX_DEPTH} deep (a hook whose commands fire itself?)",
                event.hook
            );
            return;
        }
        if !self.take_budget() {
            tracing::warn!(
                "hook {} not run: more than {MAX_RUNS_PER_SECOND} hooks started this second",
                event.hook
            );
            return;
        }
        let event = event.clone();
        self.runtime.spawn(async move {
            let origin = Origin::Hook {
                hook: event.hook,
                object: event.object,
                session_name: event.session_name.clone(),
                depth: event.depth,
            };
            for sequence in commands {
                for argv in sequence {
                    run(&server, &origin, argv, 0).await;
                }
            }
        });
    }
}

/// Agents' state changes as `agent-state-changed` events.
async fn agent_changes(
    server: Weak<Server>,
    mut rx: tokio::sync::broadcast::Receiver<(PaneId, fugue_protocol::AgentState)>,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let pane = match rx.recv().await {
            Ok((pane, _)) => pane,
            Err(RecvError::Lagged(n)) => {
                tracing::warn!(
                    "agent-state-changed: {n} changes came faster than hooks ran; skipped"
                );
                continue;
            }
            Err(RecvError::Closed) => return,
        };
        let Some(server) = server.upgrade() else {
            return;
        };
        let object = crate::dispatch::events::object_of_pane(&server, pane);
        server.hub.event(Event::new("agent-state-changed", object));
    }
}

async fn run(server: &Arc<Server>, origin: &Origin, argv: Argv, nesting: u8) {
    let hook = match origin {
        Origin::Hook { hook, .. } => *hook,
        _ => "?",
    };
    match argv.first().map(String::as_str) {
        Some("run-shell") => {
            let (cmd, cwd) = match fugue_verbs::shell_args::run_shell_args(&argv[1..]) {
                Ok((c, cwd)) => (expand(server, origin, &c), cwd),
                Err(e) => return tracing::warn!("hook {hook}: {e}"),
            };
            match shell(cmd.clone(), cwd.as_deref()).await {
                Ok((ok, out)) => tracing::info!(
                    "hook {hook}: run-shell `{cmd}` {} {out:?}",
                    if ok { "succeeded" } else { "failed" }
                ),
                Err(e) => tracing::warn!("hook {hook}: run-shell `{cmd}`: {e}"),
            }
        }
        Some("if-shell") => {
            let (format, cond, then, otherwise) =
                match fugue_verbs::shell_args::if_shell_args(&argv[1..]) {
                    Ok(parts) => parts,
                    Err(e) => return tracing::warn!("hook {hook}: {e}"),
                };
            let truth = if format {
                fugue_protocol::format::is_true(&expand(server, origin, &cond))
            } else {
                match shell(expand(server, origin, &cond), None).await {
                    Ok((ok, _)) => ok,
                    Err(e) => return tracing::warn!("hook {hook}: if-shell `{cond}`: {e}"),
                }
            };
            let Some(branch) = (if truth { Some(then) } else { otherwise }) else {
                return;
            };
            if nesting >= MAX_NESTING {
                return tracing::warn!("hook {hook}: if-shell nested over {MAX_NESTING} deep");
            }
            match tmux_cmd::parse(&branch, &NoEnv) {
                Ok(cmds) => {
                    for argv in cmds {
                        Box::pin(run(server, origin, argv, nesting + 1)).await;
                    }
                }
                Err(e) => tracing::warn!("hook {hook}: if-shell branch: {e}"),
            }
        }
        Some(_) => {
            let command = match fugue_verbs::line::command_for_argv(&argv, &Caller::server()) {
                Ok(c) => c,
                Err(e) => return tracing::warn!("hook {hook}: {e}"),
            };
            if let Err(e) = crate::dispatch::dispatch(server, origin, command).await {
                tracing::warn!("hook {hook}: {}", e.display_with_suggestion());
            }
        }
        None => {}
    }
}

/// A shell command or condition expanded as tmux does, in the hook's object's scope.
fn expand(server: &Server, origin: &Origin, text: &str) -> String {
    crate::dispatch::formats::expand_on(server, origin.caller_pane(), text, origin)
}

/// Runs `sh -c cmd` with no input, bounded in time and kept output: whether it
/// succeeded, and the start of its output.
/// Runs `sh -c cmd` (in `cwd`, `run-shell -c`, when given): whether it succeeded, and
/// its output.
async fn shell(cmd: String, cwd: Option<&str>) -> Result<(bool, String), String> {
    let mut sh = tokio::process::Command::new("/bin/sh");
    if let Some(d) = cwd.map(fugue_verbs::shell_args::start_directory) {
        sh.current_dir(&d).env("PWD", &d);
    }
    let child = sh
        .arg("-c")
        .arg(&cmd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start /bin/sh: {e}"))?;
    match tokio::time::timeout(SHELL_TIMEOUT, child.wait_with_output()).await {
        Ok(Ok(out)) => {
            let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
            text.push_str(&String::from_utf8_lossy(&out.stderr));
            if text.len() > MAX_SHELL_OUTPUT {
                let mut end = MAX_SHELL_OUTPUT;
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.truncate(end);
            }
            Ok((out.status.success(), text.trim_end().to_string()))
        }
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("ended after {}s", SHELL_TIMEOUT.as_secs())),
    }
}
