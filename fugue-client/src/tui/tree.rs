//! `choose-tree` (`C-b s`, `C-b w`) and `find-window` (`C-b f`): sessions, their
//! windows and their panes as a tree over the panes, with a preview of the selected
//! item below it, as tmux's tree mode. Keys are tmux's mode-tree keys: Up/Down (k/j,
//! C-p/C-n) move, PgUp/PgDn page, g/G (Home/End) the ends, Left/Right (h/l, -/+)
//! collapse and expand (M--/M-+ all), 0-9 choose the item so numbered, Enter chooses
//! (the template runs on the tagged items, else the selected one), t tags (T none,
//! C-t all), x kills the selected item after a y, X the tagged ones, / or C-s
//! searches (n/N again), v hides the preview, O changes the sort order and r reverses
//! it, f filters (a format), `:` runs a command for the tagged (or selected) items,
//! q or Escape leaves. fugue adds `R`, rename (tmux has no key for it): a prompt
//! with the session's or window's name (a pane's title), Enter renames.
//!
//! The tree is built from the server's `list-sessions` and `list-panes -a` answers;
//! `find-window`'s content matches come from `search-panes`. The items' targets are
//! their ids (`$1`, `@2`, `%3`), which every command takes; tmux puts
//! `=session:window.%pane`, the same objects.

use super::input::Request;
use super::state::{App, Mode, Pending};
use fugue_protocol::cmd;
use fugue_protocol::flags::{ChooseTree, FindWindow};
use fugue_protocol::{
    CapturePane, Command, PaneId, PaneInfo, PaneScope, Response, SessionId, SessionInfo, Target,
    WindowId,
};
use std::collections::HashSet;

/// Panes one preview shows at most (a window's panes, a session's windows, side by
/// side; tmux shows as many as fit 24 columns each).
pub const MAX_PREVIEWS: usize = 16;
/// Keys kept while the tree waits for the server (more are dropped).
pub const MAX_TYPEAHEAD: usize = 32;
/// Matches `find-window -C` asks the server for at most (one per pane is enough).
const MAX_CONTENT_MATCHES: u32 = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    Session(SessionId),
    Window(WindowId),
    Pane(PaneId),
}

impl Node {
    /// The item's target in a template (its id).
    pub fn target(self) -> String {
        match self {
            Node::Session(s) => s.to_string(),
            Node::Window(w) => w.to_string(),
            Node::Pane(p) => p.to_string(),
        }
    }
}

/// One line of the tree as shown.
#[derive(Clone, Debug)]
pub struct Line {
    pub node: Node,
    pub depth: u8,
    /// Its children, when it has any: expanded or not.
    pub expanded: Option<bool>,
    /// The last of its siblings (`└─>` rather than `├─>`).
    pub last: bool,
    /// A sibling has children (leaves are then indented past the sign, as tmux's).
    pub pad: bool,
    pub name: String,
    pub text: String,
}

/// One pane of the preview.
#[derive(Clone, Debug)]
pub struct Shown {
    pub pane: PaneInfo,
    /// The index drawn in a box over it (a window's pane, a session's window).
    pub label: Option<u32>,
    /// Labelled in `display-panes-active-colour` (else `display-panes-colour`).
    pub active: bool,
}

/// What a question or prompt at the bottom of the tree is for.
#[derive(Debug)]
pub enum Ask {
    Kill(Vec<Node>),
    Rename(Node, super::prompt::LineEdit),
    Search(super::prompt::LineEdit),
    /// `f`: a format; only the panes it is true for show (empty: all).
    Filter(super::prompt::LineEdit),
    /// `:`: a command line run for each of these items (`%%` the item).
    Command(Vec<Node>, super::prompt::LineEdit),
}

