//! `set-option` and `show-options`: tmux's arguments and output, against the option
//! store (`options/`). A global change is written into the server's configuration at
//! once (new panes' history, the buffer limit, remain-on-exit...) and attached clients
//! are sent the options they act on themselves (mouse, status, mode-keys, prefix...).

use super::Exec;
use crate::options::{self, Effect, Level, Lookup, OptionDef, SetMode, apply, table};
use crate::session::Tree;
use crate::session::resolve::Context;
use fugue_protocol::{
    CommandError, ErrorCode, OptionScope, Response, SetOption, ShowOptions, Target,
};
use std::collections::HashSet;

fn invalid(message: String) -> CommandError {
    CommandError::new(ErrorCode::InvalidArgument, message)
}

/// The option a caller named: declared (exactly or by a unique prefix, as tmux) or a
/// user option (`@name`, none). An unknown or ambiguous name is an error that lists
/// what it could have been.
fn option(name: &str) -> Result<Option<&'static OptionDef>, CommandError> {
    if name.starts_with('@') {
        if name.len() < 2 || name.len() > 256 || name.chars().any(|c| c.is_control() || c == ' ') {
            return Err(invalid(format!("invalid option: {name}")));
        }
        return Ok(None);
    }
    if name.contains('[') {
        return Err(invalid(format!("invalid option: {name}")).with_suggestion(
            "an array's element is NAME[INDEX] (status-format[1]) for set-option",
        ));
    }
    match table::lookup(name) {
        Lookup::Found(o) => Ok(Some(o)),
        Lookup::Ambiguous(names) => Err(invalid(format!("ambiguous option: {name}"))
            .with_suggestion(format!("it could be: {}", names.join(", ")))),
        Lookup::Unknown => {
            let similar = table::similar(name);
            let hint = if similar.is_empty() {
                "`fugue show-options -g`, `-s` and `-gw` list every option (docs/options.md)".into()
            } else {
                format!("options with similar names: {}", similar.join(", "))
            };
            Err(invalid(format!("invalid option: {name}")).with_suggestion(hint))
        }
    }
}

/// Which table the command addresses: the option's own scope, or for a user option
/// (or no option) the -s/-w/-p flag, default session.
fn scope_of(def: Option<&OptionDef>, flag: Option<OptionScope>) -> OptionScope {
    match def.map(|o| o.scope) {
        Some(table::Scope::Server) => OptionScope::Server,
        Some(table::Scope::Session) => OptionScope::Session,
        Some(table::Scope::Window) => OptionScope::Window,
        Some(table::Scope::WindowPane) if flag == Some(OptionScope::Pane) => OptionScope::Pane,
        Some(table::Scope::WindowPane) => OptionScope::Window,
        None => flag.unwrap_or(OptionScope::Session),
    }
}

/// The level a scope and -g/-t name, and how the audit log names it.
pub(super) fn level(
    tree: &Tree,
    ctx: &Context,
    scope: OptionScope,
    global: bool,
    target: Option<&Target>,
) -> Result<(Level, String), CommandError> {
    Ok(match (scope, global) {
        (OptionScope::Server, _) => (Level::Server, "server".into()),
        (OptionScope::Session, true) => (Level::GlobalSession, "global".into()),
        (OptionScope::Window | OptionScope::Pane, true) => {
            (Level::GlobalWindow, "global window".into())
        }
        (OptionScope::Session, false) => {
            let sid = tree.resolve_session(target, ctx)?;
            let name = tree
                .session(sid)
                .map(|s| s.name.clone())
                .unwrap_or_default();
            (Level::Session(sid), name)
        }
        (OptionScope::Window, false) => {
            let (_, wid) = tree.resolve_window(target, ctx)?;
            (Level::Window(wid), wid.to_string())
        }
        (OptionScope::Pane, false) => {
            let pid = tree.resolve_pane(target, ctx)?;
            let (_, wid) = tree.locate(pid).ok_or_else(|| {
                CommandError::unknown_target(format!("pane {pid} is in no window"))
            })?;
            (Level::Pane(pid, wid), pid.to_string())
        }
    })
}

/// Options that make fugue (or a person's client) run a program: an agent must not
/// choose what runs in the panes a person opens or on the person's copies.
const RUNS_PROGRAMS: &[&str] = &[
    "default-command",
    "default-shell",
    "copy-command",
    "lock-command",
    "editor",
];

