//! The multiplexer's own use of the mouse (the configuration's `keys.mouse`, tmux's
//! `mouse on`), each client for itself:
//!
//! - a press on a pane focuses it (select-pane, for every client, as tmux's does);
//! - a press on a window in the status bar selects it; the wheel there goes to the
//!   previous or next window (tmux's `WheelUpStatus`, `WheelDownStatus`);
//! - a border dragged with the left button resizes the panes on either side, live: each
//!   step is a `resize-pane -x/-y` with the size the pointer asks for;
//! - the wheel over a pane scrolls its history, entering copy mode (tmux's
//!   `copy-mode -e`) and leaving it when scrolled back to the bottom;
//! - a drag on a pane's screen selects (entering copy mode), and the release copies
//!   and leaves; a double click copies the word, a triple click the line;
//! - the middle button pastes the latest paste buffer into the pane under it (tmux's
//!   `paste-buffer -p`: bracketed if its program asked);
//! - the right button does nothing (tmux opens a menu; fugue has no menus yet).
//!
//! Over a pane whose program asked for the mouse, the events go to the program
//! instead (`mouse.rs`), except with Shift held; borders and the status bar are always
//! fugue's. Everything here acts on this client's view only, except what the server
//! shares between clients anyway (the active pane and window, the layout).

use super::input::Request;
use super::state::{App, Mode, Pending};
use fugue_protocol::cmd;
use fugue_protocol::mouse::{MouseAction, MouseButton, MouseEvent, MouseTracking};
use fugue_protocol::{Command, PaneId, PaneSelect, Resize, Target, WindowSelect};
use ratatui::layout::{Position, Rect};
use std::time::{Duration, Instant};

/// Lines one step of the wheel scrolls, as tmux's copy-mode bindings (`-N 5`).
pub const WHEEL_LINES: i64 = 5;

/// Presses of the left button at the same cell within this time count as a double
/// or triple click (tmux's, 300 ms).
const MULTI_CLICK: Duration = Duration::from_millis(300);
/// How long a double or triple click's selection shows before it is copied: tmux's
/// `run -d0.3` in its DoubleClick1Pane and TripleClick1Pane bindings.
const CLICK_COPY_DELAY: Duration = Duration::from_millis(300);

/// The client's mouse: whether it uses it, and what a button held is doing.
#[derive(Debug, Default)]
pub struct MouseState {
    /// The multiplexer uses the mouse (`keys.mouse`); when off, events only go to
    /// programs that asked for them, as with tmux's `mouse off`.
    pub enabled: bool,
    /// A border being dragged.
    drag: Option<BorderDrag>,
    /// The left button is down on a pane's screen (at this cell of it) and no program
    /// got the press: a drag from here selects.
    press: Option<(PaneId, u16, u16)>,
    /// A selection is being dragged in this pane, from this cell: the release copies
    /// it.
    selecting: Option<(PaneId, (u16, u16))>,
    /// The last left press: when, where (terminal cell), and how many presses in a row
    /// it makes (1 to 3).
    last_click: Option<(Instant, u16, u16, u8)>,
    /// A double or triple click's selection is copied at this moment, unless another
    /// click comes first (tmux's `run -d0.3` before `copy-pipe-and-cancel`), so a
    /// triple click leaves one buffer, not a word's and then a line's.
    pub copy_at: Option<Instant>,
}

impl MouseState {
    /// What the outer terminal must report: with the mouse on, presses, releases and
    /// drags (1002) at least; every move (1003) only while the active pane's program
    /// asked for it.
    pub fn tracking(&self, program: MouseTracking) -> MouseTracking {
        if self.enabled {
            program.max(MouseTracking::ButtonMotion)
        } else {
            program
        }
    }
}

/// A border held with the left button.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BorderDrag {
    /// The pane before the border (left of it, or above); its size is what changes.
    pub(super) pane: PaneId,
    /// A border between panes stacked one above the other (heights change).
    horizontal: bool,
    /// Where the pane's box starts (terminal column or row).
    start: u16,
    /// The border's position (the first cell after the pane's box) minus the
    /// pointer's when it was pressed: the cell grabbed follows the pointer.
    grab: i32,
    /// The size last asked for, so a move within a cell asks nothing.
    asked: Option<u16>,
}

