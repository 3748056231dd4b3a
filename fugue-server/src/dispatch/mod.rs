//! The one dispatcher.
//!
//! Every surface turns what it received into a [`Command`] with an [`Origin`] and calls
//! [`dispatch`]. Here, and only here, commands are checked against policy, executed
//! against the session tree, and recorded in the audit log. Surfaces never touch panes
//! or the tree themselves, so every capability behaves the same whichever way it is
//! reached.

mod admin;
mod advice;
mod agent_spawn;
mod agent_task;
mod auto_rename;
pub mod borders;
mod buffers;
mod client_keys;
mod clients;
mod copy_commands;
mod environment;
pub mod events;
pub mod formats;
mod held_modes;
mod held_task;
mod hooks;
pub mod io;
mod key_bindings;
mod layouts;
mod manage;
mod messages;
mod moment;
mod new_window;
mod observe;
mod options;
pub mod own;
mod pane_flags;
mod panes;
mod pipe_pane;
pub mod policy;
mod popups;
mod respawn;
pub mod restore;
mod restore_links;
mod restore_plan;
pub mod scope;
mod session_group;
mod sessions;
mod sideband_tags;
pub mod spawn;
mod sync;
mod teammates;
mod wait;
mod window_size;
mod windows;
pub mod worktree;

use crate::audit::{self, AuditRecord};
use crate::origin::Origin;
use crate::server::Server;
use crate::session::resolve::Context;
use fugue_protocol::cmd;
use fugue_protocol::{Command, CommandError, InputPart, Response, Target};
use std::sync::Arc;
use std::time::Instant;

/// What a command handler works with.
pub struct Exec<'a> {
    pub server: &'a Arc<Server>,
    pub origin: &'a Origin,
    pub ctx: Context,
    /// The target as resolved, for the audit log.
    pub resolved: Option<String>,
    /// The panes this origin may see and control.
    pub scope: scope::Scope,
    /// Set by `spawn-agent` for the pane it creates.
    pub agent: Option<spawn::AgentSetup>,
    /// Fields a handler adds to the audit record (a buffer's name and size: never
    /// what a caller typed or copied).
    pub detail: Option<serde_json::Value>,
    /// The id the next pane made should keep if it is free (a restore).
    pub want_pane: Option<fugue_protocol::PaneId>,
    /// Bytes the next pane made shows before its program starts (a restored pane's
    /// saved content).
    pub preload: Option<Vec<u8>>,
}

/// Runs a command for `origin` and records it.
pub async fn dispatch(
    server: &Arc<Server>,
    origin: &Origin,
    command: Command,
) -> Result<Response, CommandError> {
    dispatch_via(server, origin, command, None).await
}

/// [`dispatch`], naming the MCP tool or sideband tag the command came from.
///
/// A command that changes anything runs to completion on a task of its own even if
/// the caller goes away (an MCP client cancels, a CLI is interrupted): dropped halfway,
/// a `spawn-agent` would leave a pane `starting` with its task never typed, or typed
/// without its Enter, and no audit record. Reads may be dropped; their audit record
/// then says `cancelled`.
pub async fn dispatch_via(
    server: &Arc<Server>,
    origin: &Origin,
    command: Command,
    via: Option<&'static str>,
) -> Result<Response, CommandError> {
    if command.tier() == fugue_protocol::Tier::Read {
        return run(server, origin, command, via).await;
    }
    let (server, origin) = (Arc::clone(server), origin.clone());
    tokio::spawn(async move { run(&server, &origin, command, via).await })
        .await
        .unwrap_or_else(|e| Err(CommandError::internal(format!("the command failed: {e}"))))
}

/// Writes a `cancelled` audit record for a command dropped before it finished.
struct Unfinished<'a> {
    server: &'a Server,
    origin: String,
    command: &'static str,
    target: Option<String>,
    started: Instant,
    via: Option<&'static str>,
    finished: bool,
}

