//! Copy mode (tmux's copy mode, grown from scroll mode): a cursor over the pane's
//! history and screen, tmux's vi and emacs keys, selections, search, and copies to a
//! paste buffer, the clipboard (OSC 52) and a command.
//!
//! The view is frozen when copy mode begins: the screen as it was then is kept in the
//! client, and history lines are fetched by their absolute number (lines ever scrolled
//! into history before them), which names the same line however much the program
//! prints meanwhile. The `[n/m]` indicator says how far the top of the view is above
//! the live screen now (n grows while output moves on) and how much history there is.
//!
//! - [`motion`]: cursor motions on a grid of rows; [`selection`]: what is selected
//!   and its text; [`search`]: patterns and matches; [`keys`]: the key tables;
//!   [`out`]: where copies go.
//!
//! # The API for the mouse
//!
//! The mouse (tui/mouse.rs) drives copy mode through these `App` methods; cells are
//! given in the pane's own coordinates (column and row inside its border). Each
//! returns the requests to send. Called before the server has answered the entry
//! request, they are queued and applied once it has.
//!
//! - [`App::copy_wheel`]`(lines)`: the wheel. Up (`lines > 0`) enters copy mode on the
//!   active pane if needed and scrolls the view up; down scrolls down and leaves copy
//!   mode at the bottom if the wheel entered it (tmux's `copy-mode -e`).
//! - [`App::copy_select_start`]`(col, row)`: enters copy mode if needed, puts the
//!   cursor at the cell and begins a character selection there (a press, then drag).
//! - [`App::copy_select_to`]`(col, row)`: moves the cursor, and so the selection's
//!   other end, to the cell (a drag; rows past the view's edges scroll it).
//! - [`App::copy_select_word`]`(col, row)` / [`App::copy_select_line`]`(col, row)`:
//!   selects the word or the line at the cell (double and triple click).
//! - [`App::copy_and_leave`]`()`: copies the selection (buffer, clipboard, command)
//!   and leaves copy mode (a release after a drag).

pub mod keys;
pub mod motion;
pub mod out;
pub mod search;
pub mod selection;
pub mod table;
pub mod view;

use super::input::Request;
use super::prompt::LineEdit;
use super::state::{App, Mode, Pending};
use fugue_protocol::cmd;
use fugue_protocol::keys::Key;
use fugue_protocol::{Command, CopyOptions, PaneId, Row, RowsReply, Target};
use motion::{Grid, Jump, Point};
use search::Search;
use selection::Selection;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// Lines fetched in one request, on boundaries of this size.
const CHUNK: u64 = 256;
/// History lines kept in the client; past it, those farthest from the cursor go (and
/// are fetched again when needed).
const MAX_CACHED_LINES: usize = 20_000;
/// Keys and mouse actions kept while the entry request is answered.
const MAX_QUEUED: usize = 256;
/// The largest numeric prefix (`5j`): more than any history holds screens of.
pub const MAX_COUNT: u32 = 100_000;

/// What the client asked the server for, in copy mode.
#[derive(Debug)]
pub enum Fetch {
    /// The screen and the view when copy mode began.
    Entry,
    /// History lines (a chunk).
    Chunk(u64),
    /// How far output has moved on (no rows).
    Status,
    /// A search the server runs over its lines, going on in the client's if not found.
    Search {
        search: Search,
        from: Point,
        /// The search already went on from the other end (`wrap_search`).
        wrapped: bool,
    },
}

/// Something done before the entry request was answered, done once it is.
#[derive(Clone, Debug)]
pub enum Queued {
    Key(Key),
    SelectStart(u16, u16),
    SelectTo(u16, u16),
    SelectWord(u16, u16),
    SelectLine(u16, u16),
    Wheel(i64),
    CopyAndLeave,
}

/// The screen as it was when copy mode began.
pub struct Frozen {
    /// The absolute line number of its top row.
    pub base: u64,
    pub screen: Vec<Arc<Row>>,
}

/// A search prompt being typed.
pub struct Prompt {
    pub up: bool,
    pub input: LineEdit,
    /// Where the cursor was when the prompt opened (incremental search starts there).
    pub origin: Point,
}

/// What the next key completes: `f` `F` `t` `T` wait for a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Awaiting {
    Jump(Jump),
}

