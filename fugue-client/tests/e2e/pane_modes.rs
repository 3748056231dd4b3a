//! `copy-mode`, `choose-tree`, `choose-buffer` and `find-window` from the CLI: in the
//! clients showing the pane, or, with none attached, kept on the pane as tmux's
//! modes are (`#{pane_in_mode}`, keys sent to the pane go to the mode, q leaves it)
//! until a client attaches and shows it.

use super::harness::{World, eventually};
use super::tmux_flags::{Step, both};

const MODE: &str = "#{pane_in_mode} #{pane_mode}";

/// What the client's status line says while copy mode is on (whatever the pane
/// holds: an empty pane has no position to show yet).
const COPY_HINT: &str = "copy: q to leave";

/// With no client attached, a pane enters the mode and keys sent to it go to the
/// mode until q leaves it: the program never sees them. Compared with tmux.
#[test]
fn a_mode_with_no_client_takes_the_keys_until_q_as_tmux() {
    use Step::*;
    let mode = ["display-message", "-p", "-t", "m", MODE];
    both(&[
        Do(&["new-session", "-d", "-s", "m", "-n", "w", "cat"]),
        Same(&mode),
        Do(&["copy-mode", "-t", "m"]),
        Same(&mode),
        Do(&["send-keys", "-t", "m", "Up"]),
        Same(&mode),
        Do(&["send-keys", "-t", "m", "q"]),
        Same(&mode),
        Do(&["choose-tree", "-t", "m"]),
        Same(&mode),
        Do(&["send-keys", "-t", "m", "Escape"]),
        Same(&mode),
        Do(&["find-window", "-t", "m", "w"]),
        Same(&mode),
        Do(&["send-keys", "-t", "m", "C-c"]),
        Same(&mode),
        Do(&["copy-mode", "-t", "m"]),
        Do(&["copy-mode", "-q", "-t", "m"]),
        Same(&mode),
    ]);
}

/// Fugue alone (also without tmux): what the mode took never reached the program,
/// and what is sent after q does.
#[test]
fn keys_taken_by_a_mode_never_reach_the_program() {
    let w = World::new();
    w.ok(&["tmux", "new-session", "-d", "-s", "m", "cat"]);
    w.ok(&["tmux", "copy-mode", "-t", "m"]);
    assert_eq!(
        w.ok(&["tmux", "display-message", "-p", "-t", "m", MODE]),
        "1 copy-mode\n"
    );
    w.ok(&["tmux", "send-keys", "-t", "m", "swallowed", "Enter"]);
    w.ok(&["tmux", "send-keys", "-t", "m", "q"]);
    w.ok(&["tmux", "send-keys", "-t", "m", "typed", "Enter"]);
    let screen = eventually("cat's echo", || {
        let s = w.ok(&["tmux", "capture-pane", "-p", "-t", "m"]);
        s.contains("typed").then_some(s)
    });
    assert!(!screen.contains("swallowed"), "{screen}");
}

/// A client attaching to a session whose pane holds copy mode shows it: the mode is
/// the pane's, not the command's, as in tmux.
#[test]
fn the_next_client_to_attach_shows_the_mode_the_pane_kept() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "kept"]);
    w.ok(&["copy-mode", "-t", "kept"]);
    let mut t = w.tui(&["attach-session", "-t", "kept"], 80, 24);
    t.wait("copy mode shown", |s| s.contents().contains(COPY_HINT));
    t.send(b"q");
    t.wait("copy mode left", |s| !s.contents().contains(COPY_HINT));
    // The client draws first and then tells the server (as in
    // copy_mode_from_the_cli_opens_in_the_attached_client): the pane is out of the mode
    // once that message arrived, which under load is after the screen changed.
    eventually("the pane out of the mode", || {
        (w.ok(&["display-message", "-p", "-t", "kept", "#{pane_in_mode}"]) == "0\n").then_some(())
    });
}