/// What is under the pointer.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Spot {
    /// The status bar, and the window drawn there if any.
    Status(Option<u32>),
    Border(BorderDrag),
    /// A pane's box; whether the pointer is on its screen (not its border).
    Pane(PaneId, bool),
    Nothing,
}

fn request(command: Command, what: &'static str) -> Request {
    Request {
        command,
        pending: Pending::Action(what),
    }
}

impl App {
    /// A mouse event at a cell of a terminal of `area`, with the mouse on.
    pub(super) fn on_mouse_action(&mut self, ev: MouseEvent, area: Rect) -> Vec<Request> {
        // A person's binding for this mouse event comes first (`mouse_keys.rs`); a
        // border drag under way stays fugue's.
        if self.mouse.drag.is_none()
            && let Some(out) = self.bound_mouse(ev, area)
        {
            return out;
        }
        if let Some(drag) = self.mouse.drag {
            match ev.action {
                MouseAction::Drag(MouseButton::Left) => return self.drag_border(drag, ev),
                MouseAction::Up(_) => {
                    self.mouse.drag = None;
                    return Vec::new();
                }
                _ => self.mouse.drag = None,
            }
        }
        // A button pressed over a program's pane: its drag and release go to it.
        if let Some(pane) = self.mouse_held
            && matches!(ev.action, MouseAction::Drag(_) | MouseAction::Up(_))
        {
            return self.forward_mouse(pane, ev, area);
        }
        self.mouse_held = None;
        if let Some(out) = self.on_selection(ev, area) {
            return out;
        }
        match self.mode {
            Mode::Normal | Mode::Copy(_) => {}
            // The prefix waits for a key; the mouse acts without it, as in tmux.
            Mode::Prefix => self.mode = Mode::Normal,
            _ => return Vec::new(),
        }
        let select_window = |select, what| {
            vec![request(
                Command::SelectWindow(cmd::SelectWindow {
                    target: None,
                    select,
                }),
                what,
            )]
        };
        match (self.spot(ev.col, ev.row, area), ev.action) {
            (Spot::Status(Some(index)), MouseAction::Down(MouseButton::Left)) => {
                select_window(WindowSelect::Index(index), "select-window")
            }
            (Spot::Status(_), MouseAction::ScrollUp) => {
                select_window(WindowSelect::Previous, "previous-window")
            }
            (Spot::Status(_), MouseAction::ScrollDown) => {
                select_window(WindowSelect::Next, "next-window")
            }
            (Spot::Border(drag), MouseAction::Down(MouseButton::Left)) => {
                self.mouse.drag = Some(drag);
                Vec::new()
            }
            (Spot::Pane(pane, inside), _) => self.on_pane(pane, inside, ev, area),
            _ => Vec::new(),
        }
    }

    /// What is at the terminal's cell (`col`, `row`).
    pub(super) fn spot(&self, col: u16, row: u16, area: Rect) -> Spot {
        let at = Position::new(col, row);
        if let Some(bar) = super::render::status_area(self, area)
            && bar.contains(at)
        {
            return Spot::Status(super::status::window_at(self, bar, col));
        }
        let (within, boxes) = super::render::pane_boxes(self, area);
        if let Some(drag) = border_at(&within, &boxes, col, row, self.shared_borders()) {
            return Spot::Border(drag);
        }
        for (pane, b) in &boxes {
            if b.contains(at) {
                let inside =
                    super::render::pane_content(self, area, *pane).is_some_and(|c| c.contains(at));
                return Spot::Pane(*pane, inside);
            }
        }
        Spot::Nothing
    }

