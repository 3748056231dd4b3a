//! Option values per scope, and inheritance as tmux has it: a session's value, else
//! the global session value; a pane's value, else its window's, else the global window
//! value. Global and server tables always hold every option (the default until set).
//! User options (`@name`) are strings in whichever table they were set in.

use super::table::{Kind, OPTIONS, OptionDef, Scope};
use super::value::{self, MAX_ARRAY_ITEMS, Value};
use fugue_protocol::{OptionLine, PaneId, SessionId, WindowId};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Where a value is read or written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Server,
    GlobalSession,
    GlobalWindow,
    Session(SessionId),
    Window(WindowId),
    /// A pane, and the window it inherits from.
    Pane(PaneId, WindowId),
}

type Values = BTreeMap<String, Value>;

/// The most user options (`@name`) one table may hold: each costs a name and a value
/// of at most [`value::MAX_VALUE_BYTES`].
pub const MAX_USER_OPTIONS: usize = 1024;

#[derive(Clone, Debug, Default)]
pub struct Store {
    server: Values,
    global_session: Values,
    global_window: Values,
    sessions: HashMap<SessionId, Values>,
    windows: HashMap<WindowId, Values>,
    panes: HashMap<PaneId, Values>,
}

/// What `set-option` asks, besides the value.
#[derive(Clone, Copy, Debug, Default)]
pub struct SetMode {
    pub append: bool,
    pub only_if_unset: bool,
}

/// The option's default value.
pub fn default_of(o: &OptionDef) -> Value {
    if o.kind == Kind::Array {
        return Value::Array(
            o.default
                .split('\n')
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        );
    }
    if o.name == "default-shell"
        && let Some(shell) = std::env::var("SHELL").ok().filter(|s| !s.is_empty())
    {
        return Value::Text(shell);
    }
    // The table's defaults are checked by a test; a bad one would be a fugue bug, and
    // the option then starts empty rather than take the server down.
    value::parse(o, o.default).unwrap_or(Value::Text(String::new()))
}

impl Store {
    /// Every option at its default.
    pub fn new() -> Store {
        let mut s = Store::default();
        for o in OPTIONS {
            s.table_mut_global(o.scope)
                .insert(o.name.into(), default_of(o));
        }
        s
    }

    fn table_mut_global(&mut self, scope: Scope) -> &mut Values {
        match scope {
            Scope::Server => &mut self.server,
            Scope::Session => &mut self.global_session,
            Scope::Window | Scope::WindowPane => &mut self.global_window,
        }
    }

    fn table(&self, level: Level) -> Option<&Values> {
        match level {
            Level::Server => Some(&self.server),
            Level::GlobalSession => Some(&self.global_session),
            Level::GlobalWindow => Some(&self.global_window),
            Level::Session(id) => self.sessions.get(&id),
            Level::Window(id) => self.windows.get(&id),
            Level::Pane(id, _) => self.panes.get(&id),
        }
    }

    fn table_mut(&mut self, level: Level) -> &mut Values {
        match level {
            Level::Server => &mut self.server,
            Level::GlobalSession => &mut self.global_session,
            Level::GlobalWindow => &mut self.global_window,
            Level::Session(id) => self.sessions.entry(id).or_default(),
            Level::Window(id) => self.windows.entry(id).or_default(),
            Level::Pane(id, _) => self.panes.entry(id).or_default(),
        }
    }

    /// Where a level inherits from.
    fn parent(level: Level) -> Option<Level> {
        match level {
            Level::Session(_) => Some(Level::GlobalSession),
            Level::Window(_) => Some(Level::GlobalWindow),
            Level::Pane(_, w) => Some(Level::Window(w)),
            _ => None,
        }
    }

    /// The value set at `level` itself.
    pub fn local(&self, level: Level, name: &str) -> Option<&Value> {
        self.table(level).and_then(|t| t.get(name))
    }

