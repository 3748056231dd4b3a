//! tmux's mouse keys (`MouseDown1Pane`, `WheelUpStatus`, `DoubleClick1Pane`,
//! `MouseDragEnd1Border`, ...): a mouse event, named by what happened and where, that
//! a key table binds as it binds a key (`bind -n WheelUpPane ...`). Only bindings
//! use them: a pane never gets one typed (`send-keys MouseDown1Pane` types nothing,
//! as `send-keys -M` is how a binding passes the event on).

use std::fmt;

/// The most buttons a mouse key names (tmux 3.5: 1 to 11).
pub const MAX_BUTTON: u8 = 11;

/// What the mouse did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseKeyEvent {
    Move,
    Down(u8),
    Up(u8),
    Drag(u8),
    /// The release that ends a drag.
    DragEnd(u8),
    WheelUp,
    WheelDown,
    SecondClick(u8),
    DoubleClick(u8),
    TripleClick(u8),
}

/// Where it happened, as tmux names the places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseLocation {
    Pane,
    Status,
    StatusLeft,
    StatusRight,
    /// The status line outside the window list and its left and right parts.
    StatusDefault,
    Border,
}

/// A mouse key: the event and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MouseKey {
    pub event: MouseKeyEvent,
    pub at: MouseLocation,
}

/// An event with its button.
type WithButton = fn(u8) -> MouseKeyEvent;

/// Events with a button, by the name before the number.
const WITH_BUTTON: &[(&str, WithButton)] = &[
    ("MouseDown", MouseKeyEvent::Down),
    ("MouseUp", MouseKeyEvent::Up),
    ("MouseDragEnd", MouseKeyEvent::DragEnd),
    ("MouseDrag", MouseKeyEvent::Drag),
    ("SecondClick", MouseKeyEvent::SecondClick),
    ("DoubleClick", MouseKeyEvent::DoubleClick),
    ("TripleClick", MouseKeyEvent::TripleClick),
];

/// Places, longest first so `StatusLeft` is not read as `Status` then `Left`.
const PLACES: &[(&str, MouseLocation)] = &[
    ("StatusDefault", MouseLocation::StatusDefault),
    ("StatusRight", MouseLocation::StatusRight),
    ("StatusLeft", MouseLocation::StatusLeft),
    ("Status", MouseLocation::Status),
    ("Border", MouseLocation::Border),
    ("Pane", MouseLocation::Pane),
];

impl MouseKey {
    /// `MouseDown1Pane` and the rest, matched with their case as tmux does.
    pub fn parse(name: &str) -> Option<MouseKey> {
        let (place, at) = PLACES
            .iter()
            .find_map(|&(p, at)| name.strip_suffix(p).map(|head| (head, at)))?;
        let event = match place {
            "MouseMove" => MouseKeyEvent::Move,
            "WheelUp" => MouseKeyEvent::WheelUp,
            "WheelDown" => MouseKeyEvent::WheelDown,
            _ => {
                // `MouseDragEnd` before `MouseDrag`: the table lists it first.
                let (make, digits) = WITH_BUTTON
                    .iter()
                    .find_map(|&(n, make)| place.strip_prefix(n).map(|d| (make, d)))?;
                if digits.is_empty()
                    || digits.len() > 2
                    || digits.starts_with('0')
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                {
                    return None;
                }
                let button: u8 = digits.parse().ok()?;
                if !(1..=MAX_BUTTON).contains(&button) {
                    return None;
                }
                make(button)
            }
        };
        Some(MouseKey { event, at })
    }
}

impl fmt::Display for MouseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let named =
            |f: &mut fmt::Formatter<'_>, what: &str, button: u8| write!(f, "{what}{button}");
        match self.event {
            MouseKeyEvent::Move => f.write_str("MouseMove")?,
            MouseKeyEvent::WheelUp => f.write_str("WheelUp")?,
            MouseKeyEvent::WheelDown => f.write_str("WheelDown")?,
            MouseKeyEvent::Down(b) => named(f, "MouseDown", b)?,
            MouseKeyEvent::Up(b) => named(f, "MouseUp", b)?,
            MouseKeyEvent::Drag(b) => named(f, "MouseDrag", b)?,
            MouseKeyEvent::DragEnd(b) => named(f, "MouseDragEnd", b)?,
            MouseKeyEvent::SecondClick(b) => named(f, "SecondClick", b)?,
            MouseKeyEvent::DoubleClick(b) => named(f, "DoubleClick", b)?,
            MouseKeyEvent::TripleClick(b) => named(f, "TripleClick", b)?,
        }
        // PLACES lists every place, so the fallback is never printed.
        let place = PLACES
            .iter()
            .find(|(_, at)| *at == self.at)
            .map_or("?", |p| p.0);
        f.write_str(place)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tmux_names_read_and_print_back() {
        for name in [
            "MouseDown1Pane",
            "MouseUp3Status",
            "MouseDrag1Border",
            "MouseDragEnd1Pane",
            "WheelUpPane",
            "WheelDownStatus",
            "MouseMoveStatusLeft",
            "SecondClick1Pane",
            "DoubleClick1StatusRight",
            "TripleClick11StatusDefault",
        ] {
            let key = MouseKey::parse(name).expect(name);
            assert_eq!(key.to_string(), name);
        }
        assert_eq!(
            MouseKey::parse("MouseDragEnd1Pane"),
            Some(MouseKey {
                event: MouseKeyEvent::DragEnd(1),
                at: MouseLocation::Pane
            })
        );
        for not in [
            "MouseDown0Pane",
            "MouseDown12Pane",
            "MouseDown01Pane",
            "MouseDownPane",
            "WheelUp",
            "mousedown1pane",
            "WheelLeftPane",
        ] {
            assert_eq!(MouseKey::parse(not), None, "{not}");
        }
    }
}
