//! The commands set for each hook, per owner: the global session and window tables,
//! and sessions, windows and panes of their own (tmux keeps hooks as array options in
//! the same tables, and looks them up the same way).

use super::names::{HOOKS, HookScope, WINDOW_HOOKS};
use fugue_protocol::hooks::MAX_HOOK_COMMANDS;
use fugue_protocol::tmux_cmd::{Argv, print_sequence};
use fugue_protocol::{OptionLine, PaneId, SessionId, WindowId};
use std::collections::{BTreeMap, HashMap};

/// Whose hook it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    GlobalSession,
    GlobalWindow,
    Session(SessionId),
    Window(WindowId),
    Pane(PaneId),
}

/// The highest element index `name[N]` may use: indexes are kept sparse as tmux keeps
/// them, and this bounds the numbers a caller can make the server print.
pub const MAX_INDEX: u32 = 9999;

type Hooks = BTreeMap<String, BTreeMap<u32, Argv>>;

#[derive(Default)]
pub struct Store {
    owners: HashMap<Owner, Hooks>,
}

/// Where an event's object looks its hook up, most specific first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Object {
    pub session: Option<SessionId>,
    pub window: Option<WindowId>,
    pub pane: Option<PaneId>,
}

impl Store {
    pub fn is_empty(&self) -> bool {
        self.owners
            .values()
            .all(|h| h.values().all(BTreeMap::is_empty))
    }

    /// Whether `owner` has the hook, even with no element left.
    pub fn has(&self, owner: Owner, name: &str) -> bool {
        self.owners
            .get(&owner)
            .is_some_and(|h| h.contains_key(name))
    }

    /// Sets element `index` (or the next free one when appending, or replaces the whole
    /// hook).
    pub fn set(
        &mut self,
        owner: Owner,
        name: &str,
        index: Option<u32>,
        append: bool,
        commands: Vec<Argv>,
    ) -> Result<(), String> {
        let hooks = self.owners.entry(owner).or_default();
        let elements = hooks.entry(name.to_string()).or_default();
        // One element holds the whole sequence, as tmux stores `a ; b` in one.
        let index = match index {
            Some(i) => i,
            // tmux's `-a` takes the first free index.
            None if append => (0..=MAX_INDEX)
                .find(|i| !elements.contains_key(i))
                .unwrap_or(MAX_INDEX.saturating_add(1)),
            None => {
                elements.clear();
                0
            }
        };
        if index > MAX_INDEX {
            return Err(format!("index {index} is over {MAX_INDEX}"));
        }
        if !elements.contains_key(&index) && elements.len() >= MAX_HOOK_COMMANDS {
            return Err(format!(
                "{name} already holds {MAX_HOOK_COMMANDS} commands, the most a hook may hold"
            ));
        }
        elements.insert(index, commands.into_iter().flatten_sequence());
        Ok(())
    }

    /// Removes the hook (or one element of it).
    pub fn unset(&mut self, owner: Owner, name: &str, index: Option<u32>) {
        let Some(hooks) = self.owners.get_mut(&owner) else {
            return;
        };
        match index {
            Some(i) => {
                // The hook stays, empty, as tmux's array option does: `show-hooks
                // NAME[N]` then prints the element empty, and only `-u NAME` removes it.
                if let Some(e) = hooks.get_mut(name) {
                    e.remove(&i);
                }
            }
            None => {
                hooks.remove(name);
            }
        }
    }

    /// The command sequences an event on `object` runs: the most specific owner that
    /// has the hook, else the global one.
    pub fn commands(&self, name: &str, scope: HookScope, object: Object) -> Vec<Vec<Argv>> {
        let owners: Vec<Owner> = match scope {
            HookScope::Window => [
                object.pane.map(Owner::Pane),
                object.window.map(Owner::Window),
                Some(Owner::GlobalWindow),
            ]
            .into_iter()
            .flatten()
            .collect(),
            HookScope::Session => [
                object.session.map(Owner::Session),
                Some(Owner::GlobalSession),
            ]
            .into_iter()
            .flatten()
            .collect(),
        };
        for o in owners {
            if let Some(e) = self.owners.get(&o).and_then(|h| h.get(name))
                && !e.is_empty()
            {
                return e.values().map(unflatten).collect();
            }
        }
        Vec::new()
    }