/// What a request of the tree brings back.
#[derive(Debug)]
pub enum Fetch {
    Sessions,
    Panes,
    Found,
    Preview(PaneId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sort {
    Index,
    Name,
    Time,
}

impl Sort {
    pub fn name(self) -> &'static str {
        match self {
            Sort::Index => "index",
            Sort::Name => "name",
            Sort::Time => "time",
        }
    }
}

#[derive(Debug)]
pub struct Tree {
    pub args: ChooseTree,
    pub find: Option<FindWindow>,
    pub sessions: Option<Vec<SessionInfo>>,
    pub panes: Option<Vec<PaneInfo>>,
    /// Panes whose content matched (find-window -C); None until the server answered.
    pub found: Option<HashSet<PaneId>>,
    pub collapsed: HashSet<Node>,
    pub tagged: HashSet<Node>,
    pub selected: Option<Node>,
    pub lines: Vec<Line>,
    pub ask: Option<Ask>,
    pub search: Option<String>,
    pub sort: Sort,
    pub reverse: bool,
    pub preview: bool,
    /// The previewed panes' screens as captured (at most [`MAX_PREVIEWS`]).
    pub previews: std::collections::HashMap<PaneId, String>,
    /// The last left click on a line and when: a second one there soon after is a
    /// double click, which chooses (tmux's `DoubleClick1Pane`).
    pub last_click: Option<(usize, std::time::Instant)>,
    /// Keys typed before the server's lists came (at most [`MAX_TYPEAHEAD`]),
    /// handled when they come.
    pub typeahead: Vec<fugue_protocol::keys::Key>,
    /// Previewed panes being captured again after output, and those whose output
    /// came meanwhile (captured once more when the answer comes): the preview follows
    /// a pane's output with at most one capture in flight per pane.
    pub recapturing: HashSet<PaneId>,
    pub dirty: HashSet<PaneId>,
}

/// `choose-tree ...` or `find-window ...` (or tmux's aliases) as the verb table
/// parses them; opens the tree and asks the server for what it shows.
pub fn open(app: &mut App, argv: &[String]) -> Result<Vec<Request>, String> {
    let mut argv = argv.to_vec();
    // tmux's default command-alias entries.
    let flag = match argv.first().map(String::as_str) {
        Some("choose-window") => Some("-w"),
        Some("choose-session") => Some("-s"),
        _ => None,
    };
    if let Some(flag) = flag {
        argv.splice(0..1, ["choose-tree".to_string(), flag.to_string()]);
    }
    let d = fugue_verbs::line::parse_declared(&argv)?;
    let (args, find) = match &d.0 {
        Command::ChooseTree(_) => (d.flags::<ChooseTree>()?, None),
        Command::FindWindow(_) => {
            let f: FindWindow = d.flags()?;
            let args = ChooseTree {
                zoom: f.zoom,
                ..Default::default()
            };
            (args, Some(f))
        }
        _ => return Err("choose-tree: not a tree".into()),
    };
    if let Some(f) = &find {
        regex::Regex::new(&regex_source(f)).map_err(|e| format!("find-window: {e}"))?;
    }
    let sort = match args.sort.as_deref() {
        None | Some("index") => Sort::Index,
        Some("name") => Sort::Name,
        Some("time") => Sort::Time,
        Some(o) => return Err(format!("choose-tree: unknown sort order `{o}`")),
    };
    let want_content = find.as_ref().is_some_and(|f| fields(f).0);
    let tree = Tree {
        reverse: args.reverse,
        preview: !args.no_preview,
        args,
        find,
        sessions: None,
        panes: None,
        found: (!want_content).then(HashSet::new),
        collapsed: HashSet::new(),
        tagged: HashSet::new(),
        selected: None,
        lines: Vec::new(),
        ask: None,
        search: None,
        sort,
        previews: Default::default(),
        last_click: None,
        typeahead: Vec::new(),
        recapturing: HashSet::new(),
        dirty: HashSet::new(),
    };
    let mut out = fetch_all();
    if want_content && let Some(f) = &tree.find {
        out.push(request(
            Command::SearchPanes(fugue_protocol::SearchPanes {
                pattern: regex_source(f),
                targets: Vec::new(),
                history: false,
                offset: 0,
                limit: MAX_CONTENT_MATCHES,
                from_line: None,
                backward: false,
                absolute: false,
            }),
            Fetch::Found,
        ));
    }
    app.mode = Mode::Tree(Box::new(tree));
    app.damage_all();
    Ok(out)
}

fn request(command: Command, fetch: Fetch) -> Request {
    Request {
        command,
        pending: Pending::Tree(fetch),
    }
}

/// The sessions and every pane, again (after a kill or a rename too).
pub(super) fn fetch_all() -> Vec<Request> {
    vec![
        request(Command::ListSessions, Fetch::Sessions),
        request(
            Command::ListPanes(cmd::ListPanes {
                target: None,
                scope: PaneScope::All,
                values: Vec::new(),
            }),
            Fetch::Panes,
        ),
    ]
}

pub(super) fn preview_request(pane: PaneId) -> Request {
    request(
        Command::CapturePane(CapturePane {
            target: Some(Target::Pane(pane)),
            start: None,
            end: None,
            escapes: false,
            join: false,
            ..CapturePane::default()
        }),
        Fetch::Preview(pane),
    )
}

/// The server's answer to one of the tree's requests.
pub fn reply(
    app: &mut App,
    fetch: Fetch,
    result: Result<Response, fugue_protocol::CommandError>,
) -> Vec<Request> {
    let current = app.active_pane();
    let session = app.layout.as_ref().map(|l| l.session);
    let Mode::Tree(tree) = &mut app.mode else {
        return Vec::new();
    };
    match (fetch, result) {
        (Fetch::Sessions, Ok(Response::Sessions(list))) => tree.sessions = Some(list),
        (Fetch::Panes, Ok(Response::Panes(list))) => tree.panes = Some(list),
        (Fetch::Found, Ok(Response::Found(found))) => {
            tree.found = Some(found.matches.iter().map(|m| m.pane).collect());
        }
        (Fetch::Found, Err(_)) => tree.found = Some(HashSet::new()),
        (Fetch::Preview(p), Ok(Response::Captured(text))) => {
            // Only a pane still shown (the selection may have moved on).
            if tree.preview_items().iter().any(|s| s.pane.id == p) {
                tree.previews.insert(p, text);
            }
            tree.recapturing.remove(&p);
            if tree.dirty.remove(&p) && tree.previews.contains_key(&p) {
                tree.recapturing.insert(p);
                app.damage_all();
                return vec![preview_request(p)];
            }
            app.damage_all();
            return Vec::new();
        }
        (_, Err(e)) => {
            let text = format!("choose-tree: {}", e.display_with_suggestion());
            app.notice(text);
            return Vec::new();
        }
        _ => return Vec::new(),
    }
    if tree.sessions.is_none() || tree.panes.is_none() || tree.found.is_none() {
        return Vec::new();
    }
    let first = tree.lines.is_empty() && tree.selected.is_none();
    if first {
        tree.start_expanded();
    }
    tree.build();
    if first {
        // The client's own pane (or what of it is shown), as tmux starts.
        let here = [
            current.map(Node::Pane),
            tree.window_of(current).map(Node::Window),
            session.map(Node::Session),
        ];
        tree.selected = here
            .into_iter()
            .flatten()
            .find(|n| tree.lines.iter().any(|l| l.node == *n));
        // find-window: the first window found, unless the client's own matched.
        if tree.find.is_some() && !matches!(tree.selected, Some(Node::Pane(_) | Node::Window(_))) {
            tree.selected = tree.lines.iter().find(|l| l.depth == 1).map(|l| l.node);
        }
    }
    tree.keep_selection();
    if tree.lines.is_empty() && tree.find.is_some() {
        let pattern = tree.find.as_ref().map(|f| f.pattern.clone());
        app.mode = Mode::Normal;
        app.notice(format!(
            "no windows matching: {}",
            pattern.unwrap_or_default()
        ));
        return Vec::new();
    }
    let mut out = tree.preview_requests();
    let typed = std::mem::take(&mut tree.typeahead);
    app.damage_all();
    // Keys typed before the tree was there, in order (Enter right after C-b w).
    for key in typed {
        let Mode::Tree(tree) = std::mem::replace(&mut app.mode, Mode::Normal) else {
            break;
        };
        out.extend(super::tree_keys::on_key(app, tree, key));
    }
    out
}

/// Output came in these panes (a frame): previewed ones are captured again.
pub fn panes_changed(app: &mut App, panes: &[PaneId]) -> Vec<Request> {
    let Mode::Tree(tree) = &mut app.mode else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for p in panes.iter().filter(|p| tree.previews.contains_key(p)) {
        if tree.recapturing.contains(p) {
            tree.dirty.insert(*p);
        } else {
            tree.recapturing.insert(*p);
            out.push(preview_request(*p));
        }
    }
    out
}

impl Tree {
    /// Selects the client's own pane (tmux's `H`), opening its session and window.
    pub(super) fn select_current(&mut self, pane: Option<PaneId>, session: Option<SessionId>) {
        let window = self.window_of(pane);
        if let Some(s) = session {
            self.collapsed.remove(&Node::Session(s));
        }
        if let Some(w) = window {
            self.collapsed.remove(&Node::Window(w));
        }
        self.build();
        self.selected = [
            pane.map(Node::Pane),
            window.map(Node::Window),
            session.map(Node::Session),
        ]
        .into_iter()
        .flatten()
        .find(|n| self.lines.iter().any(|l| l.node == *n))
        .or(self.selected);
    }

