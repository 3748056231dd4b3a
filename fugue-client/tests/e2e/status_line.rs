//! The status line drawn from tmux's options (status-left, the window list,
//! status-right, styles, position), compared with tmux 3.3a's drawn line where tmux
//! defines it, and changed at runtime with `set -g`.

use super::harness::{TestTmux, Tui, World, eventually};

/// A program that sets its pane's title (OSC 2) and waits.
const PROGRAM: &str = "printf '\\033]2;TT\\033\\\\'; printf READY; exec cat";

fn row(t: &Tui, y: u16) -> String {
    t.screen(|s| s.contents_between(y, 0, y, 80))
        .trim_end()
        .to_string()
}

/// The line without its clock (`%H:%M %d-%b-%y`, 15 columns at the end).
fn masked(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    chars[..chars.len().saturating_sub(15)].iter().collect()
}

/// A fugue session `st` with windows `one` and `two` (current), both running PROGRAM.
fn fugue_session(w: &World) -> Tui {
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "st",
        "-n",
        "one",
        "--",
        "sh",
        "-c",
        PROGRAM,
    ]);
    w.ok(&[
        "new-window",
        "-t",
        "st",
        "-n",
        "two",
        "--",
        "sh",
        "-c",
        PROGRAM,
    ]);
    let t = w.tui(&["attach", "-t", "st"], 80, 24);
    t.wait_text("READY");
    t
}

#[test]
fn the_default_status_line_is_tmuxs() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "");
    let prog = PROGRAM.replace('"', "\\\"");
    let tt = w.sh(
        &tmux.script(&format!("new-session -s st -n one \"{prog}\"")),
        80,
        24,
    );
    eventually("tmux up", || {
        tmux.run(&["has-session", "-t", "st"])
            .status
            .success()
            .then_some(())
    });
    tmux.ok(&["new-window", "-t", "st", "-n", "two", &prog]);
    tt.wait("tmux's second window", |s| {
        s.contents_between(23, 0, 23, 80).contains("1:two*")
    });
    tt.wait("tmux's title", |s| {
        s.contents_between(23, 0, 23, 80).contains("\"TT\"")
    });
    let theirs = masked(&row(&tt, 23));

    let t = fugue_session(&w);
    t.wait("fugue's line", |s| {
        let l = s.contents_between(23, 0, 23, 80);
        l.contains("1:two*") && l.contains("\"TT\"")
    });
    let ours = masked(&row(&t, 23));
    assert_eq!(ours, theirs);
    assert!(ours.starts_with("[st] 0:one- 1:two*"), "{ours}");
    // tmux's status-style: black on green, across the whole row.
    t.screen(|s| {
        let c = s.cell(23, 40).expect("cell");
        assert_eq!(c.bgcolor(), vt100::Color::Idx(2));
    });
}

#[test]
fn set_status_left_redraws_at_once_with_its_style() {
    let w = World::new();
    let t = fugue_session(&w);
    t.wait("the default line", |s| {
        s.contents_between(23, 0, 23, 80).starts_with("[st]")
    });
    w.ok(&["set", "-g", "status-left", "#[fg=red]<#S>"]);
    t.wait("the new left part", |s| {
        s.contents_between(23, 0, 23, 80).starts_with("<st>")
    });
    t.screen(|s| {
        let c = s.cell(23, 1).expect("cell");
        assert_eq!(c.fgcolor(), vt100::Color::Idx(1), "fg=red");
        assert_eq!(
            c.bgcolor(),
            vt100::Color::Idx(2),
            "status-style's green shows through"
        );
    });
}

#[test]
fn status_position_top_moves_the_bar_and_the_panes() {
    let w = World::new();
    let t = fugue_session(&w);
    t.wait("the bar at the bottom", |s| {
        s.contents_between(23, 0, 23, 80).starts_with("[st]")
    });
    w.ok(&["set", "-g", "status-position", "top"]);
    t.wait("the bar at the top", |s| {
        s.contents_between(0, 0, 0, 80).starts_with("[st]")
    });
    t.wait("the pane below it", |s| {
        !s.contents_between(23, 0, 23, 80).contains("[st]")
    });
}

#[test]
fn conditionals_and_shell_commands_render() {
    let w = World::new();
    let t = fugue_session(&w);
    w.ok(&["set", "-g", "status-left", "#{?window_zoomed_flag,Z,-}|"]);
    w.ok(&["set", "-g", "status-right", "#(echo hi)"]);
    t.wait("the conditional and the command's output", |s| {
        let l = s.contents_between(23, 0, 23, 80);
        l.starts_with("-|") && l.trim_end().ends_with("hi")
    });
    w.ok(&["resize-pane", "-Z", "-t", "st"]);
    w.ok(&["split-window", "-t", "st", "--", "sh", "-c", PROGRAM]);
    w.ok(&["resize-pane", "-Z", "-t", "st"]);
    t.wait("zoomed", |s| {
        s.contents_between(23, 0, 23, 80).starts_with("Z|")
    });
}