    /// An event over a pane's box.
    fn on_pane(&mut self, pane: PaneId, inside: bool, ev: MouseEvent, area: Rect) -> Vec<Request> {
        let scrolled = matches!(&self.mode, Mode::Copy(c) if c.pane == pane);
        let asked = self
            .panes
            .get(&pane)
            .is_some_and(|v| v.input.mouse != MouseTracking::None);
        // The program's, as tmux's `send -M` when `mouse_any_flag` is set; Shift keeps
        // it fugue's, so a person can always scroll and select.
        let program = asked && inside && !ev.shift && !scrolled;
        match ev.action {
            MouseAction::Down(button) => {
                let mut out = self.focus(pane);
                if program {
                    out.extend(self.forward_mouse(pane, ev, area));
                } else if button == MouseButton::Left && inside {
                    out.extend(self.left_press(pane, ev, area));
                } else if button == MouseButton::Middle && !scrolled {
                    // tmux's `select-pane -t = ; paste-buffer -p`.
                    let mut paste = super::buffers::paste(None);
                    if let Command::PasteBuffer(p) = &mut paste.command {
                        p.target = Some(Target::Pane(pane));
                    }
                    out.push(paste);
                }
                out
            }
            MouseAction::ScrollUp | MouseAction::ScrollDown if !program => {
                self.wheel(pane, ev.action == MouseAction::ScrollUp)
            }
            _ if program => self.forward_mouse(pane, ev, area),
            _ => Vec::new(),
        }
    }

    /// Makes `pane` the active one: on the server (for every client, as tmux's
    /// select-pane) and at once in this client's copy of the layout, so what follows
    /// (the wheel entering scroll mode, the next draw) already sees it active.
    fn focus(&mut self, pane: PaneId) -> Vec<Request> {
        let Some(layout) = self.layout.as_mut() else {
            return Vec::new();
        };
        if layout.panes.iter().any(|p| p.pane == pane && p.active) {
            return Vec::new();
        }
        for p in &mut layout.panes {
            p.active = p.pane == pane;
        }
        self.damage_all();
        vec![request(
            Command::SelectPane(cmd::SelectPane {
                target: Some(Target::Pane(pane)),
                select: PaneSelect::Target,
                keep_zoom: false,
            }),
            "select-pane",
        )]
    }

    /// The wheel over a pane whose program did not ask for the mouse: copy mode,
    /// entered on the way up, [`WHEEL_LINES`] lines a step, left at the bottom when the
    /// wheel entered it (copy mode's `copy_wheel`).
    fn wheel(&mut self, pane: PaneId, up: bool) -> Vec<Request> {
        // Up over another pane than the one in copy mode: that one's history instead
        // (copy mode is the active pane's, one at a time in a client).
        if up && matches!(&self.mode, Mode::Copy(c) if c.pane != pane) {
            self.mode = Mode::Normal;
        }
        match &self.mode {
            Mode::Copy(c) if c.pane == pane => {}
            Mode::Normal if up => {}
            _ => return Vec::new(),
        }
        let mut out = self.focus(pane);
        out.extend(self.copy_wheel(if up { WHEEL_LINES } else { -WHEEL_LINES }));
        out
    }

    /// The left button down on a pane's screen, its program not taking it: a double
    /// click selects the word there and copies it, a triple click the line (tmux's
    /// `DoubleClick1Pane`, `TripleClick1Pane`); a drag from here will select.
    fn left_press(&mut self, pane: PaneId, ev: MouseEvent, area: Rect) -> Vec<Request> {
        let now = Instant::now();
        let clicks = match self.mouse.last_click {
            Some((t, col, row, n))
                if col == ev.col && row == ev.row && now.duration_since(t) <= MULTI_CLICK =>
            {
                n % 3 + 1
            }
            _ => 1,
        };
        self.mouse.last_click = Some((now, ev.col, ev.row, clicks));
        let Some((col, row)) = self.cell_in(pane, ev, area) else {
            return Vec::new();
        };
        self.mouse.press = Some((pane, col, row));
        self.mouse.copy_at = None;
        let out = match clicks {
            2 => self.copy_select_word(col, row),
            3 => self.copy_select_line(col, row),
            _ => return Vec::new(),
        };
        // As tmux: the selection shows for a moment, and a further click in that time
        // replaces it before anything is copied (`copy_due`).
        self.mouse.copy_at = Some(now + CLICK_COPY_DELAY);
        self.mouse.press = None;
        out
    }

