//! `set-hook` and `show-hooks`: tmux's arguments and output, against the hook store
//! (`hooks/`). `set-hook -R` publishes the event at once, and the hooks surface runs it
//! as it would any other.

use super::Exec;
use crate::hooks::{HookDef, HookScope, Object, Owner, names};
use crate::options::Level;
use fugue_protocol::{CommandError, ErrorCode, OptionScope, Response, SetHook, ShowHooks};

fn invalid(message: String) -> CommandError {
    CommandError::new(ErrorCode::InvalidArgument, message)
}

/// `name` or `name[N]`: the hook and the element index.
fn parse_name(name: &str) -> Result<(&'static HookDef, Option<u32>), CommandError> {
    let (base, index) = match name.split_once('[') {
        Some((b, rest)) => {
            let n = rest
                .strip_suffix(']')
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| *n <= crate::hooks::store::MAX_INDEX)
                .ok_or_else(|| {
                    invalid(format!("invalid option: {name}")).with_suggestion(format!(
                        "an element is written name[N], N from 0 to {}",
                        crate::hooks::store::MAX_INDEX
                    ))
                })?;
            (b, Some(n))
        }
        None => (name, None),
    };
    let def = names::find(base).ok_or_else(|| {
        let similar = names::similar(base);
        invalid(format!("invalid option: {base}")).with_suggestion(if similar.is_empty() {
            "`fugue show-hooks -g` and `show-hooks -gw` list every hook (docs/hooks.md)".into()
        } else {
            format!("hooks with similar names: {}", similar.join(", "))
        })
    })?;
    Ok((def, index))
}

/// The owner `-g`/`-w`/`-p`/`-t` name for a hook of `scope`, and the object its
/// commands run on with `-R`.
fn owner(
    exec: &Exec<'_>,
    scope: HookScope,
    flag: Option<OptionScope>,
    global: bool,
    target: Option<&fugue_protocol::Target>,
) -> Result<(Owner, Object), CommandError> {
    // As tmux's options_scope_from_name: a session hook lives in a session whatever
    // -w/-p say (`set-hook -w session-renamed` sets the session's, and `show-hooks`
    // with no flag shows it); only a window hook takes -p.
    let opt_scope = match (scope, flag) {
        (HookScope::Window, Some(OptionScope::Pane)) => OptionScope::Pane,
        (HookScope::Window, _) => OptionScope::Window,
        (HookScope::Session, Some(OptionScope::Server)) => OptionScope::Server,
        (HookScope::Session, _) => OptionScope::Session,
    };
    let tree = exec.server.mux.tree();
    let (level, _) = super::options::level(&tree, &exec.ctx, opt_scope, global, target)?;
    let mut object = Object::default();
    let owner = match level {
        Level::GlobalSession | Level::Server => Owner::GlobalSession,
        Level::GlobalWindow => Owner::GlobalWindow,
        Level::Session(s) => {
            object.session = Some(s);
            Owner::Session(s)
        }
        Level::Window(w) => {
            object.window = Some(w);
            Owner::Window(w)
        }
        Level::Pane(p, w) => {
            object.pane = Some(p);
            object.window = Some(w);
            Owner::Pane(p)
        }
    };
    // The rest of the object, so a hook run with -R has a whole default target.
    if object.pane.is_none()
        && let Ok(p) = tree.resolve_pane(target, &exec.ctx)
    {
        object.pane = Some(p);
    }
    if let Some(p) = object.pane
        && let Some((s, w)) = tree.locate(p)
    {
        object.session.get_or_insert(s);
        object.window.get_or_insert(w);
    }
    Ok((owner, object))
}

pub fn set_hook(exec: &mut Exec<'_>, c: SetHook) -> Result<Response, CommandError> {
    let (def, index) = parse_name(&c.name)?;
    let commands = c
        .commands
        .into_iter()
        .map(fugue_verbs::line::check_hook_command)
        .collect::<Result<Vec<_>, String>>()
        .map_err(invalid)?;
    let (owner, object) = owner(exec, def.scope, c.scope, c.global, c.target.as_ref())?;
    exec.resolved = Some(format!("{owner:?}"));
    if c.run {
        let mut event = crate::hub::Event::new(def.name, object);
        if let crate::origin::Origin::Hook { depth, .. } = exec.origin {
            event.depth = depth.saturating_add(1);
        }
        exec.server.hub.event(event);
        return Ok(Response::Done);
    }
    let mut store = exec.server.hooks.lock();
    if c.unset {
        store.unset(owner, def.name, index);
    } else {
        store
            .set(owner, def.name, index, c.append, commands)
            .map_err(|e| invalid(format!("set-hook: {e}")))?;
    }
    Ok(Response::Done)
}

pub fn show_hooks(exec: &mut Exec<'_>, c: ShowHooks) -> Result<Response, CommandError> {
    let (def, index) = match c.name.as_deref() {
        Some(n) => {
            let (d, i) = parse_name(n)?;
            (Some(d), i)
        }
        None => (None, None),
    };
    let scope = match (def, c.scope) {
        (Some(d), _) => d.scope,
        (None, Some(OptionScope::Window | OptionScope::Pane)) => HookScope::Window,
        (None, _) => HookScope::Session,
    };
    let (owner, _) = owner(exec, scope, c.scope, c.global, c.target.as_ref())?;
    let global = matches!(owner, Owner::GlobalSession | Owner::GlobalWindow);
    let (mut lines, there) = {
        let store = exec.server.hooks.lock();
        let there = def.is_some_and(|d| store.has(owner, d.name));
        (store.show(owner, scope, def.map(|d| d.name), global), there)
    };
    if let (Some(d), Some(i)) = (def, index) {
        // tmux prints a missing element with an empty value when the hook is there
        // (global hooks always are; an object's once set, until `-u NAME`).
        let there = global || there;
        let want = format!("{}[{i}]", d.name);
        lines.retain(|l| l.name == want);
        if lines.is_empty() && there {
            lines.push(fugue_protocol::OptionLine {
                name: want,
                value: Some(String::new()),
                string: false,
                inherited: false,
            });
        }
    }
    Ok(Response::Options(lines))
}

super::handler!(fugue_protocol::hooks::SetHook, |exec, c| set_hook(exec, c));
super::handler!(fugue_protocol::hooks::ShowHooks, |exec, c| show_hooks(
    exec, c
));