    fn window_of(&self, pane: Option<PaneId>) -> Option<WindowId> {
        let pane = pane?;
        self.panes
            .as_ref()?
            .iter()
            .find(|p| p.id == pane)
            .map(|p| p.window_id)
    }

    /// tmux's starting state: -s sessions collapsed; -w windows collapsed; neither
    /// everything open. The client's own session and window are opened so its pane
    /// can be selected.
    fn start_expanded(&mut self) {
        if self.find.is_some() {
            return;
        }
        let panes = self.panes.as_deref().unwrap_or_default();
        if self.args.sessions {
            self.collapsed
                .extend(panes.iter().map(|p| Node::Session(p.session_id)));
        } else if self.args.windows {
            self.collapsed
                .extend(panes.iter().map(|p| Node::Window(p.window_id)));
        }
    }

    /// Does the pane pass `-f` and find-window's match?
    fn shows(&self, p: &PaneInfo, snap: &fugue_protocol::format::vars::Snapshot) -> bool {
        if let Some(f) = &self.args.filter {
            let v = fugue_protocol::format::expand(f, &snap.pane(p.id));
            if v.is_empty() || v == "0" {
                return false;
            }
        }
        let Some(f) = &self.find else {
            return true;
        };
        let (content, name, title) = fields(f);
        let Ok(re) = regex::Regex::new(&regex_source(f)) else {
            return false;
        };
        (content && self.found.as_ref().is_some_and(|s| s.contains(&p.id)))
            || (name && re.is_match(&p.window_name))
            || (title && re.is_match(&p.title))
    }

