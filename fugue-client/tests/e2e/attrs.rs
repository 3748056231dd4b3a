//! Issue 13: cell attributes, hyperlinks and wide characters, end to end. A real
//! program prints into a pane; `capture-pane -e` must give back what tmux 3.3a gives
//! back (where tmux keeps the attribute), from the screen and from history, and the
//! client must draw it: its output, read through a PTY by a terminal parser (vt100),
//! must show the same cells.

use super::harness::{World, eventually, nz};
use std::path::Path;
use std::process::Command;

/// Every attribute family, one letter each, then the line vt100 0.18 got wrong
/// (`58;2;1;2;3` turned on dim and italic).
const SAMPLE: &str = concat!(
    r"a\033[9mS\033[29m \033[53mO\033[55m \033[5mB\033[25m \033[8mH\033[28m ",
    r"\033[4:3mC\033[4:0m \033[4:2mD\033[24m \033[21mE\033[24m \033[4:4mF\033[4:5mG\033[0m ",
    r"\033[58;2;1;2;3m\033[4mU\033[0m \033[58:5:9;4mV\033[0m \033[38:2::10:20:30mW\033[0m ",
    r"\033[48:2::1:2:3mX\033[0m \033[58:2:4:5:6;4mY\033[0m \033[6mR\033[0m\n",
    r"\033[58;2;1;2;3mZ\033[0m\n"
);

/// The shell script a pane runs: the sample, then `END`, then it waits.
fn script(dir: &Path, body: &str) -> String {
    let path = dir.join("sample.sh");
    std::fs::write(
        &path,
        format!("printf '{body}'\nprintf 'END\\n'\nexec sleep 1000\n"),
    )
    .expect("write script");
    path.to_string_lossy().into_owned()
}

/// A tmux server of its own, for comparison.
struct Tmux {
    /// TMUX_TMPDIR: the socket's folder.
    dir: tempfile::TempDir,
}

impl Tmux {
    /// Runs `sh script` in a detached tmux session of `cols` x `rows`; None when tmux
    /// is not installed.
    fn start(script: &str, cols: u16, rows: u16) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            eprintln!("tmux is not installed: the comparison with tmux is skipped");
            return None;
        }
        let t = Tmux {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        let out = t
            .cmd()
            .args(["-f", "/dev/null", "new-session", "-d", "-x"])
            .arg(cols.to_string())
            .arg("-y")
            .arg(rows.to_string())
            .arg(format!("sh {script}"))
            .output()
            .expect("run tmux");
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(t)
    }

    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.env("TMUX_TMPDIR", self.dir.path()).env_remove("TMUX");
        c
    }

    fn capture(&self, extra: &[&str]) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-e"])
            .args(extra)
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn wait_for(&self, text: &str) {
        eventually(&format!("`{text}` in tmux"), || {
            let out = self.cmd().args(["capture-pane", "-p"]).output().ok()?;
            String::from_utf8_lossy(&out.stdout)
                .contains(text)
                .then_some(())
        });
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").output();
        super::harness::stop_servers(self.dir.path());
    }
}

/// Everything a cell shows, as a terminal parser reads it.
#[derive(Debug, PartialEq, Eq, Clone)]
struct Look {
    text: String,
    fg: vt100::Color,
    bg: vt100::Color,
    flags: [bool; 8],
    underline: Option<vt100::UnderlineStyle>,
    underline_color: vt100::Color,
    overline: bool,
    link: Option<(String, String)>,
}

fn look(screen: &vt100::Screen, row: u16, col: u16) -> Look {
    let c = screen
        .cell(row, col)
        .cloned()
        .unwrap_or_else(|| panic!("no cell {row},{col}"));
    let e = screen.extra(&c);
    Look {
        text: c.contents().to_string(),
        fg: c.fgcolor(),
        bg: c.bgcolor(),
        flags: [
            c.bold(),
            c.dim(),
            c.italic(),
            c.inverse(),
            c.strikethrough(),
            c.blink(),
            c.hidden(),
            c.is_wide(),
        ],
        underline: c.underline().then_some(e.underline_style),
        underline_color: e.underline_color,
        overline: e.overline,
        link: screen
            .hyperlink(e.hyperlink)
            .map(|l| (l.id.clone(), l.uri.clone())),
    }
}

