//! Keys of the tree (`tree.rs`): tmux's mode-tree and window-tree keys, and fugue's
//! `R` (rename). The list of keys is in tree.rs's header and docs/tmux.md.

use super::input::Request;
use super::prompt::{Edit, LineEdit};
use super::state::{App, Mode, Pending};
use super::tree::{Ask, Node, Sort, Tree, fetch_all};
use fugue_protocol::cmd;
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::{Command, Target};

/// tmux's default template for the tree.
const DEFAULT_TEMPLATE: &str = "switch-client -t '%%'";

fn kill(node: Node) -> Request {
    let command = match node {
        Node::Session(s) => Command::KillSession(cmd::KillSession {
            target: Some(Target::SessionId(s)),
        }),
        Node::Window(w) => Command::KillWindow(cmd::KillWindow {
            target: Some(Target::Window(w)),
        }),
        Node::Pane(p) => Command::KillPane(cmd::KillPane {
            target: Some(Target::Pane(p)),
        }),
    };
    let what = command.name();
    Request {
        command,
        pending: Pending::Action(what),
    }
}

fn rename(node: Node, name: String) -> Request {
    let command = match node {
        Node::Session(s) => Command::RenameSession(cmd::RenameSession {
            target: Some(Target::SessionId(s)),
            name,
        }),
        Node::Window(w) => Command::RenameWindow(cmd::RenameWindow {
            target: Some(Target::Window(w)),
            name,
        }),
        Node::Pane(p) => Command::SetPaneTitle(cmd::SetPaneTitle {
            target: Some(Target::Pane(p)),
            title: name,
        }),
    };
    let what = command.name();
    Request {
        command,
        pending: Pending::Action(what),
    }
}

/// The tagged items, in the order shown.
fn tagged(tree: &Tree) -> Vec<Node> {
    tree.lines
        .iter()
        .map(|l| l.node)
        .filter(|n| tree.tagged.contains(n))
        .collect()
}

/// Runs the template on `nodes` (the tree is left first, as tmux leaves its mode).
fn choose(app: &mut App, tree: &Tree, nodes: Vec<Node>) -> Vec<Request> {
    let template = match tree.args.template.as_slice() {
        [] => DEFAULT_TEMPLATE.to_string(),
        [one] => one.clone(),
        words => fugue_protocol::tmux_cmd::print_sequence(&[words.to_vec()]),
    };
    let mut out = Vec::new();
    for n in nodes {
        out.extend(app.run_line(&fugue_verbs::tree::substitute(&template, &n.target())));
    }
    out
}

