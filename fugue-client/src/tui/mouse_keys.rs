//! Mouse keys a person bound: `bind -n WheelUpPane ...`, `bind -T copy-mode-vi
//! MouseDragEnd1Pane ...`, as tmux plugins and configs do.
//!
//! Each mouse event is named as tmux names it (what happened, which button, where:
//! `MouseDown1Pane`, `SecondClick1Pane`, `MouseDragEnd1Border`, `WheelUpStatus`,
//! `MouseUp3StatusRight`, with `C-`, `M-` and `S-`), and looked up in the table the
//! client is in for that place: the copy-mode table over a pane this client shows in
//! copy mode, else `root`. A binding runs instead of fugue's own action, with the
//! targets `=` and `{mouse}` meaning the pane (or the status line's window) under the
//! pointer, and `send-keys -M` passing the event on to that pane's program. With no
//! binding, fugue's own use of the mouse stands (`mouse_actions.rs`), which is what
//! tmux's default mouse bindings do; fugue lists no default mouse bindings, so
//! `unbind -n MouseDown1Pane` leaves fugue's click as it was (docs/tmux.md).
//!
//! Clicks follow tmux: a press is `MouseDown`, a second press of the same button
//! within 300 ms `SecondClick` (not `MouseDown`), `DoubleClick` 300 ms after that
//! unless a third press comes first, which is `TripleClick`. A release that ends a
//! drag is `MouseDragEnd`, not `MouseUp`.

use super::input::Request;
use super::mouse_actions::Spot;
use super::state::{App, Mode};
use super::status::StatusRange;
use fugue_protocol::keys::mouse::{MouseKey, MouseKeyEvent, MouseLocation};
use fugue_protocol::keys::{KeyCode, Mods};
use fugue_protocol::mouse::{MouseAction, MouseButton, MouseEvent, MouseTracking};
use fugue_protocol::{Key, PaneId};
use ratatui::layout::Rect;
use std::time::{Duration, Instant};

/// tmux's click timeout (`KEYC_CLICK_TIMEOUT`): presses closer than this are one
/// double or triple click.
const CLICK: Duration = Duration::from_millis(300);

/// What the mouse keys remember between events.
#[derive(Debug, Default)]
pub struct MouseKeys {
    /// The last press: when, which button, and how many presses in a row (1 to 3).
    clicks: Option<(Instant, MouseButton, u8)>,
    /// The button being dragged: its release is `MouseDragEnd`.
    dragging: Option<MouseButton>,
    /// A second click's `DoubleClick` is due at this moment, unless a third press
    /// comes first; the event it is for.
    pub double_at: Option<Instant>,
    double: Option<(MouseEvent, Rect)>,
    /// Where the pointer was for the binding running now: its `=` targets, its
    /// formats' pane, and `send-keys -M`.
    pub current: Option<Pointer>,
}

/// A bound mouse event and what was under it.
#[derive(Clone, Copy, Debug)]
pub struct Pointer {
    pub ev: MouseEvent,
    pub pane: Option<PaneId>,
    /// The window whose label in the status line was under it.
    pub window: Option<u32>,
    pub area: Rect,
}

fn number(b: MouseButton) -> u8 {
    match b {
        MouseButton::Left => 1,
        MouseButton::Middle => 2,
        MouseButton::Right => 3,
    }
}

impl MouseKeys {
    /// What happened, in tmux's terms, remembering presses and drags. `None` for what
    /// tmux names nothing (sideways wheels).
    fn event(&mut self, ev: MouseEvent, area: Rect, now: Instant) -> Option<MouseKeyEvent> {
        Some(match ev.action {
            MouseAction::Down(b) => {
                self.dragging = None;
                self.double_at = None;
                let n = match self.clicks {
                    Some((at, last, n)) if last == b && now.duration_since(at) <= CLICK => {
                        n % 3 + 1
                    }
                    _ => 1,
                };
                self.clicks = Some((now, b, n));
                match n {
                    2 => {
                        self.double_at = Some(now + CLICK);
                        self.double = Some((ev, area));
                        MouseKeyEvent::SecondClick(number(b))
                    }
                    3 => {
                        // A fourth press starts again at `MouseDown`.
                        self.clicks = None;
                        MouseKeyEvent::TripleClick(number(b))
                    }
                    _ => MouseKeyEvent::Down(number(b)),
                }
            }
            MouseAction::Drag(b) => {
                self.dragging = Some(b);
                MouseKeyEvent::Drag(number(b))
            }
            MouseAction::Up(b) => match self.dragging.take() {
                Some(dragged) => MouseKeyEvent::DragEnd(number(dragged)),
                None => MouseKeyEvent::Up(number(b)),
            },
            MouseAction::ScrollUp => MouseKeyEvent::WheelUp,
            MouseAction::ScrollDown => MouseKeyEvent::WheelDown,
            MouseAction::Moved => MouseKeyEvent::Move,
            MouseAction::ScrollLeft | MouseAction::ScrollRight => return None,
        })
    }
}