/// Captured text (lines ending in `\n`) as a terminal shows it.
fn parse(captured: &str, cols: u16) -> vt100::Parser {
    let lines = captured.lines().count() as u16;
    let mut p = vt100::Parser::new(nz(lines.max(1)), nz(cols), 0);
    p.process(
        captured
            .replace('\n', "\r\n")
            .trim_end_matches("\r\n")
            .as_bytes(),
    );
    p
}

fn looks(screen: &vt100::Screen, row: u16, cols: u16) -> Vec<Look> {
    (0..cols).map(|c| look(screen, row, c)).collect()
}

/// The sample's first line as `capture-pane -e` output, parsed: the looks of its
/// letters. tmux 3.3a writes overline as `5:3` (its `53` split like `4:3`), so overline
/// is compared separately.
fn sample_looks(captured: &str, without_overline: bool) -> Vec<Look> {
    let first: String = captured
        .lines()
        .find(|l| l.contains('S') && l.contains('Y'))
        .unwrap_or_else(|| panic!("sample line in {captured:?}"))
        .to_string();
    let p = parse(&format!("{first}\n"), 80);
    looks(p.screen(), 0, 40)
        .into_iter()
        .map(|mut l| {
            if without_overline {
                l.overline = false;
            }
            l
        })
        .collect()
}

fn letter<'a>(looks: &'a [Look], text: &str) -> &'a Look {
    looks
        .iter()
        .find(|l| l.text == text)
        .unwrap_or_else(|| panic!("`{text}` in {looks:?}"))
}

/// What the sample's letters must look like.
fn check_sample(looks: &[Look]) {
    use vt100::Color::*;
    use vt100::UnderlineStyle::*;
    let l = |t| letter(looks, t);
    assert!(l("S").flags[4], "strikethrough: {:?}", l("S"));
    assert!(l("B").flags[5] && l("R").flags[5], "blink");
    assert!(l("H").flags[6], "hidden");
    assert_eq!(l("C").underline, Some(Curly));
    assert_eq!(l("D").underline, Some(Double));
    assert_eq!(l("E").underline, Some(Double), "SGR 21");
    assert_eq!(l("F").underline, Some(Dotted));
    assert_eq!(l("G").underline, Some(Dashed));
    assert_eq!(
        (l("U").underline, l("U").underline_color),
        (Some(Single), Rgb(1, 2, 3))
    );
    assert_eq!(l("V").underline_color, Idx(9));
    assert_eq!(l("W").fg, Rgb(10, 20, 30));
    assert_eq!(l("X").bg, Rgb(1, 2, 3));
    assert_eq!(l("Y").underline_color, Rgb(4, 5, 6));
    // No attribute leaks onto the plain letter or the spaces between.
    assert_eq!(l("a").flags, [false; 8]);
    assert!(
        looks
            .iter()
            .filter(|l| l.text.is_empty() || l.text == " ")
            .all(|l| { l.flags == [false; 8] && l.underline.is_none() && !l.overline })
    );
}

fn new_fugue_session(w: &World, script: &str, cols: u16, rows: u16) {
    w.ok(&[
        "new",
        "-d",
        "-s",
        "w",
        "-x",
        &cols.to_string(),
        "-y",
        &rows.to_string(),
        "--",
        "sh",
        script,
    ]);
}