impl Drop for Unfinished<'_> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        self.server.audit.record(&AuditRecord {
            time: audit::now(),
            origin: std::mem::take(&mut self.origin),
            command: self.command,
            target: self.target.take(),
            result: "cancelled",
            duration_us: audit::micros(self.started.elapsed()),
            via: self.via,
            detail: None,
        });
    }
}

async fn run(
    server: &Arc<Server>,
    origin: &Origin,
    command: Command,
    via: Option<&'static str>,
) -> Result<Response, CommandError> {
    let started = Instant::now();
    let name = command.name();
    // The audit log quotes a caller's target as an excerpt: a bogus megabyte-long
    // target must not put a megabyte into the log.
    let given_target = command
        .target()
        .map(|t| fugue_protocol::excerpt::excerpt(&t.to_string()).into_owned());
    // Named in the report of a panic that happens while it runs.
    let _in_flight = crate::crash::InFlight::new(origin, name);
    let config = server.config();
    // What is decided before the command runs (whom the caller acts as, what it may
    // see, the marked pane, the policy) looks at the tree only where it must: an
    // agent, a limited scope, a marked pane. A person's typed key takes no lock here
    // and one in `send-keys` (tests/it/tree_locks.rs).
    let (delegated, scope, ctx, command, allowed) = {
        let mut tree = crate::mux::TreeOnDemand::new(&server.mux);
        let delegated = policy::effective(&mut tree, origin);
        let acting = delegated.as_ref().unwrap_or(origin);
        let scope = if scope::Scope::limited(&config, acting) {
            scope::Scope::of(&config, tree.get(), acting)
        } else {
            scope::Scope::all()
        };
        let ctx = server.context(acting);
        // Filled in before the checks, so they see the pane that moves.
        let command = marked_source(&mut tree, command);
        let allowed = policy::check(&config, &mut tree, &ctx, acting, &scope, &command);
        (delegated, scope, ctx, command, allowed)
    };
    let origin = delegated.as_ref().unwrap_or(origin);
    let mut detail = detail(&command, origin.is_agent());
    let mut exec = Exec {
        server,
        origin,
        ctx,
        resolved: None,
        scope,
        agent: None,
        detail: None,
        want_pane: None,
        preload: None,
    };
    let mut unfinished = Unfinished {
        server,
        origin: origin.to_string(),
        command: name,
        target: given_target.clone(),
        started,
        via,
        finished: false,
    };
    let (shape, done) = match allowed {
        Ok(()) => (
            events::before(server, &command),
            events::done(server, &command),
        ),
        Err(_) => (None, None),
    };
    let facts = command.spec().facts;
    let rescan = facts.alerts;
    let changes = facts.journaled;
    let runtime = facts.runtime.then(|| command.clone());
    // `window-size latest` follows the client that attached, typed or resized last.
    if let Some(id) = origin.client_id()
        && facts.client_activity
        && let Some(session) = server.mux.attached.touch(id)
    {
        let mut tree = server.mux.tree();
        server.resize_session_to_clients(&mut tree, session);
        drop(tree);
        server.mux.changed();
    }
    // Logged as it starts, as tmux logs a command before running it: what it shows
    // comes after it in the log.
    if let Some(line) = admin::log_line(&exec, &command, given_target.as_deref()) {
        server.log_message(&line);
    }
    // A teammate is started by a command line (`tmux send-keys 'claude --agent-id
    // ...' Enter`), never by a person's keystrokes: the probe skips the key path.
    let teammate = (origin.surface() != crate::origin::Surface::Keys)
        .then(|| teammates::probe(&command))
        .flatten();
    let result = match allowed {
        Ok(()) => execute(&mut exec, command).await,
        Err(e) => Err(e),
    };
    if let (Some(probe), Ok(response)) = (teammate, &result) {
        teammates::adopt(&mut exec, probe, response);
    }
    if let (Some(c), Ok(_)) = (runtime, &result) {
        server.persist.runtime_command(&c);
    }
    // The journal's observation point for commands: whatever the surface.
    if changes {
        server.persist.changed();
    }
    unfinished.finished = true;
    // Errors quote caller values; a megabyte-long target must not come back (or reach
    // the log) whole.
    let mut result = result.map_err(CommandError::bounded);
    // What exists, as an unknown target's suggestion lists it, is only what the caller
    // may see.
    if let Err(e) = &mut result
        && e.code == fugue_protocol::ErrorCode::UnknownTarget
        && let Some(mine) = exec.scope.describe()
    {
        e.suggestion = Some(mine);
    }
    if let Err(e) = &mut result {
        advice::for_surface(origin, e);
    }
    if let Err(e) = &result {
        tracing::debug!("{origin}: {name} failed: {}", e.display_with_suggestion());
    }
    if let Some(extra) = exec.detail.take() {
        detail = Some(match (detail, extra) {
            (Some(serde_json::Value::Object(mut a)), serde_json::Value::Object(b)) => {
                a.extend(b);
                serde_json::Value::Object(a)
            }
            (_, extra) => extra,
        });
    }
    server.audit.record(&AuditRecord {
        time: audit::now(),
        origin: origin.to_string(),
        command: name,
        target: exec.resolved.take().or(given_target),
        result: match &result {
            Ok(_) => "ok",
            Err(e) => e.code.as_str(),
        },
        duration_us: audit::micros(started.elapsed()),
        via,
        detail,
    });
    if rescan && result.is_ok() {
        server.alerts_changed();
    }
    if let Ok(response) = &result
        && (shape.is_some() || done.is_some())
    {
        events::publish(server, origin, &exec.ctx, shape, done, response);
    }
    result
}

