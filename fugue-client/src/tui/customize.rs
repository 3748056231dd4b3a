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
//! Drawing is in `customize_draw.rs`.

use super::input::Request;
use super::prompt::{Edit, LineEdit};
use super::state::{App, Mode, Pending};
use fugue_protocol::keys::{Key, KeyCode, Mods};
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

fn fetch(pane: PaneId) -> Vec<Request> {
    vec![
        show(OptionScope::Server, pane, SERVER),
        show(OptionScope::Session, pane, SESSION),
        show(OptionScope::Window, pane, WINDOW),
        show(OptionScope::Pane, pane, PANE),
    ]
}

/// `customize-mode [-N] [-f filter] [-t pane]` in this client.
pub fn open(app: &mut App, argv: &[String]) -> Result<Vec<Request>, String> {
    let (_, verb) = fugue_verbs::line::parse_argv(argv)?;
    let fugue_verbs::Verb::CustomizeMode(a) = verb else {
        return Err("customize-mode: not a customize-mode line".into());
    };
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
    fn select_first_match(&mut self, keys: &fugue_protocol::KeyTable) {
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

    fn select(&mut self, lines: &[Line], at: usize) {
        if let Some(l) = lines.get(at.min(lines.len().saturating_sub(1))) {
            self.selected = l.item.clone();
        }
    }

    /// The next line after (or before) the selection whose name or value contains
    /// `s`, wrapping round.
    fn find(&mut self, lines: &[Line], s: &str, forward: bool) -> bool {
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

/// The `set-option` flag naming `scope`'s table.
fn scope_flag(scope: OptionScope) -> Option<&'static str> {
    match scope {
        OptionScope::Server => Some("-s"),
        OptionScope::Session => None,
        OptionScope::Window => Some("-w"),
        OptionScope::Pane => Some("-p"),
    }
}

/// `set-option` for the mode's pane: `extra` flags (`-u`, `-g`), the name, a value.
fn set_option(
    pane: PaneId,
    scope: OptionScope,
    extra: &[&str],
    name: &str,
    value: Option<&str>,
) -> Vec<String> {
    let mut argv = vec!["set-option".to_string()];
    argv.extend(scope_flag(scope).map(String::from));
    argv.extend(extra.iter().map(|s| s.to_string()));
    if scope != OptionScope::Server {
        argv.extend(["-t".to_string(), pane.to_string()]);
    }
    argv.push(name.to_string());
    argv.extend(value.map(String::from));
    argv
}

/// A key while the mode is open.
pub fn on_key(app: &mut App, mut c: Box<Customize>, key: Key) -> Vec<Request> {
    app.damage_all();
    if let Some(ask) = c.ask.take() {
        return on_ask(app, c, ask, key);
    }
    let lines = c.lines(&app.keys);
    let n = lines.len();
    let at = c.position(&lines);
    let line = lines.get(at).cloned();
    let ctrl = key.mods.contains(Mods::CTRL);
    let alt = key.mods.contains(Mods::ALT);
    let mut argvs: Vec<Vec<String>> = Vec::new();
    match key.code {
        KeyCode::Char('q') | KeyCode::Escape => return Vec::new(),
        KeyCode::Char('c' | 'g') if ctrl => return Vec::new(),
        KeyCode::Up | KeyCode::Char('k') => c.select(&lines, at.saturating_sub(1)),
        KeyCode::Down | KeyCode::Char('j') => c.select(&lines, at + 1),
        KeyCode::PageUp => c.select(&lines, at.saturating_sub(10)),
        KeyCode::PageDown => c.select(&lines, at + 10),
        KeyCode::Home | KeyCode::Char('g') => c.select(&lines, 0),
        KeyCode::End | KeyCode::Char('G') => c.select(&lines, n.saturating_sub(1)),
        KeyCode::Char('+' | '=') if alt => open_everything(&mut c.open, &app.keys),
        KeyCode::Char('-') if alt => c.open.clear(),
        KeyCode::Right | KeyCode::Char('+' | 'l') => {
            if let Some(l) = &line
                && l.open.is_some()
            {
                c.open.insert(l.item.clone());
            }
        }
        KeyCode::Left | KeyCode::Char('-' | 'h') => {
            if let Some(l) = &line {
                if l.open == Some(true) {
                    c.open.remove(&l.item);
                } else if let Some(parent) = lines[..at].iter().rev().find(|p| p.depth < l.depth) {
                    // On an item: close its branch and stand on it.
                    c.open.remove(&parent.item);
                    c.selected = parent.item.clone();
                }
            }
        }
        KeyCode::Enter | KeyCode::Char('s' | 'S' | 'w') if !ctrl => {
            let global = key.code == KeyCode::Char('S');
            let window = key.code == KeyCode::Char('w');
            match line.as_ref().map(|l| (&l.item, l)) {
                Some((Item::Branch(_) | Item::Table(_), l)) if key.code == KeyCode::Enter => {
                    if l.open == Some(true) {
                        c.open.remove(&l.item);
                    } else {
                        c.open.insert(l.item.clone());
                    }
                }
                Some((Item::Option { scope, name }, l)) => {
                    if window && *scope != OptionScope::Pane {
                        app.notice(format!(
                            "{name} is not a pane option (w sets a pane option for its window)"
                        ));
                    } else if (l.value == "on" || l.value == "off") && !global && !window {
                        // A flag toggles, as tmux's Enter does.
                        let flipped = if l.value == "on" { "off" } else { "on" };
                        argvs.push(set_option(c.pane, *scope, &[], name, Some(flipped)));
                    } else {
                        c.ask = Some(Ask::Value {
                            item: l.item.clone(),
                            global,
                            window,
                            input: LineEdit::new(l.value.clone()),
                        });
                    }
                }
                Some((Item::Key { .. }, l)) if !global && !window => {
                    c.ask = Some(Ask::Command {
                        item: l.item.clone(),
                        input: LineEdit::new(l.value.clone()),
                    });
                }
                _ => {}
            }
        }
        KeyCode::Char('u' | 'd') => {
            if let Some(l) = &line {
                argvs.extend(unset(&c, &l.item, key.code == KeyCode::Char('d'), app));
            }
        }
        KeyCode::Char('U' | 'D') => {
            let reset = key.code == KeyCode::Char('D');
            let tagged: Vec<Item> = lines
                .iter()
                .filter(|l| c.tagged.contains(&l.item))
                .map(|l| l.item.clone())
                .collect();
            for item in &tagged {
                argvs.extend(unset(&c, item, reset, app));
            }
            c.tagged.clear();
        }
        KeyCode::Char('t') if ctrl => {
            c.tagged = lines
                .iter()
                .filter(|l| l.open.is_none())
                .map(|l| l.item.clone())
                .collect();
        }
        KeyCode::Char('t') => {
            if let Some(l) = &line
                && l.open.is_none()
                && !c.tagged.remove(&l.item)
            {
                c.tagged.insert(l.item.clone());
            }
            c.select(&lines, at + 1);
        }
        KeyCode::Char('T') => c.tagged.clear(),
        KeyCode::Char('s') if ctrl => c.ask = Some(Ask::Search(LineEdit::new(String::new()))),
        KeyCode::Char('/') => c.ask = Some(Ask::Search(LineEdit::new(String::new()))),
        KeyCode::Char('n' | 'N') => {
            if let Some(s) = c.search.clone() {
                let all = open_all(&mut c, app);
                if !c.find(&all, &s, key.code == KeyCode::Char('n')) {
                    app.notice(format!("no match for {s}"));
                }
            }
        }
        KeyCode::Char('f') => {
            let current = c.filter.clone().unwrap_or_default();
            c.ask = Some(Ask::Filter(LineEdit::new(current)));
        }
        KeyCode::Char('v') => c.info = !c.info,
        _ => {}
    }
    let pane = c.pane;
    app.mode = Mode::Options(c);
    changed(app, argvs, pane)
}

/// Every branch and key table open.
fn open_everything(open: &mut HashSet<Item>, keys: &fugue_protocol::KeyTable) {
    open.extend(Branch::ALL.map(Item::Branch));
    open.extend(keys.bindings.iter().map(|b| Item::Table(b.table.clone())));
}

/// Opens every branch and table, so a search finds what a closed one hides; the
/// lines as they then are.
fn open_all(c: &mut Customize, app: &App) -> Vec<Line> {
    open_everything(&mut c.open, &app.keys);
    c.lines(&app.keys)
}

/// `u` (unset, or unbind a key) and `d` (an option back to its default: unset here
/// and globally) for one item.
fn unset(c: &Customize, item: &Item, reset: bool, app: &mut App) -> Vec<Vec<String>> {
    match item {
        Item::Option { scope, name } => {
            let mut v = vec![set_option(c.pane, *scope, &["-u"], name, None)];
            if reset && *scope != OptionScope::Server {
                v.push(set_option(c.pane, *scope, &["-gu"], name, None));
            }
            v
        }
        Item::Key { table, key } if !reset => vec![vec![
            "unbind-key".into(),
            "-T".into(),
            table.clone(),
            key.clone(),
        ]],
        Item::Key { .. } => {
            app.notice("d: a key's default binding is not known here; u unbinds it".to_string());
            Vec::new()
        }
        Item::Branch(_) | Item::Table(_) => Vec::new(),
    }
}

/// Sends `argvs` (each after the one before succeeded) and asks for the options
/// again, so the tree shows what the server now holds.
fn changed(app: &mut App, argvs: Vec<Vec<String>>, pane: PaneId) -> Vec<Request> {
    if argvs.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for argv in argvs {
        match super::bound::command_request(&argv) {
            Ok(r) => out.push(r),
            Err(e) => {
                app.notice(e);
                return Vec::new();
            }
        }
    }
    out.extend(fetch(pane));
    super::command_prompt::chain(out)
}

/// A key while the bottom line asks something.
fn on_ask(app: &mut App, mut c: Box<Customize>, ask: Ask, key: Key) -> Vec<Request> {
    let pane = c.pane;
    match ask {
        Ask::Value {
            item,
            global,
            window,
            mut input,
        } => match input.key(key) {
            Edit::Done => {
                if let Item::Option { scope, name } = &item {
                    let (scope, extra): (OptionScope, &[&str]) = match (global, window) {
                        (true, _) => (*scope, &["-g"]),
                        (_, true) => (OptionScope::Window, &[]),
                        _ => (*scope, &[]),
                    };
                    let argv = set_option(pane, scope, extra, name, Some(input.text()));
                    app.mode = Mode::Options(c);
                    return changed(app, vec![argv], pane);
                }
            }
            Edit::Cancelled => {}
            Edit::Editing => {
                c.ask = Some(Ask::Value {
                    item,
                    global,
                    window,
                    input,
                })
            }
        },
        Ask::Command { item, mut input } => match input.key(key) {
            Edit::Done => {
                if let Item::Key { table, key } = &item
                    && !input.text().trim().is_empty()
                {
                    // The text whole, one word: bind-key parses it as one command
                    // list (`a ; b` binds both, as tmux's editor does). -r and the
                    // note stay.
                    let old = app
                        .keys
                        .bindings
                        .iter()
                        .find(|b| &b.table == table && b.key.to_string() == *key);
                    let mut argv = vec!["bind-key".to_string()];
                    if old.is_some_and(|b| b.repeat) {
                        argv.push("-r".into());
                    }
                    if let Some(note) = old.and_then(|b| b.note.clone()) {
                        argv.extend(["-N".to_string(), note]);
                    }
                    argv.extend(["-T".to_string(), table.clone(), key.clone()]);
                    argv.push(input.text().to_string());
                    app.mode = Mode::Options(c);
                    return changed(app, vec![argv], pane);
                }
            }
            Edit::Cancelled => {}
            Edit::Editing => c.ask = Some(Ask::Command { item, input }),
        },
        Ask::Search(mut input) => match input.key(key) {
            Edit::Done => {
                let s = input.text().to_string();
                if !s.is_empty() {
                    let all = open_all(&mut c, app);
                    if !c.find(&all, &s, true) {
                        app.notice(format!("no match for {s}"));
                    }
                    c.search = Some(s);
                }
            }
            Edit::Cancelled => {}
            Edit::Editing => c.ask = Some(Ask::Search(input)),
        },
        Ask::Filter(mut input) => match input.key(key) {
            Edit::Done => {
                let f = input.text().to_string();
                c.filter = (!f.is_empty()).then_some(f);
                if c.filter.is_some() {
                    open_everything(&mut c.open, &app.keys);
                    c.select_first_match(&app.keys);
                }
            }
            Edit::Cancelled => {}
            Edit::Editing => c.ask = Some(Ask::Filter(input)),
        },
    }
    app.mode = Mode::Options(c);
    Vec::new()
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