/// A key while the tree is open.
pub fn on_key(app: &mut App, mut tree: Box<Tree>, key: Key) -> Vec<Request> {
    app.damage_all();
    if !tree.loaded() {
        if matches!(key.code, KeyCode::Char('q') | KeyCode::Escape) {
            return Vec::new();
        }
        if tree.typeahead.len() < super::tree::MAX_TYPEAHEAD {
            tree.typeahead.push(key);
        }
        app.mode = Mode::Tree(tree);
        return Vec::new();
    }
    if let Some(ask) = tree.ask.take() {
        return on_ask(app, tree, ask, key);
    }
    let n = tree.lines.len();
    let at = tree.position();
    let page = usize::from(app.page().max(1));
    let ctrl = key.mods.contains(Mods::CTRL);
    let alt = key.mods.contains(Mods::ALT) || key.mods.contains(Mods::META);
    let mut out = Vec::new();
    match key.code {
        KeyCode::Char('q') | KeyCode::Escape if !ctrl => return Vec::new(),
        KeyCode::Char('g' | 'c' | '[') if ctrl => return Vec::new(),
        KeyCode::Up | KeyCode::Char('k') if !ctrl && n > 0 => tree.select_at((at + n - 1) % n),
        KeyCode::Char('p') if ctrl && n > 0 => tree.select_at((at + n - 1) % n),
        KeyCode::Down | KeyCode::Char('j') if !ctrl && n > 0 => tree.select_at((at + 1) % n),
        KeyCode::Char('n') if ctrl && n > 0 => tree.select_at((at + 1) % n),
        KeyCode::PageUp => tree.select_at(at.saturating_sub(page)),
        KeyCode::Char('b') if ctrl => tree.select_at(at.saturating_sub(page)),
        KeyCode::PageDown => tree.select_at((at + page).min(n.saturating_sub(1))),
        KeyCode::Char('f') if ctrl => tree.select_at((at + page).min(n.saturating_sub(1))),
        KeyCode::Home | KeyCode::Char('g') => tree.select_at(0),
        KeyCode::End | KeyCode::Char('G') => tree.select_at(n.saturating_sub(1)),
        KeyCode::Char('-') if alt => {
            let all: Vec<Node> = tree
                .lines
                .iter()
                .filter(|l| l.depth == 0)
                .map(|l| l.node)
                .collect();
            tree.collapsed.extend(all);
            tree.build();
        }
        KeyCode::Char('+') if alt => {
            tree.collapsed.clear();
            tree.build();
        }
        KeyCode::Left | KeyCode::Char('h' | '-') if !ctrl => {
            if let Some(l) = tree.lines.get(at).cloned() {
                if l.expanded == Some(true) {
                    tree.collapsed.insert(l.node);
                    tree.build();
                } else if let Some(p) = tree.parent(l.node) {
                    tree.selected = Some(p);
                }
            }
        }
        KeyCode::Right | KeyCode::Char('l' | '+') if !ctrl => {
            if let Some(l) = tree.lines.get(at).cloned()
                && l.expanded == Some(false)
            {
                tree.collapsed.remove(&l.node);
                tree.build();
            }
        }
        KeyCode::Char('t') if ctrl => {
            let all: Vec<Node> = tree.lines.iter().map(|l| l.node).collect();
            tree.tagged.extend(all);
        }
        KeyCode::Char('t') => {
            if let Some(s) = tree.selected
                && !tree.tagged.remove(&s)
            {
                tree.tagged.insert(s);
            }
            if n > 0 {
                tree.select_at((at + 1).min(n - 1));
            }
        }
        KeyCode::Char('T') => tree.tagged.clear(),
        KeyCode::Char('v') => tree.preview = !tree.preview,
        // tmux's H: back to the client's own pane, its session and window opened.
        KeyCode::Char('H') => {
            let pane = app.active_pane();
            tree.select_current(pane, app.layout.as_ref().map(|l| l.session));
        }
        KeyCode::Char('r') if !ctrl => {
            tree.reverse = !tree.reverse;
            tree.build();
        }
        KeyCode::Char('O') => {
            tree.sort = match tree.sort {
                Sort::Index => Sort::Name,
                Sort::Name => Sort::Time,
                Sort::Time => Sort::Index,
            };
            tree.build();
        }
        KeyCode::Char('x') if !ctrl => {
            if let Some(s) = tree.selected {
                tree.ask = Some(Ask::Kill(vec![s]));
            }
        }
        KeyCode::Char('X') => {
            let tagged = tagged(&tree);
            if !tagged.is_empty() {
                tree.ask = Some(Ask::Kill(tagged));
            }
        }
        // fugue's own: rename the selected item.
        KeyCode::Char('R') => {
            if let Some(l) = tree.lines.get(at) {
                let current = match l.node {
                    Node::Window(_) => tree
                        .panes
                        .iter()
                        .flatten()
                        .find(|p| Node::Window(p.window_id) == l.node)
                        .map(|p| p.window_name.clone())
                        .unwrap_or_default(),
                    Node::Pane(id) => tree
                        .panes
                        .iter()
                        .flatten()
                        .find(|p| p.id == id)
                        .map(|p| p.title.clone())
                        .unwrap_or_default(),
                    Node::Session(_) => l.name.clone(),
                };
                tree.ask = Some(Ask::Rename(l.node, LineEdit::new(current)));
            }
        }
        KeyCode::Char('f') if !ctrl => {
            let current = tree.args.filter.clone().unwrap_or_default();
            tree.ask = Some(Ask::Filter(LineEdit::new(current)));
        }
        KeyCode::Char(':') => {
            let mut nodes = tagged(&tree);
            if nodes.is_empty() {
                nodes.extend(tree.selected);
            }
            if !nodes.is_empty() {
                tree.ask = Some(Ask::Command(nodes, LineEdit::new(String::new())));
            }
        }
        KeyCode::Char('/') => tree.ask = Some(Ask::Search(LineEdit::new(String::new()))),
        KeyCode::Char('s') if ctrl => tree.ask = Some(Ask::Search(LineEdit::new(String::new()))),
        KeyCode::Char('n') => {
            if let Some(s) = tree.search.clone() {
                tree.find_next(&s, true);
            }
        }
        KeyCode::Char('N') => {
            if let Some(s) = tree.search.clone() {
                tree.find_next(&s, false);
            }
        }
        KeyCode::Char(c @ '0'..='9') if !ctrl && !alt => {
            let i = usize::from(c as u8 - b'0');
            if let Some(l) = tree.lines.get(i) {
                let node = l.node;
                return choose(app, &tree, vec![node]);
            }
        }
        KeyCode::Enter => {
            let tagged = tagged(&tree);
            let nodes = if tagged.is_empty() {
                tree.selected.into_iter().collect()
            } else {
                tagged
            };
            return choose(app, &tree, nodes);
        }
        _ => {}
    }
    if tree.selected.is_some() && tree.position() != at {
        tree.previews.clear();
        tree.recapturing.clear();
        tree.dirty.clear();
    }
    out.extend(tree.preview_requests());
    app.mode = Mode::Tree(tree);
    out
}