/// With a client attached, `copy-mode -t` from the CLI opens copy mode in it, and
/// `copy-mode -q` leaves it.
#[test]
fn copy_mode_from_the_cli_opens_in_the_attached_client() {
    let w = World::new();
    let t = w.tui(&["new-session", "-s", "live"], 80, 24);
    t.wait_text("[live]");
    w.ok(&["copy-mode", "-t", "live"]);
    t.wait("copy mode shown", |s| s.contents().contains(COPY_HINT));
    // The client told the server: the pane is in the mode, as a tmux pane would be.
    let mode = || w.ok(&["display-message", "-p", "-t", "live", MODE]);
    eventually("pane_in_mode", || (mode() == "1 copy-mode\n").then_some(()));
    w.ok(&["copy-mode", "-q", "-t", "live"]);
    t.wait("copy mode left", |s| !s.contents().contains(COPY_HINT));
    eventually("out of the mode", || (mode() == "0 \n").then_some(()));
}

/// `copy-mode -t other:0` for a window linked into the session a client shows opens
/// copy mode in that client: the mode is the pane's, whichever session names it.
#[test]
fn copy_mode_through_a_session_with_no_client_opens_where_the_window_shows() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "other"]);
    let t = w.tui(&["new-session", "-s", "live"], 80, 24);
    t.wait_text("[live]");
    w.ok(&["link-window", "-s", "other:0", "-t", "live:5"]);
    w.ok(&["select-window", "-t", "live:5"]);
    t.wait_text("5:");
    w.ok(&["copy-mode", "-t", "other:0"]);
    t.wait("copy mode shown", |s| s.contents().contains(COPY_HINT));
    eventually("pane_in_mode through the other session", || {
        let mode = w.ok(&["display-message", "-p", "-t", "other:0", MODE]);
        (mode == "1 copy-mode\n").then_some(())
    });
}

/// The same with the linked window not current in the client's session: that client
/// does not show the pane, so the pane keeps the mode for whoever comes to it.
#[test]
fn copy_mode_on_a_linked_window_no_client_shows_is_kept_on_the_pane() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "other"]);
    let t = w.tui(&["new-session", "-s", "live"], 80, 24);
    t.wait_text("[live]");
    w.ok(&["link-window", "-d", "-s", "other:0", "-t", "live:5"]);
    w.ok(&["copy-mode", "-t", "other:0"]);
    assert_eq!(
        w.ok(&["display-message", "-p", "-t", "other:0", MODE]),
        "1 copy-mode\n"
    );
    // What the server tells the client comes in order: once a later change shows,
    // copy mode would have shown before it.
    w.ok(&["rename-window", "-t", "live:0", "marker"]);
    t.wait_text("0:marker");
    assert!(!t.contents().contains(COPY_HINT), "{}", t.contents());
}

/// A client's clock goes when its pane is no longer shown (another window selected
/// from the CLI): the pane is out of the mode.
#[test]
fn the_clock_leaves_with_its_window_and_the_pane_is_out_of_the_mode() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ck"], 80, 24);
    t.wait_text("[ck]");
    w.ok(&["new-window", "-d", "-t", "ck:1"]);
    t.prefix(b"t");
    t.wait("the clock", |s| blue_cells(s) > 10);
    let mode = || w.ok(&["display-message", "-p", "-t", "ck:0", MODE]);
    eventually("clock-mode reported", || {
        (mode() == "1 clock-mode\n").then_some(())
    });
    w.ok(&["select-window", "-t", "ck:1"]);
    eventually("out of the mode", || (mode() == "0 \n").then_some(()));
    w.ok(&["select-window", "-t", "ck:0"]);
    t.wait("no clock", |s| blue_cells(s) == 0);
}

