//! Issue 14: the multiplexer's own use of the mouse (tmux's `mouse on`), through a
//! real client in a PTY: SGR reports written to the client's input as a terminal
//! would, results read from the server and the client's screen.

use super::harness::{Answers, TestTmux, Tui, World, eventually};
use super::tui_input::{recorded, recorder};

/// An SGR mouse report for the terminal's 0-based cell (`col`, `row`).
fn sgr(button: u8, col: u16, row: u16, press: bool) -> Vec<u8> {
    let end = if press { 'M' } else { 'm' };
    format!("\x1b[<{button};{};{}{end}", col + 1, row + 1).into_bytes()
}

fn click(t: &mut Tui, col: u16, row: u16) {
    t.send(&sgr(0, col, row, true));
    t.send(&sgr(0, col, row, false));
}

/// `list-panes -F` for the session's current window, one line per pane.
fn panes(w: &World, target: &str, format: &str) -> Vec<String> {
    w.ok(&["list-panes", "-t", target, "-F", format])
        .lines()
        .map(str::to_string)
        .collect()
}

fn active_pane(w: &World, target: &str) -> String {
    w.ok(&["display-message", "-p", "-t", target, "#{pane_id}"])
        .trim()
        .to_string()
}

/// Where `needle` last is in what the client wrote, if anywhere.
fn last(written: &[u8], needle: &[u8]) -> Option<usize> {
    written.windows(needle.len()).rposition(|p| p == needle)
}

/// Mouse reporting is on (button events, SGR) after the last time it was switched on
/// or off.
fn mouse_on(written: &[u8]) -> bool {
    let on = |n: &[u8], off: &[u8]| match (last(written, n), last(written, off)) {
        (Some(a), Some(b)) => a > b,
        (Some(_), None) => true,
        _ => false,
    };
    on(b"\x1b[?1002h", b"\x1b[?1002l") && on(b"\x1b[?1006h", b"\x1b[?1006l")
}

fn attach(w: &World, session: &str) -> Tui {
    let t = w.tui_in(Answers::Plain, &["attach", "-t", session], 80, 24);
    t.wait(&format!("session {session} drawn"), |s| {
        s.contents().contains(&format!("[{session}]"))
    });
    t
}

/// The client switches mouse reporting on for itself (1002 and SGR) even when no
/// program asked, and off whenever it gives the terminal back: suspend, detach,
/// SIGTERM, the server killed.
#[test]
fn the_client_switches_the_mouse_on_and_gives_it_back() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "m"]);
    let mut t = attach(&w, "m");
    eventually("mouse reporting on", || {
        mouse_on(&t.written()).then_some(())
    });
    assert!(
        last(&t.written(), b"\x1b[?1003h").is_none(),
        "every motion asked for though no program wants it"
    );
    let pid = t.pid().expect("client pid") as i32;
    // SAFETY: signals to the client process this test started.
    unsafe { libc::kill(pid, libc::SIGTSTP) };
    eventually("mouse off while suspended", || {
        (!mouse_on(&t.written())).then_some(())
    });
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    eventually("mouse on again", || mouse_on(&t.written()).then_some(()));
    t.send(b"\x02d");
    t.wait_exit();
    assert!(!mouse_on(&t.written()), "left on after detach");

    let mut t = attach(&w, "m");
    eventually("mouse on", || mouse_on(&t.written()).then_some(()));
    // SAFETY: as above.
    unsafe { libc::kill(t.pid().expect("pid") as i32, libc::SIGTERM) };
    t.wait_exit();
    assert!(!mouse_on(&t.written()), "left on after SIGTERM");

    let mut t = attach(&w, "m");
    eventually("mouse on", || mouse_on(&t.written()).then_some(()));
    w.ok(&["kill-server"]);
    t.wait_exit();
    assert!(!mouse_on(&t.written()), "left on after kill-server");
}

