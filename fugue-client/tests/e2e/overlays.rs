//! Issue 15's prompts and overlays in a real client in a PTY: `confirm-before`,
//! `display-message -d`, `display-menu` and `display-popup`, from keys, `C-b :` and
//! the CLI; tmux's screen beside fugue's where the two can be compared.

use super::harness::{TestTmux, Tui, World, eventually, status_line};
use std::time::Duration;

fn prompt(t: &mut Tui, line: &str) {
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(line.as_bytes());
    t.send(b"\r");
}

#[test]
fn confirm_before_runs_the_command_on_y_only() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "cb"], 80, 24);
    t.wait_text("[cb]");
    prompt(&mut t, "confirm-before -p 'split #S?' 'split-window -h'");
    t.wait("the question", |s| status_line(s).starts_with("split cb? "));
    t.send(b"n");
    t.wait("declined", |s| !status_line(s).starts_with("split cb?"));
    t.typed_through();
    assert_eq!(w.panes().len(), 1, "n declines");

    prompt(&mut t, "confirm-before -p 'split #S?' 'split-window -h'");
    t.wait("the question", |s| status_line(s).starts_with("split cb? "));
    t.send(b"y");
    eventually("split on y", || (w.panes().len() == 2).then_some(()));

    // -y: Enter alone answers yes.
    prompt(&mut t, "confirm-before -y 'splitw -v'");
    t.wait("tmux's own question", |s| {
        status_line(s).starts_with("Confirm 'split-window'? (y/n)")
    });
    t.send(b"\r");
    eventually("split on Enter", || (w.panes().len() == 3).then_some(()));

    // From the CLI, the attached client asks its person.
    w.ok(&[
        "confirm-before",
        "-b",
        "-t",
        "cb",
        "-p",
        "kill it?",
        "kill-pane",
    ]);
    t.wait("the CLI's question", |s| {
        status_line(s).starts_with("kill it? ")
    });
    t.send(b"y");
    eventually("killed on y", || (w.panes().len() == 2).then_some(()));
    // C-b x names the pane this client shows as active, so it must show the kill
    // first: under load the new layout came after the keys, the question named the
    // killed pane and `y` then had nothing to kill (CI, stop 21).
    t.wait("the client shows two panes", |s| {
        super::harness::count_boxes(s) == 2
    });

    // The default C-b x still asks first.
    t.prefix(b"x");
    t.wait("C-b x asks", |s| status_line(s).contains("kill-pane"));
    t.send(b"y");
    eventually("C-b x kills", || (w.panes().len() == 1).then_some(()));
}

/// tmux 3.3a's question reads the same on the status line.
#[test]
fn confirm_before_asks_as_tmux_asks() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "");
    let tt = w.sh(&tmux.script("new-session -s q"), 80, 24);
    eventually("tmux up", || {
        tmux.run(&["has-session", "-t", "q"])
            .status
            .success()
            .then_some(())
    });
    // Asked at tmux's own prompt (tmux's CLI waits for the answer).
    let mut tt = tt;
    tt.send(b"\x02:");
    tt.wait("tmux's prompt", |s| status_line(s).starts_with(':'));
    tt.send(b"confirm-before 'split-window -h'\r");
    tt.wait("tmux asks", |s| status_line(s).contains("(y/n)"));
    let theirs = tt.screen(status_line);

    tt.send(b"n");
    let mut t = w.tui(&["new-session", "-s", "q"], 80, 24);
    t.wait_text("[q]");
    prompt(&mut t, "confirm-before 'split-window -h'");
    t.wait("fugue asks", |s| status_line(s).contains("(y/n)"));
    assert_eq!(t.screen(status_line).trim_end(), theirs.trim_end());
}

