//! vttest (issue 13 item 6): menus 1 (cursor movements) and 2 (screen features) run
//! screen by screen in a fugue pane and in a tmux pane of 80x24, and `capture-pane -p`
//! must show the same on every screen, except where tmux 3.3a is known to be wrong
//! (listed in `KNOWN`, with the reason; there fugue is checked against what xterm
//! shows). Skipped, saying why, when vttest or tmux is not installed.

use super::harness::World;
use super::twins::{Tmux, fugue_pane, settled};
use std::process::Command;

/// (menu, screen, why tmux differs, a line fugue must show instead, and on which row).
const KNOWN: &[(u8, usize, &str, &str, usize)] = &[
    (
        2,
        11,
        "tmux 3.3a ignores origin mode when homing the cursor (DECSTBM), so its line \
         lands at the top instead of the bottom of the region",
        "Origin mode test. This line should be at the bottom of the screen.",
        23,
    ),
    (
        2,
        15,
        "tmux's capture-pane prints DEC Special Graphics as the ASCII bytes \
         (`qqqq`); fugue stores the box-drawing characters",
        "line:      ──────────  ──────────  ──────────  ──────────  ──────────",
        11,
    ),
];

fn vttest_installed() -> bool {
    let found = Command::new("sh")
        .args(["-c", "command -v vttest"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("vttest is not installed (apt-get install vttest): test skipped");
    }
    found
}

/// Screens of one menu: (fugue, tmux) captures, the menu left when done.
fn run_menu(w: &World, tmux: &Tmux, menu: u8, screens: usize) -> Vec<(String, String)> {
    let both = |keys: &[&str]| {
        let mut args = vec!["send-keys", "-t", "vt"];
        args.extend_from_slice(keys);
        w.ok(&args);
        tmux.send_keys(keys);
    };
    let capture = || {
        (
            settled("vttest in fugue", || {
                w.ok(&["capture-pane", "-p", "-t", "vt"])
            }),
            settled("vttest in tmux", || tmux.capture()),
        )
    };
    let menu_key = menu.to_string();
    both(&[&menu_key, "Enter"]);
    let mut out = Vec::new();
    for _ in 0..screens {
        out.push(capture());
        both(&["Enter"]);
    }
    let (f, t) = capture();
    assert!(
        f.contains("Enter choice number") && t.contains("Enter choice number"),
        "back at the menu after menu {menu}:\n{f}\n---\n{t}"
    );
    out
}

#[test]
fn vttest_menus_1_and_2_show_as_in_tmux() {
    if !vttest_installed() {
        return;
    }
    let w = World::new();
    let script = "exec vttest";
    let Some(tmux) = Tmux::start(w.dir.path(), 80, 24, script) else {
        return;
    };
    fugue_pane(&w, "vt", 80, 24, script);
    super::harness::eventually("vttest's menu in both", || {
        let f = w.ok(&["capture-pane", "-p", "-t", "vt"]);
        let t = tmux.capture();
        (f.contains("Enter choice number") && t.contains("Enter choice number")).then_some(())
    });
    let mut failures = Vec::new();
    for (menu, screens) in [(1u8, 6usize), (2, 15)] {
        for (i, (f, t)) in run_menu(&w, &tmux, menu, screens).into_iter().enumerate() {
            let screen = i + 1;
            if let Some((_, _, why, line, row)) =
                KNOWN.iter().find(|k| k.0 == menu && k.1 == screen)
            {
                assert_ne!(f, t, "menu {menu} screen {screen} now matches tmux: {why}");
                let got = f.lines().nth(*row).unwrap_or_default().trim_end();
                assert_eq!(
                    got, *line,
                    "menu {menu} screen {screen} (tmux differs: {why})"
                );
                continue;
            }
            if f != t {
                failures.push(format!(
                    "menu {menu} screen {screen}:\n--- fugue\n{f}\n--- tmux\n{t}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