/// A click on a pane focuses it on the server (for every client, as tmux's
/// `select-pane -t =`); a pane whose program did not ask for the mouse gets nothing.
#[test]
fn a_click_focuses_the_pane_under_it() {
    let w = World::new();
    recorder(&w, "f", "", "f.bin");
    // The recorder on the left, the active pane on the right.
    w.ok(&["split-window", "-t", "f", "-h"]);
    let left = panes(&w, "f", "#{pane_id} #{pane_active}");
    assert_eq!(left.len(), 2);
    assert!(left[0].ends_with(" 0"), "{left:?}");
    let left = left[0].split(' ').next().unwrap_or_default().to_string();
    let mut t = attach(&w, "f");
    click(&mut t, 10, 5);
    eventually("the clicked pane active", || {
        (active_pane(&w, "f") == left).then_some(())
    });
    // Keys now go to it; the click did not.
    t.send(b"z");
    recorded(&w, "f.bin", b"z");
}

/// Dragging the border between two panes resizes both on the server, live, by as
/// much as tmux (3.3a, `mouse on`) does for the same drag.
#[test]
fn dragging_a_border_resizes_both_panes_as_in_tmux() {
    let w = World::new();
    // tmux: its border is the one column between the panes (column 40).
    let test_tmux = TestTmux::new(&w, "set -g mouse on\nset -g status off\n");
    let tmux = |args: &[&str]| String::from_utf8_lossy(&test_tmux.run(args).stdout).into_owned();
    let mut tt = w.sh(&test_tmux.script("new-session -s d"), 80, 24);
    eventually("tmux up", || {
        tmux(&["has-session", "-t", "d"]);
        tmux(&["list-panes", "-t", "d"])
            .contains("%0")
            .then_some(())
    });
    tmux(&["split-window", "-h", "-t", "d"]);
    let widths = |out: String| -> Vec<i32> {
        out.split_whitespace()
            .map(|n| n.parse().expect("width"))
            .collect()
    };
    let tmux_widths = || widths(tmux(&["list-panes", "-t", "d", "-F", "#{pane_width}"]));
    let before = tmux_widths();
    eventually("tmux's client to draw the split", || {
        tt.contents().contains('│').then_some(())
    });
    // Grab tmux's border (column 40) and drag it 11 columns left, in two steps.
    tt.send(&sgr(0, 40, 5, true));
    tt.send(&sgr(32, 34, 5, true));
    tt.send(&sgr(32, 29, 6, true));
    tt.send(&sgr(0, 29, 6, false));
    let tmux_after = eventually("tmux to resize", || {
        let now = tmux_widths();
        (now != before).then_some(now)
    });
    let tmux_change: Vec<i32> = tmux_after.iter().zip(&before).map(|(a, b)| a - b).collect();
    assert_eq!(tmux_change, [-11, 11]);

    // fugue: grab the left pane's right side (column 39) and drag it as far.
    w.ok(&["new-session", "-d", "-s", "d"]);
    w.ok(&["split-window", "-t", "d", "-h"]);
    let mut t = attach(&w, "d");
    let fugue_widths = || widths(panes(&w, "d", "#{pane_width}").join(" "));
    let before = fugue_widths();
    t.send(&sgr(0, 39, 5, true));
    t.send(&sgr(32, 33, 5, true));
    // Live: the first step is applied before the button comes up.
    eventually("the first step applied", || {
        let now = fugue_widths();
        (now[0] - before[0] == -6).then_some(())
    });
    t.send(&sgr(32, 28, 6, true));
    t.send(&sgr(0, 28, 6, false));
    let change = eventually("the drag applied", || {
        let now = fugue_widths();
        let change: Vec<i32> = now.iter().zip(&before).map(|(a, b)| a - b).collect();
        (change[0] != -6).then_some(change)
    });
    assert_eq!(change, tmux_change, "fugue's widths changed unlike tmux's");
    // A plain click on the border resizes nothing.
    let now = fugue_widths();
    click(&mut t, 28, 8);
    t.typed_through();
    assert_eq!(fugue_widths(), now);
}