    /// A double or triple click's moment has passed: its selection is copied and copy
    /// mode left (tmux's `copy-pipe-and-cancel`).
    pub fn copy_due(&mut self) -> Vec<Request> {
        if self.mouse.copy_at.take().is_none() {
            return Vec::new();
        }
        self.copy_and_leave()
    }

    /// A drag or release while the left button went down on a pane's screen: the
    /// selection follows the pointer, and the release copies it and leaves copy mode
    /// (tmux's `copy-mode -M`, then `copy-pipe-and-cancel`). None when no such press
    /// is under way.
    fn on_selection(&mut self, ev: MouseEvent, area: Rect) -> Option<Vec<Request>> {
        let Some((pane, pcol, prow)) = self.mouse.press else {
            self.mouse.selecting = None;
            return None;
        };
        match ev.action {
            MouseAction::Drag(MouseButton::Left) => {
                let (col, row, width) = self.drag_cell(pane, ev, area)?;
                if self.mouse.selecting.is_none() && (col, row) == (pcol, prow) {
                    return Some(Vec::new());
                }
                // As tmux, the press and the pointer are taken as the places between
                // cells before them: the earlier one's cell is selected, the later
                // one's is not.
                let forward = row != u16::MAX && (row, col) > (prow, pcol);
                let (anchor, end) = if forward {
                    ((pcol, prow), cell_before(col, row, width))
                } else {
                    (cell_before(pcol, prow, width), (col, row))
                };
                let mut out = Vec::new();
                if self.mouse.selecting != Some((pane, anchor)) {
                    self.mouse.selecting = Some((pane, anchor));
                    out.extend(self.copy_select_start(anchor.0, anchor.1));
                }
                out.extend(self.copy_select_to(end.0, end.1));
                Some(out)
            }
            MouseAction::Up(_) => {
                self.mouse.press = None;
                let selecting = self.mouse.selecting.take();
                Some(if selecting.is_some_and(|(p, _)| p == pane) {
                    self.copy_and_leave()
                } else {
                    Vec::new()
                })
            }
            _ => {
                self.mouse.press = None;
                self.mouse.selecting = None;
                None
            }
        }
    }

    /// The pane's cell under the pointer, if on its screen.
    fn cell_in(&self, pane: PaneId, ev: MouseEvent, area: Rect) -> Option<(u16, u16)> {
        let c = super::render::pane_content(self, area, pane)?;
        c.contains(Position::new(ev.col, ev.row))
            .then(|| (ev.col - c.x, ev.row - c.y))
    }

    /// The pane's cell a drag is at, held to its screen's columns; above the screen
    /// is `u16::MAX` (copy mode scrolls up), below it past the last row (it scrolls
    /// down). With the screen's width.
    fn drag_cell(&self, pane: PaneId, ev: MouseEvent, area: Rect) -> Option<(u16, u16, u16)> {
        let c = super::render::pane_content(self, area, pane)?;
        let col = ev.col.saturating_sub(c.x).min(c.width.saturating_sub(1));
        let row = if ev.row < c.y {
            u16::MAX
        } else {
            (ev.row - c.y).min(c.height)
        };
        Some((col, row, c.width))
    }

    /// One step of a border drag: the pane before the border gets the size that puts
    /// the border under the pointer.
    fn drag_border(&mut self, mut drag: BorderDrag, ev: MouseEvent) -> Vec<Request> {
        let pointer = if drag.horizontal { ev.row } else { ev.col };
        let border = i32::from(pointer) + drag.grab;
        let size = u16::try_from(border - i32::from(drag.start))
            .unwrap_or(1)
            .max(1);
        if drag.asked == Some(size) {
            return Vec::new();
        }
        drag.asked = Some(size);
        self.mouse.drag = Some(drag);
        let (width, height) = if drag.horizontal {
            (None, Some(size))
        } else {
            (Some(size), None)
        };
        vec![request(
            Command::ResizePane(cmd::ResizePane {
                target: Some(Target::Pane(drag.pane)),
                resize: Resize::To { width, height },
            }),
            "resize-pane",
        )]
    }
}