    /// The lines from the server's lists, the sort and what is collapsed.
    pub fn build(&mut self) {
        let sessions = self.sessions.clone().unwrap_or_default();
        let mut panes = self.panes.clone().unwrap_or_default();
        let snap = crate::cli::format::snapshot(sessions.clone(), panes.clone(), Vec::new());
        panes.retain(|p| self.shows(p, &snap));
        let mut ss: Vec<&SessionInfo> = sessions
            .iter()
            .filter(|s| panes.iter().any(|p| p.session_id == s.id))
            .collect();
        match self.sort {
            Sort::Name | Sort::Index => ss.sort_by(|a, b| a.name.cmp(&b.name)),
            Sort::Time => ss.sort_by_key(|s| std::cmp::Reverse(s.created)),
        }
        if self.reverse {
            ss.reverse();
        }
        let mut lines = Vec::new();
        let fmt = self.args.format.clone();
        let label = |node: Node, fallback: String| match &fmt {
            Some(f) => fugue_protocol::format::expand(
                f,
                &match node {
                    Node::Session(s) => snap.session(s),
                    Node::Window(w) => snap.window(w),
                    Node::Pane(p) => snap.pane(p),
                },
            ),
            None => fallback,
        };
        let host = crate::cli::format::host();
        let s_count = ss.len();
        for (si, s) in ss.iter().enumerate() {
            let node = Node::Session(s.id);
            let open = !self.collapsed.contains(&node);
            lines.push(Line {
                node,
                depth: 0,
                expanded: Some(open),
                last: si + 1 == s_count,
                pad: true,
                name: s.name.clone(),
                text: label(
                    node,
                    format!(
                        "{} windows{}",
                        s.windows,
                        if s.attached > 0 { " (attached)" } else { "" }
                    ),
                ),
            });
            if !open {
                continue;
            }
            let mut windows: Vec<&PaneInfo> = Vec::new();
            for p in panes.iter().filter(|p| p.session_id == s.id) {
                if !windows.iter().any(|w| w.window_id == p.window_id) {
                    windows.push(p);
                }
            }
            match self.sort {
                Sort::Name => windows.sort_by(|a, b| a.window_name.cmp(&b.window_name)),
                _ => windows.sort_by_key(|w| w.window_index),
            }
            if self.reverse {
                windows.reverse();
            }
            let w_count = windows.len();
            let in_window = |w: WindowId| -> Vec<&PaneInfo> {
                let mut v: Vec<&PaneInfo> = panes.iter().filter(|p| p.window_id == w).collect();
                v.sort_by_key(|p| p.index);
                if self.reverse {
                    v.reverse();
                }
                v
            };
            let w_pad = windows.iter().any(|w| in_window(w.window_id).len() > 1);
            for (wi, w) in windows.iter().enumerate() {
                let node = Node::Window(w.window_id);
                let kids = in_window(w.window_id);
                let has = kids.len() > 1;
                let open = has && !self.collapsed.contains(&node);
                let flags = window_flags(w);
                let title = match kids.as_slice() {
                    [one] if set_title(one, &host) => format!(": \"{}\"", one.title),
                    _ => String::new(),
                };
                lines.push(Line {
                    node,
                    depth: 1,
                    expanded: has.then_some(open),
                    last: wi + 1 == w_count,
                    pad: w_pad,
                    name: w.window_index.to_string(),
                    text: label(node, format!("{}{flags}{title}", w.window_name)),
                });
                if !open {
                    continue;
                }
                let p_count = kids.len();
                for (pi, p) in kids.iter().enumerate() {
                    let node = Node::Pane(p.id);
                    let title = if set_title(p, &host) {
                        format!(": \"{}\"", p.title)
                    } else {
                        String::new()
                    };
                    lines.push(Line {
                        node,
                        depth: 2,
                        expanded: None,
                        last: pi + 1 == p_count,
                        pad: false,
                        name: p.index.to_string(),
                        text: label(
                            node,
                            format!("{}{}{title}", p.command, if p.active { "*" } else { "" }),
                        ),
                    });
                }
            }
        }
        self.lines = lines;
    }