/// A border between panes one above the other drags up and down.
#[test]
fn dragging_a_horizontal_border_changes_heights() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "v"]);
    w.ok(&["split-window", "-t", "v", "-v"]);
    let mut t = attach(&w, "v");
    let heights = || -> Vec<i32> {
        panes(&w, "v", "#{pane_height}")
            .iter()
            .map(|h| h.parse().expect("height"))
            .collect()
    };
    let before = heights();
    // The top pane's box is rows 0..12 of the 23 above the status bar: its bottom side
    // is row 11. Drag it up 4 rows.
    t.send(&sgr(0, 30, 11, true));
    t.send(&sgr(32, 30, 7, true));
    t.send(&sgr(0, 30, 7, false));
    let after = eventually("the heights to change", || {
        let now = heights();
        (now != before).then_some(now)
    });
    assert_eq!((after[0] - before[0], after[1] - before[1]), (-4, 4));
}

/// The column of `text` in the status bar (the terminal's last row).
fn status_col(t: &Tui, text: &str) -> u16 {
    t.screen(|s| {
        let (rows, cols) = s.size();
        let last = rows.get() - 1;
        let line = s.contents_between(last, 0, last, cols.get());
        let byte = line
            .find(text)
            .unwrap_or_else(|| panic!("{text} in {line:?}"));
        line[..byte].chars().count() as u16
    })
}

/// A click on a window's name in the status bar selects it; the wheel over the bar
/// goes to the previous and next window (tmux's WheelUpStatus, WheelDownStatus).
#[test]
fn clicking_a_window_in_the_status_bar_selects_it() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "s"]);
    w.ok(&["new-window", "-d", "-t", "s"]);
    w.ok(&["new-window", "-d", "-t", "s"]);
    let mut t = attach(&w, "s");
    t.wait("three windows in the bar", |s| s.contents().contains("2:"));
    let window = || {
        w.ok(&["display-message", "-p", "-t", "s", "#{window_index}"])
            .trim()
            .to_string()
    };
    assert_eq!(window(), "0");
    let col = status_col(&t, "2:");
    click(&mut t, col + 1, 23);
    eventually("window 2 selected", || (window() == "2").then_some(()));
    t.send(&sgr(64, 5, 23, true));
    eventually("the previous window", || (window() == "1").then_some(()));
    t.send(&sgr(65, 5, 23, true));
    eventually("the next window", || (window() == "2").then_some(()));
}

/// The wheel over a pane whose program did not ask for the mouse scrolls its history
/// in scroll mode, 5 lines a step, and leaves scroll mode at the bottom.
#[test]
fn the_wheel_scrolls_history_and_leaves_at_the_bottom() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "h",
        "--",
        "sh",
        "-c",
        "seq 1 100; printf END; exec cat",
    ]);
    let mut t = attach(&w, "h");
    t.wait_text("END");
    let up = sgr(64, 20, 10, true);
    let down = sgr(65, 20, 10, true);
    t.send(&up);
    t.wait("5 lines up", |s| s.contents().contains("[5/"));
    // 10 lines up, the last line shown is 10 lines above END's: 91.
    t.send(&up);
    t.wait("10 lines up", |s| {
        let text = s.contents();
        text.contains("[10/") && text.contains("91") && !text.contains("100")
    });
    t.send(&down);
    t.wait("5 lines up again", |s| s.contents().contains("[5/"));
    t.send(&down);
    t.wait("scroll mode left", |s| {
        !s.contents().contains("[0/") && !s.contents().contains("copy:")
    });
    // Typing reaches the pane again.
    t.send(b"typed");
    t.wait_text("typed");
}

/// A program that asked for the mouse gets the events over its pane in its own
/// coordinates, even when its pane is not the active one (the click also focuses
/// it, as tmux's `select-pane -t = ; send -M`); Shift keeps an event from it, and the
/// wheel with Shift scrolls its history.
#[test]
fn a_program_that_asked_gets_the_mouse_and_shift_keeps_it_from_it() {
    let w = World::new();
    recorder(&w, "p", "\\033[?1000h\\033[?1006h", "p.bin");
    let recorder_pane = active_pane(&w, "p");
    // A pane on the right, active: the recorder (left) is not.
    w.ok(&["split-window", "-t", "p", "-h"]);
    let mut t = attach(&w, "p");
    t.wait_text("READY");
    // The recorder's screen starts at (1, 1).
    t.send(&sgr(0, 5, 3, true));
    t.send(&sgr(0, 5, 3, false));
    eventually("the recorder focused", || {
        (active_pane(&w, "p") == recorder_pane).then_some(())
    });
    // Shift-click: fugue's, which focuses (already) and sends nothing.
    t.send(&sgr(4, 7, 4, true));
    t.send(&sgr(4, 7, 4, false));
    t.send(b"z");
    recorded(&w, "p.bin", b"\x1b[<0;5;3M\x1b[<0;5;3mz");
}

