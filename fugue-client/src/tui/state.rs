//! What the terminal client knows: the server's screens as last received, and the
//! client's own modes (prefix, prompts, scrolling).

use fugue_protocol::screen::{ClientLayout, Cursor, Frame, PaneInput, PaneRect};
use fugue_protocol::{Command, KeyTable, PaneId, Row};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A pane's screen as the server last described it.
#[derive(Default)]
pub struct PaneView {
    pub cols: u16,
    pub rows: u16,
    pub lines: Vec<Arc<Row>>,
    pub cursor: Cursor,
    /// What the pane's program asked of its input (kitty keys, focus events).
    pub input: PaneInput,
    /// The program asked for mouse reports.
    pub mouse: bool,
    /// The cursor's style and colour as the program set them.
    pub cursor_look: fugue_protocol::passthrough::CursorLook,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    RenameWindow,
    RenameSession,
}

impl PromptKind {
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::RenameWindow => "rename window",
            PromptKind::RenameSession => "rename session",
        }
    }
}

/// Scrolling back through a pane's history.
pub struct ScrollView {
    pub pane: PaneId,
    /// Lines above the live screen.
    pub offset: u64,
    /// Lines of history, once the server has said.
    pub history: Option<u64>,
    /// The rows shown, from line `-offset`.
    pub rows: Vec<Arc<Row>>,
    /// A search being typed: upward (true, `/`) or downward (`?`).
    pub prompt: Option<(bool, super::prompt::LineEdit)>,
    /// The last search, which `n` and `N` repeat and the rows highlight.
    pub search: Option<Search>,
}

/// A search in scroll mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Search {
    pub pattern: String,
    /// Upward (towards older lines), as `/` searches.
    pub backward: bool,
    /// The line of the last match (0 is the top of the screen), where `n` and `N`
    /// go on from.
    pub line: Option<i64>,
}

impl Search {
    /// tmux's smart case: case matters only when the pattern has an uppercase letter.
    pub fn case_sensitive(pattern: &str) -> bool {
        pattern.chars().any(char::is_uppercase)
    }

    /// The pattern as a regex for the server's `search-panes`: the text literally.
    pub fn regex(pattern: &str) -> String {
        // Regex's meta characters (what `regex::escape` escapes), each escaped.
        let mut escaped = String::with_capacity(pattern.len() * 2);
        for c in pattern.chars() {
            if "\\.+*?()|[]{}^$#&-~".contains(c) {
                escaped.push('\\');
            }
            escaped.push(c);
        }
        if Search::case_sensitive(pattern) {
            escaped
        } else {
            format!("(?i){escaped}")
        }
    }

    /// The columns `[start, end)` of each match of `pattern` in a row, as drawn.
    pub fn matches_in(pattern: &str, row: &Row) -> Vec<(u16, u16)> {
        let sensitive = Search::case_sensitive(pattern);
        let fold = |c: char| -> char {
            if sensitive {
                c
            } else {
                c.to_lowercase().next().unwrap_or(c)
            }
        };
        let want: Vec<char> = pattern.chars().map(fold).collect();
        if want.is_empty() {
            return Vec::new();
        }
        // Each char with the columns of its cell; blank cells read as spaces.
        let mut chars: Vec<(char, u16, u16)> = Vec::new();
        let mut col = 0u16;
        for cell in row.cells() {
            while col < cell.col {
                chars.push((' ', col, col + 1));
                col += 1;
            }
            let end = cell.col + if cell.wide { 2 } else { 1 };
            if cell.text.is_empty() {
                chars.push((' ', cell.col, end));
            }
            for c in cell.text.chars() {
                chars.push((fold(c), cell.col, end));
            }
            col = end;
        }
        let mut found = Vec::new();
        let mut i = 0;
        while i + want.len() <= chars.len() {
            if chars[i..i + want.len()]
                .iter()
                .zip(&want)
                .all(|((c, _, _), w)| c == w)
            {
                found.push((chars[i].1, chars[i + want.len() - 1].2));
                i += want.len();
            } else {
                i += 1;
            }
        }
        found
    }
}

pub enum Mode {
    Normal,
    /// The prefix was pressed; the next key is a command.
    Prefix,
    Prompt {
        kind: PromptKind,
        input: super::prompt::LineEdit,
    },
    Confirm {
        question: String,
        command: Command,
    },
    Help {
        scroll: usize,
    },
    Scroll(ScrollView),
    /// `C-b #` and `C-b =`: paste buffers (`buffers.rs`).
    Buffers(super::buffers::BufferList),
}