#[test]
fn capture_e_keeps_every_attribute_as_tmux_does() {
    let w = World::new();
    let script = script(w.dir.path(), SAMPLE);
    // `new -x -y` is the client size; the pane is inside the status bar and border.
    new_fugue_session(&w, &script, 82, 12);
    let ours = eventually("the sample in fugue", || {
        let c = w.ok(&["capture-pane", "-p", "-e", "-t", "w"]);
        c.contains("END").then_some(c)
    });
    check_sample(&sample_looks(&ours, false));
    assert!(
        letter(&sample_looks(&ours, false), "O").overline,
        "{ours:?}"
    );
    // tmux's codes, but overline as SGR 53 (tmux writes `5:3`).
    assert!(ours.contains("\x1b[53mO"), "overline as SGR 53: {ours:?}");
    assert!(ours.contains("4:3mC"), "{ours:?}");
    assert!(ours.contains("\x1b[4m\x1b[58;2;1;2;3mU"), "{ours:?}");
    // The second line: `58;2;1;2;3` is an underline colour, not dim and italic.
    let z = parse(&ours, 80);
    let zl = (0..12)
        .find_map(|r| (look(z.screen(), r, 0).text == "Z").then(|| look(z.screen(), r, 0)))
        .expect("Z");
    assert_eq!(zl.flags, [false; 8], "{zl:?}");
    assert_eq!(zl.underline_color, vt100::Color::Rgb(1, 2, 3));

    if let Some(tmux) = Tmux::start(&script, 80, 10) {
        tmux.wait_for("END");
        let theirs = tmux.capture(&[]);
        assert_eq!(
            sample_looks(&ours, true),
            sample_looks(&theirs, true),
            "\nfugue: {ours:?}\ntmux:  {theirs:?}"
        );
    }
}

#[test]
fn history_keeps_every_attribute_as_tmux_does() {
    let w = World::new();
    // The sample, then enough lines to push it into history.
    let body = format!("{SAMPLE}{}", r"\n".repeat(30));
    let script = script(w.dir.path(), &body);
    new_fugue_session(&w, &script, 82, 12);
    let ours = eventually("the sample in fugue's history", || {
        let c = w.ok(&["capture-pane", "-p", "-e", "-S", "-", "-E", "-1", "-t", "w"]);
        (c.contains("Y") && w.ok(&["capture-pane", "-p", "-t", "w"]).contains("END")).then_some(c)
    });
    check_sample(&sample_looks(&ours, false));
    assert!(letter(&sample_looks(&ours, false), "O").overline);

    if let Some(tmux) = Tmux::start(&script, 80, 10) {
        tmux.wait_for("END");
        let theirs = tmux.capture(&["-S", "-", "-E", "-1"]);
        assert_eq!(
            sample_looks(&ours, true),
            sample_looks(&theirs, true),
            "\nfugue: {ours:?}\ntmux:  {theirs:?}"
        );
    }
}

/// The client draws every attribute: its output, parsed, shows the sample's looks.
#[test]
fn the_client_draws_every_attribute() {
    let w = World::new();
    let script = script(w.dir.path(), SAMPLE);
    new_fugue_session(&w, &script, 82, 12);
    let t = w.tui(&["attach", "-t", "w"], 82, 12);
    t.wait_text("END");
    let drawn = t.screen(|s| {
        let row = (0..12)
            .find(|&r| s.contents_between(r, 0, r, 82).contains("S O B"))
            .expect("the sample's row");
        looks(s, row, 82)
    });
    check_sample(&drawn);
    assert!(letter(&drawn, "O").overline);
    // The letters are where the pane has them: one column in, inside the border.
    assert_eq!(drawn[1].text, "a");
}

/// Hyperlinks: `ls --hyperlink` style (no id) and with an id, on the screen and in
/// history. tmux 3.3a keeps no links in `capture-pane -e` (3.4 does), so there is
/// nothing to compare with.
const LINKS: &str = concat!(
    r"\033]8;;file:///etc/passwd\033\\passwd\033]8;;\033\\ ",
    r"\033]8;id=doc;https://example.com/a;b\033\\doc\033]8;;\033\\\n"
);

