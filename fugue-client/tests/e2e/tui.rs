//! The terminal client, driven through a PTY and read back through vt100.

use super::harness::{World, count_boxes, eventually, status_line};

/// Every row but the status bar.
fn pane_area(screen: &vt100::Screen) -> String {
    let (rows, cols) = screen.size();
    screen
        .rows(0, cols.get())
        .take(usize::from(rows.get()) - 1)
        .collect::<Vec<_>>()
        .join("\n")
}

fn active_pane(w: &World) -> String {
    w.panes()
        .into_iter()
        .find(|p| p["active"] == true && p["window_active"] == true)
        .and_then(|p| p["id"].as_str().map(String::from))
        .expect("an active pane")
}

#[test]
fn split_type_detach_and_reattach_keep_layout_and_screens() {
    let w = World::new();
    let mut t = w.tui(&[], 160, 48);
    t.wait("a session with one pane", |s| {
        count_boxes(s) == 1 && s.contents().contains("[0]")
    });
    t.prefix(b"%");
    t.wait("two panes side by side", |s| count_boxes(s) == 2);
    t.prefix(b"\"");
    t.wait("three panes", |s| count_boxes(s) == 3);
    assert_eq!(w.panes().len(), 3);

    // Typed text lands in the active pane (the last one created) and nowhere else.
    let active = active_pane(&w);
    t.send(b"echo typed-$((40+2))\r");
    t.wait_text("typed-42");
    eventually("output in the active pane", || {
        w.ok(&["capture-pane", "-p", "-t", &active])
            .contains("typed-42")
            .then_some(())
    });
    for p in w.panes() {
        let id = p["id"].as_str().unwrap_or_default().to_string();
        if id != active {
            assert!(
                !w.ok(&["capture-pane", "-p", "-t", &id])
                    .contains("typed-42"),
                "{id} got the text"
            );
        }
    }

    // A full-screen program on the alternate screen must come back intact.
    t.send(b"printf '\\033[?1049h\\033[H\\033[2JALT-SCREEN-UP'; sleep 1000\r");
    // The border names the program once the pane's reader has looked after its output
    // (at most a second later): the screens compared must both be past that.
    t.wait("the program on the alternate screen", |s| {
        s.contents().contains("ALT-SCREEN-UP")
            && !s.contents().contains("typed-42")
            && s.contents().contains(" sleep ")
    });
    let before = t.screen(pane_area);

    t.prefix(b"d");
    t.wait_text("[detached (from session 0)]");
    assert_eq!(t.wait_exit(), 0);

    let t2 = w.tui(&["attach"], 160, 48);
    t2.wait(
        &format!("the same layout and screens after re-attach:\n{before}"),
        |s| pane_area(s) == before,
    );
    assert_eq!(t2.screen(count_boxes), 3);
}

#[test]
fn two_clients_see_the_same_thing() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "shared"]);
    let mut a = w.tui(&["attach", "-t", "shared"], 120, 40);
    let b = w.tui(&["attach", "-t", "shared"], 120, 40);
    a.wait_text("[shared]");
    b.wait_text("[shared]");
    a.prefix(b"%");
    a.send(b"echo from-a-$((1+1))\r");
    b.wait_text("from-a-2");
    b.wait("both clients to show the same panes", |s| {
        count_boxes(s) == 2
    });
    a.wait("client a to settle", |s| s.contents().contains("from-a-2"));
    // Both may still be drawing the prompt that follows: compare them until they agree.
    eventually("identical screens", || {
        (a.screen(pane_area) == b.screen(pane_area)).then_some(())
    });
}

#[test]
fn resizing_the_outer_terminal_resizes_panes() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "rs"], 100, 30);
    t.wait_text("[rs]");
    t.prefix(b"%");
    t.wait("two panes", |s| count_boxes(s) == 2);
    let widths = |w: &World| -> Vec<u64> {
        w.panes()
            .iter()
            .filter_map(|p| p["width"].as_u64())
            .collect()
    };
    // 100 columns: two boxes of 50, each 48 wide inside.
    assert_eq!(widths(&w), vec![48, 48]);
    t.resize(140, 40);
    eventually("panes to follow the terminal", || {
        (widths(&w) == vec![68, 68]).then_some(())
    });
    let heights: Vec<u64> = w
        .panes()
        .iter()
        .filter_map(|p| p["height"].as_u64())
        .collect();
    assert_eq!(
        heights,
        vec![37, 37],
        "40 rows less the status bar and two border rows"
    );
    t.wait("the right border at the new edge", |s| {
        s.cell(0, 139).is_some_and(|c| c.contents() == "┐")
    });
}