/// A mouse binding's commands, and those its `if -F` runs, with the mouse's targets
/// made where the pointer was (`run_bound` asks).
pub(super) fn aim(commands: Vec<Vec<String>>, at: Option<&Pointer>) -> Vec<Vec<String>> {
    match at {
        Some(p) => commands.iter().map(|a| aimed(a, p)).collect(),
        None => commands,
    }
}

/// `argv` with the mouse's targets (`-t =`, `-t=`, `-t {mouse}`, and `-s`'s) made the
/// pane under the pointer, or the window whose label it was on.
fn aimed(argv: &[String], at: &Pointer) -> Vec<String> {
    let target = match (at.pane, at.window) {
        (Some(p), _) => Some(p.to_string()),
        (None, Some(index)) => Some(format!(":={index}")),
        (None, None) => None,
    };
    let Some(target) = target else {
        return argv.to_vec();
    };
    let mut out = Vec::with_capacity(argv.len());
    let mut flag = false;
    for a in argv {
        match a.as_str() {
            "=" | "{mouse}" | "{=}" if flag => out.push(target.clone()),
            "-t=" | "-s=" => {
                out.push(a[..2].to_string());
                out.push(target.clone());
            }
            _ => out.push(a.clone()),
        }
        flag = matches!(a.as_str(), "-t" | "-s");
    }
    out
}

impl App {
    /// Runs the binding of a mouse event, if a person made one; `None` leaves the
    /// event to fugue's own use of the mouse.
    pub(super) fn bound_mouse(&mut self, ev: MouseEvent, area: Rect) -> Option<Vec<Request>> {
        let event = self.mouse_keys.event(ev, area, Instant::now())?;
        self.run_mouse_key(event, ev, area)
    }

    /// The `DoubleClick` of a second click whose moment has come.
    pub fn double_click_due(&mut self) -> Vec<Request> {
        self.mouse_keys.double_at = None;
        let Some((ev, area)) = self.mouse_keys.double.take() else {
            return Vec::new();
        };
        let MouseAction::Down(b) = ev.action else {
            return Vec::new();
        };
        let event = MouseKeyEvent::DoubleClick(number(b));
        self.run_mouse_key(event, ev, area).unwrap_or_default()
    }

    fn run_mouse_key(
        &mut self,
        event: MouseKeyEvent,
        ev: MouseEvent,
        area: Rect,
    ) -> Option<Vec<Request>> {
        let (at, pane, window) = match self.spot(ev.col, ev.row, area) {
            Spot::Status(_) => match super::status::range_at(self, area, ev.col) {
                StatusRange::Window(index) => (MouseLocation::Status, None, Some(index)),
                StatusRange::Left => (MouseLocation::StatusLeft, None, None),
                StatusRange::Right => (MouseLocation::StatusRight, None, None),
                StatusRange::Default => (MouseLocation::StatusDefault, None, None),
            },
            Spot::Border(drag) => (MouseLocation::Border, Some(drag.pane), None),
            Spot::Pane(pane, _) => (MouseLocation::Pane, Some(pane), None),
            Spot::Nothing => return None,
        };
        let mut mods = Mods::NONE;
        for (on, m) in [
            (ev.ctrl, Mods::CTRL),
            (ev.alt, Mods::ALT),
            (ev.shift, Mods::SHIFT),
        ] {
            if on {
                mods |= m;
            }
        }
        let key = Key::new(KeyCode::Mouse(MouseKey { event, at }), mods);
        let table = match &self.mode {
            Mode::Copy(c) if Some(c.pane) == pane => {
                super::copy::table::table_of(c.opts.mode_keys).to_string()
            }
            _ => "root".to_string(),
        };
        let commands = self.keys.lookup(&table, &key)?.commands.clone();
        let pointer = Pointer {
            ev,
            pane,
            window,
            area,
        };
        let previous = self.mouse_keys.current.replace(pointer);
        let out = self.run_bound(commands);
        self.mouse_keys.current = previous;
        Some(out)
    }