/// `send-keys -X` from a command line, against tmux: no mode is tmux's error; in a
/// copy mode with no client, a command stays in it and cancel leaves; the clock takes
/// no copy-mode command.
#[test]
fn send_keys_x_from_the_cli_as_tmux() {
    use Step::*;
    let mode = ["display-message", "-p", "-t", "x", MODE];
    both(&[
        Do(&["new-session", "-d", "-s", "x", "cat"]),
        SameError(&["send-keys", "-t", "x", "-X", "cancel"]),
        Do(&["copy-mode", "-t", "x"]),
        Do(&["send-keys", "-t", "x", "-X", "begin-selection"]),
        Same(&mode),
        Do(&["send-keys", "-t", "x", "-X", "cancel"]),
        Same(&mode),
        Do(&["copy-mode", "-t", "x"]),
        Do(&[
            "send-keys",
            "-t",
            "x",
            "-X",
            "copy-pipe-and-cancel",
            "cat >/dev/null",
        ]),
        Same(&mode),
        Do(&["clock-mode", "-t", "x"]),
        SameError(&["send-keys", "-t", "x", "-X", "cancel"]),
        Same(&mode),
    ]);
}

/// `send-keys -X` from the CLI runs in the copy mode an attached client shows.
#[test]
fn send_keys_x_runs_in_the_clients_copy_mode() {
    let w = World::new();
    let t = w.tui(&["new-session", "-s", "cx"], 80, 24);
    t.wait_text("[cx]");
    w.ok(&["copy-mode", "-t", "cx"]);
    t.wait("copy mode shown", |s| s.contents().contains(COPY_HINT));
    let mode = || w.ok(&["display-message", "-p", "-t", "cx", MODE]);
    eventually("reported", || (mode() == "1 copy-mode\n").then_some(()));
    w.ok(&["send-keys", "-t", "cx", "-X", "-N", "2", "cursor-up"]);
    w.ok(&["send-keys", "-t", "cx", "-X", "cancel"]);
    t.wait("copy mode left", |s| !s.contents().contains(COPY_HINT));
    eventually("out of the mode", || (mode() == "0 \n").then_some(()));
}

/// How many cells of the screen have a blue background (`clock-mode-colour`).
fn blue_cells(s: &vt100::Screen) -> usize {
    let (rows, cols) = s.size();
    (0..rows.get())
        .flat_map(|r| (0..cols.get()).map(move |c| (r, c)))
        .filter(|&(r, c)| {
            s.cell(r, c)
                .is_some_and(|c| c.bgcolor() == vt100::Color::Idx(4))
        })
        .count()
}

/// `C-b t` draws the time in big digits over the pane (tmux's default binding), and
/// output under it does not draw over it; any key takes it away and is not typed
/// into the program.
#[test]
fn prefix_t_shows_the_clock_until_a_key() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "clock"], 80, 24);
    t.wait_text("[clock]");
    t.send(b"for i in $(seq 1 400); do echo tick$i; sleep 0.01; done\r");
    t.wait("output", |s| s.contents().contains("tick"));
    t.prefix(b"t");
    t.wait("the clock", |s| blue_cells(s) > 10);
    // Output goes on under the clock: the pane's screen moves past tick300.
    eventually("more output", || {
        w.ok(&["capture-pane", "-p", "-t", "clock"])
            .contains("tick300")
            .then_some(())
    });
    assert!(
        t.screen(|s| blue_cells(s) > 10),
        "output drew over the clock"
    );
    assert!(
        !t.screen(|s| s.contents()).contains("tick300"),
        "output drew over the clock"
    );
    t.send(b"x");
    t.wait("the clock gone", |s| blue_cells(s) == 0);
    t.send(b"echo after\r");
    t.wait("the shell's echo", |s| s.contents().contains("after"));
    assert!(
        !t.screen(|s| s.contents()).contains("xecho"),
        "the key that ended the clock reached the shell"
    );
}