/// With `keys.mouse = false`, fugue does nothing with the mouse (no reporting asked
/// of the terminal for itself, no focus, no scroll), as tmux's `mouse off`; a
/// program that asks still gets it.
#[test]
fn mouse_false_leaves_the_mouse_alone() {
    let w = World::new();
    std::fs::create_dir_all(w.path("config/fugue")).expect("config dir");
    std::fs::write(
        w.path("config/fugue/config.toml"),
        "[keys]\nmouse = false\n",
    )
    .expect("config");
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "o",
        "--",
        "sh",
        "-c",
        "seq 1 100; printf END; exec cat",
    ]);
    w.ok(&["split-window", "-t", "o", "-h"]);
    let active = active_pane(&w, "o");
    let mut t = attach(&w, "o");
    t.wait_text("END");
    click(&mut t, 10, 5);
    t.send(&sgr(64, 10, 5, true));
    // Once a later line typed into the shell has run, the client has acted on the
    // events: nothing must have happened.
    t.typed_through();
    assert_eq!(active_pane(&w, "o"), active);
    assert!(!t.contents().contains("[5/"), "scrolled");
    assert!(
        last(&t.written(), b"\x1b[?1002h").is_none(),
        "the client asked for the mouse"
    );
    // A program that asks still gets its events.
    recorder(&w, "r", "\\033[?1000h\\033[?1006h", "r.bin");
    let mut t = w.tui_in(Answers::Plain, &["attach", "-t", "r"], 80, 24);
    t.wait_text("READY");
    t.send(&sgr(0, 3, 2, true));
    t.send(b"z");
    recorded(&w, "r.bin", b"\x1b[<0;3;2Mz");
}

/// The middle button pastes the latest buffer into the pane under it, focusing it
/// (tmux's `select-pane -t = ; paste-buffer -p`).
#[test]
fn the_middle_button_pastes_the_latest_buffer() {
    let w = World::new();
    recorder(&w, "b", "", "b.bin");
    let recorder_pane = active_pane(&w, "b");
    w.ok(&["split-window", "-t", "b", "-h"]);
    w.ok(&["set-buffer", "older"]);
    w.ok(&["set-buffer", "pasted"]);
    let mut t = attach(&w, "b");
    t.wait_text("READY");
    t.send(&sgr(1, 6, 4, true));
    t.send(&sgr(1, 6, 4, false));
    recorded(&w, "b.bin", b"pasted");
    assert_eq!(active_pane(&w, "b"), recorder_pane);
}

/// Each client's mouse acts for that client: the wheel in one scrolls its view only;
/// a click's focus is the server's, so every client sees it (as tmux's select-pane).
#[test]
fn each_clients_mouse_acts_for_that_client() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "two",
        "--",
        "sh",
        "-c",
        "seq 1 100; printf END; exec cat",
    ]);
    let mut a = attach(&w, "two");
    let b = attach(&w, "two");
    a.wait_text("END");
    b.wait_text("END");
    a.send(&sgr(64, 20, 10, true));
    a.wait("client a scrolled", |s| s.contents().contains("[5/"));
    // b's view stays live: typing there shows at the bottom, without a scroll tag.
    w.ok(&["send-keys", "-t", "two", "-l", "typed"]);
    b.wait_text("typed");
    assert!(!b.contents().contains("[5/"), "client b scrolled too");
    assert!(a.contents().contains("[5/"), "client a left scroll mode");
}