/// What agents (MCP, sideband, and programs in panes they made) may change: no option
/// that runs programs, and with a limited scope (`mcp_scope = "own"`) only the values
/// of objects they may control, never global or server values, which reach every
/// pane.
fn agent_may_set(
    exec: &Exec<'_>,
    def: Option<&OptionDef>,
    level: Level,
) -> Result<(), CommandError> {
    if !exec.origin.is_agent() {
        return Ok(());
    }
    if let Some(o) = def
        && RUNS_PROGRAMS.contains(&o.name)
    {
        return Err(CommandError::forbidden(format!(
            "{} decides which programs run for people: only a person may set it",
            o.name
        ))
        .with_suggestion("ask the person to set it (notify tells them); to run a program yourself, use run_command or create_pane's `command`"));
    }
    let global = matches!(
        level,
        Level::Server | Level::GlobalSession | Level::GlobalWindow
    );
    if global && !exec.scope.is_all() {
        return Err(CommandError::forbidden(
            "with a limited scope an agent sets options of its own panes, windows and sessions, not global or server ones",
        )
        .with_suggestion("set it for one of your own panes, windows or sessions (name it as the target, without global)"));
    }
    Ok(())
}

/// `NAME[INDEX]` of an array option (`status-format[1]`): the name and the index.
fn element(name: &str) -> Option<(&str, usize)> {
    let (base, rest) = name.split_once('[')?;
    let index = rest.strip_suffix(']')?.parse().ok()?;
    Some((base, index))
}

