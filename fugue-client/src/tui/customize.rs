//! `customize-mode` (`C-b C`): tmux's editor of options and key bindings, over the
//! panes. Four branches: server options, session options, window and pane options
//! (the values the mode's pane sees, `*` for one it inherits), and the key bindings
//! by table. The keys are tmux's: Enter or s sets the selected option (a flag
//! toggles, anything else is edited on the bottom line) or rebinds the key, S sets an
//! option globally, w sets a pane option for the window, u unsets (unbinds a key),
//! d returns an option to its default, t tags and D/U act on the tagged, +/- (or
//! Right/Left) open and close a branch and M-+/M-- all of them, C-s searches (n/N
//! again), f filters, v hides the details, q leaves. Every change is an ordinary
//! `set-option`, `bind-key` or `unbind-key` sent to the server: the same
//! validation, audit and answers as typed at `C-b :`.
//!
//! The options come from `show-options` (asked again after each change); the key
//! bindings are the client's own copy, which the server sends on every change.
//! Keys are in `customize_keys.rs`, drawing in `customize_draw.rs`.

use super::input::Request;
use super::prompt::LineEdit;
use super::state::{App, Mode, Pending};
use fugue_protocol::options::{OptionLine, OptionScope, ShowOptions};
use fugue_protocol::{Command, PaneId, Target, tmux_cmd};
use std::collections::HashSet;

/// The `show-options` requests of the mode, one per scope; their answers are
/// recognised by these names.
pub const SERVER: &str = "customize-server";
pub const SESSION: &str = "customize-session";
pub const WINDOW: &str = "customize-window";
pub const PANE: &str = "customize-pane";

/// A branch of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Branch {
    Server,
    Session,
    Window,
    Keys,
}

impl Branch {
    const ALL: [Branch; 4] = [
        Branch::Server,
        Branch::Session,
        Branch::Window,
        Branch::Keys,
    ];

    fn title(self) -> &'static str {
        match self {
            Branch::Server => "Server Options",
            Branch::Session => "Session Options",
            Branch::Window => "Window & Pane Options",
            Branch::Keys => "Key Bindings",
        }
    }
}

/// What a line of the tree is, and what keeps the selection on it across rebuilds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    Branch(Branch),
    Table(String),
    Option { scope: OptionScope, name: String },
    Key { table: String, key: String },
}

/// One line as drawn.
#[derive(Clone, Debug)]
pub struct Line {
    pub item: Item,
    pub depth: u16,
    /// The name (an option's, a key's, a branch's title).
    pub name: String,
    /// The value, or a key's command.
    pub value: String,
    /// An option this object inherits (`show -A`'s `*`).
    pub inherited: bool,
    /// A branch or table: `+` / `-` in front.
    pub open: Option<bool>,
}

/// What the bottom line asks.
#[derive(Debug)]
pub enum Ask {
    /// A new value for an option (`global`: `S`; `window`: `w`).
    Value {
        item: Item,
        global: bool,
        window: bool,
        input: LineEdit,
    },
    /// A new command for a key (its name as `bind-key` takes it, unescaped).
    Command {
        item: Item,
        input: LineEdit,
    },
    Search(LineEdit),
    Filter(LineEdit),
}

#[derive(Debug)]
pub struct Customize {
    /// The pane whose values are shown and set.
    pub pane: PaneId,
    /// `show-options -A` of each scope, None until answered.
    pub server: Option<Vec<OptionLine>>,
    pub session: Option<Vec<OptionLine>>,
    pub window: Option<Vec<OptionLine>>,
    pub pane_options: Option<Vec<OptionLine>>,
    /// Branches and tables open (tmux starts with all closed).
    pub open: HashSet<Item>,
    pub selected: Item,
    pub tagged: HashSet<Item>,
    pub ask: Option<Ask>,
    pub search: Option<String>,
    /// Only options whose name, and keys whose name or command, contain this.
    pub filter: Option<String>,
    /// The selected item's details below the tree (`v`, `-N` starts without).
    pub info: bool,
}

/// `show-options -A` for one scope, as the mode's pane sees it.
fn show(scope: OptionScope, pane: PaneId, name: &'static str) -> Request {
    Request {
        command: Command::ShowOptions(ShowOptions {
            target: (scope != OptionScope::Server).then_some(Target::Pane(pane)),
            scope: Some(scope),
            global: false,
            inherited: scope != OptionScope::Server,
            quiet: false,
            name: None,
        }),
        pending: Pending::Action(name),
    }
}