/// The wheel over another pane than the one in scroll mode scrolls that pane instead,
/// focusing it (fugue's scroll mode is the active pane's).
#[test]
fn the_wheel_over_another_pane_scrolls_that_one() {
    let w = World::new();
    let script = "seq 1 100; printf END; exec cat";
    w.ok(&["new-session", "-d", "-s", "o", "--", "sh", "-c", script]);
    let left = active_pane(&w, "o");
    w.ok(&["split-window", "-t", "o", "-h", "--", "sh", "-c", script]);
    let mut t = attach(&w, "o");
    t.wait("both panes printed", |s| {
        s.contents().matches("END").count() == 2
    });
    t.send(&sgr(64, 60, 10, true));
    t.wait("the right pane scrolled", |s| s.contents().contains("[5/"));
    t.send(&sgr(64, 10, 10, true));
    eventually("the left pane focused", || {
        (active_pane(&w, "o") == left).then_some(())
    });
    // The tag is drawn at the top right of the scrolled pane's screen: now the left's.
    t.wait("the left pane scrolled", |s| {
        s.contents_between(1, 0, 1, 40).contains("[5/")
    });
}

/// Runs the selection test's gestures over a pane whose screen starts at the
/// terminal's (`x`, `y`); returns what each copied (`latest` reads the newest paste
/// buffer).
fn select_gestures(t: &mut Tui, (x, y): (u16, u16), latest: &dyn Fn() -> String) -> Vec<String> {
    let mut copied = Vec::new();
    let wait_new = |copied: &mut Vec<String>| {
        let before = copied.last().cloned().unwrap_or_default();
        let got = eventually("a new copy", || {
            let now = latest();
            (now != before && !now.is_empty()).then_some(now)
        });
        copied.push(got);
    };
    let at = |b: u8, col: u16, row: u16, press: bool| sgr(b, x + col, y + row, press);
    // A drag right along the first line, then from the second word down a line,
    // then one left, ending on the word's first letter.
    for steps in [
        &[(0, 0, 0), (32, 2, 0), (32, 4, 0)][..],
        &[(0, 6, 0), (32, 5, 1)][..],
        &[(0, 9, 0), (32, 6, 0)][..],
    ] {
        for &(b, col, row) in steps {
            t.send(&at(b, col, row, true));
        }
        let &(_, col, row) = steps.last().expect("steps");
        t.send(&at(0, col, row, false));
        wait_new(&mut copied);
        // Past the double-click time (tmux's 300 ms, counted whatever the position):
        // the next press starts a gesture of its own, however late the last came in.
        std::thread::sleep(std::time::Duration::from_millis(400));
    }
    // A double click on "beta"; a triple click on the second line.
    for _ in 0..2 {
        t.send(&at(0, 7, 0, true));
        t.send(&at(0, 7, 0, false));
    }
    wait_new(&mut copied);
    // Part of the scenario: past the double-click time again.
    std::thread::sleep(std::time::Duration::from_millis(400));
    for _ in 0..3 {
        t.send(&at(0, 3, 1, true));
        t.send(&at(0, 3, 1, false));
    }
    wait_new(&mut copied);
    copied
}

