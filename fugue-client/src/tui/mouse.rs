//! Focus and mouse events from the terminal. Mouse events over a pane go to its
//! program, in the pane's own coordinates, when the program asked for mouse reports
//! (the server writes them as the program asked, or drops what it did not ask for).
//! With the mouse on (`keys.mouse`) every pane's program gets the events over it and
//! the rest is the multiplexer's (`mouse_actions.rs`); off, as with tmux's
//! `mouse off`, only the active pane's program gets them and nothing else happens.
//! With Shift held an event is the multiplexer's: as in tmux, Shift is the way past
//! a program that takes the mouse.

use super::input::Request;
use super::state::{App, Mode, Pending};
use fugue_protocol::cmd;
use fugue_protocol::mouse::{MouseAction, MouseEvent, MouseTracking};
use fugue_protocol::{Command, InputPart, PaneId, SendInput, Target};
use ratatui::layout::Rect;

impl App {
    /// The terminal gained or lost focus: the server tells the focused pane's program
    /// (if it asked, mode 1004). Said once per change.
    pub fn on_focus(&mut self, focused: bool) -> Vec<Request> {
        if self.focused == focused {
            return Vec::new();
        }
        self.focused = focused;
        vec![Request {
            command: Command::ClientFocus(cmd::ClientFocus { focused }),
            pending: Pending::Action("focus"),
        }]
    }

    /// The terminal answered its foreground or background colour (asked at set-up):
    /// the server answers panes' colour queries with it.
    pub fn on_terminal_color(&mut self, background: bool, rgb: [u16; 3]) -> Vec<Request> {
        let (fg, bg) = if background {
            (None, Some(rgb))
        } else {
            (Some(rgb), None)
        };
        vec![Request {
            command: Command::ClientColors(cmd::ClientColors { fg, bg }),
            pending: Pending::Action("colors"),
        }]
    }

    /// A mouse event at a cell of a terminal of `area`.
    pub fn on_mouse(&mut self, ev: MouseEvent, area: Rect) -> Vec<Request> {
        if let Mode::Menu(_) = &self.mode {
            let Mode::Menu(menu) = std::mem::replace(&mut self.mode, Mode::Normal) else {
                return Vec::new();
            };
            let (panes, _) = super::render::pane_boxes(self, area);
            return super::menu::on_mouse(self, menu, ev, panes);
        }
        if let Mode::Tree(_) = &self.mode {
            let Mode::Tree(tree) = std::mem::replace(&mut self.mode, Mode::Normal) else {
                return Vec::new();
            };
            let (panes, _) = super::render::pane_boxes(self, area);
            return super::tree_keys::on_mouse(self, tree, ev, panes);
        }
        // The popup's program gets no mouse (tmux passes it only to a popup's
        // program that asked; fugue not yet), and nothing under it does.
        if self.popup().is_some() {
            return Vec::new();
        }
        if self.mouse.enabled {
            return self.on_mouse_action(ev, area);
        }
        if ev.shift || !matches!(self.mode, Mode::Normal) {
            self.mouse_held = None;
            return Vec::new();
        }
        let Some(pane) = self.active_pane() else {
            return Vec::new();
        };
        self.forward_mouse(pane, ev, area)
    }

