//! Copy mode's keys: tmux's `copy-mode-vi` and `copy-mode` tables (`tmux list-keys -T
//! copy-mode-vi`), as [`Action`]s, and what each does.
//!
//! Where fugue differs from tmux 3.3a's vi table, the (vim's) keys win: `v`
//! begins a selection (tmux: rectangle-toggle) and `r` toggles the rectangle (tmux:
//! refresh-from-pane; the frozen view is left with `q` and entered again instead).

use super::motion::{self, Grid, Jump, Point};
use super::search::Search;
use super::selection::{Kind, Selection};
pub use super::table::{Bound, bound, copy_command};
use super::{Awaiting, CopyMode, Fetch, MAX_COUNT, Prompt, Queued};
use crate::tui::input::Request;
use crate::tui::prompt::{Edit, LineEdit};
use crate::tui::state::{App, Mode};
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::observe::SearchPanes;
use fugue_protocol::{Command, ModeKeys, Target};

/// What a key does in copy mode (tmux's `send -X` command names in the comments).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Left,
    Right,
    Up,
    Down,
    /// Words: `big` for tmux's "space" words (`W`).
    NextWord(bool),
    NextWordEnd(bool),
    PreviousWord(bool),
    StartOfLine,
    BackToIndentation,
    EndOfLine,
    HistoryTop,
    HistoryBottom,
    TopLine,
    MiddleLine,
    BottomLine,
    HalfPageUp,
    HalfPageDown,
    PageUp,
    PageDown,
    ScrollUp,
    ScrollDown,
    PreviousParagraph,
    NextParagraph,
    /// `f` `F` `t` `T`: the next key is the character.
    Jump(Jump),
    JumpAgain,
    JumpReverse,
    MatchingBracket,
    SetMark,
    JumpToMark,
    BeginSelection,
    SelectLine,
    RectangleToggle,
    OtherEnd,
    ClearSelection,
    /// copy-pipe-and-cancel.
    Copy,
    /// append-selection-and-cancel.
    Append,
    /// copy-pipe-end-of-line-and-cancel (`D`, emacs `C-k`).
    CopyEndOfLine,
    /// A search prompt: up (search-backward) or down.
    SearchPrompt(bool),
    SearchAgain,
    SearchReverse,
    Cancel,
    Digit(u32),
}

/// The action of a key in the built-in tables (the defaults before tables were
/// bindable; kept for the counts: digits are the copy mode's own).
pub fn action(keys: ModeKeys, key: Key) -> Option<Action> {
    use Action as A;
    let ctrl = key.mods.contains(Mods::CTRL);
    let alt = key.mods.contains(Mods::ALT);
    let common = match key.code {
        KeyCode::Up => Some(A::Up),
        KeyCode::Down => Some(A::Down),
        KeyCode::Left => Some(A::Left),
        KeyCode::Right => Some(A::Right),
        KeyCode::PageUp => Some(A::PageUp),
        KeyCode::PageDown => Some(A::PageDown),
        KeyCode::Home => Some(A::StartOfLine),
        KeyCode::End => Some(A::EndOfLine),
        KeyCode::Char('c') if ctrl => Some(A::Cancel),
        KeyCode::Char('x') if alt => Some(A::JumpToMark),
        _ => None,
    };
    if common.is_some() {
        return common;
    }
    match keys {
        ModeKeys::Vi => vi(key, ctrl, alt),
        ModeKeys::Emacs => emacs(key, ctrl, alt),
    }
}