/// A drag on a pane's screen selects (entering copy mode) and the release copies
/// and leaves; a double click copies a word, a triple click a line: the same text
/// tmux (3.3a, `mouse on`) copies for the same gestures. The copy also reaches the
/// client's terminal's clipboard (OSC 52).
#[test]
fn drag_select_and_multiple_clicks_copy_as_in_tmux() {
    let w = World::new();
    let program = "printf 'alpha beta gamma\\nsecond line here\\nEND'; exec cat";
    let test_tmux = TestTmux::new(&w, "set -g mouse on\nset -g status off\n");
    let mut tt = w.sh(
        &test_tmux.script(&format!("new-session -s c \"{program}\"")),
        80,
        24,
    );
    tt.wait_text("END");
    let tmux_latest =
        || String::from_utf8_lossy(&test_tmux.run(&["show-buffer"]).stdout).into_owned();
    let tmux_copied = select_gestures(&mut tt, (0, 0), &tmux_latest);
    assert_eq!(
        tmux_copied,
        [
            "alph",
            "beta gamma\nsecon",
            "bet",
            "beta",
            "second line here"
        ]
    );

    w.ok(&["new-session", "-d", "-s", "c", "--", "sh", "-c", program]);
    let mut t = w.tui_in(Answers::Plain, &["attach", "-t", "c"], 80, 24);
    t.wait_text("END");
    let latest = || {
        let out = w.run(&["show-buffer"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The pane's screen starts inside its border.
    let copied = select_gestures(&mut t, (1, 1), &latest);
    assert_eq!(copied, tmux_copied);
    // One buffer a gesture: a triple click's second press does not copy a word first
    // (tmux's count is not compared: its quick presses here made one more gesture).
    assert_eq!(
        w.ok(&["list-buffers"]).lines().count(),
        copied.len(),
        "{}",
        w.ok(&["list-buffers"])
    );
    assert!(
        last(&t.written(), b"\x1b]52;").is_some(),
        "no OSC 52 for the copies"
    );
    t.wait("copy mode left", |s| !s.contents().contains("copy:"));
}

/// vim with `set mouse=a` gets clicks (its cursor moves there); with Shift held the
/// mouse is fugue's: a Shift-drag selects and copies, and vim's cursor stays.
#[test]
fn vim_gets_the_mouse_and_shift_selects_over_it() {
    let w = World::new();
    let file = w.path("text.txt");
    std::fs::write(&file, "line one\nline two\nline three\nline four\n").expect("file");
    let file = file.display().to_string();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "vim",
        "--",
        "vim",
        "-u",
        "NONE",
        "-N",
        "-c",
        "set mouse=a ruler",
        &file,
    ]);
    let mut t = attach(&w, "vim");
    t.wait_text("line four");
    let ruler = |s: &vt100::Screen, want: &str| {
        s.contents()
            .lines()
            .any(|l| l.contains(want) && l.contains("All"))
    };
    // The screen starts at (1, 1): column 5 of line 3.
    click(&mut t, 1 + 4, 1 + 2);
    t.wait("vim's cursor at 3,5", |s| ruler(s, "3,5"));
    t.send(&sgr(4, 1, 1, true));
    t.send(&sgr(36, 3, 1, true));
    t.send(&sgr(36, 5, 1, true));
    t.send(&sgr(4, 5, 1, false));
    eventually("the selection copied", || {
        let out = w.run(&["show-buffer"]);
        (String::from_utf8_lossy(&out.stdout) == "line").then_some(())
    });
    t.wait("copy mode left", |s| !s.contents().contains("copy:"));
    assert!(t.screen(|s| ruler(s, "3,5")), "vim's cursor moved");
}

/// Mouse keys a person binds (issue 28, item 8) run instead of fugue's own use of the
/// mouse, named and aimed as tmux 3.3a names and aims them: the same bindings and the
/// same mouse reports through both clients give the same results.
#[test]
fn bound_mouse_keys_run_as_in_tmux() {
    let w = World::new();
    let binds = "bind -n WheelUpPane select-pane -t = -T wheel\n\
                 bind -n MouseDown1Pane select-pane -t = -T down\n\
                 bind -n SecondClick1Pane select-pane -t = -T second\n\
                 bind -n DoubleClick1Pane select-pane -t = -T double\n\
                 bind -n MouseDrag1Pane select-pane -t = -T drag\n\
                 bind -n MouseDragEnd1Pane select-pane -t = -T dragend\n\
                 bind -n C-MouseDown3Pane select-pane -t = -T ctrl3\n\
                 bind -n MouseDown1Status rename-window -t = clicked\n\
                 bind -n MouseDown1StatusLeft set -g @left hit\n";
    let test_tmux = TestTmux::new(&w, &format!("set -g mouse on\n{binds}"));
    let tmux = |args: &[&str]| String::from_utf8_lossy(&test_tmux.run(args).stdout).into_owned();
    let mut tt = w.sh(&test_tmux.script("new-session -s b"), 80, 24);
    eventually("tmux up", || {
        tmux(&["list-panes", "-t", "b"])
            .contains("%0")
            .then_some(())
    });
    tmux(&["split-window", "-h", "-t", "b"]);
    eventually("tmux's client to draw the split", || {
        tt.contents().contains('│').then_some(())
    });
    std::fs::write(w.path("binds.conf"), binds).unwrap();
    w.ok(&["new-session", "-d", "-s", "b"]);
    w.ok(&["split-window", "-t", "b", "-h"]);
    w.ok(&["source-file", w.path("binds.conf").to_str().unwrap()]);
    for (pane, title) in [("b:0.0", "left"), ("b:0.1", "right")] {
        w.ok(&["select-pane", "-t", pane, "-T", title]);
        tmux(&["select-pane", "-t", pane, "-T", title]);
    }
    // Both servers answer `args` with `want`, once the events have arrived.
    let same = |what: &str, args: &[&str], want: &str| {
        eventually(&format!("fugue: {what}"), || {
            (w.run(args).stdout == want.as_bytes()).then_some(())
        });
        eventually(&format!("tmux: {what}"), || {
            (tmux(args) == want).then_some(())
        });
    };
    // tmux counts any press within 300 ms of the last as the second of a click, and
    // swallows one of another button (the timer is the client's): each part below
    // starts with new clients, so no part depends on how fast the last one went.
    let clients = |tt: Tui| {
        drop(tt);
        let tt = w.sh(&test_tmux.script("attach -t b"), 80, 24);
        eventually("tmux's client to draw the split", || {
            tt.contents().contains('│').then_some(())
        });
        (tt, attach(&w, "b"))
    };
    let titles = ["list-panes", "-t", "b", "-F", "#{pane_title}"];
    let both = |tt: &mut Tui, t: &mut Tui, bytes: &[u8]| {
        tt.send(bytes);
        t.send(bytes);
    };
    let mut t = attach(&w, "b");
    both(&mut tt, &mut t, &sgr(64, 10, 5, true));
    same("the wheel over the left pane", &titles, "wheel\nright\n");
    // Two clicks: MouseDown, SecondClick, then DoubleClick when no third came.
    let click2 = [sgr(0, 10, 9, true), sgr(0, 10, 9, false)].concat();
    both(&mut tt, &mut t, &[click2.clone(), click2].concat());
    same(
        "a double click on the left pane",
        &titles,
        "double\nright\n",
    );
    both(&mut tt, &mut t, &sgr(0, 60, 8, true));
    same("a press on the right pane", &titles, "double\ndown\n");
    both(&mut tt, &mut t, &sgr(32, 62, 8, true));
    same("a drag on the right pane", &titles, "double\ndrag\n");
    both(&mut tt, &mut t, &sgr(0, 62, 8, false));
    same("the drag's end", &titles, "double\ndragend\n");
    drop(t);
    let (mut tt, mut t) = clients(tt);
    both(
        &mut tt,
        &mut t,
        &[sgr(18, 60, 5, true), sgr(18, 60, 5, false)].concat(),
    );
    same(
        "C-right click on the right pane",
        &titles,
        "double\nctrl3\n",
    );
    // The status line: a window's label, then status-left.
    drop(t);
    let (mut tt, mut t) = clients(tt);
    let label = |s: &vt100::Screen| s.contents_between(23, 0, 23, 80).find("0:");
    let col = |t: &Tui| eventually("the window's label", || t.screen(label)) as u16;
    let (mine, theirs) = (col(&t), col(&tt));
    t.send(&[sgr(0, mine, 23, true), sgr(0, mine, 23, false)].concat());
    tt.send(&[sgr(0, theirs, 23, true), sgr(0, theirs, 23, false)].concat());
    same(
        "a click on the window's label",
        &["list-windows", "-t", "b", "-F", "#{window_name}"],
        "clicked\n",
    );
    drop(t);
    let (mut tt, mut t) = clients(tt);
    both(
        &mut tt,
        &mut t,
        &[sgr(0, 1, 23, true), sgr(0, 1, 23, false)].concat(),
    );
    same("a click on status-left", &["show", "-gv", "@left"], "hit\n");
}