    /// The value in effect at `level`, and whether it was inherited.
    pub fn effective(&self, level: Level, name: &str) -> Option<(&Value, bool)> {
        let mut at = Some(level);
        let mut inherited = false;
        while let Some(l) = at {
            if let Some(v) = self.local(l, name) {
                return Some((v, inherited));
            }
            inherited = true;
            at = Self::parent(l);
        }
        None
    }

    /// The global (or server) value of a declared option.
    pub fn global(&self, name: &str) -> Option<&Value> {
        self.server
            .get(name)
            .or_else(|| self.global_session.get(name))
            .or_else(|| self.global_window.get(name))
    }

    /// Sets `name` at `level` from `text` (none: toggle a flag or a two-way choice).
    /// `def` is none for a user option. Returns the new value.
    pub fn set(
        &mut self,
        level: Level,
        def: Option<&OptionDef>,
        name: &str,
        text: Option<&str>,
        mode: SetMode,
    ) -> Result<Value, String> {
        // tmux's -o: the table itself has a value (a global table always has one).
        if mode.only_if_unset && self.local(level, name).is_some() {
            return Err(format!("already set: {name}"));
        }
        let current = self.effective(level, name).map(|(v, _)| v.clone());
        let new = match (def, text) {
            (None, None) => return Err("empty value".into()),
            (None, Some(t)) => {
                if t.len() > value::MAX_VALUE_BYTES {
                    return Err(format!(
                        "value is too long: {} bytes (at most {})",
                        t.len(),
                        value::MAX_VALUE_BYTES
                    ));
                }
                let t = match (&current, mode.append) {
                    (Some(Value::Text(old)), true) => format!("{old}{t}"),
                    _ => t.to_string(),
                };
                let users = self
                    .table(level)
                    .map_or(0, |t| t.keys().filter(|k| k.starts_with('@')).count());
                if self.local(level, name).is_none() && users >= MAX_USER_OPTIONS {
                    return Err(format!(
                        "too many user options here (at most {MAX_USER_OPTIONS})"
                    ));
                }
                Value::Text(t)
            }
            (Some(o), None) => match (o.kind, &current) {
                (Kind::Flag, Some(v)) => Value::Flag(!v.flag()),
                (Kind::Flag, None) => Value::Flag(true),
                (Kind::Choice(choices), Some(Value::Text(t))) => {
                    let i = choices.iter().position(|c| c == t).unwrap_or(0);
                    let i = if i < 2 { 1 - i } else { i };
                    Value::Text(choices.get(i).copied().unwrap_or("").into())
                }
                _ => return Err("empty value".into()),
            },
            (Some(o), Some(t)) => {
                let parsed = value::parse(o, t)?;
                match (parsed, &current, mode.append) {
                    (Value::Array(add), Some(Value::Array(old)), true) => {
                        let mut all = old.clone();
                        all.extend(add);
                        if all.len() > MAX_ARRAY_ITEMS {
                            return Err(format!("too many elements (at most {MAX_ARRAY_ITEMS})"));
                        }
                        Value::Array(all)
                    }
                    (Value::Text(add), Some(Value::Text(old)), true) if o.kind == Kind::Str => {
                        let joined = format!("{old}{add}");
                        value::parse(o, &joined)?
                    }
                    (v, _, _) => v,
                }
            }
        };
        self.table_mut(level).insert(name.to_string(), new.clone());
        Ok(new)
    }