fn vi(key: Key, ctrl: bool, alt: bool) -> Option<Action> {
    use Action as A;
    let KeyCode::Char(c) = key.code else {
        return match key.code {
            KeyCode::Enter => Some(A::Copy),
            KeyCode::Escape => Some(A::ClearSelection),
            KeyCode::Backspace => Some(A::Left),
            _ => None,
        };
    };
    if alt {
        return None;
    }
    if ctrl {
        return Some(match c {
            'b' => A::PageUp,
            'f' => A::PageDown,
            'u' => A::HalfPageUp,
            'd' => A::HalfPageDown,
            'e' => A::ScrollDown,
            'y' => A::ScrollUp,
            'v' => A::RectangleToggle,
            'h' => A::Left,
            'j' => A::Copy,
            _ => return None,
        });
    }
    Some(match c {
        'h' => A::Left,
        'j' => A::Down,
        'k' => A::Up,
        'l' => A::Right,
        'w' => A::NextWord(false),
        'W' => A::NextWord(true),
        'e' => A::NextWordEnd(false),
        'E' => A::NextWordEnd(true),
        'b' => A::PreviousWord(false),
        'B' => A::PreviousWord(true),
        '0' => A::Digit(0),
        '1'..='9' => A::Digit(c.to_digit(10)?),
        '^' => A::BackToIndentation,
        '$' => A::EndOfLine,
        'g' => A::HistoryTop,
        'G' => A::HistoryBottom,
        'H' => A::TopLine,
        'M' => A::MiddleLine,
        'L' => A::BottomLine,
        'K' => A::ScrollUp,
        'J' => A::ScrollDown,
        '{' => A::PreviousParagraph,
        '}' => A::NextParagraph,
        'f' => A::Jump(Jump::Forward),
        'F' => A::Jump(Jump::Backward),
        't' => A::Jump(Jump::ToForward),
        'T' => A::Jump(Jump::ToBackward),
        ';' => A::JumpAgain,
        ',' => A::JumpReverse,
        '%' => A::MatchingBracket,
        'X' => A::SetMark,
        ' ' | 'v' => A::BeginSelection,
        'V' => A::SelectLine,
        'r' => A::RectangleToggle,
        'o' => A::OtherEnd,
        'y' => A::Copy,
        'A' => A::Append,
        'D' => A::CopyEndOfLine,
        // tmux: `/` is search-forward "(search down)", `?` search-backward "(search up)".
        '/' => A::SearchPrompt(false),
        '?' => A::SearchPrompt(true),
        'n' => A::SearchAgain,
        'N' => A::SearchReverse,
        'q' => A::Cancel,
        _ => return None,
    })
}

fn emacs(key: Key, ctrl: bool, alt: bool) -> Option<Action> {
    use Action as A;
    let KeyCode::Char(c) = key.code else {
        return match key.code {
            KeyCode::Escape => Some(A::Cancel),
            _ => None,
        };
    };
    if ctrl && alt {
        return matches!(c, 'b' | 'f').then_some(A::MatchingBracket);
    }
    if ctrl {
        return Some(match c {
            ' ' | '@' => A::BeginSelection,
            'a' => A::StartOfLine,
            'e' => A::EndOfLine,
            'b' => A::Left,
            'f' => A::Right,
            'n' => A::Down,
            'p' => A::Up,
            'g' => A::ClearSelection,
            'k' => A::CopyEndOfLine,
            'v' => A::PageDown,
            'w' => A::Copy,
            's' => A::SearchPrompt(false),
            'r' => A::SearchPrompt(true),
            _ => return None,
        });
    }
    if alt {
        return Some(match c {
            '<' => A::HistoryTop,
            '>' => A::HistoryBottom,
            'R' => A::TopLine,
            'r' => A::MiddleLine,
            'b' => A::PreviousWord(false),
            // tmux's emacs M-f goes to the end of the word (next-word-end).
            'f' => A::NextWordEnd(false),
            'm' => A::BackToIndentation,
            'v' => A::PageUp,
            'w' => A::Copy,
            '{' => A::PreviousParagraph,
            '}' => A::NextParagraph,
            '1'..='9' => A::Digit(c.to_digit(10)?),
            _ => return None,
        });
    }
    Some(match c {
        ' ' => A::PageDown,
        ',' => A::JumpReverse,
        ';' => A::JumpAgain,
        'f' => A::Jump(Jump::Forward),
        'F' => A::Jump(Jump::Backward),
        't' => A::Jump(Jump::ToForward),
        'T' => A::Jump(Jump::ToBackward),
        'n' => A::SearchAgain,
        'N' => A::SearchReverse,
        'R' => A::RectangleToggle,
        'X' => A::SetMark,
        'q' => A::Cancel,
        _ => return None,
    })
}