pub struct CopyMode {
    pub pane: PaneId,
    pub opts: CopyOptions,
    /// The view's size (the pane's inside).
    pub width: u16,
    pub height: u16,
    /// The absolute line at the top of the view.
    pub top: u64,
    pub cursor: Point,
    /// The column `j` and `k` keep to (tmux's "last column").
    want_col: Option<u16>,
    /// None until the server answered the entry request.
    pub frozen: Option<Frozen>,
    /// Lines up when copy mode began.
    entry_offset: u64,
    /// The oldest line the server holds, the lines scrolled into history by now, and
    /// the history's length now.
    pub oldest: u64,
    pub total_now: u64,
    pub history_now: u64,
    cache: BTreeMap<u64, Arc<Row>>,
    /// The hyperlinks the fetched rows carry, by number.
    pub links: crate::tui::state::PaneLinks,
    asked: HashSet<u64>,
    status_asked: bool,
    pub selection: Option<Selection>,
    pub mark: Option<Point>,
    pub count: Option<u32>,
    pub awaiting: Option<Awaiting>,
    pub last_jump: Option<(Jump, char)>,
    pub prompt: Option<Prompt>,
    pub search: Option<Search>,
    /// A search found this line before its row was fetched: the cursor goes to the
    /// match's column when it arrives (the bool: the search went up).
    search_col: Option<(u64, bool)>,
    queued: Vec<Queued>,
    /// The wheel entered copy mode: scrolling back to the bottom leaves it.
    pub leave_at_bottom: bool,
    /// A search is with the server: keys wait for its answer.
    pub searching: bool,
}

impl Grid for CopyMode {
    fn bounds(&self) -> (u64, u64) {
        match &self.frozen {
            Some(f) => (
                self.oldest.min(f.base),
                (f.base + f.screen.len() as u64).saturating_sub(1),
            ),
            None => (0, 0),
        }
    }

    fn row(&self, line: u64) -> Option<&Row> {
        let f = self.frozen.as_ref()?;
        if line >= f.base {
            return f
                .screen
                .get(usize::try_from(line - f.base).ok()?)
                .map(|r| &**r);
        }
        self.cache.get(&line).map(|r| &**r)
    }

    fn width(&self) -> u16 {
        self.width
    }
}

fn rows_command(pane: PaneId, start: i64, count: u32, absolute: bool) -> Command {
    Command::ReadRows(cmd::ReadRows {
        target: Some(Target::Pane(pane)),
        start,
        count,
        absolute,
    })
}

impl CopyMode {
    fn new(pane: PaneId, opts: CopyOptions, width: u16, height: u16, offset: u64) -> CopyMode {
        CopyMode {
            pane,
            opts,
            width: width.max(1),
            height: height.max(1),
            top: 0,
            cursor: Point::default(),
            want_col: None,
            frozen: None,
            entry_offset: offset,
            oldest: 0,
            total_now: 0,
            history_now: 0,
            cache: BTreeMap::new(),
            asked: HashSet::new(),
            status_asked: false,
            links: Default::default(),
            selection: None,
            mark: None,
            count: None,
            awaiting: None,
            last_jump: None,
            prompt: None,
            search: None,
            search_col: None,
            queued: Vec::new(),
            leave_at_bottom: false,
            searching: false,
        }
    }

    fn request(&self, command: Command, fetch: Fetch) -> Request {
        Request {
            command,
            pending: Pending::Copy(self.pane, fetch),
        }
    }

    /// The first request: the rows from the view's top through the screen's bottom.
    fn entry_request(&self) -> Request {
        let offset = self.entry_offset.min(u64::from(u16::MAX));
        let count = (offset + u64::from(self.height)).min(10_000) as u32;
        self.request(
            rows_command(self.pane, -(offset as i64), count, false),
            Fetch::Entry,
        )
    }

    pub fn loaded(&self) -> bool {
        self.frozen.is_some()
    }

    /// The line of the view's last row.
    pub fn bottom(&self) -> u64 {
        self.top + u64::from(self.height) - 1
    }

    /// The lowest the view's top can be: the frozen screen's top.
    fn max_top(&self) -> u64 {
        let (_, last) = self.bounds();
        (last + 1)
            .saturating_sub(u64::from(self.height))
            .max(self.bounds().0)
    }