    /// `send-keys -M` in a mouse binding: the event goes to the program of the pane
    /// under the pointer, as fugue passes it when no binding is made.
    pub(super) fn send_mouse(&mut self) -> Vec<Request> {
        let Some(p) = self.mouse_keys.current else {
            self.notice("send-keys -M: no mouse event".to_string());
            return Vec::new();
        };
        let Some(pane) = p.pane else {
            return Vec::new();
        };
        self.forward_mouse(pane, p.ev, p.area)
    }

    /// The pane a binding's formats see: the one under the pointer in a mouse
    /// binding, else the active one.
    pub(super) fn format_pane(&self) -> Option<PaneId> {
        self.mouse_keys
            .current
            .and_then(|p| p.pane)
            .or_else(|| self.active_pane())
    }

    /// `#{mouse_any_flag}`: the pane's program asked for the mouse.
    pub(super) fn pane_wants_mouse(&self, pane: PaneId) -> bool {
        self.panes
            .get(&pane)
            .is_some_and(|v| v.input.mouse != MouseTracking::None)
    }

    /// `#{pane_in_mode}`: this client shows the pane in copy mode.
    pub(super) fn pane_in_mode(&self, pane: PaneId) -> bool {
        matches!(&self.mode, Mode::Copy(c) if c.pane == pane)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(action: MouseAction) -> MouseEvent {
        MouseEvent {
            action,
            col: 3,
            row: 4,
            shift: false,
            alt: false,
            ctrl: false,
        }
    }

    #[test]
    fn clicks_and_drags_are_named_as_tmux_names_them() {
        let mut k = MouseKeys::default();
        let area = Rect::new(0, 0, 80, 24);
        let t0 = Instant::now();
        let down = ev(MouseAction::Down(MouseButton::Left));
        assert_eq!(k.event(down, area, t0), Some(MouseKeyEvent::Down(1)));
        let up = ev(MouseAction::Up(MouseButton::Left));
        assert_eq!(k.event(up, area, t0), Some(MouseKeyEvent::Up(1)));
        let t1 = t0 + Duration::from_millis(100);
        assert_eq!(k.event(down, area, t1), Some(MouseKeyEvent::SecondClick(1)));
        assert_eq!(k.double_at, Some(t1 + CLICK));
        let t2 = t1 + Duration::from_millis(100);
        assert_eq!(k.event(down, area, t2), Some(MouseKeyEvent::TripleClick(1)));
        assert_eq!(k.double_at, None, "a third press cancels the double click");
        assert_eq!(k.event(down, area, t2), Some(MouseKeyEvent::Down(1)));
        // Slow presses are single clicks; another button is not a second click.
        let late = t2 + Duration::from_secs(1);
        assert_eq!(k.event(down, area, late), Some(MouseKeyEvent::Down(1)));
        let right = ev(MouseAction::Down(MouseButton::Right));
        assert_eq!(k.event(right, area, late), Some(MouseKeyEvent::Down(3)));
        // A release after a drag ends the drag.
        let drag = ev(MouseAction::Drag(MouseButton::Right));
        assert_eq!(k.event(drag, area, late), Some(MouseKeyEvent::Drag(3)));
        let up3 = ev(MouseAction::Up(MouseButton::Right));
        assert_eq!(k.event(up3, area, late), Some(MouseKeyEvent::DragEnd(3)));
        assert_eq!(k.event(up3, area, late), Some(MouseKeyEvent::Up(3)));
        assert_eq!(
            k.event(ev(MouseAction::ScrollUp), area, late),
            Some(MouseKeyEvent::WheelUp)
        );
        assert_eq!(k.event(ev(MouseAction::ScrollLeft), area, late), None);
    }

    #[test]
    fn the_mouse_targets_become_where_the_pointer_was() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        let at = Pointer {
            ev: ev(MouseAction::Down(MouseButton::Left)),
            pane: Some(PaneId(7)),
            window: None,
            area: Rect::new(0, 0, 80, 24),
        };
        assert_eq!(
            aimed(&words("select-pane -t ="), &at),
            words("select-pane -t %7")
        );
        assert_eq!(
            aimed(&words("select-pane -t="), &at),
            words("select-pane -t %7")
        );
        assert_eq!(
            aimed(&words("swap-pane -s {mouse} -t ="), &at),
            words("swap-pane -s %7 -t %7")
        );
        assert_eq!(aimed(&words("display -p ="), &at), words("display -p ="));
        let status = Pointer {
            pane: None,
            window: Some(2),
            ..at
        };
        assert_eq!(
            aimed(&words("select-window -t ="), &status),
            words("select-window -t :=2")
        );
    }
}
