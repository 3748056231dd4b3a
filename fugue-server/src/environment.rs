//! tmux's environments (`set-environment`, `show-environment`): a global one and one
//! per session, applied to every program a pane starts: the server's own environment,
//! then the global changes, then the session's.

use fugue_protocol::SessionId;
use std::collections::{BTreeMap, HashMap};

/// At most this many variables per table, and this many bytes per name and value, so
/// a script cannot grow the server without end.
pub const MAX_VARIABLES: usize = 4096;
pub const MAX_BYTES: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// None: removed (`-r`): the variable is taken out of new programs' environment.
    pub value: Option<String>,
    /// `-h`: hidden from `show-environment` without `-h` (still given to programs).
    pub hidden: bool,
}

#[derive(Default)]
pub struct Environment {
    global: BTreeMap<String, Variable>,
    sessions: HashMap<SessionId, BTreeMap<String, Variable>>,
}

impl Environment {
    fn table(&mut self, session: Option<SessionId>) -> &mut BTreeMap<String, Variable> {
        match session {
            None => &mut self.global,
            Some(s) => self.sessions.entry(s).or_default(),
        }
    }

    /// Sets (or with `value` None, marks removed) a variable.
    pub fn set(
        &mut self,
        session: Option<SessionId>,
        name: &str,
        var: Variable,
    ) -> Result<(), String> {
        if name.is_empty() || name.contains('=') || name.contains('\0') {
            return Err(format!("invalid variable name: {}", name.escape_default()));
        }
        if name.len() > MAX_BYTES
            || var
                .value
                .as_ref()
                .is_some_and(|v| v.len() > MAX_BYTES || v.contains('\0'))
        {
            return Err(format!(
                "a variable has at most {MAX_BYTES} bytes and no NUL"
            ));
        }
        let table = self.table(session);
        if !table.contains_key(name) && table.len() >= MAX_VARIABLES {
            return Err(format!("at most {MAX_VARIABLES} variables"));
        }
        table.insert(name.to_string(), var);
        Ok(())
    }

    /// `-u`: the variable goes from the table (a session's then inherits the global).
    pub fn unset(&mut self, session: Option<SessionId>, name: &str) {
        self.table(session).remove(name);
    }

    /// Drops the tables of sessions that closed (ids are never reused), so closed
    /// sessions' variables do not pile up.
    pub fn retain_sessions(&mut self, live: &[SessionId]) {
        self.sessions.retain(|s, _| live.contains(s));
    }

    /// The table as `show-environment` sees it: the global one starts from the
    /// server's own environment.
    pub fn show(&self, session: Option<SessionId>) -> BTreeMap<String, Variable> {
        match session {
            None => {
                let mut all: BTreeMap<String, Variable> = std::env::vars()
                    .map(|(k, v)| {
                        let var = Variable {
                            value: Some(v),
                            hidden: false,
                        };
                        (k, var)
                    })
                    .collect();
                all.extend(self.global.iter().map(|(k, v)| (k.clone(), v.clone())));
                all
            }
            Some(s) => self.sessions.get(&s).cloned().unwrap_or_default(),
        }
    }

    /// A variable's value as a format reads it (`#{MYVAR}`): the session's table, then
    /// the global one, then the server's own environment; None when removed or unset.
    pub fn lookup(&self, session: Option<SessionId>, name: &str) -> Option<String> {
        let set = session
            .and_then(|s| self.sessions.get(&s))
            .and_then(|t| t.get(name))
            .or_else(|| self.global.get(name));
        match set {
            Some(v) => v.value.clone(),
            None => std::env::var(name).ok(),
        }
    }

    /// What a new program of `session` gets on top of the server's environment
    /// (a removed variable as [`crate::pane::child::REMOVED`]).
    pub fn overrides(&self, session: Option<SessionId>) -> Vec<(String, String)> {
        let session = session.and_then(|s| self.sessions.get(&s));
        self.global
            .iter()
            .chain(session.into_iter().flatten())
            .map(|(k, v)| {
                let value = v
                    .value
                    .clone()
                    .unwrap_or_else(|| crate::pane::child::REMOVED.to_string());
                (k.clone(), value)
            })
            .collect()
    }
}