    /// tmux's `set NAME[INDEX] VALUE` on an array option: the element at `index` set
    /// (elements before it that are missing are empty), or unset (emptied) with None.
    pub fn set_element(
        &mut self,
        level: Level,
        def: &OptionDef,
        index: usize,
        text: Option<&str>,
    ) -> Result<Value, String> {
        if index >= MAX_ARRAY_ITEMS {
            return Err(format!(
                "index {index} is too large (at most {})",
                MAX_ARRAY_ITEMS - 1
            ));
        }
        if text.is_some_and(|t| t.len() > value::MAX_VALUE_BYTES) {
            return Err(format!(
                "value is too long (at most {} bytes)",
                value::MAX_VALUE_BYTES
            ));
        }
        let mut items = match self.effective(level, def.name) {
            Some((Value::Array(items), _)) => items.clone(),
            _ => Vec::new(),
        };
        if items.len() <= index {
            items.resize(index + 1, String::new());
        }
        if let Some(slot) = items.get_mut(index) {
            *slot = text.unwrap_or_default().to_string();
        }
        while items.last().is_some_and(String::is_empty) {
            items.pop();
        }
        let new = Value::Array(items);
        self.table_mut(level)
            .insert(def.name.to_string(), new.clone());
        Ok(new)
    }

    /// Removes the value at `level` (a global or server value returns to the default;
    /// a user option goes). With `panes`, a window option is also unset on the panes
    /// given (tmux's `-U`).
    pub fn unset(&mut self, level: Level, def: Option<&OptionDef>, name: &str, panes: &[PaneId]) {
        let is_global = matches!(
            level,
            Level::Server | Level::GlobalSession | Level::GlobalWindow
        );
        match def {
            Some(o) if is_global => {
                self.table_mut(level).insert(name.into(), default_of(o));
            }
            _ => {
                self.table_mut(level).remove(name);
            }
        }
        for p in panes {
            if let Some(t) = self.panes.get_mut(p) {
                t.remove(name);
            }
        }
    }

    /// Forgets the values of sessions, windows and panes that no longer exist, so the
    /// store is bounded by what lives (called before every change).
    pub fn retain(
        &mut self,
        sessions: &HashSet<SessionId>,
        windows: &HashSet<WindowId>,
        panes: &HashSet<PaneId>,
    ) {
        self.sessions
            .retain(|k, v| sessions.contains(k) && !v.is_empty());
        self.windows
            .retain(|k, v| windows.contains(k) && !v.is_empty());
        self.panes.retain(|k, v| panes.contains(k) && !v.is_empty());
    }

    /// `show-options`' lines for `level`: one option, or the whole table (declared
    /// options in tmux's order, then user options by name). With `inherited`, values
    /// an object does not have itself are shown too, marked.
    pub fn show(&self, level: Level, name: Option<&str>, inherited: bool) -> Vec<OptionLine> {
        let scopes: &[Scope] = match level {
            Level::Server => &[Scope::Server],
            Level::GlobalSession | Level::Session(_) => &[Scope::Session],
            Level::GlobalWindow | Level::Window(_) => &[Scope::Window, Scope::WindowPane],
            Level::Pane(..) => &[Scope::WindowPane],
        };
        let mut names: Vec<(String, Option<&OptionDef>)> = match name {
            Some(n) => vec![(n.to_string(), super::table::find(n))],
            None => OPTIONS
                .iter()
                .filter(|o| scopes.contains(&o.scope))
                .map(|o| (o.name.to_string(), Some(o)))
                .collect(),
        };
        if name.is_none() {
            let mut users: Vec<&String> = Vec::new();
            let mut at = Some(level);
            while let Some(l) = at {
                if let Some(t) = self.table(l) {
                    users.extend(t.keys().filter(|k| k.starts_with('@')));
                }
                at = if inherited { Self::parent(l) } else { None };
            }
            users.sort();
            users.dedup();
            names.extend(users.into_iter().map(|u| (u.clone(), None)));
        }
        let mut lines = Vec::new();
        for (n, def) in names {
            let found = if inherited {
                self.effective(level, &n)
            } else {
                self.local(level, &n).map(|v| (v, false))
            };
            let Some((v, inh)) = found else { continue };
            let string = def.is_none_or(|o| o.kind.is_string());
            match v {
                Value::Array(items) if items.is_empty() => lines.push(OptionLine {
                    name: n.clone(),
                    value: None,
                    string,
                    inherited: inh,
                }),
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        lines.push(OptionLine {
                            name: format!("{n}[{i}]"),
                            value: Some(item.clone()),
                            string,
                            inherited: inh,
                        });
                    }
                }
                v => lines.push(OptionLine {
                    name: n.clone(),
                    value: Some(v.show()),
                    string,
                    inherited: inh,
                }),
            }
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::table::find;