pub fn set_option(exec: &mut Exec<'_>, mut c: SetOption) -> Result<Response, CommandError> {
    if let Some((base, index)) = element(&c.name) {
        return set_element(exec, &c, base, index);
    }
    let def = match option(&c.name) {
        Ok(d) => d,
        // tmux's -q: nothing said about an unknown or ambiguous option.
        Err(_) if c.quiet => return Ok(Response::Done),
        Err(e) => return Err(e),
    };
    let name = def.map_or(c.name.clone(), |o| o.name.to_string());
    if let Some(o) = def
        && o.effect == Effect::Startup
    {
        return Err(invalid(format!(
            "{name} is read from the configuration file when the server starts ({}); set-option cannot change it",
            o.toml.unwrap_or("[options]")
        )));
    }
    let scope = scope_of(def, c.scope);
    let server = exec.server;
    let mut tree = server.mux.tree();
    let (level, described) = level(&tree, &exec.ctx, scope, c.global, c.target.as_ref())?;
    if c.format
        && let Some(v) = &c.value
    {
        // As tmux: in the target's scope (its pane, else the caller's).
        let pane = tree.resolve_pane(c.target.as_ref(), &exec.ctx).ok();
        c.value = Some(super::formats::expand(server, &tree, pane, v, exec.origin));
    }
    agent_may_set(exec, def, level)?;
    exec.resolved = Some(described);
    exec.detail = Some(serde_json::json!({ "option": name }));
    let live_sessions: HashSet<_> = tree.sessions.iter().map(|s| s.id).collect();
    let live_windows: HashSet<_> = tree
        .sessions
        .iter()
        .flat_map(|s| s.windows.iter().map(|w| w.id))
        .collect();
    let live_panes: HashSet<_> = tree.panes.keys().copied().collect();
    let window_panes: Vec<_> = match level {
        Level::Window(w) if c.unset_panes => {
            tree.window(w).map(|w| w.layout.panes()).unwrap_or_default()
        }
        _ => Vec::new(),
    };
    let config = {
        // Lock order: the tree, then the options (as `Server::pane_exited`).
        let mut store = server.options.lock();
        store.retain(&live_sessions, &live_windows, &live_panes);
        if c.unset || c.unset_panes {
            store.unset(level, def, &name, &window_panes);
        } else {
            let mode = SetMode {
                append: c.append,
                only_if_unset: c.only_if_unset,
            };
            let set = store.set(level, def, &name, c.value.as_deref(), mode);
            // tmux: `set -o -q` on an option that has a value here is a quiet no-op
            // (theme packs set their defaults this way).
            if c.quiet
                && c.only_if_unset
                && set.as_ref().is_err_and(|e| e.starts_with("already set"))
            {
                return Ok(Response::Done);
            }
            set.map_err(|e| match def {
                Some(o) if !e.starts_with("already set") => {
                    invalid(e).with_suggestion(options::value::expected(o))
                }
                _ => invalid(e),
            })?;
        }
        let global = matches!(
            level,
            Level::Server | Level::GlobalSession | Level::GlobalWindow
        );
        let written = def.is_some_and(|o| o.toml.is_some()) && global;
        if written {
            let old = server.config();
            match apply::config_from(&old, &store) {
                Ok(new) => Some((old, new)),
                Err(e) => {
                    // The value passed the option's checks but not the configuration's
                    // (a title format too long): put the old value back.
                    if let Some(v) = apply::read(&old, &name) {
                        let _ = store.set(level, def, &name, Some(&v.show()), SetMode::default());
                    }
                    return Err(invalid(e));
                }
            }
        } else {
            None
        }
    };
    let tell = apply::CLIENT_OPTIONS.contains(&name.as_str());
    if let Some((old, new)) = config {
        let status_changed = old.status.rows() != new.status.rows();
        {
            // The bindings live in `server.keys` (bind-key/unbind-key); the options
            // own the prefix and repeat-time written into them.
            let mut keys = server.keys.lock();
            keys.prefix = new.keys.prefix;
            keys.repeat_time_ms = new.keys.repeat_time_ms;
        }
        server.set_config(new);
        if status_changed {
            // The status bar's row goes to (or comes from) the windows.
            let sessions: Vec<_> = tree.sessions.iter().map(|s| s.id).collect();
            for sid in sessions {
                server.resize_session_to_clients(&mut tree, sid);
            }
        }
    }
    if name == "pane-base-index" {
        // The tree numbers panes with the global value (a window's own is not kept
        // apart: fugue numbers every window's panes alike).
        let store = server.options.lock();
        tree.pane_base_index = store
            .effective(Level::GlobalWindow, "pane-base-index")
            .and_then(|(v, _)| u32::try_from(v.number()).ok())
            .unwrap_or(0);
        drop(store);
        server.mux.changed();
    }
    if matches!(name.as_str(), "pane-borders" | "pane-border-status") {
        follow_borders(server, &mut tree);
    }
    if name == "automatic-rename" {
        super::auto_rename::follow_option(server, &mut tree);
    }
    if name == "window-size" {
        // A window `resize-window` sized follows the clients again once its
        // window-size is no longer manual (as tmux).
        let freed: Vec<_> = {
            let store = server.options.lock();
            tree.windows
                .values()
                .filter(|w| w.manual_size.is_some())
                .filter(|w| {
                    store
                        .effective(Level::Window(w.id), "window-size")
                        .is_none_or(|(v, _)| v.text() != "manual")
                })
                .map(|w| w.id)
                .collect()
        };
        for wid in freed {
            if let Some(w) = tree.window_mut(wid) {
                w.manual_size = None;
            }
        }
        // Sessions size their windows by it from now on.
        let sessions: Vec<_> = tree.sessions.iter().map(|s| s.id).collect();
        for sid in sessions {
            server.resize_session_to_clients(&mut tree, sid);
            server.relayout(&mut tree, sid);
        }
        server.mux.changed();
    }
    drop(tree);
    if tell {
        tell_clients(server);
    }
    Ok(Response::Done)
}

/// Options with no configuration field (the status line's, session values) reach
/// clients too: each gets the values of its own session.
fn tell_clients(server: &std::sync::Arc<crate::server::Server>) {
    let mut client = apply::client_options(&server.config());
    client.keys = server.keys.lock().clone();
    // Lock order: the options, then the attached clients.
    let store = server.options.lock();
    for c in server.mux.attached.lock().values() {
        let mut o = client.clone();
        o.status_line = Box::new(apply::status_options(&store, c.session));
        c.control
            .post(crate::attached::Control::Options(Box::new(o)));
    }
    drop(store);
    server.mux.changed();
}