/// A key while the tree asks something (kill? a new name, a search).
fn on_ask(app: &mut App, mut tree: Box<Tree>, ask: Ask, key: Key) -> Vec<Request> {
    let mut out = Vec::new();
    match ask {
        Ask::Kill(nodes) => {
            // tmux's single-key answer: y or Y kills, anything else declines.
            if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                out.extend(nodes.into_iter().map(kill));
                tree.tagged.clear();
                out.extend(fetch_all());
            }
        }
        Ask::Rename(node, mut input) => match input.key(key) {
            Edit::Done => {
                let name = input.text().trim().to_string();
                if !name.is_empty() {
                    out.push(rename(node, name));
                    out.extend(fetch_all());
                }
            }
            Edit::Cancelled => {}
            Edit::Editing => tree.ask = Some(Ask::Rename(node, input)),
        },
        Ask::Filter(mut input) => match input.key(key) {
            Edit::Done => {
                let f = input.text().trim().to_string();
                tree.args.filter = (!f.is_empty()).then_some(f);
                tree.build();
                tree.keep_selection();
                tree.previews.clear();
                tree.recapturing.clear();
                tree.dirty.clear();
                out.extend(tree.preview_requests());
            }
            Edit::Cancelled => {}
            Edit::Editing => tree.ask = Some(Ask::Filter(input)),
        },
        Ask::Command(nodes, mut input) => match input.key(key) {
            Edit::Done => {
                let line = input.text().trim().to_string();
                if !line.is_empty() {
                    for n in &nodes {
                        let one = fugue_verbs::tree::substitute(&line, &n.target());
                        out.extend(app.run_line(&one));
                    }
                    out.extend(fetch_all());
                }
            }
            Edit::Cancelled => {}
            Edit::Editing => tree.ask = Some(Ask::Command(nodes, input)),
        },
        Ask::Search(mut input) => match input.key(key) {
            Edit::Done => {
                let s = input.text().to_string();
                tree.find_next(&s, true);
                tree.search = Some(s);
                tree.previews.clear();
                tree.recapturing.clear();
                tree.dirty.clear();
                out.extend(tree.preview_requests());
            }
            Edit::Cancelled => {}
            Edit::Editing => tree.ask = Some(Ask::Search(input)),
        },
    }
    app.mode = Mode::Tree(tree);
    super::command_prompt::chain(out)
}

impl Ask {
    /// The prompt and its text for the status line.
    pub fn shown(&self, tree: &Tree) -> (String, String) {
        match self {
            Ask::Kill(nodes) => (tree.kill_question(nodes).unwrap_or_default(), String::new()),
            Ask::Rename(_, input) => ("(rename) ".into(), input.text().to_string()),
            Ask::Search(input) => ("(search) ".into(), input.text().to_string()),
            Ask::Filter(input) => ("(filter) ".into(), input.text().to_string()),
            Ask::Command(nodes, input) => (
                if nodes.len() > 1 || nodes.first().is_some_and(|n| tree.tagged.contains(n)) {
                    format!("({} tagged) ", nodes.len())
                } else {
                    "(current) ".into()
                },
                input.text().to_string(),
            ),
        }
    }
}

/// How close two clicks on a line are to be a double click.
const DOUBLE_CLICK: std::time::Duration = std::time::Duration::from_millis(500);

/// The mouse over the tree, as tmux's mode-tree: a click selects a line, a double
/// click chooses it, the wheel moves the selection; elsewhere nothing.
pub fn on_mouse(
    app: &mut App,
    mut tree: Box<Tree>,
    ev: fugue_protocol::mouse::MouseEvent,
    area: ratatui::layout::Rect,
) -> Vec<Request> {
    use fugue_protocol::mouse::{MouseAction, MouseButton};
    app.damage_all();
    let n = tree.lines.len();
    let at = tree.position();
    match ev.action {
        MouseAction::ScrollUp if n > 0 && tree.ask.is_none() => {
            tree.select_at(at.saturating_sub(1));
        }
        MouseAction::ScrollDown if n > 0 && tree.ask.is_none() => {
            tree.select_at((at + 1).min(n - 1));
        }
        MouseAction::Down(MouseButton::Left) if tree.ask.is_none() => {
            let (top, h) = super::tree_draw::shown_lines(&tree, area);
            let line = ev
                .row
                .checked_sub(area.y)
                .filter(|r| *r < h && ev.col >= area.x && ev.col < area.right())
                .map(|r| top + usize::from(r))
                .filter(|i| *i < n);
            if let Some(i) = line {
                let now = std::time::Instant::now();
                let double = tree
                    .last_click
                    .is_some_and(|(j, when)| j == i && now.duration_since(when) < DOUBLE_CLICK);
                tree.select_at(i);
                tree.last_click = Some((i, now));
                if double && let Some(node) = tree.selected {
                    return choose(app, &tree, vec![node]);
                }
            }
        }
        _ => {}
    }
    if tree.position() != at {
        tree.previews.clear();
        tree.recapturing.clear();
        tree.dirty.clear();
    }
    let out = tree.preview_requests();
    app.mode = Mode::Tree(tree);
    out
}