/// What a request in flight is for.
#[derive(Debug)]
pub enum Pending {
    /// Show an error if it fails.
    Action(&'static str),
    /// A new session to switch to when created.
    NewSession,
    /// Rows for scroll mode.
    Rows(PaneId),
    /// A scroll-mode search of this pane.
    Search(PaneId, Search),
    /// The sessions, to switch to the next (true) or previous one.
    SwitchSession(bool),
}

/// What changed on screen since the last draw.
#[derive(Debug, Default)]
pub enum Damage {
    #[default]
    None,
    /// Rows of panes' live screens (rows within each pane).
    Rows(HashMap<PaneId, Vec<u16>>),
    /// Anything else: layout, modes, the status bar.
    All,
}

impl Damage {
    fn rows(&mut self, pane: PaneId, rows: impl IntoIterator<Item = u16>) {
        match self {
            Damage::All => {}
            Damage::None => {
                *self = Damage::Rows(HashMap::from([(pane, rows.into_iter().collect())]));
            }
            Damage::Rows(map) => map.entry(pane).or_default().extend(rows),
        }
    }
}

pub struct App {
    pub keys: KeyTable,
    pub status: bool,
    pub session_name: String,
    pub layout: Option<ClientLayout>,
    pub panes: HashMap<PaneId, PaneView>,
    pub mode: Mode,
    pub notice: Option<(String, Instant)>,
    pub pending: HashMap<u64, Pending>,
    /// Requests made while handling what is ready, sent together before drawing.
    pub outbox: Vec<crate::tui::input::Request>,
    pub damage: Damage,
    /// Until when a repeatable key (resize, focus) acts without the prefix, after one
    /// such key was pressed (tmux's `bind -r` and `repeat-time`).
    pub repeat_until: Option<Instant>,
    /// The terminal must be drawn again from scratch (`C-b r`, `refresh-client`).
    pub redraw: bool,
    /// Keys whose press went to a pane and whose release has not come yet (at most
    /// `input::MAX_HELD`): their release goes to the pane too, other releases do not.
    pub held: Vec<fugue_protocol::keys::KeyCode>,
    /// The outer terminal's input modes the client switched on.
    pub outer: super::outer::Outer,
    /// The pane a mouse button went down in and has not come up yet: its drag and
    /// release go to it wherever the pointer is.
    pub mouse_held: Option<PaneId>,
    /// The terminal has focus, as it last said (true until it says otherwise).
    pub focused: bool,
    /// The multiplexer's own use of the mouse (off until the server says it is on).
    pub mouse: super::mouse_actions::MouseState,
}

/// How long a notice stays in the status bar.
pub const NOTICE_TIME: Duration = Duration::from_secs(4);

impl App {
    pub fn new(keys: KeyTable, status: bool, session_name: String) -> App {
        App {
            keys,
            status,
            session_name,
            layout: None,
            panes: HashMap::new(),
            mode: Mode::Normal,
            notice: None,
            pending: HashMap::new(),
            outbox: Vec::new(),
            damage: Damage::All,
            repeat_until: None,
            redraw: false,
            held: Vec::new(),
            outer: super::outer::Outer::new(),
            mouse_held: None,
            focused: true,
            mouse: Default::default(),
        }
    }

    /// Everything must be drawn again.
    pub fn damage_all(&mut self) {
        self.damage = Damage::All;
    }

    pub fn notice(&mut self, text: impl Into<String>) {
        self.notice = Some((text.into(), Instant::now() + NOTICE_TIME));
        self.damage_all();
    }

    pub fn active_rect(&self) -> Option<&PaneRect> {
        self.layout.as_ref()?.panes.iter().find(|p| p.active)
    }

    pub fn active_pane(&self) -> Option<PaneId> {
        self.active_rect().map(|p| p.pane)
    }

    /// Applies a frame from the server.
    pub fn apply(&mut self, frame: Frame) {
        if let Some(layout) = frame.layout {
            self.session_name = layout.session_name.clone();
            self.panes
                .retain(|id, _| layout.panes.iter().any(|p| p.pane == *id));
            if let Mode::Scroll(s) = &self.mode
                && !layout.panes.iter().any(|p| p.pane == s.pane && p.active)
            {
                self.mode = Mode::Normal;
            }
            self.layout = Some(layout);
            self.damage_all();
        }
        for u in frame.panes {
            let view = self.panes.entry(u.pane).or_default();
            if u.full || view.rows != u.rows || view.cols != u.cols {
                let blank = Arc::new(Row::default());
                view.lines = (0..u.rows).map(|_| Arc::clone(&blank)).collect();
                self.damage.rows(u.pane, 0..u.rows);
            }
            view.cols = u.cols;
            view.rows = u.rows;
            self.damage.rows(u.pane, u.changed.iter().map(|(i, _)| *i));
            for (i, row) in u.changed {
                if let Some(slot) = view.lines.get_mut(usize::from(i)) {
                    *slot = row;
                }
            }
            view.cursor = u.cursor;
            view.input = u.input;
            view.mouse = u.mouse;
            view.cursor_look = u.cursor_look;
        }
    }

    /// What the active pane's program asked of its input.
    pub fn active_input(&self) -> PaneInput {
        self.active_pane()
            .and_then(|p| self.panes.get(&p))
            .map(|v| v.input)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::Search;
    use fugue_protocol::Row;
    use fugue_protocol::screen::RowBuilder;

    #[test]
    fn smart_case_decides_the_regex() {
        assert_eq!(Search::regex("a.b"), "(?i)a\\.b");
        assert_eq!(Search::regex("A(1)"), "A\\(1\\)");
    }

    #[test]
    fn matches_are_found_in_columns_as_drawn() {
        let row = Row::plain("Foo foo FOO");
        assert_eq!(
            Search::matches_in("foo", &row),
            vec![(0, 3), (4, 7), (8, 11)]
        );
        assert_eq!(Search::matches_in("Foo", &row), vec![(0, 3)]);
        assert_eq!(Search::matches_in("o f", &row), vec![(2, 5), (6, 9)]);
        // A wide character takes two columns.
        let mut b = RowBuilder::default();
        for (t, wide, cont) in [("日", true, false), ("", false, true), ("x", false, false)] {
            b.push(t, wide, cont, Default::default());
        }
        let row = b.finish(false);
        assert_eq!(Search::matches_in("日x", &row), vec![(0, 3)]);
    }
}