pub fn show_options(exec: &mut Exec<'_>, mut c: ShowOptions) -> Result<Response, CommandError> {
    // `NAME[INDEX]` of an array option: that element's line, an empty one when the
    // array has no such element (tmux's `status-format[5] ''`).
    if let Some((base, index)) = c.name.as_deref().and_then(element) {
        let def = match option(base) {
            Ok(Some(d)) if d.kind == options::table::Kind::Array => d,
            _ if c.quiet => return Ok(Response::Options(Vec::new())),
            _ => return Err(invalid(format!("invalid option: {base}[{index}]"))),
        };
        // Under the option's whole name (`status-fo[0]` shows `status-format[0]`).
        let want = format!("{}[{index}]", def.name);
        c.name = Some(def.name.to_string());
        let Response::Options(lines) = show_options(exec, c)? else {
            return Err(CommandError::internal("show-options answered no options"));
        };
        let mut picked: Vec<_> = lines.into_iter().filter(|l| l.name == want).collect();
        if picked.is_empty() {
            picked.push(fugue_protocol::OptionLine {
                name: want,
                value: Some(String::new()),
                string: true,
                inherited: false,
            });
        }
        return Ok(Response::Options(picked));
    }
    let def = match c.name.as_deref().map(option).transpose() {
        Ok(d) => d.flatten(),
        Err(_) if c.quiet => return Ok(Response::Options(Vec::new())),
        Err(e) => return Err(e),
    };
    let name = match (&c.name, def) {
        (_, Some(o)) => Some(o.name.to_string()),
        (Some(n), None) => Some(n.clone()),
        (None, None) => None,
    };
    let scope = scope_of(def, c.scope);
    let tree = exec.server.mux.tree();
    let (level, described) = level(&tree, &exec.ctx, scope, c.global, c.target.as_ref())?;
    drop(tree);
    exec.resolved = Some(described);
    let store = exec.server.options.lock();
    let shown = store.show(level, name.as_deref(), c.inherited);
    // As tmux: a user option (`@name`) that is not set is not an option (-q: nothing).
    if let Some(n) = name.as_deref()
        && n.starts_with('@')
        && shown.is_empty()
        && !c.quiet
    {
        return Err(invalid(format!("invalid option: {n}")));
    }
    Ok(Response::Options(shown))
}

/// `set-option NAME[INDEX] VALUE` (or `-u`) on an array option, told to clients as a
/// whole change of the option.
fn set_element(
    exec: &mut Exec<'_>,
    c: &SetOption,
    base: &str,
    index: usize,
) -> Result<Response, CommandError> {
    let def = match option(base)? {
        Some(d) if d.kind == options::table::Kind::Array => d,
        _ => return Err(invalid(format!("{base} is not an array option"))),
    };
    let server = exec.server;
    let tree = server.mux.tree();
    let scope = scope_of(Some(def), c.scope);
    let (level, described) = level(&tree, &exec.ctx, scope, c.global, c.target.as_ref())?;
    agent_may_set(exec, Some(def), level)?;
    exec.resolved = Some(described);
    exec.detail = Some(serde_json::json!({ "option": def.name }));
    let value = if c.unset { None } else { c.value.as_deref() };
    server
        .options
        .lock()
        .set_element(level, def, index, value)
        .map_err(invalid)?;
    drop(tree);
    if apply::CLIENT_OPTIONS.contains(&def.name) {
        tell_clients(server);
    }
    Ok(Response::Done)
}

super::handler!(fugue_protocol::options::SetOption, |exec, c| set_option(
    exec, c
));
super::handler!(
    fugue_protocol::options::ShowOptions,
    |exec, c| show_options(exec, c)
);

/// `pane-borders` and `pane-border-status` change pane sizes: the tree takes their
/// values (the global ones and each window's own) and every session is laid out again.
fn follow_borders(server: &crate::server::Server, tree: &mut crate::session::Tree) {
    use crate::session::layout::{BorderStatus, Borders};
    {
        let store = server.options.lock();
        let text = |level, name| store.effective(level, name).map(|(v, _)| v.text());
        tree.borders = match text(Level::Server, "pane-borders").as_deref() {
            Some("shared") => Borders::Shared,
            _ => Borders::Boxed,
        };
        let status =
            |level| BorderStatus::from_word(&text(level, "pane-border-status").unwrap_or_default());
        tree.border_status = status(Level::GlobalWindow);
        let windows: Vec<_> = tree.windows.keys().copied().collect();
        tree.window_border_status = windows
            .into_iter()
            .map(|w| (w, status(Level::Window(w))))
            .filter(|(_, s)| *s != tree.border_status)
            .collect();
    }
    let sessions: Vec<_> = tree.sessions.iter().map(|s| s.id).collect();
    for sid in sessions {
        server.relayout(tree, sid);
    }
    server.mux.changed();
}