/// A search through the frozen screen's lines after `line` (going down) or before it
/// (going up), each line whole; the point of the first match.
pub fn search_frozen(c: &CopyMode, s: &Search, line: u64) -> Option<Point> {
    let f = c.frozen.as_ref()?;
    let end = f.base + f.screen.len() as u64;
    let at = |l: u64| {
        c.row(l)
            .and_then(|r| s.next_in_row(r, None, s.up))
            .map(|col| Point::new(l, col))
    };
    if s.up {
        (f.base..line.min(end)).rev().find_map(at)
    } else {
        (line.saturating_add(1).max(f.base)..end).find_map(at)
    }
}

impl App {
    /// A key in copy mode.
    pub fn on_copy_key(&mut self, key: Key) -> Vec<Request> {
        let Some(key) = key.legacy() else {
            return Vec::new();
        };
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        if !c.loaded() || c.searching {
            // q leaves at once; everything else waits for the view, or for the
            // server's search (`nn` goes on from the first match).
            if key == Key::char('q') || key.code == KeyCode::Char('c') && key.mods == Mods::CTRL {
                self.mode = Mode::Normal;
            } else {
                c.queue(Queued::Key(key));
            }
            return Vec::new();
        }
        if c.prompt.is_some() {
            return self.copy_prompt_key(key);
        }
        if let Some(Awaiting::Jump(kind)) = c.awaiting.take() {
            c.count = None;
            if let KeyCode::Char(ch) = key.code {
                c.last_jump = Some((kind, ch));
                if let Some(p) = motion::jump(&*c, c.cursor, kind, ch) {
                    c.goto(p);
                }
            }
            return Vec::new();
        }
        // Counts are copy mode's own (vi digits, emacs M-digits; `0` is a digit once
        // a count is pending); every other key is looked up in the key table.
        let (mode_keys, pending) = (c.opts.mode_keys, c.count.is_some());
        let digit = match action(mode_keys, key) {
            Some(Action::Digit(d)) => Some(d),
            _ if key == Key::char('0') && pending => Some(0),
            _ => None,
        };
        let table = bound(&self.keys, mode_keys, key);
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        let action = match (digit, table) {
            (Some(d), _) => Action::Digit(d),
            (None, Some(Bound::Action(a))) => a,
            (None, Some(Bound::Commands(cmds))) => {
                c.count = None;
                return self.run_bound(cmds);
            }
            (None, Some(Bound::Unknown(name))) => {
                c.count = None;
                self.notice(format!("unknown copy-mode command: {name}"));
                return Vec::new();
            }
            (None, None) => {
                c.count = None;
                return Vec::new();
            }
        };
        if let Action::Digit(d) = action {
            // A 0 with no count pending is start-of-line, as in vi.
            if d == 0 && c.count.is_none() {
                let p = motion::start_of_line(&*c, c.cursor);
                c.goto(p);
                c.want_col = None;
                return Vec::new();
            }
            let n = c.count.unwrap_or(0).saturating_mul(10).saturating_add(d);
            c.count = Some(n.min(MAX_COUNT));
            return Vec::new();
        }
        let n = c.count.take().unwrap_or(1).max(1);
        self.copy_action(action, n)
    }