    /// `show-hooks` lines for one owner: with `all`, every hook of the scope (those
    /// without commands as bare names, as tmux lists the global tables); otherwise only
    /// the hooks set there.
    pub fn show(
        &self,
        owner: Owner,
        scope: HookScope,
        name: Option<&str>,
        all: bool,
    ) -> Vec<OptionLine> {
        let table = match scope {
            HookScope::Session => HOOKS,
            HookScope::Window => WINDOW_HOOKS,
        };
        let hooks = self.owners.get(&owner);
        let mut out = Vec::new();
        for def in table {
            if name.is_some_and(|n| n != def.name) {
                continue;
            }
            match hooks
                .and_then(|h| h.get(def.name))
                .filter(|e| !e.is_empty())
            {
                Some(elements) => {
                    for (i, cmds) in elements {
                        out.push(OptionLine {
                            name: format!("{}[{i}]", def.name),
                            // tmux shows a stored sequence with a bare `;`.
                            value: Some(
                                unflatten(cmds)
                                    .iter()
                                    .map(|c| print_sequence(std::slice::from_ref(c)))
                                    .collect::<Vec<_>>()
                                    .join(" ; "),
                            ),
                            string: false,
                            inherited: false,
                        });
                    }
                }
                // An unset hook is listed in the global tables only, as tmux does:
                // an object's `show-hooks NAME` prints nothing, unless the object
                // has the hook with no element left (tmux's empty array option).
                None if all || hooks.is_some_and(|h| h.contains_key(def.name)) => {
                    out.push(OptionLine {
                        name: def.name.to_string(),
                        value: None,
                        string: false,
                        inherited: false,
                    })
                }
                None => {}
            }
        }
        out
    }

    /// Forgets the hooks of objects that no longer exist.
    pub fn retain(&mut self, live: impl Fn(Owner) -> bool) {
        self.owners
            .retain(|o, _| matches!(o, Owner::GlobalSession | Owner::GlobalWindow) || live(*o));
    }
}

/// A sequence kept as one argv with `;` words between its commands (what
/// `split_sequence` reads back), so an element is one value as in tmux.
trait FlattenSequence {
    fn flatten_sequence(self) -> Argv;
}

impl<I: Iterator<Item = Argv>> FlattenSequence for I {
    fn flatten_sequence(self) -> Argv {
        let mut out = Vec::new();
        for (i, argv) in self.enumerate() {
            if i > 0 {
                out.push(";".to_string());
            }
            out.extend(argv);
        }
        out
    }
}

fn unflatten(flat: &Argv) -> Vec<Argv> {
    flat.split(|w| w == ";")
        .filter(|c| !c.is_empty())
        .map(<[String]>::to_vec)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Argv {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_most_specific_owner_wins_and_globals_fill_in() {
        let mut st = Store::default();
        st.set(
            Owner::GlobalWindow,
            "pane-exited",
            None,
            false,
            vec![argv("a")],
        )
        .unwrap();
        st.set(
            Owner::Pane(PaneId(2)),
            "pane-exited",
            None,
            false,
            vec![argv("b")],
        )
        .unwrap();
        let on = |p| Object {
            pane: Some(PaneId(p)),
            window: Some(WindowId(1)),
            session: None,
        };
        assert_eq!(
            st.commands("pane-exited", HookScope::Window, on(2)),
            vec![vec![argv("b")]]
        );
        assert_eq!(
            st.commands("pane-exited", HookScope::Window, on(3)),
            vec![vec![argv("a")]]
        );
    }

    #[test]
    fn append_adds_elements_and_unset_removes_one() {
        let mut st = Store::default();
        let o = Owner::GlobalSession;
        st.set(
            o,
            "after-new-window",
            None,
            false,
            vec![argv("x"), argv("y")],
        )
        .unwrap();
        st.set(o, "after-new-window", None, true, vec![argv("z")])
            .unwrap();
        st.set(o, "after-new-window", Some(5), false, vec![argv("w")])
            .unwrap();
        st.unset(o, "after-new-window", Some(5));
        let lines: Vec<String> = st
            .show(o, HookScope::Session, Some("after-new-window"), false)
            .iter()
            .map(OptionLine::line)
            .collect();
        assert_eq!(
            lines,
            ["after-new-window[0] x ; y", "after-new-window[1] z"]
        );
        st.unset(o, "after-new-window", Some(0));
        assert_eq!(
            st.commands("after-new-window", HookScope::Session, Object::default()),
            vec![vec![argv("z")]]
        );
    }

    #[test]
    fn a_hook_holds_a_bounded_number_of_commands() {
        let mut st = Store::default();
        for _ in 0..MAX_HOOK_COMMANDS {
            st.set(
                Owner::GlobalSession,
                "session-created",
                None,
                true,
                vec![argv("x")],
            )
            .unwrap();
        }
        let e = st
            .set(
                Owner::GlobalSession,
                "session-created",
                None,
                true,
                vec![argv("x")],
            )
            .unwrap_err();
        assert!(e.contains("the most a hook may hold"), "{e}");
    }
}
