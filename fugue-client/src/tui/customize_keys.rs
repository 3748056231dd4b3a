//! `customize-mode`'s keys (`customize.rs` holds the tree): moving, opening and
//! closing branches, and the changes, each an ordinary `set-option`, `bind-key` or
//! `unbind-key` sent through the dispatcher, after which the options are asked for
//! again.

use super::customize::{Ask, Customize, Item, Line, fetch, open_everything};
use super::input::Request;
use super::prompt::{Edit, LineEdit};
use super::state::{App, Mode};
use fugue_protocol::PaneId;
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::options::OptionScope;

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