    pub(crate) fn copy_action(&mut self, action: Action, n: u32) -> Vec<Request> {
        use Action as A;
        let page = self.page();
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        let h = u64::from(c.height);
        let n64 = u64::from(n);
        let rect = c.selection.is_some_and(|s| s.kind == Kind::Rect);
        let keeps_col = matches!(action, A::Up | A::Down);
        match action {
            A::Left => {
                c.cursor.col = c
                    .cursor
                    .col
                    .saturating_sub(n.min(u32::from(u16::MAX)) as u16)
            }
            A::Right => {
                let col = u32::from(c.cursor.col).saturating_add(n);
                c.cursor.col = col.min(u32::from(c.width - 1)) as u16;
            }
            A::Up | A::Down => {
                let want = *c.want_col.get_or_insert(c.cursor.col);
                let line = if action == A::Up {
                    c.cursor.line.saturating_sub(n64)
                } else {
                    c.cursor.line.saturating_add(n64)
                };
                let (first, last) = c.bounds();
                let line = line.clamp(first, last);
                // As tmux: a shorter line puts the cursor at its end, except while a
                // rectangle is selected.
                let len = c.row(line).map_or(0, motion::length);
                let col = if rect { want } else { want.min(len) };
                c.goto(Point::new(line, col));
            }
            A::NextWord(big) => repeat(c, n, |c, p| motion::next_word(c, p, big)),
            A::NextWordEnd(big) => repeat(c, n, |c, p| motion::next_word_end(c, p, big)),
            A::PreviousWord(big) => repeat(c, n, |c, p| motion::previous_word(c, p, big)),
            A::StartOfLine => repeat(c, 1, |c, p| motion::start_of_line(c, p)),
            A::EndOfLine => repeat(c, 1, |c, p| motion::end_of_line(c, p)),
            A::BackToIndentation => repeat(c, 1, |c, p| motion::back_to_indentation(c, p)),
            A::HistoryTop => {
                let (first, _) = c.bounds();
                c.goto(Point::new(first, 0));
            }
            A::HistoryBottom => {
                let (_, last) = c.bounds();
                let len = c.row(last).map_or(0, motion::length);
                c.goto(Point::new(last, len));
            }
            // As tmux's top-line, middle-line and bottom-line: the first column.
            A::TopLine => c.goto(Point::new(c.top, 0)),
            A::MiddleLine => c.goto(Point::new(c.top + (h - 1) / 2, 0)),
            A::BottomLine => c.goto(Point::new(c.bottom(), 0)),
            A::HalfPageUp | A::HalfPageDown | A::PageUp | A::PageDown => {
                let by = match action {
                    A::HalfPageUp | A::HalfPageDown => (h / 2).max(1),
                    _ => h.max(1),
                } * n64;
                let up = matches!(action, A::HalfPageUp | A::PageUp);
                let delta = i64::try_from(by).unwrap_or(i64::MAX);
                c.scroll(if up { delta } else { -delta });
                // The cursor keeps its place in the view, as tmux's does.
                let line = if up {
                    c.cursor.line.saturating_sub(by)
                } else {
                    c.cursor.line.saturating_add(by)
                };
                c.cursor.line = line.clamp(c.top, c.bottom());
                let leave = !up && c.leave_at_bottom && c.top >= c.max_top();
                if leave && c.selection.is_none() {
                    self.mode = Mode::Normal;
                    return Vec::new();
                }
            }
            A::ScrollUp => c.scroll(i64::from(n)),
            A::ScrollDown => c.scroll(-i64::from(n)),
            A::PreviousParagraph => repeat(c, n, |c, p| motion::previous_paragraph(c, p)),
            A::NextParagraph => repeat(c, n, |c, p| motion::next_paragraph(c, p)),
            A::Jump(kind) => {
                c.awaiting = Some(Awaiting::Jump(kind));
            }
            A::JumpAgain | A::JumpReverse => {
                if let Some((kind, ch)) = c.last_jump {
                    let kind = if action == A::JumpReverse {
                        kind.reversed()
                    } else {
                        kind
                    };
                    repeat(c, n, |c, p| motion::jump(c, p, kind, ch).unwrap_or(p));
                }
            }
            A::MatchingBracket => {
                if let Some(p) = motion::matching_bracket(&*c, c.cursor) {
                    c.goto(p);
                }
            }
            A::SetMark => c.mark = Some(c.cursor),
            A::JumpToMark => {
                // tmux swaps the mark and the cursor, so M-x again goes back.
                if let Some(m) = c.mark.replace(c.cursor) {
                    c.goto(m);
                }
            }
            A::BeginSelection => {
                c.selection = Some(Selection {
                    anchor: c.cursor,
                    kind: Kind::Chars,
                });
            }
            A::SelectLine => {
                c.selection = Some(Selection {
                    anchor: c.cursor,
                    kind: Kind::Lines,
                });
            }
            A::RectangleToggle => match &mut c.selection {
                Some(s) => {
                    s.kind = if s.kind == Kind::Rect {
                        Kind::Chars
                    } else {
                        Kind::Rect
                    };
                }
                None => {
                    c.selection = Some(Selection {
                        anchor: c.cursor,
                        kind: Kind::Rect,
                    });
                }
            },
            A::OtherEnd => {
                if let Some(s) = &mut c.selection {
                    let here = c.cursor;
                    let there = std::mem::replace(&mut s.anchor, here);
                    c.goto(there);
                }
            }
            A::ClearSelection => c.selection = None,
            A::Copy => return self.copy_selection(false, true),
            A::Append => return self.copy_selection(true, true),
            A::CopyEndOfLine => {
                c.selection = Some(Selection {
                    anchor: c.cursor,
                    kind: Kind::Chars,
                });
                let end = motion::end_of_line(&*c, c.cursor);
                // The cell before the line's end is its last character.
                let last = Point::new(end.line, end.col.saturating_sub(1));
                c.goto(last.max(c.cursor));
                return self.copy_selection(false, true);
            }
            A::SearchPrompt(up) => {
                c.prompt = Some(Prompt {
                    up,
                    input: LineEdit::new(String::new()),
                    origin: c.cursor,
                });
            }
            A::SearchAgain | A::SearchReverse => {
                if let Some(s) = c.search.clone() {
                    let go = if action == A::SearchReverse {
                        s.reversed()
                    } else {
                        s.clone()
                    };
                    let from = c.cursor;
                    let out = self.copy_search(go, from, false);
                    // `N` goes the other way once; `n` keeps the search's direction.
                    if let Some(c) = self.copy() {
                        c.search = Some(s);
                    }
                    return out;
                }
            }
            A::Cancel => {
                self.mode = Mode::Normal;
                return Vec::new();
            }
            A::Digit(_) => {}
        }
        if let Some(c) = self.copy() {
            if !keeps_col {
                c.want_col = None;
            }
            c.follow();
            return c.fetch_missing();
        }
        let _ = page;
        Vec::new()
    }

