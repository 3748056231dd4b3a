//! `bind-key`, `unbind-key`, `list-keys`: the server's key tables, which every attached
//! client hears of when they change.

use super::Exec;
use crate::attached::Control;
use fugue_protocol::cmd;
use fugue_protocol::key_tables::{self, Binding, MAX_BINDINGS};
use fugue_protocol::keys::Key;
use fugue_protocol::{CommandError, Response};
use std::sync::Arc;

/// Tells every attached client the tables as they are now.
fn announce(exec: &Exec<'_>) {
    let keys = Arc::new(exec.server.keys.lock().clone());
    exec.server.mux.attached.tell(None, Control::Keys(keys));
}

pub fn bind_key(exec: &mut Exec<'_>, mut b: Binding) -> Result<Response, CommandError> {
    b.key = b.key.binding_form();
    key_tables::check_table(&b.table).map_err(|e| CommandError::invalid_argument("table", e))?;
    if b.commands.is_empty() {
        // tmux's `bind [-N note] KEY` with no command: the binding keeps its commands
        // and takes the note; an unbound key stays unbound.
        exec.resolved = Some(format!("{} {}", b.table, b.key));
        let chord = b.key.chord();
        let changed = {
            let mut keys = exec.server.keys.lock();
            match keys
                .bindings
                .iter_mut()
                .find(|x| x.table == b.table && x.key.chord() == chord)
            {
                Some(x) if b.note.is_some() => {
                    x.note = b.note;
                    true
                }
                _ => false,
            }
        };
        if changed {
            announce(exec);
        }
        return Ok(Response::Done);
    }
    let text_len: usize = b.commands.iter().flatten().map(String::len).sum();
    if text_len > fugue_protocol::tmux_cmd::MAX_LINE {
        return Err(CommandError::invalid_argument(
            "command",
            format!("longer than {} bytes", fugue_protocol::tmux_cmd::MAX_LINE),
        ));
    }
    exec.resolved = Some(format!("{} {}", b.table, b.key));
    {
        let mut keys = exec.server.keys.lock();
        let chord = b.key.chord();
        keys.bindings
            .retain(|x| !(x.table == b.table && x.key.chord() == chord));
        if keys.bindings.len() >= MAX_BINDINGS {
            return Err(CommandError::invalid_argument(
                "key",
                format!("the server holds at most {MAX_BINDINGS} bindings"),
            ));
        }
        keys.bindings.push(b);
    }
    announce(exec);
    Ok(Response::Done)
}

pub fn unbind_key(
    exec: &mut Exec<'_>,
    table: &str,
    key: Option<Key>,
    all: bool,
    quiet: bool,
) -> Result<Response, CommandError> {
    {
        let mut keys = exec.server.keys.lock();
        // As tmux: a table nothing is bound in does not exist (-q: said nothing of).
        if !keys.bindings.iter().any(|b| b.table == table) && !key_tables::TABLES.contains(&table) {
            if quiet {
                return Ok(Response::Done);
            }
            return Err(CommandError::invalid_argument(
                "table",
                format!("table {table} doesn't exist"),
            ));
        }
        match (all, key) {
            (true, _) => keys.bindings.retain(|b| b.table != table),
            (false, Some(key)) => {
                let chord = key.binding_form().chord();
                keys.bindings
                    .retain(|b| !(b.table == table && b.key.chord() == chord));
            }
            (false, None) if quiet => {}
            (false, None) => {
                return Err(CommandError::invalid_argument(
                    "key",
                    "give a key, or -a for every key of the table",
                ));
            }
        }
    }
    exec.resolved = Some(table.to_string());
    announce(exec);
    Ok(Response::Done)
}

pub fn list_keys(exec: &mut Exec<'_>, c: cmd::ListKeys) -> Result<Response, CommandError> {
    let (table, notes, key) = (c.table.as_deref(), c.notes, c.key);
    let mut keys = exec.server.keys.lock().clone();
    if let Some(t) = table
        && !keys.bindings.iter().any(|b| b.table == t)
        && !key_tables::TABLES.contains(&t)
    {
        return Err(CommandError::invalid_argument(
            "table",
            format!("table {t} doesn't exist"),
        ));
    }
    if let Some(k) = key {
        // tmux looks in the table given, else root, then prefix, then the rest.
        let rank = |t: &str| match t {
            "root" => 0,
            "prefix" => 1,
            _ => 2,
        };
        let mut found: Vec<_> = keys
            .bindings
            .iter()
            .filter(|b| b.key.chord() == k.chord() && table.is_none_or(|t| b.table == t))
            .cloned()
            .collect();
        found.sort_by_key(|b| rank(&b.table));
        found.truncate(1);
        if found.is_empty() {
            // tmux's words, which say the key has no binding here.
            return Err(CommandError::new(
                fugue_protocol::ErrorCode::InvalidArgument,
                format!("unknown key: {}", k.binding_form()),
            )
            .with_suggestion("`list-keys` lists every binding"));
        }
        keys.bindings = found;
    }
    let text = if notes {
        let opts = key_tables::NotesOptions {
            all: c.all,
            prefix_string: c.prefix,
        };
        key_tables::list_notes(&keys.bindings, table, keys.prefix, &opts)
    } else {
        key_tables::list_keys(&keys.bindings, table)
    };
    if !c.first {
        return Ok(Response::Captured(text));
    }
    let Some(line) = text.lines().next().map(str::to_string) else {
        return Ok(Response::Captured(text));
    };
    // `-1` from an attached client (its `C-b /`) is a message on its status line.
    let attached = exec.origin.client_id().and_then(|id| {
        let clients = exec.server.mux.attached.lock();
        let c = clients.get(&id).filter(|c| c.session.is_some())?;
        c.control.post(Control::Notice(line.clone()));
        Some(())
    });
    match attached {
        Some(()) => Ok(Response::Done),
        None => Ok(Response::Captured(format!("{line}\n"))),
    }
}

super::handler!(fugue_protocol::key_tables::Binding, |exec, b| bind_key(
    exec, b
));
super::handler!(cmd::UnbindKey, |exec,
                                 cmd::UnbindKey {
                                     table,
                                     key,
                                     all,
                                     quiet,
                                 }| {
    unbind_key(exec, &table, key, all, quiet)
});
super::handler!(cmd::ListKeys, |exec, c| list_keys(exec, c));