pub(super) fn fetch(pane: PaneId) -> Vec<Request> {
    vec![
        show(OptionScope::Server, pane, SERVER),
        show(OptionScope::Session, pane, SESSION),
        show(OptionScope::Window, pane, WINDOW),
        show(OptionScope::Pane, pane, PANE),
    ]
}

/// `customize-mode [-N] [-f filter] [-t pane]` in this client.
pub fn open(app: &mut App, argv: &[String]) -> Result<Vec<Request>, String> {
    let a: fugue_protocol::flags::CustomizeMode = fugue_verbs::line::parse_flags(argv)?;
    let pane = match a.target.as_deref().map(str::parse::<PaneId>) {
        Some(Ok(p)) if app.panes.contains_key(&p) => p,
        _ => app
            .active_pane()
            .ok_or("customize-mode: no pane is shown here")?,
    };
    let filter = a.filter.filter(|f| !f.is_empty());
    let mut open = HashSet::new();
    if filter.is_some() {
        // A filter opens everything, so what matches shows (as tmux's).
        open_everything(&mut open, &app.keys);
    }
    app.mode = Mode::Options(Box::new(Customize {
        pane,
        server: None,
        session: None,
        window: None,
        pane_options: None,
        open,
        selected: Item::Branch(Branch::Server),
        tagged: HashSet::new(),
        ask: None,
        search: None,
        filter,
        info: !a.no_info,
    }));
    app.damage_all();
    Ok(fetch(pane))
}

/// An answer to one of the mode's `show-options`.
pub fn answered(app: &mut App, which: &str, lines: Vec<OptionLine>) {
    if let Mode::Options(c) = &mut app.mode {
        let slot = match which {
            SERVER => &mut c.server,
            SESSION => &mut c.session,
            WINDOW => &mut c.window,
            _ => &mut c.pane_options,
        };
        *slot = Some(lines);
        if c.filter.is_some() {
            c.select_first_match(&app.keys);
        }
    }
    app.damage_all();
}

fn matches(filter: Option<&str>, texts: &[&str]) -> bool {
    filter.is_none_or(|f| texts.iter().any(|t| t.contains(f)))
}

impl Customize {
    /// The tree's lines as shown now: closed branches hide their items, the filter
    /// hides what does not match.
    pub fn lines(&self, keys: &fugue_protocol::KeyTable) -> Vec<Line> {
        let filter = self.filter.as_deref();
        let mut out = Vec::new();
        for branch in Branch::ALL {
            let item = Item::Branch(branch);
            let open = self.open.contains(&item);
            out.push(Line {
                item,
                depth: 0,
                name: branch.title().into(),
                value: String::new(),
                inherited: false,
                open: Some(open),
            });
            if !open {
                continue;
            }
            if branch == Branch::Keys {
                let title = out.len() - 1;
                self.key_lines(keys, filter, &mut out);
                if filter.is_some() && out.len() == title + 1 {
                    out.pop();
                }
                continue;
            }
            let scoped: Vec<(OptionScope, &OptionLine)> = match branch {
                Branch::Server => scoped(OptionScope::Server, &self.server),
                Branch::Session => scoped(OptionScope::Session, &self.session),
                _ => {
                    // A pane option is listed once, at the pane: the window's list
                    // has it too.
                    let panes = scoped(OptionScope::Pane, &self.pane_options);
                    let mut both: Vec<_> = scoped(OptionScope::Window, &self.window)
                        .into_iter()
                        .filter(|(_, w)| !panes.iter().any(|(_, p)| p.name == w.name))
                        .collect();
                    both.extend(panes);
                    both.sort_by(|a, b| a.1.name.cmp(&b.1.name));
                    both
                }
            };
            let title = out.len() - 1;
            for (scope, o) in scoped {
                let value = o.value.clone().unwrap_or_default();
                if !matches(filter, &[&o.name]) {
                    continue;
                }
                out.push(Line {
                    item: Item::Option {
                        scope,
                        name: o.name.clone(),
                    },
                    depth: 1,
                    name: o.name.clone(),
                    value,
                    inherited: o.inherited,
                    open: None,
                });
            }
            // Under a filter a branch with nothing that matches is not shown, as tmux's.
            if filter.is_some() && out.len() == title + 1 {
                out.pop();
            }
        }
        out
    }