/// `clock-mode` with no client: the pane is in clock mode, and keys sent to it do
/// not end it (tmux's clock needs a client to act for); a client attaching meanwhile
/// shows the clock, and there any key ends it.
#[test]
fn clock_mode_with_no_client_as_tmux_and_then_in_a_client() {
    use Step::*;
    let mode = ["display-message", "-p", "-t", "c", MODE];
    both(&[
        Do(&["new-session", "-d", "-s", "c", "cat"]),
        Do(&["clock-mode", "-t", "c"]),
        Same(&mode),
        Do(&["send-keys", "-t", "c", "x"]),
        Same(&mode),
    ]);
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "c"]);
    w.ok(&["clock-mode", "-t", "c"]);
    let mut t = w.tui(&["attach-session", "-t", "c"], 80, 24);
    t.wait("the clock", |s| blue_cells(s) > 10);
    t.send(b"x");
    t.wait("the clock gone", |s| blue_cells(s) == 0);
}

/// `C-b D` lists the attached clients (tmux's `choose-client -Z`); `d` detaches the
/// selected one.
#[test]
fn prefix_d_chooses_a_client_and_d_detaches_it() {
    let w = World::new();
    let mut first = w.tui(&["new-session", "-s", "cc"], 80, 24);
    first.wait_text("[cc]");
    let other = w.tui(&["attach-session", "-t", "cc"], 80, 24);
    other.wait_text("[cc]");
    first.prefix(b"D");
    first.wait("both clients listed", |s| {
        s.contents().matches(": session cc [80x").count() == 2
    });
    // The selected (first) line's client is the one d detaches.
    let selected = first.screen(|s| {
        s.contents()
            .lines()
            .find(|l| l.contains(": session cc"))
            .and_then(|l| l.trim_start_matches(['│', ' ']).split(':').next())
            .unwrap_or_default()
            .to_string()
    });
    assert!(selected.starts_with("/dev/"), "{selected:?}");
    first.send(b"d");
    let left = eventually("one client left", || {
        let names = w.ok(&["list-clients", "-F", "#{client_name}"]);
        (names.lines().count() == 1).then_some(names)
    });
    assert!(
        !left.contains(&selected),
        "{selected} was not detached: {left}"
    );
}

/// `choose-client` with no client: the pane is in client mode, as tmux's.
#[test]
fn choose_client_with_no_client_as_tmux() {
    use Step::*;
    let mode = ["display-message", "-p", "-t", "cc", MODE];
    both(&[
        Do(&["new-session", "-d", "-s", "cc", "cat"]),
        Do(&["choose-client", "-t", "cc"]),
        Same(&mode),
        Do(&["copy-mode", "-q", "-t", "cc"]),
        Same(&mode),
    ]);
}

/// A mode kept on a pane of a window the attaching client does not show first is
/// handed to the client when its person types into that pane: the keys open the
/// mode instead of vanishing.
#[test]
fn typing_into_a_pane_that_kept_a_mode_opens_it_in_that_client() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "k"]);
    w.ok(&["new-window", "-d", "-t", "k"]);
    w.ok(&["clock-mode", "-t", "k:1"]);
    let mut t = w.tui(&["attach-session", "-t", "k"], 80, 24);
    t.wait_text("[k]");
    t.prefix(b"1");
    t.wait("window 1", |s| {
        s.contents().contains("1:sh*") || s.contents().contains("1:bash*")
    });
    t.send(b"x");
    t.wait("the clock", |s| blue_cells(s) > 10);
    t.send(b"y");
    t.wait("the clock gone", |s| blue_cells(s) == 0);
    assert_eq!(
        w.ok(&["display-message", "-p", "-t", "k:1", "#{pane_in_mode}"]),
        "0\n"
    );
}

/// A control client (`tmux -C`) draws no mode: attaching one leaves the mode on the
/// pane for a terminal client.
#[test]
fn a_control_client_leaves_a_kept_mode_for_a_terminal_client() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "cm"]);
    w.ok(&["copy-mode", "-t", "cm"]);
    let out = w.run(&["tmux", "-C", "attach-session", "-t", "cm"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        w.ok(&["display-message", "-p", "-t", "cm", MODE]),
        "1 copy-mode\n"
    );
}