/// tmux's default source of `join-pane` / `move-pane`, `swap-pane` and
/// `swap-window` with no `-s`: the marked pane (`select-pane -m`) while there is one,
/// else the current pane.
fn marked_source(tree: &mut crate::mux::TreeOnDemand<'_>, mut command: Command) -> Command {
    if !matches!(
        command,
        Command::JoinPane(_) | Command::SwapWindow(_) | Command::SwapPane(_)
    ) {
        return command;
    }
    let Some(marked) = tree.get().marked() else {
        return command;
    };
    let marked = fugue_protocol::Target::Pane(marked);
    match &mut command {
        Command::JoinPane(c) if c.source.is_none() => c.source = Some(marked),
        Command::SwapWindow(c) if c.source.is_none() => c.source = Some(marked),
        Command::SwapPane(c) if c.source == fugue_protocol::SwapSource::Current => {
            c.source = fugue_protocol::SwapSource::Pane(marked)
        }
        _ => {}
    }
    command
}

/// Extra audit fields. Typed text appears only as its size, and for agents also as a
/// hash, so a person can match a logged call against what an agent says it sent
/// without the log ever holding the text. Short input gets no hash: a few bytes (a
/// PIN, a short password) could be recovered from it by trying them all.
const HASHED_INPUT_MIN: usize = 16;

fn detail(command: &Command, agent: bool) -> Option<serde_json::Value> {
    let (parts, bytes) = input_size(command)?;
    let mut v = serde_json::json!({ "input_parts": parts, "input_bytes": bytes });
    // Hashed only where the hash is kept: a person's keystrokes cost no digest.
    if agent && bytes >= HASHED_INPUT_MIN {
        v["input_sha256"] = serde_json::Value::String(input_digest(command));
    }
    Some(v)
}