    /// Keeps the selection on a line that exists (the first, when it went).
    pub(super) fn keep_selection(&mut self) {
        if !self
            .selected
            .is_some_and(|s| self.lines.iter().any(|l| l.node == s))
        {
            self.selected = self.lines.first().map(|l| l.node);
        }
    }

    /// The server's lists (and find-window's matches) have come.
    pub fn loaded(&self) -> bool {
        self.sessions.is_some() && self.panes.is_some() && self.found.is_some()
    }

    pub fn position(&self) -> usize {
        self.selected
            .and_then(|s| self.lines.iter().position(|l| l.node == s))
            .unwrap_or(0)
    }

    pub(super) fn select_at(&mut self, i: usize) {
        if let Some(l) = self.lines.get(i) {
            self.selected = Some(l.node);
        }
    }

    /// What the preview shows, as tmux's: a pane's screen; a window's panes side by
    /// side, each labelled with its index; a session's windows side by side (each its
    /// active pane), labelled with the window's index.
    pub fn preview_items(&self) -> Vec<Shown> {
        let Some(panes) = self.panes.as_deref().filter(|_| self.preview) else {
            return Vec::new();
        };
        let mut out: Vec<Shown> = match self.selected {
            None => Vec::new(),
            Some(Node::Pane(id)) => panes
                .iter()
                .filter(|p| p.id == id)
                .map(|p| Shown {
                    pane: p.clone(),
                    label: None,
                    active: p.active,
                })
                .collect(),
            Some(Node::Window(w)) => {
                let mut v: Vec<&PaneInfo> = panes.iter().filter(|p| p.window_id == w).collect();
                v.sort_by_key(|p| p.index);
                v.into_iter()
                    .map(|p| Shown {
                        pane: p.clone(),
                        label: Some(p.index),
                        active: p.active,
                    })
                    .collect()
            }
            Some(Node::Session(s)) => {
                let mut v: Vec<&PaneInfo> = panes
                    .iter()
                    .filter(|p| p.session_id == s && p.active)
                    .collect();
                v.sort_by_key(|p| p.window_index);
                v.into_iter()
                    .map(|p| Shown {
                        pane: p.clone(),
                        label: Some(p.window_index),
                        active: p.window_active,
                    })
                    .collect()
            }
        };
        out.truncate(MAX_PREVIEWS);
        out
    }