    /// A key while a search pattern is typed.
    fn copy_prompt_key(&mut self, key: Key) -> Vec<Request> {
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        let Some(mut prompt) = c.prompt.take() else {
            return Vec::new();
        };
        let edit = prompt.input.key(key);
        let pattern = prompt.input.text().to_string();
        let (up, origin, incremental) = (prompt.up, prompt.origin, c.opts.search_incremental);
        match edit {
            Edit::Done if !pattern.is_empty() => {
                // An incremental search already went there: Enter keeps it.
                if incremental && c.search.as_ref().is_some_and(|s| s.pattern == pattern) {
                    return Vec::new();
                }
                self.start_search(&pattern, up, origin, false)
            }
            Edit::Done => Vec::new(),
            Edit::Cancelled => {
                if incremental {
                    c.goto(origin);
                }
                Vec::new()
            }
            Edit::Editing => {
                c.prompt = Some(prompt);
                if incremental && !pattern.is_empty() {
                    let out = self.start_search(&pattern, up, origin, true);
                    // The prompt stays open; a failed search only says so.
                    if let Some(c) = self.copy()
                        && c.prompt.is_none()
                    {
                        c.prompt = Some(Prompt {
                            up,
                            input: LineEdit::new(pattern),
                            origin,
                        });
                    }
                    out
                } else {
                    Vec::new()
                }
            }
        }
    }