/// How many parts and bytes of input a command carries, for the commands that type.
fn input_size(command: &Command) -> Option<(usize, usize)> {
    let task = |t: &Option<String>| {
        let len = t.as_deref().map_or(0, str::len);
        (usize::from(len > 0), len)
    };
    Some(match command {
        Command::SendInput(s) => {
            let bytes = s
                .parts
                .iter()
                .map(|p| match p {
                    InputPart::Text(t) | InputPart::Paste(t) => t.len(),
                    InputPart::Key(_) | InputPart::Mouse(_) => 1,
                    InputPart::Reset => 0,
                })
                .fold(0usize, usize::saturating_add);
            (s.parts.len(), bytes)
        }
        Command::RunCommand(r) => (1, r.command.len()),
        Command::SendMessage(m) => (1, m.text.len()),
        Command::SplitPane(c) => task(&c.task),
        Command::SpawnAgent(a) => task(&a.task),
        _ => return None,
    })
}

/// The first 8 bytes of the SHA-256 of a command's input, in hex.
fn input_digest(command: &Command) -> String {
    use sha2::Digest;
    let mut hash = sha2::Sha256::new();
    match command {
        Command::SendInput(s) => {
            for p in &s.parts {
                match p {
                    InputPart::Text(t) | InputPart::Paste(t) => hash.update(t.as_bytes()),
                    InputPart::Key(k) => hash.update(k.to_string().as_bytes()),
                    InputPart::Mouse(m) => hash.update(format!("{m:?}").as_bytes()),
                    InputPart::Reset => hash.update(b"reset"),
                }
            }
        }
        Command::RunCommand(r) => hash.update(r.command.as_bytes()),
        Command::SendMessage(m) => hash.update(m.text.as_bytes()),
        Command::SplitPane(c) => hash.update(c.task.as_deref().unwrap_or("").as_bytes()),
        Command::SpawnAgent(a) => hash.update(a.task.as_deref().unwrap_or("").as_bytes()),
        _ => {}
    }
    hash.finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Runs a command through its handler: the `handler!` beside each one.
async fn execute(exec: &mut Exec<'_>, command: Command) -> Result<Response, CommandError> {
    command.handle(exec).await
}

/// What a command's handler returns: its answer, computed when awaited.
pub(crate) type Running<'a> = std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<Response, CommandError>> + Send + 'a>,
>;

/// A command's handler: implements [`fugue_protocol::Handle`] for the command's
/// argument type (declared by its entry in the protocol's command table), so
/// [`Command::handle`] reaches it with no match kept by hand. The body may await.
macro_rules! handler {
    ($args:ty, |$exec:ident, $c:pat_param| $body:expr) => {
        impl<'a, 'b> fugue_protocol::Handle<&'a mut crate::dispatch::Exec<'b>> for $args {
            type Output = crate::dispatch::Running<'a>;
            #[allow(unused_mut)]
            fn handle(self, $exec: &'a mut crate::dispatch::Exec<'b>) -> Self::Output {
                let $c = self;
                Box::pin(async move { $body })
            }
        }
    };
}
pub(crate) use handler;

handler!(fugue_protocol::SplitPane, |exec, mut c| {
    // The task is checked before the pane exists and typed once it runs.
    let task = c.task.take();
    if let Some(t) = &task {
        // With the Enter that follows it, as send-keys counts.
        io::check_input_size(t.len().saturating_add(8))?;
    }
    let mut created = if no_session_to_split(exec, &c) {
        // An MCP caller with no session at all gets one, as run_command does:
        // "split what?" has no answer an agent could act on.
        sessions::new_session(
            exec,
            fugue_protocol::NewSession {
                spawn: c.spawn,
                ..Default::default()
            },
        )?
    } else {
        panes::split(exec, c)?
    };
    if let (Some(task), Response::Created(cr)) = (task, &mut created) {
        match io::type_task(exec, cr.pane, task).await {
            // A wait for the answer starts where the task was typed.
            Ok(cursor) => cr.cursor = Some(cursor),
            Err(e) => {
                // One command: a split whose task could not be typed leaves no pane
                // behind for a caller to find after an error (and duplicate on retry).
                let resolved = exec.resolved.take();
                let _ = panes::kill_pane(exec, Some(&Target::Pane(cr.pane)));
                exec.resolved = resolved;
                return Err(e);
            }
        }
    }
    Ok(created)
});
handler!(
    cmd::WaitChannel,
    |exec, cmd::WaitChannel { channel, op }| wait_channel(exec, &channel, op).await
);

/// Whether a split for an MCP caller names no pane and there is no session to split
/// in (none exists, or none this caller may see).
fn no_session_to_split(exec: &Exec<'_>, c: &fugue_protocol::SplitPane) -> bool {
    if c.target.is_some() || exec.origin.surface() != crate::origin::Surface::Mcp {
        return false;
    }
    let tree = exec.server.mux.tree();
    match tree.current_session(&exec.ctx) {
        Ok(sid) => {
            exec.ctx.caller_pane.is_none()
                && !scope::session_panes(&tree, sid)
                    .iter()
                    .any(|p| exec.scope.allows(*p))
        }
        Err(_) => true,
    }
}

/// Names may not contain the characters targets use as separators.
/// A window's name: any text but control characters, as tmux 3.3 takes it (dots,
/// colons, `%`, `@` and `$` included: a target names a window by index, or by a name
/// that does not look like an id).
pub fn validate_name(argument: &str, name: &str) -> Result<(), CommandError> {
    if name.trim().is_empty() {
        return Err(CommandError::invalid_argument(argument, "it is empty"));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        return Err(CommandError::invalid_argument(
            argument,
            format!(
                "`{}` contains `{}`; names may not contain control characters",
                name.escape_default(),
                c.escape_default()
            ),
        ));
    }
    if name.len() > 128 {
        return Err(CommandError::invalid_argument(
            argument,
            // Quoted whole: the dispatcher cuts quoted values to an excerpt with
            // their size (CommandError::bounded).
            format!("`{name}` is longer than 128 bytes"),
        ));
    }
    Ok(())
}

/// A session's name as tmux 3.3 makes it: `:` and `.` separate a target's parts, so
/// they become `_` (`new -s a.b` makes session `a_b`); otherwise as a renamed
/// window's name ([`escaped_name`]).
pub fn session_name(argument: &str, name: &str) -> Result<String, CommandError> {
    escaped_name(argument, &name.replace([':', '.'], "_"))
}

/// A name as tmux stores a session's and a renamed window's (its `utf8_stravis`): a
/// backslash doubled (`hello \\ x`), which tools that read names back expect. tmux
/// escapes control characters too; fugue refuses them ([`validate_name`]).
pub fn escaped_name(argument: &str, name: &str) -> Result<String, CommandError> {
    validate_name(argument, name)?;
    Ok(name.replace('\\', "\\\\"))
}

/// tmux's `wait-for` channels (see `crate::channels`). A plain wait and a lock waiting
/// its turn end when the caller goes away (the command is a read: dropping it drops
/// the wait).
async fn wait_channel(
    exec: &mut Exec<'_>,
    channel: &str,
    op: fugue_protocol::ChannelOp,
) -> Result<Response, CommandError> {
    use crate::channels::Outcome;
    use fugue_protocol::ChannelOp;
    exec.resolved = Some(fugue_protocol::excerpt::excerpt(channel).into_owned());
    let channels = &exec.server.channels;
    let bad = |e: String| CommandError::invalid_argument("channel", e);
    let outcome = match op {
        ChannelOp::Wait => channels.wait(channel).map_err(bad)?,
        ChannelOp::Lock => channels.lock(channel).map_err(bad)?,
        ChannelOp::Signal => {
            channels.signal(channel).map_err(bad)?;
            Outcome::Done
        }
        ChannelOp::Unlock => {
            channels.unlock(channel).map_err(bad)?;
            Outcome::Done
        }
    };
    if let Outcome::Wait(rx) = outcome {
        let _ = rx.await;
    }
    Ok(Response::Done)
}