#[test]
fn colors_and_wide_characters_are_drawn_as_the_pane_holds_them() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "c"], 80, 24);
    t.wait_text("[c]");
    t.send(b"clear; printf '\\033[1;31mRED\\033[0m \\033[38;2;1;2;3mRGB\\033[0m \\346\\227\\245\\346\\234\\254x \\033[3mIT\\033[0m \\033[4mUL\\033[0m \\033[7mRV\\033[0m \\033[38;5;200mIX\\033[0m\\n'\r");
    t.wait_text("日本x IT UL RV IX");
    // The shell's next prompt, which the cursor is checked against below.
    t.wait("the prompt after the output", |s| {
        let rows: Vec<String> = s.rows(0, 80).collect();
        rows.iter()
            .position(|l| l.contains("IX"))
            .and_then(|r| rows.get(r + 1))
            .is_some_and(|l| l.contains("$ "))
    });
    t.screen(|s| {
        let (row, col) = (0..24)
            .find_map(|r| {
                let line: String = s.rows(0, 80).nth(usize::from(r)).unwrap_or_default();
                line.find("RED")
                    .map(|c| (r, line[..c].chars().count() as u16))
            })
            .expect("RED on screen");
        let red = s.cell(row, col).expect("cell");
        assert_eq!(red.fgcolor(), vt100::Color::Idx(1));
        assert!(red.bold());
        let rgb = s.cell(row, col + 4).expect("cell");
        assert_eq!(rgb.fgcolor(), vt100::Color::Rgb(1, 2, 3));
        let wide = s.cell(row, col + 8).expect("cell");
        assert_eq!(wide.contents(), "日");
        assert!(wide.is_wide());
        assert_eq!(s.cell(row, col + 12).expect("cell").contents(), "x");
        let at = |dx: u16| s.cell(row, col + dx).expect("cell");
        assert!(at(14).italic() && !at(14).underline(), "italic");
        assert!(at(17).underline() && !at(17).italic(), "underline");
        assert!(at(20).inverse(), "reverse");
        assert_eq!(at(23).fgcolor(), vt100::Color::Idx(200));
        // The terminal's cursor is where the pane's is: after the prompt below.
        let prompt: String = s.rows(0, 80).nth(usize::from(row + 1)).unwrap_or_default();
        let x = prompt
            .chars()
            .collect::<Vec<_>>()
            .windows(2)
            .position(|w| w == ['$', ' '])
            .expect("prompt") as u16
            + 2;
        assert_eq!(s.cursor_position(), (row + 1, x));
        assert!(!s.hide_cursor());
    });
}

#[test]
fn prefix_keys_manage_windows_zoom_and_rename() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "keys"], 100, 30);
    t.wait_text("[keys]");
    t.prefix(b"c");
    t.wait_text("1:sh*");
    t.prefix(b"0");
    t.wait_text("0:sh*");
    t.prefix(b",");
    t.wait_text("(rename-window) ");
    t.send(b"\x15editor\r");
    t.wait_text("0:editor*");
    t.prefix(b"%");
    t.wait("two panes", |s| count_boxes(s) == 2);
    t.prefix(b"z");
    t.wait("zoomed to one pane", |s| {
        count_boxes(s) == 1 && s.contents().contains("0:editor*Z")
    });
    t.prefix(b"z");
    t.wait("unzoomed", |s| count_boxes(s) == 2);
    t.prefix(b"x");
    // tmux's question: the pane's index (#P).
    t.wait("asked", |s| {
        let status = status_line(s);
        status.contains("kill-pane ") && status.contains("? (y/n)")
    });
    t.send(b"y");
    t.wait("one pane left", |s| count_boxes(s) == 1);
    // C-b ? is tmux's `list-keys -N`: every default key with its note.
    t.prefix(b"?");
    t.wait_text("Split the pane, the new one to the right");
    t.send(b"q");
    t.wait("help closed", |s| !s.contents().contains("Split the pane"));
    // C-b C-b sends a literal C-b to the program.
    t.send(b"cat -v\r");
    t.prefix(b"\x02");
    t.send(b"\r");
    t.wait_text("^B");
}