    /// Puts `p` in bounds; the cursor goes there and the view follows it.
    pub fn goto(&mut self, p: Point) {
        let (first, last) = self.bounds();
        self.cursor = Point::new(p.line.clamp(first, last), p.col.min(self.width - 1));
        self.follow();
    }

    /// Scrolls the view as little as needed for the cursor to be in it.
    fn follow(&mut self) {
        if self.cursor.line < self.top {
            self.top = self.cursor.line;
        } else if self.cursor.line > self.bottom() {
            self.top = self.cursor.line + 1 - u64::from(self.height);
        }
        self.clamp_top();
    }

    fn clamp_top(&mut self) {
        let (first, _) = self.bounds();
        self.top = self.top.clamp(first, self.max_top().max(first));
    }

    /// Scrolls the view by `delta` lines (up when positive), the cursor staying on
    /// screen (tmux's scroll-up and scroll-down).
    pub fn scroll(&mut self, delta: i64) {
        self.top = if delta >= 0 {
            self.top.saturating_sub(delta.unsigned_abs())
        } else {
            self.top.saturating_add(delta.unsigned_abs())
        };
        self.clamp_top();
        let line = self.cursor.line.clamp(self.top, self.bottom());
        self.cursor.line = line;
    }

    /// Puts a found line in the middle of the view when it is not in view.
    pub fn center_on(&mut self, p: Point) {
        if p.line < self.top || p.line > self.bottom() {
            self.top = p.line.saturating_sub(u64::from(self.height / 2));
            self.clamp_top();
        }
        self.goto(p);
    }

    /// The requests for the rows around the view not fetched yet, and a cache kept in
    /// bounds.
    fn fetch_missing(&mut self) -> Vec<Request> {
        let Some(base) = self.frozen.as_ref().map(|f| f.base) else {
            return Vec::new();
        };
        if self.cache.len() > MAX_CACHED_LINES {
            let keep = (MAX_CACHED_LINES / 2) as u64;
            let c = self.cursor.line;
            self.cache
                .retain(|l, _| l.abs_diff(c) < keep || l.abs_diff(self.top) < keep);
            self.asked.clear();
        }
        let h = u64::from(self.height);
        let from = self.top.saturating_sub(h).max(self.oldest);
        let to = (self.top + 2 * h).min(base);
        let mut out = Vec::new();
        if from >= to {
            return out;
        }
        for chunk in from / CHUNK..=(to - 1) / CHUNK {
            if self.asked.contains(&chunk) {
                continue;
            }
            let start = (chunk * CHUNK).max(self.oldest);
            let end = ((chunk + 1) * CHUNK).min(base);
            if start >= end || (start..end).all(|l| self.cache.contains_key(&l)) {
                continue;
            }
            self.asked.insert(chunk);
            out.push(self.request(
                rows_command(
                    self.pane,
                    i64::try_from(start).unwrap_or(i64::MAX),
                    (end - start) as u32,
                    true,
                ),
                Fetch::Chunk(chunk),
            ));
        }
        out
    }

    /// Takes rows the server sent (lines from the frozen screen's top up only).
    fn take_rows(&mut self, mut rows: RowsReply) {
        crate::tui::state::learn_links(
            &mut self.links,
            std::mem::take(&mut rows.links),
            &rows.rows,
        );
        self.total_now = rows.total;
        self.history_now = rows.history;
        self.oldest = rows.total.saturating_sub(rows.history);
        let Some(base) = self.frozen.as_ref().map(|f| f.base) else {
            return;
        };
        let first = rows.total as i128 + i128::from(rows.start);
        for (i, row) in rows.rows.into_iter().enumerate() {
            let line = first + i as i128;
            if line >= 0 && line < i128::from(base) {
                self.cache.insert(line as u64, row);
            }
        }
        self.resolve_search_col();
    }

    /// The answer to the entry request: the frozen screen, and the view placed.
    fn take_entry(&mut self, rows: RowsReply, pane_cursor: Option<(u16, u16)>) {
        let base = rows.total;
        let first = rows.total as i128 + i128::from(rows.start);
        let mut screen = Vec::new();
        for (i, row) in rows.rows.iter().enumerate() {
            if first + i as i128 >= i128::from(base) {
                screen.push(Arc::clone(row));
            }
        }
        screen.resize_with(usize::from(self.height), || Arc::new(Row::default()));
        self.frozen = Some(Frozen { base, screen });
        self.take_rows(rows);
        self.top = base.saturating_sub(self.entry_offset);
        self.clamp_top();
        // tmux starts at the pane's cursor, or at the view's top row when scrolled up.
        self.cursor = match pane_cursor {
            Some((col, row)) if self.entry_offset == 0 => Point::new(base + u64::from(row), col),
            _ => Point::new(self.top, 0),
        };
        self.goto(self.cursor);
    }