    fn start_search(
        &mut self,
        pattern: &str,
        up: bool,
        from: Point,
        incremental: bool,
    ) -> Vec<Request> {
        let regex = self.copy().is_some_and(|c| c.opts.search_regex);
        match Search::new(pattern, regex, up) {
            Ok(s) => self.copy_search(s, from, incremental),
            Err(e) => {
                self.notice(e);
                Vec::new()
            }
        }
    }

    /// Searches from `from` in the search's direction: the cursor's own row, then the
    /// frozen screen's lines and the server's, in order. `fresh`: an incremental
    /// search, for which a match under the cursor counts going down.
    pub fn copy_search(&mut self, s: Search, from: Point, fresh: bool) -> Vec<Request> {
        self.copy_search_from(s, from, fresh, false)
    }

    /// Nothing found up to the end the search went to: with `wrap_search` (tmux's
    /// `wrap-search`) once more from the other end, the oldest line going down and the
    /// frozen screen's last cell going up; else "not found".
    pub fn copy_search_wrap(&mut self, s: Search, wrapped: bool) -> Vec<Request> {
        let start = self.copy().and_then(|c| {
            if wrapped || !c.opts.wrap_search {
                return None;
            }
            let base = c.frozen.as_ref().map_or(0, |f| f.base);
            Some(if s.up {
                let last = base.saturating_add(u64::from(c.height)).saturating_sub(1);
                Point::new(last, c.width)
            } else {
                Point::new(c.oldest, 0)
            })
        });
        match start {
            Some(from) => self.copy_search_from(s, from, true, true),
            None => {
                self.notice(format!("not found: {}", s.pattern));
                Vec::new()
            }
        }
    }

    fn copy_search_from(
        &mut self,
        s: Search,
        from: Point,
        fresh: bool,
        wrapped: bool,
    ) -> Vec<Request> {
        let Some(c) = self.copy() else {
            return Vec::new();
        };
        // Going on from the other end keeps the search `n` and `N` repeat: this one
        // may be `N`'s reversal, answered after `N` put the original back.
        if !wrapped {
            c.search = Some(s.clone());
        }
        let base = c.frozen.as_ref().map_or(0, |f| f.base);
        // As tmux: the search starts next to the cursor, never at it, so `/` finds
        // the next match even with the cursor on one. An incremental search from
        // where the prompt opened does count a match there.
        let col = match (fresh && !s.up, from.col) {
            (true, 0) => None,
            (true, col) => Some(col - 1),
            (false, col) => Some(col),
        };
        let found = c
            .row(from.line)
            .and_then(|r| s.next_in_row(r, col, s.up))
            .map(|col| Point::new(from.line, col))
            .or_else(|| {
                // The frozen screen's lines come first going up, and are all there is
                // going down from inside it.
                (s.up || from.line + 1 >= base)
                    .then(|| search_frozen(c, &s, from.line))
                    .flatten()
            });
        if let Some(p) = found {
            c.center_on(p);
            return c.fetch_missing();
        }
        if !s.up && from.line + 1 >= base || s.up && base == 0 {
            return self.copy_search_wrap(s, wrapped);
        }
        // The server's lines: before the frozen screen (and the cursor) going up,
        // after the cursor going down (the answer is checked against the frozen
        // screen's top, where the client's own lines take over).
        let from_line = if s.up { from.line.min(base) } else { from.line };
        let command = Command::SearchPanes(SearchPanes {
            pattern: Search::regex_of(&s.pattern, s.regex),
            targets: vec![Target::Pane(c.pane)],
            history: true,
            offset: 0,
            limit: 1,
            from_line: Some(i64::try_from(from_line).unwrap_or(i64::MAX)),
            backward: s.up,
            absolute: true,
        });
        c.searching = true;
        vec![c.request(
            command,
            Fetch::Search {
                search: s,
                from,
                wrapped,
            },
        )]
    }
}

fn repeat(c: &mut CopyMode, n: u32, f: impl Fn(&CopyMode, Point) -> Point) {
    let mut p = c.cursor;
    for _ in 0..n {
        let next = f(c, p);
        if next == p {
            break;
        }
        p = next;
    }
    c.goto(p);
}
