//! Pane modes asked for with no terminal client to show them (`copy-mode`,
//! `choose-tree`, `choose-buffer`, `find-window` from the CLI of a detached session).
//! tmux's modes are the pane's: entered whoever looks, reported by `#{pane_in_mode}`,
//! taking the keys sent to the pane until left. fugue's modes are drawn by its
//! clients, so the server keeps the command line on the pane until a client shows
//! it: keys sent meanwhile go to the mode (q, Escape or C-c leave copy mode; the
//! clock and the choosers, like tmux's with no client, take keys and stay until
//! `copy-mode -q`),
//! and the first terminal client to attach to the session opens the mode of its
//! current window's pane.

use crate::server::Server;
use crate::session::Tree;
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::{InputPart, PaneId, SessionId};

/// Keeps `argv` on `pane` for the next client; false if there is no such pane.
pub fn hold(tree: &mut Tree, pane: PaneId, argv: Vec<String>) -> bool {
    match tree.panes.get_mut(&pane) {
        Some(p) => {
            p.held_mode = Some(argv);
            true
        }
        None => false,
    }
}

/// Leaves the mode `pane` holds, if any (`copy-mode -q`).
pub fn release(tree: &mut Tree, pane: PaneId) {
    if let Some(p) = tree.panes.get_mut(&pane) {
        p.held_mode = None;
    }
}

/// What became of input sent to a pane holding a mode.
pub enum Taken {
    /// The pane holds none: the program gets the input.
    NotHeld,
    /// The mode took it.
    Kept,
    /// A person typed it at a terminal client: that client opens the mode with this
    /// line (the keystroke is the mode's), and the pane holds it no longer.
    HandOff(Vec<String>),
}

/// Input for `pane`. A pane that holds a mode takes it: copy mode is left by a key
/// that leaves it; the clock and the choosers, as tmux's with no client to act for,
/// take keys and stay (`copy-mode -q` leaves them). Keys a person types at a
/// terminal client (`typed`) hand the mode to that client instead: it shows the pane,
/// so it shows the mode.
pub fn take_input(tree: &mut Tree, pane: PaneId, parts: &[InputPart], typed: bool) -> Taken {
    let Some(p) = tree.panes.get_mut(&pane) else {
        return Taken::NotHeld;
    };
    let Some(held) = p.held_mode.as_ref() else {
        return Taken::NotHeld;
    };
    if typed {
        let line = for_client(held, pane);
        p.held_mode = None;
        return Taken::HandOff(line);
    }
    let leave = match held.first().map(String::as_str) {
        Some("copy-mode") => parts.iter().any(leaves),
        _ => false,
    };
    if leave {
        p.held_mode = None;
    }
    Taken::Kept
}

/// The held line for a client: its `-t` naming `pane` by id (what a client knows
/// panes by).
pub fn for_client(held: &[String], pane: PaneId) -> Vec<String> {
    let mut argv = Vec::with_capacity(held.len() + 2);
    let mut words = held.iter();
    while let Some(w) = words.next() {
        if w == "-t" {
            words.next();
        } else {
            argv.push(w.clone());
        }
    }
    argv.extend(["-t".to_string(), pane.to_string()]);
    argv
}

/// tmux's keys that leave copy mode and the choosers in both key tables: q and C-c
/// (and Escape, emacs's cancel and the choosers').
fn leaves(part: &InputPart) -> bool {
    let key = |k: &Key| match k.legacy() {
        Some(k) => {
            matches!(k.code, KeyCode::Escape)
                || (k.code == KeyCode::Char('q') && k.mods.is_empty())
                || (k.code == KeyCode::Char('c') && k.mods == Mods::CTRL)
        }
        None => false,
    };
    match part {
        InputPart::Key(k) => key(k),
        InputPart::Text(t) => t.contains('q') || t.contains('\u{3}') || t.contains('\u{1b}'),
        InputPart::Paste(_) | InputPart::Mouse(_) | InputPart::Reset => false,
    }
}

/// A terminal client attached to `session`: it opens the mode the pane it shows
/// holds (its current window's active pane, else the first pane there holding one).
/// A control client draws no mode: the pane keeps it for a terminal client.
pub fn hand_off(server: &Server, client: u64, session: SessionId) {
    let terminal = server
        .mux
        .attached
        .lock()
        .get(&client)
        .is_some_and(|c| !c.control_mode);
    if !terminal {
        return;
    }
    let argv = {
        let mut tree = server.mux.tree();
        let Some(w) = tree.active_window(session) else {
            return;
        };
        let mut panes = w.layout.panes();
        panes.sort_by_key(|p| *p != w.active);
        let Some(pane) = panes
            .into_iter()
            .find(|p| tree.panes.get(p).is_some_and(|p| p.held_mode.is_some()))
        else {
            return;
        };
        let Some(held) = tree.panes.get_mut(&pane).and_then(|p| p.held_mode.take()) else {
            return;
        };
        for_client(&held, pane)
    };
    post(server, client, argv);
}

/// Hands `argv` to terminal client `client`.
pub fn post(server: &Server, client: u64, argv: Vec<String>) {
    if let Some(c) = server.mux.attached.lock().get(&client)
        && !c.control_mode
    {
        c.control.post(crate::attached::Control::Run(argv));
    }
}