#[test]
fn display_message_stays_for_its_delay_or_until_a_key() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "dm"], 80, 24);
    t.wait_text("[dm]");
    // 0: until a key, past display-time (750 ms).
    w.ok(&["display-message", "-t", "dm", "-d", "0", "sticky"]);
    t.wait("shown", |s| status_line(s).starts_with("sticky"));
    // Part of the scenario: display-time must pass.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(t.screen(status_line).starts_with("sticky"), "kept");
    t.send(b"x");
    t.wait("gone with the key", |s| {
        !status_line(s).starts_with("sticky")
    });

    // A delay of its own, longer than display-time.
    w.ok(&["display-message", "-t", "dm", "-d", "2500", "longer"]);
    t.wait("shown", |s| status_line(s).starts_with("longer"));
    // Part of the scenario: past display-time, within its own delay.
    std::thread::sleep(Duration::from_millis(1300));
    assert!(
        t.screen(status_line).starts_with("longer"),
        "kept past 750 ms"
    );
    t.wait("gone after its delay", |s| {
        !status_line(s).starts_with("longer")
    });

    // display-time is the default, changed at run time.
    w.ok(&["set-option", "-g", "display-time", "3000"]);
    prompt(&mut t, "display-message timed");
    t.wait("shown", |s| status_line(s).starts_with("timed"));
    // Part of the scenario: past the default display-time, within the one set.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        t.screen(status_line).starts_with("timed"),
        "display-time 3000"
    );
}

/// The colours of a menu item's first letter: the chosen item's differ.
fn item_style(s: &vt100::Screen, item: &str) -> Option<(vt100::Color, vt100::Color, bool)> {
    let cols = s.size().1.get();
    let (row, line) = s
        .rows(0, cols)
        .enumerate()
        .find(|(_, l)| l.contains(item))?;
    let col = line[..line.find(item)?].chars().count();
    let cell = s.cell(u16::try_from(row).ok()?, u16::try_from(col).ok()?)?;
    Some((cell.fgcolor(), cell.bgcolor(), cell.inverse()))
}

#[test]
fn a_menu_runs_the_chosen_item() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "mn"], 80, 24);
    t.wait_text("[mn]");
    let menu = "display-menu -T Pick Split s 'split-window -h' '' Rename r 'rename-window picked'";
    prompt(&mut t, menu);
    t.wait("the menu", |s| {
        let c = s.contents();
        c.contains("Pick") && c.contains("Split") && c.contains("(r)") && c.contains("├")
    });
    // Down skips the separator; Enter chooses.
    let rename = t.screen(|s| item_style(s, "Rename"));
    t.send(b"\x1b[B");
    // Enter once the choice has moved (the Down key handled), not on a guess.
    t.wait("Rename chosen", |s| item_style(s, "Rename") != rename);
    t.send(b"\r");
    t.wait("renamed", |s| status_line(s).contains("0:picked"));
    t.wait("closed", |s| !s.contents().contains("Pick"));

    // An item's key chooses it.
    prompt(&mut t, menu);
    // "(s)" is the menu's own: the prompt's echo of the line holds "Pick" too.
    t.wait("the menu", |s| s.contents().contains("(s)"));
    t.send(b"s");
    eventually("split", || (w.panes().len() == 2).then_some(()));

    // Escape closes it; nothing runs.
    w.ok(&["display-menu", "-t", "mn", "Kill", "k", "kill-server"]);
    t.wait("the CLI's menu", |s| s.contents().contains("Kill"));
    t.send(b"\x1b");
    t.wait("closed", |s| !s.contents().contains("Kill"));
    assert_eq!(w.panes().len(), 2);
}

#[test]
fn a_click_chooses_a_menu_item() {
    let w = World::new();
    // The mouse on before the client attaches: its reporting is on from the start.
    w.ok(&["new-session", "-d", "-s", "mc"]);
    w.ok(&["set-option", "-g", "mouse", "on"]);
    let mut t = w.tui(&["attach-session", "-t", "mc"], 80, 24);
    t.wait_text("[mc]");
    prompt(
        &mut t,
        "display-menu -x 0 -y 0 One 1 'rename-window one' Two 2 'rename-window two'",
    );
    // Above the status line: the prompt's echo of the typed command holds "Two" too,
    // and under load matched before the menu was drawn (the click then hit nothing).
    let menu_row =
        |s: &vt100::Screen| (0..23).find(|&y| s.contents_between(y, 0, y, 80).contains("Two"));
    t.wait("the menu", |s| menu_row(s).is_some());
    // The box is at the panes' top left: its border, then One, then Two on row 3.
    let row = t.screen(menu_row);
    let row = row.expect("Two's row") + 1;
    t.send(format!("\x1b[<0;3;{row}M\x1b[<0;3;{row}m").as_bytes());
    t.wait("chose Two", |s| status_line(s).contains("0:two"));
}