#[test]
fn capture_e_and_the_client_keep_hyperlinks() {
    let w = World::new();
    let body = format!("{LINKS}{}{LINKS}", r"\n".repeat(30));
    let script = script(w.dir.path(), &body);
    new_fugue_session(&w, &script, 82, 12);
    let t = w.tui(&["attach", "-t", "w"], 82, 12);
    t.wait_text("END");
    let all = w.ok(&["capture-pane", "-p", "-e", "-S", "-", "-t", "w"]);
    let want = "\x1b]8;;file:///etc/passwd\x1b\\passwd\x1b]8;;\x1b\\ \
                \x1b]8;id=doc;https://example.com/a;b\x1b\\doc\x1b]8;;\x1b\\\n";
    // Once from history, once from the screen.
    assert_eq!(all.matches(want).count(), 2, "{all:?}");

    // The client writes OSC 8 to its terminal: the parser there sees the links.
    let (passwd, doc, plain) = t.screen(|s| {
        let row = (0..12)
            .rev()
            .find(|&r| s.contents_between(r, 0, r, 82).contains("passwd doc"))
            .expect("the links' row");
        (look(s, row, 1), look(s, row, 8), look(s, row, 7))
    });
    assert_eq!(passwd.text, "p");
    assert_eq!(
        passwd.link,
        Some((String::new(), "file:///etc/passwd".into()))
    );
    assert_eq!(
        doc.link,
        Some(("doc".into(), "https://example.com/a;b".into()))
    );
    assert_eq!(plain.link, None);
}

/// Emoji sequences: a ZWJ sequence, VS16 and a skin tone each take two columns. tmux
/// 3.3a agrees on the ZWJ sequence (it draws ❤️ in one column and a skin tone as a
/// second emoji, as terminals did before grapheme clustering: those are compared
/// with what modern terminals do instead).
#[test]
fn emoji_sequences_take_two_columns_in_the_pane_and_the_client() {
    let zwj = r"X\360\237\221\251\342\200\215\360\237\222\273";
    let w = World::new();
    let zwj_script = w.dir.path().join("zwj.sh");
    std::fs::write(&zwj_script, format!("printf '{zwj}'\nexec sleep 1000\n")).expect("script");
    let zwj_script = zwj_script.to_string_lossy().into_owned();
    new_fugue_session(&w, &zwj_script, 82, 12);
    let ours = eventually("the ZWJ sequence in fugue", || {
        let c = w.ok(&["capture-pane", "-p", "-t", "w"]);
        c.contains("X\u{1F469}")
            .then(|| w.ok(&["display", "-p", "-t", "w", "#{cursor_x}"]))
    });
    assert_eq!(ours.trim(), "3");
    if let Some(tmux) = Tmux::start(&zwj_script, 80, 10) {
        tmux.wait_for("X\u{1F469}");
        let out = tmux
            .cmd()
            .args(["display", "-p", "#{cursor_x}"])
            .output()
            .expect("tmux display");
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), ours.trim());
    }

    // All three in a pane, drawn by the client.
    let body = concat!(
        r"a\360\237\221\251\342\200\215\360\237\222\273b",
        r"\342\235\244\357\270\217c\360\237\221\215\360\237\217\275d\n"
    );
    let script = script(w.dir.path(), body);
    w.ok(&[
        "new", "-d", "-s", "v", "-x", "82", "-y", "12", "--", "sh", &script,
    ]);
    let t = w.tui(&["attach", "-t", "v"], 82, 12);
    t.wait_text("END");
    let want = [
        ("a", false),
        ("\u{1F469}\u{200D}\u{1F4BB}", true),
        ("", false),
        ("b", false),
        ("\u{2764}\u{FE0F}", true),
        ("", false),
        ("c", false),
        ("\u{1F44D}\u{1F3FD}", true),
        ("", false),
        ("d", false),
        ("", false),
    ];
    let drawn: Vec<(String, bool)> = t.screen(|s| {
        let row = (0..12)
            .find(|&r| s.cell(r, 1).is_some_and(|c| c.contents() == "a"))
            .expect("the emoji row");
        (1..12)
            .map(|c| {
                let cell = s.cell(row, c).expect("cell");
                (cell.contents().to_string(), cell.is_wide())
            })
            .collect()
    });
    let want: Vec<(String, bool)> = want.iter().map(|(s, w)| (s.to_string(), *w)).collect();
    assert_eq!(drawn, want);
    // The server's copy has the same columns.
    let text = w.ok(&["capture-pane", "-p", "-t", "v"]);
    let line = text.lines().next().unwrap_or_default();
    assert_eq!(unicode_width::UnicodeWidthStr::width(line), 10, "{line:?}");
}