/// The cell before (`col`, `row`) on a screen `width` wide: the last of the row
/// above at the start of a row (none above the first: the first cell).
fn cell_before(col: u16, row: u16, width: u16) -> (u16, u16) {
    match (col.checked_sub(1), row.checked_sub(1)) {
        (Some(c), _) => (c, row),
        (None, Some(r)) if row != u16::MAX => (width.saturating_sub(1), r),
        (None, _) => (0, row),
    }
}

/// The border between two panes at (`col`, `row`), if there is one. Every pane draws
/// its own box, so a border between panes is two cells wide: the last column (row) of
/// the box before it and the first of the box after; either can be grabbed. The
/// window's outer edges are no border. A corner cell belongs to the border the pane's
/// side is on, a vertical one first.
/// With `shared` borders a box is a pane and the border after it: the border is its
/// last column or row only (its first is the pane's own).
fn border_at(
    within: &Rect,
    boxes: &[(PaneId, Rect)],
    col: u16,
    row: u16,
    shared: bool,
) -> Option<BorderDrag> {
    let right = within.x.saturating_add(within.width);
    let bottom = within.y.saturating_add(within.height);
    let covering = |c: u16, r: u16| {
        boxes
            .iter()
            .find(|(_, b)| b.contains(Position::new(c, r)))
            .map(|(p, b)| (*p, *b))
    };
    let (pane_here, here) = covering(col, row)?;
    let end_x = here.x.saturating_add(here.width);
    let end_y = here.y.saturating_add(here.height);
    let drag = |pane, horizontal, start: u16, border: u16, pointer: u16| BorderDrag {
        pane,
        horizontal,
        start,
        grab: i32::from(border) - i32::from(pointer),
        asked: None,
    };
    // The last column of a box with a pane after it, or the first of one with a pane
    // before it.
    if col + 1 == end_x && end_x < right {
        return Some(drag(pane_here, false, here.x, end_x, col));
    }
    if col == here.x && here.x > within.x && !shared {
        let (pane, b) = covering(col - 1, row)?;
        return Some(drag(pane, false, b.x, here.x, col));
    }
    if row + 1 == end_y && end_y < bottom {
        return Some(drag(pane_here, true, here.y, end_y, row));
    }
    if row == here.y && here.y > within.y && !shared {
        let (pane, b) = covering(col, row - 1)?;
        return Some(drag(pane, true, b.y, here.y, row));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x: u16, y: u16, width: u16, height: u16) -> Rect {
        Rect::new(x, y, width, height)
    }

    #[test]
    fn borders_are_found_on_both_cells_between_panes() {
        let within = r(0, 0, 80, 23);
        // %1 left, %2 top right, %3 bottom right.
        let boxes = [
            (PaneId(1), r(0, 0, 40, 23)),
            (PaneId(2), r(40, 0, 40, 12)),
            (PaneId(3), r(40, 12, 40, 11)),
        ];
        let at = |c, row| border_at(&within, &boxes, c, row, false);
        let left = at(39, 5).expect("the left pane's right side");
        assert_eq!(
            (left.pane, left.horizontal, left.start),
            (PaneId(1), false, 0)
        );
        // Grabbed on the left cell: the border (column 40) is one to the right.
        assert_eq!(left.grab, 1);
        assert_eq!(at(40, 5).map(|d| (d.pane, d.grab)), Some((PaneId(1), 0)));
        let mid = at(60, 11).expect("the top right pane's bottom");
        assert_eq!(
            (mid.pane, mid.horizontal, mid.start, mid.grab),
            (PaneId(2), true, 0, 1)
        );
        assert_eq!(at(60, 12).map(|d| (d.pane, d.grab)), Some((PaneId(2), 0)));
        // The window's edges and the panes' insides are no border.
        for (c, row) in [(0, 5), (79, 5), (60, 0), (60, 22), (10, 10), (60, 5)] {
            assert_eq!(at(c, row), None, "{c},{row}");
        }
    }

    #[test]
    fn the_cell_before_wraps_to_the_row_above() {
        assert_eq!(cell_before(5, 2, 80), (4, 2));
        assert_eq!(cell_before(0, 2, 80), (79, 1));
        assert_eq!(cell_before(0, 0, 80), (0, 0));
        assert_eq!(cell_before(0, u16::MAX, 80), (0, u16::MAX));
    }
}
