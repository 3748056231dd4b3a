//! Issue 27: each real agent CLI's TUI in a fugue pane compared cell by cell with the
//! same CLI, same settings and same scripted model inside real tmux 3.3a, at moments
//! where its screen is still (the input box; an answer with a table, CJK and emoji).
//!
//! Claude Code only, so far. Codex and Gemini CLI ask the terminal for its background
//! colour (OSC 11) and draw from the answer; tmux 3.3a with no client attached never
//! answers (Codex waits at its splash screen for over a minute) while fugue answers
//! its default, so their screens can be compared only with a client attached to each,
//! whose terminal answers the same (docs/terminal.md, colour queries).

use super::harness::{TestTmux, World, fugue_bin, nz};
use super::real_claude::{Rig, agent, claude_env, project, seed_config};
use super::standin_model::{Reply, StandIn, Turn};
use std::path::Path;
use std::time::{Duration, Instant};

/// Pane size for both: fugue's lone pane in a 120x40 window is 118x38 (its box), so
/// tmux's window is made that size, and the programs see the same terminal.
const COLS: &str = "118";
const ROWS: &str = "38";

/// The answer: streamed in pieces, a table, CJK and emoji (double-width cells).
fn answer() -> Vec<Turn> {
    vec![Box::new(|_| {
        Reply::Text(
            [
                "Here is the summary.\n\n| name | 数 | mark |\n|---|---|---|\n",
                "| alpha | 一 | ✅ |\n| beta | 二 | 🎉 |\n\n",
                "全角の文字 and emoji 🎉 end.",
            ]
            .map(String::from)
            .to_vec(),
        )
    })]
}