    /// Captures of the previewed panes not yet had.
    pub fn preview_requests(&self) -> Vec<Request> {
        self.preview_items()
            .into_iter()
            .filter(|s| !self.previews.contains_key(&s.pane.id))
            .map(|s| preview_request(s.pane.id))
            .collect()
    }

    pub(super) fn parent(&self, node: Node) -> Option<Node> {
        let panes = self.panes.as_deref()?;
        match node {
            Node::Session(_) => None,
            Node::Window(w) => panes
                .iter()
                .find(|p| p.window_id == w)
                .map(|p| Node::Session(p.session_id)),
            Node::Pane(id) => panes
                .iter()
                .find(|p| p.id == id)
                .map(|p| Node::Window(p.window_id)),
        }
    }

    /// What the kill question names, as tmux's.
    pub(super) fn kill_question(&self, nodes: &[Node]) -> Option<String> {
        if let [one] = nodes {
            let line = self.lines.iter().find(|l| l.node == *one)?;
            return Some(match one {
                Node::Session(_) => format!("Kill session {}? ", line.name),
                Node::Window(_) => format!("Kill window {}? ", line.name),
                Node::Pane(_) => format!("Kill pane {}? ", line.name),
            });
        }
        Some(format!("Kill {} tagged? ", nodes.len()))
    }

    /// The next line (after the selection, round the end) whose text has `s`.
    pub(super) fn find_next(&mut self, s: &str, forward: bool) {
        let n = self.lines.len();
        if n == 0 || s.is_empty() {
            return;
        }
        let at = self.position();
        let needle = s.to_lowercase();
        for k in 1..=n {
            let i = if forward {
                (at + k) % n
            } else {
                (at + n - k % n) % n
            };
            let l = &self.lines[i];
            if format!("{}: {}", l.name, l.text)
                .to_lowercase()
                .contains(&needle)
            {
                self.selected = Some(l.node);
                return;
            }
        }
    }
}

/// A title the pane's program set: tmux shows a title unless it is the host's short
/// name (tmux's default title); fugue's default is the pane's command.
fn set_title(p: &PaneInfo, host: &str) -> bool {
    let short = host.split('.').next().unwrap_or(host);
    !p.title.is_empty() && p.title != short && p.title != p.command
}

/// tmux's `window_flags` as far as fugue's list knows them.
fn window_flags(p: &PaneInfo) -> String {
    let mut f = String::new();
    if p.window_active {
        f.push('*');
    } else if p.window_last {
        f.push('-');
    }
    if p.window_bell {
        f.push('!');
    } else if p.window_activity_flag {
        f.push('#');
    }
    if p.window_silence {
        f.push('~');
    }
    if p.window_zoomed {
        f.push('Z');
    }
    f
}

/// What find-window matches, as tmux's: none of -C, -N, -T means all three.
fn fields(f: &FindWindow) -> (bool, bool, bool) {
    if !(f.content || f.name || f.title) {
        (true, true, true)
    } else {
        (f.content, f.name, f.title)
    }
}

/// The regular expression find-window's match string is: as given with -r, else the
/// literal text (tmux's `*MATCH*` glob); `(?i)` with -i.
fn regex_source(f: &FindWindow) -> String {
    let body = if f.regex {
        f.pattern.clone()
    } else {
        fugue_verbs::tree::regex_escape(&f.pattern)
    };
    if f.ignore_case {
        format!("(?i){body}")
    } else {
        body
    }
}

#[cfg(test)]
mod find_tests {
    use super::*;

    #[test]
    fn find_window_matches_as_tmux() {
        let f = FindWindow {
            pattern: "a.b".into(),
            ..Default::default()
        };
        assert_eq!(fields(&f), (true, true, true));
        assert_eq!(regex_source(&f), "a\\.b");
        let f = FindWindow {
            pattern: "a.b".into(),
            regex: true,
            ignore_case: true,
            name: true,
            ..Default::default()
        };
        assert_eq!(fields(&f), (false, true, false));
        assert_eq!(regex_source(&f), "(?i)a.b");
    }
}
