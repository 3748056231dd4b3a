//! tmux key habits in the terminal client: the window list, PgUp, the prompt's line
//! editing, and repeatable keys.

use super::harness::{World, count_boxes, eventually, status_line};

/// Acceptance test E: with many windows the current one fell off the status bar.
#[test]
fn the_status_bar_keeps_the_current_window_visible() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "many", "-n", "window-0"]);
    for i in 1..16 {
        w.ok(&[
            "new-window",
            "-t",
            "many",
            "-d",
            "-n",
            &format!("window-{i}"),
        ]);
    }
    w.ok(&["select-window", "-t", "many:12"]);
    let mut t = w.tui(&["attach", "-t", "many"], 80, 24);
    t.wait(
        "window 12 marked current, hidden windows on both sides",
        |s| {
            let line = status_line(s);
            line.contains("12:window-12*") && line.contains('<') && line.contains('>')
        },
    );
    t.prefix(b"0");
    t.wait("window 0 current, only the right side hidden", |s| {
        let line = status_line(s);
        line.contains("0:window-0*") && !line.contains('<') && line.contains('>')
    });
}

/// Acceptance test F: C-b PgUp enters scroll mode a page up (tmux `copy-mode -u`).
#[test]
fn prefix_page_up_scrolls_a_page_at_once() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "pg"], 80, 20);
    t.wait_text("[pg]");
    t.send(b"for i in $(seq 1 200); do echo line-$i; done\r");
    t.wait_text("line-200");
    t.prefix(b"\x1b[5~");
    t.wait("scroll mode, a page up", |s| {
        let c = s.contents();
        c.contains("copy: q to leave") && !c.contains("line-200") && c.contains("line-168 ")
    });
}

/// Acceptance test I: the rename prompt is a line editor.
#[test]
fn the_rename_prompt_edits_at_the_cursor() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ed"], 100, 30);
    t.wait_text("[ed]");
    t.prefix(b",");
    t.wait_text("(rename-window) ");
    // C-u, "abc", Left Left, "é", End "Y", Home "Z", C-e "!", C-a Right Delete, Enter.
    t.send(b"\x15abc\x1b[D\x1b[D\xc3\xa9\x1b[FY\x1b[HZ\x05!\x01\x1b[C\x1b[3~\r");
    t.wait_text("0:Zébc");
    t.wait("the new name", |s| status_line(s).contains("0:ZébcY!*"));
}

fn widths(w: &World) -> Vec<u64> {
    w.panes()
        .iter()
        .filter_map(|p| p["width"].as_u64())
        .collect()
}

/// Acceptance test J: resize keys repeat without the prefix within repeat-time.
#[test]
fn resize_keys_repeat_without_the_prefix() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "rep"], 100, 30);
    t.wait_text("[rep]");
    t.prefix(b"%");
    t.wait("two panes", |s| count_boxes(s) == 2);
    let before = widths(&w);
    assert_eq!(before, vec![48, 48]);
    // C-b C-Right C-Right C-Right, in one burst.
    t.send(b"\x02\x1b[1;5C\x1b[1;5C\x1b[1;5C");
    eventually("three resizes", || {
        let now = widths(&w);
        (now.iter().zip(&before).all(|(a, b)| a.abs_diff(*b) == 3)).then_some(())
    });
    // After the repeat time, the key goes to the pane again, not to resize. (Part of
    // the scenario: repeat-time must pass.)
    std::thread::sleep(std::time::Duration::from_millis(700));
    let settled = widths(&w);
    t.send(b"\x1b[1;5C");
    t.typed_through();
    assert_eq!(widths(&w), settled);
}

/// `C-b )` and `C-b (` switch the client to the next and previous session by name,
/// wrapping round, as in tmux.
#[test]
fn prefix_parens_switch_between_sessions() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "alpha"]);
    w.ok(&["new", "-d", "-s", "beta"]);
    let mut t = w.tui(&["attach", "-t", "alpha"], 80, 24);
    t.wait_text("[alpha]");
    t.prefix(b")");
    t.wait_text("[beta]");
    t.prefix(b")");
    t.wait_text("[alpha]");
    t.prefix(b"(");
    t.wait_text("[beta]");
}

/// tmux's other default prefix keys (issue 28, item 10), pressed in a tmux 3.3a client
/// and a fugue client with the same sessions: the same panes, marks and windows after
/// each.
#[test]
fn tmuxs_other_default_keys_do_what_tmuxs_do() {
    use super::harness::TestTmux;
    let w = World::new();
    let test_tmux = TestTmux::new(&w, "");
    let tmux = |args: &[&str]| String::from_utf8_lossy(&test_tmux.run(args).stdout).into_owned();
    let mut tt = w.sh(&test_tmux.script("new-session -s k"), 80, 24);
    eventually("tmux up", || {
        tmux(&["list-panes", "-t", "k"])
            .contains("%0")
            .then_some(())
    });
    w.ok(&["new-session", "-d", "-s", "k"]);
    for side in [true, false] {
        let run = |args: &[&str]| {
            if side {
                w.ok(args);
            } else {
                tmux(args);
            }
        };
        run(&["split-window", "-t", "k"]);
        run(&["select-pane", "-t", "k:0.0", "-T", "a"]);
        run(&["select-pane", "-t", "k:0.1", "-T", "b"]);
    }
    let mut t = w.tui(&["attach", "-t", "k"], 80, 24);
    t.wait_text("[k]");
    eventually("tmux's client to draw the split", || {
        tt.contents().contains("──").then_some(())
    });
    let same = |what: &str, args: &[&str], want: &str| {
        eventually(&format!("fugue: {what}"), || {
            (w.run(args).stdout == want.as_bytes()).then_some(())
        });
        eventually(&format!("tmux: {what}"), || {
            (tmux(args) == want).then_some(())
        });
    };
    let panes = [
        "list-panes",
        "-s",
        "-t",
        "k",
        "-F",
        "#{window_index}:#{pane_title}:#{pane_active}:#{pane_marked}",
    ];
    let mut keys = |bytes: &[u8]| {
        t.prefix(bytes);
        tt.send(b"\x02");
        tt.send(bytes);
    };
    keys(b"{");
    same(
        "C-b { swaps with the pane above",
        &panes,
        "0:b:1:0\n0:a:0:0\n",
    );
    keys(b"m");
    same("C-b m marks the pane", &panes, "0:b:1:1\n0:a:0:0\n");
    keys(b"M");
    same("C-b M clears the mark", &panes, "0:b:1:0\n0:a:0:0\n");
    keys(b"}");
    same(
        "C-b } swaps with the pane below",
        &panes,
        "0:a:0:0\n0:b:1:0\n",
    );
    keys(b"\x0f");
    same("C-b C-o rotates", &panes, "0:b:0:0\n0:a:1:0\n");
    keys(b"\x1bo");
    same("C-b M-o rotates back", &panes, "0:a:0:0\n0:b:1:0\n");
    keys(b"!");
    same("C-b ! breaks the pane out", &panes, "0:a:1:0\n1:b:1:0\n");
    keys(b"'");
    t.wait("the prompt", |s| status_line(s).starts_with("index"));
    eventually("tmux's prompt", || {
        tt.screen(|s| status_line(s).starts_with("index"))
            .then_some(())
    });
    t.send(b"0\r");
    tt.send(b"0\r");
    same(
        "C-b ' asks for the window to go to",
        &["display-message", "-p", "-t", "k", "#{window_index}"],
        "0\n",
    );
}