/// Runs `argv` in a detached tmux session of the world's tmux (same environment as
/// [`Rig::launch`] gives fugue's pane), types `prompt`, waits for `done` on screen and
/// returns (the input box screen, the answered screen).
fn in_tmux(
    w: &World,
    argv: &[&Path],
    envs: &[String],
    ready: &str,
    prompt: &str,
    done: &str,
) -> (String, String) {
    // The terminal fugue's panes say they are (config/fugue.toml's `term`, and
    // COLORTERM), so the CLI draws the same thing in both.
    let t = TestTmux::new(
        w,
        "set -g status off\nset -g default-terminal xterm-256color\nset -g focus-events on\n",
    );
    let fugue_dir = fugue_bin().parent().unwrap().display().to_string();
    let path = format!(
        "PATH={fugue_dir}:{}",
        std::env::var("PATH").unwrap_or_default()
    );
    let home = format!("HOME={}", w.path("home").display());
    let proj = project(w).display().to_string();
    let mut args: Vec<String> = [
        "new-session",
        "-d",
        "-s",
        "a",
        "-x",
        COLS,
        "-y",
        ROWS,
        "-c",
        &proj,
    ]
    .map(String::from)
    .to_vec();
    // The world's folders too, so `fugue mcp` (which `fugue setup` configured) reaches
    // the world's fugue server from tmux's pane, as from fugue's.
    let xdg = |k: &str, rel: &str| format!("{k}={}", w.path(rel).display());
    let fixed = [
        xdg("XDG_RUNTIME_DIR", "run"),
        xdg("XDG_STATE_HOME", "state"),
        xdg("XDG_CONFIG_HOME", "config"),
        path,
        home,
        "SHELL=/bin/bash".into(),
        "COLORTERM=truecolor".into(),
    ];
    for e in fixed.iter().chain(envs) {
        args.extend(["-e".into(), e.clone()]);
    }
    args.extend(argv.iter().map(|a| a.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    t.ok(&args);
    let screen = || t.ok(&["capture-pane", "-p", "-e", "-t", "a"]);
    let wait = |what: &str, text: &str| -> String {
        let start = Instant::now();
        loop {
            let s = screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "tmux: timed out waiting for {what}\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait("the input box", ready);
    let ready_screen = settle(screen, ready);
    t.ok(&["send-keys", "-t", "a", "-l", prompt]);
    wait("the prompt", prompt);
    t.ok(&["send-keys", "-t", "a", "Enter"]);
    wait("the answer", done);
    // The answer's last piece is on screen; the input box comes back under it.
    (ready_screen, settle(screen, ready))
}

/// The screen once it shows `ready` and two reads 300 ms apart agree (the CLI's
/// spinner and timers have stopped).
fn settle(screen: impl Fn() -> String, ready: &str) -> String {
    let start = Instant::now();
    let mut last = String::new();
    loop {
        let s = screen();
        if s == last && s.contains(ready) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "never settled:\n{s}"
        );
        last = s;
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// One cell as a terminal shows it: its text and its colours and attributes.
type Cell = (String, vt100::Color, vt100::Color, [bool; 5]);

/// A `capture-pane -p -e` screen read back through a terminal parser (so that two
/// spellings of the same colours compare equal), with `dir` read as `DIR` (the worlds'
/// folders have the same length), the first `logo` columns of its first four rows
/// blanked (Claude Code's mascot there looks around on a timer of its own, so two runs
/// show it in different poses at the same moment), and Claude Code's line after an
/// answer (`✻ Churned for 0s · done 3:57 AM`: a verb drawn at random, a time) blank.
fn cells(capture: &str, dir: &Path, logo: u16) -> Vec<Vec<Cell>> {
    let capture = capture.replace(&*dir.to_string_lossy(), "DIR");
    let (rows, cols): (u16, u16) = (ROWS.parse().unwrap(), COLS.parse().unwrap());
    let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
    // Each line starts from the default attributes, as tmux's capture means them.
    for (i, line) in capture.lines().enumerate().take(rows as usize) {
        parser.process(format!("\x1b[0m\x1b[{};1H{line}", i + 1).as_bytes());
    }
    let screen = parser.screen();
    let text = screen.contents();
    let mut out = Vec::new();
    for (row, line) in (0..rows).zip(text.lines().chain(std::iter::repeat(""))) {
        let answered = line.starts_with("✻ ") && line.contains(" · done ");
        let mut cells = Vec::new();
        for col in 0..cols {
            let blank = answered || (row < 4 && col < logo);
            let cell = screen.cell(row, col).filter(|_| !blank);
            cells.push(match cell {
                Some(c) => (
                    c.contents().to_string(),
                    c.fgcolor(),
                    c.bgcolor(),
                    [c.bold(), c.italic(), c.underline(), c.inverse(), c.dim()],
                ),
                None => (
                    String::new(),
                    vt100::Color::Default,
                    vt100::Color::Default,
                    [false; 5],
                ),
            });
        }
        out.push(cells);
    }
    out
}

/// Compares two captures cell by cell (made [`cells`]); the failure names each
/// differing row and its first differing cell.
fn same(what: &str, logo: u16, (tmux, tmux_dir): (&str, &Path), (fugue, fugue_dir): (&str, &Path)) {
    let (a, b) = (cells(tmux, tmux_dir, logo), cells(fugue, fugue_dir, logo));
    let mut d = String::new();
    for (row, (x, y)) in a.iter().zip(&b).enumerate() {
        if let Some(col) = (0..x.len()).find(|&c| x[c] != y[c]) {
            let text = |r: &Vec<Cell>| r.iter().map(|c| c.0.as_str()).collect::<String>();
            d += &format!(
                "row {row}, column {col}:\n  tmux:  {:?} {:?}\n  fugue: {:?} {:?}\n",
                text(x).trim_end(),
                x[col],
                text(y).trim_end(),
                y[col]
            );
        }
    }
    assert!(
        d.is_empty(),
        "{what} differs:\n{d}\n--- tmux ---\n{tmux}\n--- fugue ---\n{fugue}"
    );
}

/// One CLI run twice with the same script (the answer above): in tmux, then in fugue,
/// each in its own world prepared by `prepare` (settings; returns its environment).
/// Compares the settled input box and the settled answered screen.
fn twins(
    argv: &[&Path],
    prepare: impl Fn(&World, &StandIn) -> Vec<String>,
    ready: &str,
    logo: u16,
) {
    let (prompt, done) = ("summarize", "emoji 🎉 end.");
    let tw = World::new();
    let model = StandIn::start(prompt, answer());
    let envs = prepare(&tw, &model);
    let (tmux_ready, tmux_done) = in_tmux(&tw, argv, &envs, ready, prompt, done);
    drop(model);
    let tdir = tw.dir.path().canonicalize().unwrap();

    let w = World::new();
    let model = StandIn::start(prompt, answer());
    let envs = prepare(&w, &model);
    let fdir = w.dir.path().canonicalize().unwrap();
    let c = Rig::launch(w, model, argv, &envs, ready);
    let fscreen = || c.w.ok(&["capture-pane", "-p", "-e", "-t", "%1"]);
    let fugue_ready = settle(fscreen, ready);
    c.prompt(prompt);
    c.wait("the answer", || c.screen("%1").contains(done).then_some(()));
    let fugue_done = settle(fscreen, ready);
    same(
        "the input box",
        logo,
        (&tmux_ready, &tdir),
        (&fugue_ready, &fdir),
    );
    same(
        "the answered screen",
        logo,
        (&tmux_done, &tdir),
        (&fugue_done, &fdir),
    );
}

#[test]
fn claude_codes_screens_in_fugue_are_tmuxs() {
    let Some(claude) = agent("claude") else {
        return;
    };
    let prepare = |w: &World, model: &StandIn| {
        seed_config(w, &project(w), false);
        claude_env(model)
    };
    twins(&[&claude], prepare, "? for shortcuts", 9);
}