#[test]
fn a_popup_runs_its_command_and_closes_when_it_exits() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "pp"], 80, 24);
    t.wait_text("[pp]");
    let done = w.path("done");
    let program = format!(
        "printf POPUP-TEXT; read x; printf \"$x\" > '{}'",
        done.display()
    );
    w.ok(&[
        "display-popup",
        "-t",
        "pp",
        "-E",
        "-w",
        "40",
        "-h",
        "8",
        "-T",
        "PT",
        &program,
    ]);
    t.wait("the popup", |s| {
        let c = s.contents();
        c.contains("POPUP-TEXT") && c.contains("PT")
    });
    // Centred: 40 wide in 80 columns starts at column 20; its box's corner is there.
    let corner = t.screen(|s| {
        (0..24).find_map(|y| {
            let line = s.contents_between(y, 0, y, 80);
            line.contains("PT")
                .then(|| line.chars().position(|c| c == '┌'))
        })
    });
    assert_eq!(corner, Some(Some(20)), "the box is centred");
    // Not in the window's layout: list-panes shows the window's one pane.
    assert_eq!(w.panes().len(), 1, "tmux lists no popup");
    // It takes the keyboard: the prefix and keys go to its program.
    t.send(b"typed\r");
    t.wait("closed with -E", |s| !s.contents().contains("POPUP-TEXT"));
    eventually("its program read the keys", || {
        std::fs::read_to_string(&done).ok().filter(|s| s == "typed")
    });

    // From C-b :, and closed with -C.
    prompt(
        &mut t,
        "display-popup -w 50% -h 6 'printf FROM-PROMPT; sleep 30'",
    );
    // The popup's own line (after its border), not the prompt still showing what was
    // typed: a -C sent on the prompt's echo came before the popup and closed nothing.
    t.wait("the popup", |s| s.contents().contains("│FROM-PROMPT"));
    w.ok(&["display-popup", "-C", "-t", "pp"]);
    t.wait("closed with -C", |s| !s.contents().contains("FROM-PROMPT"));

    // Without -E it stays after its program ends, until Escape.
    prompt(&mut t, "display-popup 'printf STAYS'");
    t.wait("the popup", |s| s.contents().contains("│STAYS"));
    // Its program's exit shows nowhere when the popup stays: nothing to wait for.
    super::harness::settle_for_negative_check();
    assert!(t.contents().contains("STAYS"), "kept after its exit");
    t.send(b"\x1b");
    t.wait("closed on Escape", |s| !s.contents().contains("STAYS"));
    assert_eq!(w.panes().len(), 1);
}

#[test]
fn tab_completes_command_and_option_names() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "tc"], 80, 24);
    t.wait_text("[tc]");
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    // One match: completed, with a space after it.
    // rename (rename-session's alias), rename-session, rename-window, renamew.
    t.send(b"renam\t");
    t.wait("the common prefix", |s| {
        status_line(s).trim_end() == ":rename"
    });
    t.send(b"-w\t");
    t.wait("one match", |s| {
        status_line(s).starts_with(":rename-window ")
    });
    t.send(b"done\r");
    t.wait("ran", |s| status_line(s).contains("0:done"));

    // Option names after set; repeated Tab goes through the matches.
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"set -g status-pos\t");
    t.wait("an option name", |s| {
        status_line(s).starts_with(":set -g status-position ")
    });
    t.send(b"top\r");
    t.wait("the status line at the top", |s| {
        s.contents_between(0, 0, 0, 80).contains("[tc]")
    });
    t.prefix(b":");
    t.wait("the prompt", |s| {
        s.contents_between(0, 0, 0, 80).starts_with(':')
    });
    t.send(b"show -g status-l\t");
    t.wait("the shared part", |s| {
        s.contents_between(0, 0, 0, 80)
            .starts_with(":show -g status-left")
    });
    t.send(b"\t");
    t.wait("the first", |s| {
        s.contents_between(0, 0, 0, 80).trim_end() == ":show -g status-left"
    });
    t.send(b"\t");
    t.wait("the next", |s| {
        s.contents_between(0, 0, 0, 80)
            .starts_with(":show -g status-left-length")
    });
}

fn row(s: &vt100::Screen, y: u16) -> String {
    s.contents_between(y, 0, y, 80).trim_end().to_string()
}

