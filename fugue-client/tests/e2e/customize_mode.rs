//! `customize-mode` (`C-b C`): tmux's options and key bindings editor. Each change
//! it makes is read back from the server with `show-options` / `list-keys`, so a
//! mode that only drew a value it never set fails here.

use super::harness::{World, eventually};
use super::tmux_flags::{Step, both};

const MODE: &str = "#{pane_in_mode} #{pane_mode}";

/// With no client, the pane enters the mode and keeps it through keys until
/// `copy-mode -q`, as tmux 3.3a's does.
#[test]
fn customize_mode_with_no_client_as_tmux() {
    use Step::*;
    let mode = ["display-message", "-p", "-t", "m", MODE];
    both(&[
        Do(&["new-session", "-d", "-s", "m", "cat"]),
        Same(&mode),
        Do(&["customize-mode", "-t", "m"]),
        Same(&mode),
        Do(&["send-keys", "-t", "m", "q"]),
        Same(&mode),
        Do(&["copy-mode", "-q", "-t", "m"]),
        Same(&mode),
        SameError(&["customize-mode", "-t", "nowhere"]),
    ]);
}

/// `C-b C` opens the tree; a filter finds `status-left`; Enter edits it on the
/// bottom line and the session's value is what was typed; `u` unsets it again; `q`
/// leaves and the pane is out of the mode.
#[test]
fn prefix_c_sets_and_unsets_a_session_option() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "cz"], 100, 30);
    t.wait_text("[cz]");
    t.prefix(b"C");
    t.wait_text("Server Options");
    t.wait_text("Key Bindings");
    let mode = || w.ok(&["display-message", "-p", "-t", "cz", MODE]);
    eventually("options-mode reported", || {
        (mode() == "1 options-mode\n").then_some(())
    });
    t.send(b"f");
    t.wait_text("(filter)");
    t.send(b"status-left-length\r");
    t.wait_text("status-left-length");
    t.send(b"\r");
    t.wait_text("(status-left-length)");
    // C-u clears the value offered, then the new one, pasted (bracketed).
    t.send(b"\x15\x1b[200~77\x1b[201~\r");
    eventually("the session's value", || {
        let v = w.ok(&["show-options", "-v", "-t", "cz", "status-left-length"]);
        (v == "77\n").then_some(())
    });
    t.wait_text("77");
    t.send(b"u");
    eventually("unset again", || {
        let v = w.ok(&["show-options", "-t", "cz", "status-left-length"]);
        v.is_empty().then_some(())
    });
    t.send(b"q");
    t.wait("the tree gone", |s| {
        !s.contents().contains("Server Options")
    });
    eventually("out of the mode", || (mode() == "0 \n").then_some(()));
}

/// A flag toggles on Enter; S sets the global value.
#[test]
fn enter_toggles_a_flag_and_capital_s_sets_it_globally() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "fl"], 100, 30);
    t.wait_text("[fl]");
    t.prefix(b"C");
    t.wait_text("Server Options");
    // Typed at once: the filter may come before the options do.
    t.send(b"frenumber-windows\r");
    t.wait_text("renumber-windows");
    t.send(b"\r");
    eventually("toggled on for the session", || {
        let v = w.ok(&["show-options", "-v", "-t", "fl", "renumber-windows"]);
        (v == "on\n").then_some(())
    });
    assert_eq!(w.ok(&["show-options", "-gv", "renumber-windows"]), "off\n");
    t.send(b"S");
    t.wait_text("(renumber-windows (global))");
    t.send(b"\x15on\r");
    eventually("the global value", || {
        let v = w.ok(&["show-options", "-gv", "renumber-windows"]);
        (v == "on\n").then_some(())
    });
    // d: back to the default, here and globally.
    t.send(b"d");
    eventually("the default again", || {
        let g = w.ok(&["show-options", "-gv", "renumber-windows"]);
        let here = w.ok(&["show-options", "-t", "fl", "renumber-windows"]);
        (g == "off\n" && here.is_empty()).then_some(())
    });
}

/// Enter on a key binding edits its command: the server's table has the new one;
/// `u` unbinds the key.
#[test]
fn a_key_binding_is_rebound_and_unbound_from_the_tree() {
    let w = World::new();
    // Bound before the client attaches, so its copy of the table has the key.
    w.ok(&["new-session", "-d", "-s", "kb"]);
    w.ok(&["bind-key", "-T", "prefix", "F12", "display-message", "old"]);
    let mut t = w.tui(&["attach-session", "-t", "kb"], 120, 30);
    t.wait_text("[kb]");
    t.prefix(b"C");
    t.wait_text("Key Bindings");
    t.send(b"fdisplay-message old\r");
    t.wait_text("F12");
    // Under the filter, branches and tables with nothing that matches are not shown.
    t.wait("empty branches hidden", |s| {
        let c = s.contents();
        !c.contains("Server Options") && !c.contains("copy-mode-vi")
    });
    t.send(b"\r");
    t.wait_text("(prefix F12)");
    // A command list: both bound, neither run now (tmux's editor binds the text).
    t.send(b"\x15display-message new ; display-message two\r");
    eventually("rebound", || {
        let v = w.ok(&["list-keys", "-T", "prefix", "F12"]);
        v.contains("display-message new \\; display-message two")
            .then_some(())
    });
    // The filter still says "old": clear it to see the key again.
    t.send(b"f\x15F12\r");
    t.wait_text("display-message new");
    t.send(b"u");
    eventually("unbound", || {
        let out = w.run(&["list-keys", "-T", "prefix", "F12"]);
        (!out.status.success()).then_some(())
    });
}