    fn resolve_search_col(&mut self) {
        let Some((line, up)) = self.search_col else {
            return;
        };
        let Some(s) = self.search.clone() else {
            self.search_col = None;
            return;
        };
        if let Some(row) = self.row(line) {
            let col = s.next_in_row(row, None, up).unwrap_or(0);
            self.search_col = None;
            if self.cursor.line == line {
                self.cursor.col = col;
            }
        }
    }

    /// A cell of the view (pane coordinates) as a point.
    pub fn at_cell(&self, col: u16, row: u16) -> Point {
        Point::new(self.top + u64::from(row), col)
    }

    fn queue(&mut self, q: Queued) {
        if self.queued.len() < MAX_QUEUED {
            self.queued.push(q);
        }
    }
}

impl App {
    /// The copy mode shown, if any.
    pub fn copy(&mut self) -> Option<&mut CopyMode> {
        match &mut self.mode {
            Mode::Copy(c) => Some(c),
            _ => None,
        }
    }

    /// Enters copy mode on the active pane, `offset` lines up (or returns nothing when
    /// it is on already).
    pub fn enter_copy(&mut self, offset: u64) -> Vec<Request> {
        match self.active_pane() {
            Some(pane) => self.enter_copy_on(pane, offset),
            None => Vec::new(),
        }
    }

    /// tmux's `copy-mode [-deHMqSu] [-t pane]` as a command line (from the CLI, a
    /// binding with flags, or a mode the server kept for this client): `-q` leaves
    /// it, `-u` starts a page up, `-e` leaves it again at the bottom, `-t %N` picks
    /// the pane (else the active one).
    pub fn copy_mode_line(&mut self, argv: &[String]) -> Vec<Request> {
        let d = match fugue_verbs::line::parse_argv(argv) {
            Ok((_, fugue_verbs::Verb::Declared(d))) if matches!(d.0, Command::CopyMode(_)) => d,
            Ok(_) => return Vec::new(),
            Err(e) => {
                self.notice(e);
                return Vec::new();
            }
        };
        let a = match d.flags::<fugue_protocol::flags::CopyMode>() {
            Ok(a) => a,
            Err(e) => {
                self.notice(e);
                return Vec::new();
            }
        };
        if a.quit {
            if matches!(self.mode, Mode::Copy(_)) {
                self.mode = Mode::Normal;
            }
            return Vec::new();
        }
        let pane = match a.target.as_deref() {
            Some(t) => match t.parse::<PaneId>() {
                Ok(p) => p,
                // A session or window names its active pane: this client shows it.
                Err(_) => match self.active_pane() {
                    Some(p) => p,
                    None => return Vec::new(),
                },
            },
            None => match self.active_pane() {
                Some(p) => p,
                None => return Vec::new(),
            },
        };
        if !self.panes.contains_key(&pane) {
            if self.layout.is_none() {
                // Not drawn here yet: the first frame after attaching is on its way.
                self.pending_mode = Some(argv.to_vec());
            } else {
                self.notice(format!("copy-mode: pane {pane} is not shown here"));
            }
            return Vec::new();
        }
        let offset = if a.page_up { u64::from(self.page()) } else { 0 };
        let out = self.enter_copy_on(pane, offset);
        if a.exit_at_bottom
            && let Some(c) = self.copy()
        {
            c.leave_at_bottom = true;
        }
        out
    }

    /// Enters copy mode on `pane`, `offset` lines up (nothing when it is on already).
    pub fn enter_copy_on(&mut self, pane: PaneId, offset: u64) -> Vec<Request> {
        if matches!(self.mode, Mode::Copy(_)) {
            return Vec::new();
        }
        let width = self.panes.get(&pane).map_or(80, |v| v.cols);
        let c = CopyMode::new(pane, self.copy_options.clone(), width, self.page(), offset);
        let r = c.entry_request();
        self.mode = Mode::Copy(Box::new(c));
        vec![r]
    }