/// `status 2` with a `status-format[1]`, beside tmux 3.3a: the second line is the
/// format, centred, under the usual line; the panes lose a row.
#[test]
fn a_second_status_line_shows_status_format_1() {
    let w = World::new();
    let conf = "set -g status 2\nset -g status-format[1] '#[align=centre]#{session_name} second #{window_index}'\n";
    let tmux = TestTmux::new(&w, conf);
    let tt = w.sh(&tmux.script("new-session -s sl"), 80, 24);
    tt.wait("tmux's second line", |s| row(s, 23).contains("sl second 0"));
    let theirs = tt.screen(|s| row(s, 23));

    let t = w.tui(&["new-session", "-s", "sl"], 80, 24);
    t.wait_text("[sl]");
    w.ok(&["set-option", "-g", "status", "2"]);
    w.ok(&[
        "set-option",
        "-g",
        "status-format[1]",
        "#[align=centre]#{session_name} second #{window_index}",
    ]);
    t.wait("fugue's second line", |s| {
        row(s, 23).contains("sl second 0")
    });
    assert_eq!(t.screen(|s| row(s, 23)), theirs);
    // The usual line is the first of the two; the pane's box ends above it.
    t.wait("the first line", |s| row(s, 22).starts_with("[sl] 0:"));
    t.wait("the pane a row shorter", |s| row(s, 21).starts_with('└'));
    let size = w.ok(&["display-message", "-p", "-t", "sl", "#{pane_height}"]);
    assert_eq!(size.trim(), "20", "24 rows less 2 status lines and the box");
    // tmux's default second line lists the panes: here one, active, 78x20 inside its box.
    w.ok(&["set-option", "-gu", "status-format[1]"]);
    t.wait("the default second line", |s| {
        row(s, 23).contains("0[78x20]")
    });
    // Back to one line: the panes get the row back.
    w.ok(&["set-option", "-g", "status", "on"]);
    t.wait("one line", |s| {
        row(s, 22).starts_with('└') && row(s, 23).starts_with("[sl]")
    });
}

/// A popup is in no layout: closing its session must still end its program.
#[test]
fn a_popup_ends_with_its_session() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "keep"]);
    w.ok(&["new-session", "-d", "-s", "gone"]);
    let pidfile = w.path("popup.pid");
    w.ok(&[
        "display-popup",
        "-t",
        "gone",
        &format!("echo $$ > '{}'; exec sleep 600", pidfile.display()),
    ]);
    let pid = eventually("the popup's program", || {
        std::fs::read_to_string(&pidfile)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
    });
    assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
    w.ok(&["kill-session", "-t", "gone"]);
    eventually("its program ended", || {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Gone, or a zombie waiting for its parent.
        (stat.is_empty() || stat.contains(") Z")).then_some(())
    });
    assert_eq!(w.panes().len(), 1, "keep's pane alone");
}

/// tmux's other popup flags, as libtmux passes them: -e sets the command's
/// environment, -b takes tmux's border-lines names (`none` as -B), -c, -s and -S are
/// taken; none of them is mistaken for the command (they were run as `-b`, `-e...`).
#[test]
fn popup_flags_are_flags_not_the_command() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "pf"]);
    let out = w.path("popup.out");
    w.ok(&[
        "display-popup",
        "-t",
        "pf",
        "-E",
        "-e",
        "FOO=bar",
        "-b",
        "rounded",
        "-c",
        "client-1",
        "-s",
        "fg=red",
        "-S",
        "bg=black",
        "-d",
        "/tmp",
        &format!("echo \"$FOO $PWD\" > '{}'", out.display()),
    ]);
    eventually("the popup's command ran", || {
        std::fs::read_to_string(&out)
            .ok()
            .filter(|s| s == "bar /tmp\n")
    });
    // Values given attached to their flags, as libtmux passes -e (`-eFOO=bar`).
    let out2 = w.path("popup2.out");
    let line = format!("echo \"$BAR $PWD\" > '{}'", out2.display());
    // The first popup (-E) closes once its command has exited, a moment after the
    // file is written: until then the session refuses a second one.
    eventually("the second popup opened", || {
        w.run(&[
            "display-popup",
            "-t",
            "pf",
            "-E",
            "-eBAR=baz",
            "-d/tmp",
            "-w50",
            &line,
        ])
        .status
        .success()
        .then_some(())
    });
    eventually("the attached values taken", || {
        std::fs::read_to_string(&out2)
            .ok()
            .filter(|s| s == "baz /tmp\n")
    });
    let bad = w.run(&["display-popup", "-t", "pf", "-b", "wavy", "true"]);
    assert_eq!(bad.status.code(), Some(1), "{bad:?}");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("border lines"));
}