#[test]
fn scroll_mode_shows_history() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "sc"], 80, 20);
    t.wait_text("[sc]");
    t.send(b"for i in $(seq 1 200); do echo line-$i; done\r");
    t.wait_text("line-200");
    t.prefix(b"[");
    t.wait_text("copy: q to leave");
    t.send(b"\x1b[5~");
    t.wait("a page up", |s| s.contents().contains("line-170 "));
    t.send(b"g");
    t.wait("the top of history", |s| s.contents().contains("line-3 "));
    t.send(b"q");
    t.wait("back to the live screen", |s| {
        !s.contents().contains("copy: q") && s.contents().contains("line-200")
    });
}

/// Issue 2 review: the y/n question named one pane, but `y` killed whichever pane was
/// active by then.
#[test]
fn kill_confirmation_acts_on_the_pane_it_named() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "conf"], 100, 30);
    t.wait_text("[conf]");
    t.prefix(b"%");
    t.wait("two panes", |s| count_boxes(s) == 2);
    let panes = w.panes();
    let active = |want: bool, field: &str| {
        panes
            .iter()
            .find(|p| p["active"].as_bool() == Some(want))
            .map(|p| p[field].to_string().trim_matches('"').to_string())
            .expect("pane")
    };
    let (asked, other) = (active(true, "index"), active(false, "id"));
    t.prefix(b"x");
    // tmux's question names the pane by its index (#P).
    t.wait_text(&format!("kill-pane {asked}? (y/n)"));
    // Something else changes the active pane while the question is open.
    w.ok(&["select-pane", "-t", &other]);
    t.send(b"y");
    t.wait("one pane left", |s| count_boxes(s) == 1);
    let left: Vec<String> = w
        .panes()
        .iter()
        .filter_map(|p| p["id"].as_str().map(str::to_string))
        .collect();
    assert_eq!(left, vec![other]);
}

/// Narrowing a pane and widening it again gives its lines back whole (they are
/// rewrapped, as in tmux, not cut at the narrow width), and a taller pane shows again
/// the lines that a shorter one had pushed into history.
#[test]
fn resizing_rewraps_lines_and_brings_history_back() {
    let w = World::new();
    let line = (1..=29)
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(",");
    w.ok(&[
        "new",
        "-d",
        "-s",
        "wrap",
        "-x",
        "80",
        "-y",
        "30",
        "--",
        "sh",
        "-c",
        "seq -s, 1 29; seq 100 120; exec cat",
    ]);
    wait_plain(&w, "wrap", "120");
    // A small client: 40 columns and 9 rows for the pane.
    let mut t = w.tui(&["attach", "-t", "wrap"], 42, 12);
    t.wait_text("[wrap]");
    eventually("the pane to shrink", || {
        w.panes()
            .first()
            .and_then(|p| p["width"].as_u64())
            .filter(|w| *w == 40)
    });
    t.resize(100, 40);
    eventually("the pane to grow", || {
        w.panes()
            .first()
            .and_then(|p| p["width"].as_u64())
            .filter(|w| *w == 98)
    });
    let screen = w.ok(&["capture-pane", "-p", "-t", "wrap"]);
    let rows: Vec<&str> = screen.lines().collect();
    assert_eq!(rows.first().copied(), Some(line.as_str()), "{screen}");
    assert_eq!(rows.get(1).copied(), Some("100"), "{screen}");
    assert_eq!(rows.get(21).copied(), Some("120"), "{screen}");
    t.wait("the client to show the whole line", |s| {
        s.contents().contains(&line)
    });
}

fn wait_plain(w: &World, target: &str, text: &str) {
    eventually("the pane's output", || {
        w.ok(&["capture-pane", "-p", "-t", target])
            .contains(text)
            .then_some(())
    });
}