    fn key_lines(
        &self,
        keys: &fugue_protocol::KeyTable,
        filter: Option<&str>,
        out: &mut Vec<Line>,
    ) {
        let mut bindings = keys.bindings.clone();
        fugue_protocol::key_tables::sort(&mut bindings);
        let mut tables: Vec<&str> = bindings.iter().map(|b| b.table.as_str()).collect();
        tables.dedup();
        for table in tables {
            let item = Item::Table(table.to_string());
            let open = self.open.contains(&item);
            let title = out.len();
            out.push(Line {
                item,
                depth: 1,
                name: table.to_string(),
                value: String::new(),
                inherited: false,
                open: Some(open),
            });
            if !open {
                continue;
            }
            for b in bindings.iter().filter(|b| b.table == table) {
                let key = b.key.to_string();
                let shown = tmux_cmd::escape(&key);
                let command = tmux_cmd::print_sequence(&b.commands);
                if !matches(filter, &[&shown, &command]) {
                    continue;
                }
                out.push(Line {
                    item: Item::Key {
                        table: table.to_string(),
                        key,
                    },
                    depth: 2,
                    name: shown,
                    value: command,
                    inherited: false,
                    open: None,
                });
            }
            if filter.is_some() && out.len() == title + 1 {
                out.pop();
            }
        }
    }

    /// Under a filter, the selection goes to the first option or key that matches
    /// unless it is on one already (the options may answer after the filter).
    pub(super) fn select_first_match(&mut self, keys: &fugue_protocol::KeyTable) {
        let lines = self.lines(keys);
        let on_match = lines
            .iter()
            .any(|l| l.item == self.selected && l.open.is_none());
        if !on_match && let Some(l) = lines.iter().find(|l| l.open.is_none()) {
            self.selected = l.item.clone();
        }
    }

    /// Where the selection is in `lines` (the first line if it went).
    pub fn position(&self, lines: &[Line]) -> usize {
        lines
            .iter()
            .position(|l| l.item == self.selected)
            .unwrap_or(0)
    }

    pub(super) fn select(&mut self, lines: &[Line], at: usize) {
        if let Some(l) = lines.get(at.min(lines.len().saturating_sub(1))) {
            self.selected = l.item.clone();
        }
    }

    /// The next line after (or before) the selection whose name or value contains
    /// `s`, wrapping round.
    pub(super) fn find(&mut self, lines: &[Line], s: &str, forward: bool) -> bool {
        let n = lines.len();
        let at = self.position(lines);
        let hit = (1..=n)
            .map(|i| {
                if forward {
                    (at + i) % n
                } else {
                    (at + n - i) % n
                }
            })
            .find(|&i| lines[i].name.contains(s) || lines[i].value.contains(s));
        match hit {
            Some(i) => {
                self.selected = lines[i].item.clone();
                true
            }
            None => false,
        }
    }
}

fn scoped(scope: OptionScope, lines: &Option<Vec<OptionLine>>) -> Vec<(OptionScope, &OptionLine)> {
    lines
        .iter()
        .flatten()
        .map(|o| (scope, o))
        .collect::<Vec<_>>()
}

/// Every branch and key table open.
pub(super) fn open_everything(open: &mut HashSet<Item>, keys: &fugue_protocol::KeyTable) {
    open.extend(Branch::ALL.map(Item::Branch));
    open.extend(keys.bindings.iter().map(|b| Item::Table(b.table.clone())));
}

impl Ask {
    /// The bottom line's prompt and text.
    pub fn shown(&self) -> (String, &str) {
        match self {
            Ask::Value {
                item,
                global,
                window,
                input,
            } => {
                let name = match item {
                    Item::Option { name, .. } => name.as_str(),
                    _ => "",
                };
                let at = if *global {
                    " (global)"
                } else if *window {
                    " (window)"
                } else {
                    ""
                };
                (format!("({name}{at}) "), input.text())
            }
            Ask::Command { item, input } => {
                let key = match item {
                    Item::Key { table, key } => format!("{table} {key}"),
                    _ => String::new(),
                };
                (format!("({key}) "), input.text())
            }
            Ask::Search(input) => ("(search) ".into(), input.text()),
            Ask::Filter(input) => ("(filter) ".into(), input.text()),
        }
    }

    /// The line being typed (a paste goes into it).
    pub fn input_mut(&mut self) -> &mut LineEdit {
        match self {
            Ask::Value { input, .. } | Ask::Command { input, .. } => input,
            Ask::Search(input) | Ask::Filter(input) => input,
        }
    }

    /// The text before the cursor (to place the terminal's cursor).
    pub fn before_cursor(&self) -> &str {
        match self {
            Ask::Value { input, .. } | Ask::Command { input, .. } => input.before_cursor(),
            Ask::Search(input) | Ask::Filter(input) => input.before_cursor(),
        }
    }
}