/// The window holding the marked pane shows tmux's `M` flag (`0:one-M`, as tmux
/// 3.3a's window list shows it), and loses it with `select-pane -M`.
#[test]
fn the_marked_panes_window_shows_m() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "");
    let prog = PROGRAM.replace('"', "\\\"");
    let tt = w.sh(
        &tmux.script(&format!("new-session -s st -n one \"{prog}\"")),
        80,
        24,
    );
    eventually("tmux up", || {
        tmux.run(&["has-session", "-t", "st"])
            .status
            .success()
            .then_some(())
    });
    tmux.ok(&["new-window", "-t", "st", "-n", "two", &prog]);
    tmux.ok(&["select-pane", "-m", "-t", "st:0"]);
    tt.wait("tmux's M", |s| {
        s.contents_between(23, 0, 23, 80).contains("1:two*")
            && s.contents_between(23, 0, 23, 80).contains("0:one-M")
    });
    let theirs = masked(&row(&tt, 23));

    let t = fugue_session(&w);
    w.ok(&["select-pane", "-m", "-t", "st:0"]);
    t.wait("fugue's M", |s| {
        s.contents_between(23, 0, 23, 80).contains("0:one-M")
    });
    t.wait("fugue's title", |s| {
        s.contents_between(23, 0, 23, 80).contains("\"TT\"")
    });
    assert_eq!(masked(&row(&t, 23)), theirs);
    w.ok(&["select-pane", "-M"]);
    t.wait("no M", |s| {
        let l = s.contents_between(23, 0, 23, 80);
        l.contains("0:one- ") && !l.contains("-M")
    });
}

/// A theme shows the pending prefix with `#{client_prefix}`; fugue draws nothing of its
/// own over `status-right` meanwhile (issue 28, item 5), as tmux draws nothing.
#[test]
fn the_pending_prefix_is_the_themes_to_show() {
    let w = World::new();
    let mut t = fugue_session(&w);
    w.ok(&[
        "set",
        "-g",
        "status-right",
        "#{?client_prefix,PREFIX-HELD,idle}:#{client_termname}",
    ]);
    t.wait("the theme's idle mark", |s| {
        s.contents_between(23, 0, 23, 80)
            .trim_end()
            .ends_with("idle:xterm-256color")
    });
    t.send(b"\x02");
    t.wait("the theme's prefix mark", |s| {
        let l = s.contents_between(23, 0, 23, 80);
        l.trim_end().ends_with("PREFIX-HELD:xterm-256color") && !l.contains("C-b")
    });
    // The next key ends the prefix (`Q`: bound to nothing, so nothing else happens).
    t.send(b"Q");
    t.wait("the theme's idle mark again", |s| {
        s.contents_between(23, 0, 23, 80)
            .trim_end()
            .ends_with("idle:xterm-256color")
    });
}

/// The status line's pane and client variables (issue 28, item 5): the foreground
/// program, its directory and the pane's first process, and the terminal's size,
/// following a `cd` and a resize of the terminal.
#[test]
fn the_status_line_shows_the_panes_program_path_and_the_clients_size() {
    let w = World::new();
    let dir = w.path("home");
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "st",
        "-c",
        dir.to_str().unwrap(),
        "--",
        "sh",
    ]);
    let pid = w.ok(&["display-message", "-p", "-t", "st", "#{pane_pid}"]);
    w.ok(&["set", "-g", "status-right-length", "80"]);
    w.ok(&[
        "set",
        "-g",
        "status-right",
        "<#{pane_current_command}|#{b:pane_current_path}|#{pane_pid}|#{client_width}x#{client_height}>",
    ]);
    let mut t = w.tui(&["attach", "-t", "st"], 80, 24);
    let want = format!("<sh|home|{}|80x24>", pid.trim());
    t.wait(&format!("{want} on the status line"), |s| {
        s.contents_between(23, 0, 23, 80)
            .trim_end()
            .ends_with(&want)
    });
    std::fs::create_dir_all(w.path("home/sub")).unwrap();
    w.ok(&["send-keys", "-t", "st", "cd sub", "Enter"]);
    t.resize(100, 30);
    let want = format!("<sh|sub|{}|100x30>", pid.trim());
    t.wait(&format!("{want} on the status line"), |s| {
        s.contents_between(29, 0, 29, 100)
            .trim_end()
            .ends_with(&want)
    });
}