    /// After a frame for `pane`: how far output moved on, asked once at a time.
    pub fn copy_status(&mut self) -> Vec<Request> {
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        if c.status_asked || !c.loaded() {
            return Vec::new();
        }
        c.status_asked = true;
        vec![c.request(rows_command(c.pane, 0, 0, true), Fetch::Status)]
    }

    /// An answer to a copy-mode request.
    pub fn copy_reply(
        &mut self,
        pane: PaneId,
        fetch: Fetch,
        result: Result<fugue_protocol::Response, fugue_protocol::CommandError>,
    ) -> Vec<Request> {
        let cursor = self.panes.get(&pane).map(|v| (v.cursor.col, v.cursor.row));
        let Some(c) = self.copy().filter(|c| c.pane == pane) else {
            return Vec::new();
        };
        if matches!(fetch, Fetch::Search { .. }) {
            c.searching = false;
            let queued = std::mem::take(&mut c.queued);
            let mut out = self.copy_reply_inner(fetch, result, cursor);
            for q in queued {
                out.extend(self.copy_do(q));
            }
            return out;
        }
        self.copy_reply_inner(fetch, result, cursor)
    }

    fn copy_reply_inner(
        &mut self,
        fetch: Fetch,
        result: Result<fugue_protocol::Response, fugue_protocol::CommandError>,
        cursor: Option<(u16, u16)>,
    ) -> Vec<Request> {
        use fugue_protocol::Response;
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        match (fetch, result) {
            (Fetch::Entry, Ok(Response::Rows(rows))) => {
                c.take_entry(rows, cursor);
                let queued = std::mem::take(&mut c.queued);
                let mut out = c.fetch_missing();
                for q in queued {
                    out.extend(self.copy_do(q));
                }
                out
            }
            (Fetch::Chunk(_), Ok(Response::Rows(rows))) => {
                c.take_rows(rows);
                Vec::new()
            }
            (Fetch::Status, Ok(Response::Rows(rows))) => {
                c.status_asked = false;
                c.total_now = rows.total;
                c.history_now = rows.history;
                c.oldest = rows.total.saturating_sub(rows.history);
                Vec::new()
            }
            (
                Fetch::Search {
                    search,
                    from,
                    wrapped,
                },
                Ok(Response::Found(found)),
            ) => {
                let base = c.frozen.as_ref().map_or(0, |f| f.base);
                let line = found
                    .matches
                    .first()
                    .and_then(|m| u64::try_from(m.line).ok())
                    .filter(|l| *l < base);
                match line {
                    Some(l) => {
                        c.search_col = Some((l, search.up));
                        c.center_on(Point::new(l, 0));
                        c.resolve_search_col();
                        c.fetch_missing()
                    }
                    // Nothing in the server's lines before the frozen screen: going
                    // down, the frozen screen's own lines are next.
                    None if !search.up => {
                        let after = from.line.max(base.saturating_sub(1));
                        match keys::search_frozen(c, &search, after) {
                            Some(p) => {
                                c.center_on(p);
                                c.fetch_missing()
                            }
                            None => self.copy_search_wrap(search, wrapped),
                        }
                    }
                    None => self.copy_search_wrap(search, wrapped),
                }
            }
            (fetch, Err(e)) => {
                if let Fetch::Chunk(k) = fetch {
                    c.asked.remove(&k);
                }
                if matches!(fetch, Fetch::Entry) {
                    self.mode = Mode::Normal;
                }
                self.notice(format!("copy mode: {}", e.display_with_suggestion()));
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Does a queued action now that the view is loaded.
    fn copy_do(&mut self, q: Queued) -> Vec<Request> {
        match q {
            Queued::Key(k) => self.on_copy_key(k),
            Queued::SelectStart(x, y) => self.copy_select_start(x, y),
            Queued::SelectTo(x, y) => self.copy_select_to(x, y),
            Queued::SelectWord(x, y) => self.copy_select_word(x, y),
            Queued::SelectLine(x, y) => self.copy_select_line(x, y),
            Queued::Wheel(n) => self.copy_wheel(n),
            Queued::CopyAndLeave => self.copy_and_leave(),
        }
    }

    /// Enters copy mode for the mouse if needed; queues `q` until the view is loaded.
    /// Returns the requests, and whether the caller should act now.
    fn copy_for_mouse(&mut self, q: Queued) -> (Vec<Request>, bool) {
        let out = self.enter_copy(0);
        match self.copy() {
            Some(c) if c.loaded() => (out, true),
            Some(c) => {
                c.queue(q);
                (out, false)
            }
            None => (out, false),
        }
    }

    /// The wheel: `lines` up (positive) or down. See the module's documentation.
    pub fn copy_wheel(&mut self, lines: i64) -> Vec<Request> {
        let entering = !matches!(self.mode, Mode::Copy(_));
        if entering && lines <= 0 {
            return Vec::new();
        }
        let (mut out, now) = self.copy_for_mouse(Queued::Wheel(lines));
        if entering && let Some(c) = self.copy() {
            c.leave_at_bottom = true;
        }
        if !now {
            return out;
        }
        let Some(c) = self.copy() else { return out };
        c.scroll(lines);
        if lines < 0 && c.leave_at_bottom && c.top >= c.max_top() && c.selection.is_none() {
            self.mode = Mode::Normal;
            return out;
        }
        out.extend(c.fetch_missing());
        out
    }

    /// A press at a cell: the cursor there and a selection begun.
    pub fn copy_select_start(&mut self, col: u16, row: u16) -> Vec<Request> {
        let (mut out, now) = self.copy_for_mouse(Queued::SelectStart(col, row));
        if let (true, Some(c)) = (now, self.copy()) {
            let p = c.at_cell(col, row);
            c.goto(p);
            c.selection = Some(Selection {
                anchor: c.cursor,
                kind: selection::Kind::Chars,
            });
            out.extend(c.fetch_missing());
        }
        out
    }

    /// A drag to a cell: the selection's moving end follows.
    pub fn copy_select_to(&mut self, col: u16, row: u16) -> Vec<Request> {
        let (mut out, now) = self.copy_for_mouse(Queued::SelectTo(col, row));
        if let (true, Some(c)) = (now, self.copy()) {
            // Above or below the view scrolls it a line at a time.
            let line = if row == u16::MAX {
                c.top.saturating_sub(1)
            } else {
                c.top + u64::from(row)
            };
            c.goto(Point::new(line, col));
            out.extend(c.fetch_missing());
        }
        out
    }

    /// A double click: the word at the cell selected.
    pub fn copy_select_word(&mut self, col: u16, row: u16) -> Vec<Request> {
        let (out, now) = self.copy_for_mouse(Queued::SelectWord(col, row));
        if let (true, Some(c)) = (now, self.copy()) {
            let (a, b) = motion::word_at(c, c.at_cell(col, row));
            c.selection = Some(Selection {
                anchor: a,
                kind: selection::Kind::Chars,
            });
            c.goto(b);
        }
        out
    }

    /// A triple click: the line at the cell selected.
    pub fn copy_select_line(&mut self, col: u16, row: u16) -> Vec<Request> {
        let (out, now) = self.copy_for_mouse(Queued::SelectLine(col, row));
        if let (true, Some(c)) = (now, self.copy()) {
            let p = c.at_cell(col, row);
            c.selection = Some(Selection {
                anchor: motion::start_of_line(c, p),
                kind: selection::Kind::Lines,
            });
            let end = motion::end_of_line(c, p);
            c.goto(end);
        }
        out
    }

    /// Copies the selection and leaves copy mode.
    pub fn copy_and_leave(&mut self) -> Vec<Request> {
        match self.copy() {
            Some(c) if !c.loaded() => {
                c.queue(Queued::CopyAndLeave);
                Vec::new()
            }
            Some(_) => self.copy_selection(false, true),
            None => Vec::new(),
        }
    }

    /// Copies the selection (appending to the latest buffer with `append`), leaving
    /// copy mode with `leave`.
    pub fn copy_selection(&mut self, append: bool, leave: bool) -> Vec<Request> {
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        let text = c.selection.map(|s| selection::text(&*c, s, c.cursor));
        if leave {
            self.mode = Mode::Normal;
        } else if let Some(c) = self.copy() {
            c.selection = None;
        }
        match text {
            Some((text, cut)) => {
                if cut {
                    self.notice(format!(
                        "copy cut at {} MiB",
                        selection::MAX_COPY_BYTES >> 20
                    ));
                }
                out::copy_out(self, text, append)
            }
            None => Vec::new(),
        }
    }
}