/// The pane's border names what runs in it and follows a program that ends right
/// after printing, with no further output to prompt a redraw.
#[test]
fn the_border_follows_a_program_that_ends_after_printing() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ttl", "--", "sh"], 100, 30);
    t.wait_text("[ttl]");
    let top = |s: &vt100::Screen| s.rows(0, 100).next().unwrap_or_default();
    t.send(b"yes | head -c 1000000 | tr y z; printf done-\\\\n\r");
    t.wait("the border to name the running program", |s| {
        top(s).contains(" tr ") || top(s).contains(" yes ") || top(s).contains(" head ")
    });
    t.wait_text("done-");
    t.wait("the border to name the shell again", |s| {
        top(s).contains(" sh ")
    });
}

/// Thousands of bytes typed at once without bracketed paste (a paste into a terminal
/// that has it off) all reach the pane, and the client keeps drawing afterwards. It
/// once stopped reading the terminal after 2048 bytes, and a client that wrote
/// requests without reading answers could deadlock with the server.
#[test]
fn a_burst_of_typed_bytes_arrives_whole_and_the_client_stays_live() {
    let w = World::new();
    let out = w.path("burst.txt");
    let mut t = w.tui(&["new-session", "-s", "burst", "--", "sh"], 100, 30);
    t.wait_text("[burst]");
    w.ok(&[
        "send-keys",
        "-t",
        "burst",
        &format!("stty -icanon -echo; cat > '{}'", out.display()),
        "Enter",
    ]);
    eventually("cat to run", || {
        w.ok(&["list-panes", "-t", "burst", "-F", "#{pane_current_command}"])
            .trim()
            .eq("cat")
            .then_some(())
    });
    let burst = "a".repeat(6000);
    t.send(burst.as_bytes());
    eventually("all the bytes in the file", || {
        let n = std::fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
        (n == 6000).then_some(())
    });
    // Keys that came together went as few requests (one audit line each), not 6000.
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap_or_default();
    let requests = audit
        .lines()
        .filter(|l| l.contains("\"send-keys\""))
        .count();
    assert!(
        requests < 100,
        "{requests} send-keys requests for one burst"
    );
    w.ok(&["send-keys", "-t", "burst", "C-c"]);
    w.ok(&[
        "send-keys",
        "-t",
        "burst",
        "stty sane; echo still-drawing",
        "Enter",
    ]);
    t.wait_text("still-drawing");
}

/// A client that is killed (SIGTERM) or loses its terminal (SIGHUP) gives the terminal
/// back as it found it, and the session goes on.
#[test]
fn a_killed_client_restores_the_terminal() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "sig"], 80, 24);
    t.wait_text("[sig]");
    assert!(t.screen(|s| s.alternate_screen()));
    let pid = t.pid().expect("client pid");
    // SAFETY: kill sends a signal to the client process this test started.
    unsafe { libc::kill(pid as i32, libc::SIGTERM) };
    t.wait_exit();
    assert!(!t.screen(|s| s.alternate_screen()), "{}", t.contents());
    assert!(t.contents().contains("[terminated]"), "{}", t.contents());
    assert!(w.ok(&["ls"]).contains("sig"));
}

/// A pane resized while a full-screen program runs gets its main screen back whole when
/// the program leaves (vt100 alone cuts it at the narrowest width it went through).
#[test]
fn the_main_screen_survives_resizes_behind_a_full_screen_program() {
    let w = World::new();
    w.ok(&[
        "new", "-d", "-s", "alt", "-x", "120", "-y", "20", "--", "sh",
    ]);
    let line = format!("{}-END", "A".repeat(88));
    w.ok(&[
        "send-keys",
        "-t",
        "alt",
        "echo $(printf 'A%.0s' $(seq 88))-END; printf '\\033[?1049hFULLSCREEN'; read x; printf '\\033[?1049l'",
        "Enter",
    ]);
    wait_plain(&w, "alt", "FULLSCREEN");
    let split = w.ok(&["split-window", "-t", "alt", "-h", "-d", "-P"]);
    w.ok(&["kill-pane", "-t", split.trim()]);
    w.ok(&["send-keys", "-t", "alt", "Enter"]);
    eventually("the main screen back, whole", || {
        w.ok(&["capture-pane", "-p", "-t", "alt"])
            .lines()
            .any(|l| l == line)
            .then_some(())
    });
}