    fn set(s: &mut Store, level: Level, name: &str, v: Option<&str>) -> Result<Value, String> {
        s.set(level, find(name), name, v, SetMode::default())
    }

    #[test]
    fn panes_inherit_their_window_then_the_global_value() {
        let mut s = Store::new();
        let (w, p) = (WindowId(1), PaneId(2));
        let pane = Level::Pane(p, w);
        assert_eq!(
            s.effective(pane, "remain-on-exit"),
            Some((&Value::Text("off".into()), true))
        );
        set(&mut s, Level::Window(w), "remain-on-exit", Some("on")).unwrap();
        assert_eq!(s.effective(pane, "remain-on-exit").unwrap().0.text(), "on");
        set(&mut s, pane, "remain-on-exit", Some("failed")).unwrap();
        assert_eq!(
            s.effective(pane, "remain-on-exit"),
            Some((&Value::Text("failed".into()), false))
        );
        s.unset(pane, find("remain-on-exit"), "remain-on-exit", &[]);
        assert_eq!(s.effective(pane, "remain-on-exit").unwrap().0.text(), "on");
        // A session inherits the global session value until it has its own.
        let sess = Level::Session(SessionId(1));
        set(&mut s, Level::GlobalSession, "history-limit", Some("100")).unwrap();
        assert_eq!(s.effective(sess, "history-limit").unwrap().0.number(), 100);
        set(&mut s, sess, "history-limit", Some("5")).unwrap();
        assert_eq!(s.effective(sess, "history-limit").unwrap().0.number(), 5);
    }

    #[test]
    fn flags_toggle_appends_and_only_if_unset() {
        let mut s = Store::new();
        let g = Level::GlobalSession;
        assert_eq!(set(&mut s, g, "mouse", None), Ok(Value::Flag(false)));
        assert_eq!(set(&mut s, g, "mouse", None), Ok(Value::Flag(true)));
        assert_eq!(set(&mut s, g, "status", Some("off")).unwrap().text(), "off");
        assert_eq!(set(&mut s, g, "status", None).unwrap().text(), "on");
        assert_eq!(
            set(&mut s, g, "base-index", None),
            Err("empty value".into())
        );
        set(&mut s, g, "status-left", Some("a")).unwrap();
        let append = SetMode {
            append: true,
            ..SetMode::default()
        };
        let v = s.set(g, find("status-left"), "status-left", Some("bc"), append);
        assert_eq!(v.unwrap().text(), "abc");
        let once = SetMode {
            only_if_unset: true,
            ..SetMode::default()
        };
        let v = s.set(g, find("status-left"), "status-left", Some("x"), once);
        assert_eq!(v, Err("already set: status-left".into()));
        let v = s.set(
            g,
            find("update-environment"),
            "update-environment",
            Some("FOO"),
            append,
        );
        assert_eq!(v.unwrap().show().lines().last(), Some("FOO"));
    }

    #[test]
    fn user_options_show_after_declared_ones() {
        let mut s = Store::new();
        s.set(
            Level::GlobalSession,
            None,
            "@my",
            Some("hello world"),
            SetMode::default(),
        )
        .unwrap();
        let lines = s.show(Level::GlobalSession, None, false);
        let last = lines.last().unwrap();
        assert_eq!(last.line(), "@my \"hello world\"");
        assert_eq!(s.show(Level::Session(SessionId(9)), None, false), vec![]);
        let inherited = s.show(Level::Session(SessionId(9)), Some("@my"), true);
        assert_eq!(inherited[0].line(), "@my* \"hello world\"");
    }
}