    /// Sends `ev` to `pane`'s program if it asked for the mouse and the event is over
    /// its screen, or is the drag or release of a press it got.
    pub(super) fn forward_mouse(
        &mut self,
        pane: PaneId,
        ev: MouseEvent,
        area: Rect,
    ) -> Vec<Request> {
        let down = matches!(ev.action, MouseAction::Down(_));
        let ends_drag = matches!(ev.action, MouseAction::Up(_));
        let held = self.mouse_held.take();
        if self
            .panes
            .get(&pane)
            .map(|v| v.input.mouse)
            .unwrap_or_default()
            == MouseTracking::None
        {
            return Vec::new();
        }
        let Some(content) = super::render::pane_content(self, area, pane) else {
            return Vec::new();
        };
        let inside = content.contains(ratatui::layout::Position::new(ev.col, ev.row));
        // A drag or release after a press in the pane goes to it wherever the pointer
        // is, held to the pane's edge, so the program sees the button come up.
        let dragging =
            held == Some(pane) && matches!(ev.action, MouseAction::Drag(_) | MouseAction::Up(_));
        if !inside && !dragging {
            return Vec::new();
        }
        if (down || dragging) && !ends_drag {
            self.mouse_held = Some(pane);
        }
        let last_col = content.width.saturating_sub(1);
        let last_row = content.height.saturating_sub(1);
        let ev = MouseEvent {
            col: ev.col.saturating_sub(content.x).min(last_col),
            row: ev.row.saturating_sub(content.y).min(last_row),
            ..ev
        };
        vec![Request {
            command: Command::SendInput(SendInput {
                // The pane the coordinates are of, whichever is active when it arrives.
                target: Some(Target::Pane(pane)),
                parts: vec![InputPart::Mouse(ev)],
            }),
            pending: Pending::Action("mouse"),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::keys::{Key, KeyCode, Mods};
    use fugue_protocol::mouse::MouseButton;
    use fugue_protocol::screen::*;
    use fugue_protocol::{KeyTable, PaneId, SessionId};

    /// Two panes side by side on an 80x24 terminal; the right one (%2) is active and
    /// its program asked for `tracking`.
    fn app(tracking: MouseTracking) -> App {
        let mut app = App::new(
            KeyTable {
                prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
                bindings: Vec::new(),
                repeat_time_ms: 0,
            },
            true,
            "s".into(),
        );
        let rect = |pane, x, active| PaneRect {
            pane: PaneId(pane),
            x,
            y: 0,
            width: 40,
            height: 23,
            title: String::new(),
            active,
            exit_status: None,
            badge: None,
            index: 0,
            command: String::new(),
            path: String::new(),
            pid: None,
            border_style: String::new(),
            active_border_style: String::new(),
            border_text: String::new(),
        };
        let update = |pane| PaneUpdate {
            pane: PaneId(pane),
            seq: 1,
            cols: 38,
            rows: 21,
            full: true,
            changed: Vec::new(),
            cursor: Cursor::default(),
            alternate_screen: false,
            mouse: tracking != MouseTracking::None,
            input: PaneInput {
                mouse: tracking,
                ..PaneInput::default()
            },
            cursor_look: Default::default(),
            links: Vec::new(),
        };
        app.apply(Frame {
            layout: Some(ClientLayout {
                session: SessionId(1),
                session_name: "s".into(),
                windows: Vec::new(),
                panes: vec![rect(1, 0, false), rect(2, 40, true)],
                cols: 80,
                rows: 23,
                popup: None,
                shared_borders: None,
            }),
            panes: vec![update(1), update(2)],
            outer: Default::default(),
        });
        app
    }

    fn ev(action: MouseAction, col: u16, row: u16) -> MouseEvent {
        MouseEvent::plain(action, col, row)
    }

    fn sent(requests: Vec<Request>) -> Vec<(PaneId, u16, u16)> {
        requests
            .into_iter()
            .filter_map(|r| match r.command {
                Command::SendInput(SendInput {
                    target: Some(Target::Pane(p)),
                    parts,
                }) => match parts.as_slice() {
                    [InputPart::Mouse(m)] => Some((p, m.col, m.row)),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }

    const AREA: Rect = Rect {
        x: 0,
        y: 0,
        width: 80,
        height: 24,
    };

    #[test]
    fn events_over_the_active_pane_reach_it_in_its_coordinates() {
        let mut app = app(MouseTracking::PressRelease);
        let left = MouseAction::Down(MouseButton::Left);
        // The right pane's box starts at column 40; its screen at 41, row 1.
        assert_eq!(
            sent(app.on_mouse(ev(left, 41, 1), AREA)),
            [(PaneId(2), 0, 0)]
        );
        assert_eq!(
            sent(app.on_mouse(ev(left, 50, 6), AREA)),
            [(PaneId(2), 9, 5)]
        );
        // On its border, over the other pane, on the status bar: nothing.
        for (col, row) in [(40, 3), (10, 3), (50, 23), (79, 5)] {
            assert!(
                sent(app.on_mouse(ev(left, col, row), AREA)).is_empty(),
                "{col},{row}"
            );
        }
        // Shift: the multiplexer's.
        let shifted = MouseEvent {
            shift: true,
            ..ev(left, 50, 6)
        };
        assert!(app.on_mouse(shifted, AREA).is_empty());
    }

    #[test]
    fn a_drag_out_of_the_pane_stays_with_it_until_the_button_comes_up() {
        let mut app = app(MouseTracking::ButtonMotion);
        let b = MouseButton::Left;
        assert_eq!(
            sent(app.on_mouse(ev(MouseAction::Down(b), 45, 5), AREA)).len(),
            1
        );
        assert_eq!(
            sent(app.on_mouse(ev(MouseAction::Drag(b), 10, 30), AREA)),
            [(PaneId(2), 0, 20)]
        );
        assert_eq!(
            sent(app.on_mouse(ev(MouseAction::Up(b), 10, 30), AREA)),
            [(PaneId(2), 0, 20)]
        );
        // The drag is over: outside the pane is nobody's again.
        assert!(
            app.on_mouse(ev(MouseAction::Up(b), 10, 30), AREA)
                .is_empty()
        );
    }

    #[test]
    fn a_pane_that_did_not_ask_gets_nothing() {
        let mut app = app(MouseTracking::None);
        let e = ev(MouseAction::Down(MouseButton::Left), 50, 6);
        assert!(app.on_mouse(e, AREA).is_empty());
    }
}
