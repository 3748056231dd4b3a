//! tmux's pane geometry and borders (issue 28 item 12, issue 27): a server started
//! through the `tmux` name lays panes out with tmux's shared one-cell borders, so
//! `list-panes` gives tmux's numbers for the same commands, and its clients draw
//! tmux's border lines, `pane-border-status` lines and border colours. Side by side
//! with the tmux installed here (3.3a); without tmux only fugue's side runs.

use super::harness::{TestTmux, Tui, World};
use super::twins::Tmux;

const GEOMETRY: &str = "#{pane_left} #{pane_top} #{pane_width} #{pane_height}";

/// A fugue server started through the `tmux` name and, when tmux is installed, a tmux
/// server, each with session `s` of 80x24.
struct Pair {
    t: Option<TestTmux>,
    w: World,
}

impl Pair {
    fn new() -> Pair {
        let w = World::new();
        let t = Tmux::available().map(|_| TestTmux::new(&w, ""));
        let p = Pair { t, w };
        p.both(&["new-session", "-d", "-s", "s", "-x", "80", "-y", "24"]);
        p
    }

    /// `tmux ARGS` on fugue's side.
    fn fugue(&self, args: &[&str]) -> String {
        let mut words = vec!["tmux"];
        words.extend_from_slice(args);
        self.w.ok(&words)
    }

    fn both(&self, args: &[&str]) {
        self.fugue(args);
        if let Some(t) = &self.t {
            t.ok(args);
        }
    }

    /// The panes' places and sizes, which must be tmux's.
    fn same_geometry(&self, after: &str) -> String {
        let mine = self.fugue(&["list-panes", "-t", "s", "-F", GEOMETRY]);
        if let Some(t) = &self.t {
            let theirs = t.ok(&["list-panes", "-t", "s", "-F", GEOMETRY]);
            assert_eq!(mine, theirs, "pane geometry after {after}");
        }
        mine
    }
}

/// Splits, sizes, resizes, zoom, presets and `pane-border-status` give the numbers
/// tmux gives, step by step.
#[test]
fn panes_have_tmuxs_places_and_sizes() {
    let p = Pair::new();
    assert_eq!(p.same_geometry("new-session"), "0 0 80 24\n");
    let steps: &[&[&str]] = &[
        &["split-window", "-h", "-t", "s"],
        &["split-window", "-v", "-t", "s:0.1"],
        &["split-window", "-b", "-h", "-t", "s:0.0"],
        &["split-window", "-h", "-l", "30%", "-t", "s:0.2"],
        &["split-window", "-v", "-l", "7", "-t", "s:0.4"],
        &["resize-pane", "-t", "s:0.0", "-R", "3"],
        &["resize-pane", "-t", "s:0.3", "-y", "5"],
        &["resize-pane", "-Z", "-t", "s:0.1"],
        &["resize-pane", "-Z", "-t", "s:0.1"],
        &["set-option", "-g", "pane-border-status", "top"],
        &["resize-pane", "-Z", "-t", "s:0.2"],
        &["resize-pane", "-Z", "-t", "s:0.2"],
        &["select-layout", "-t", "s", "tiled"],
        &["set-option", "-g", "pane-border-status", "bottom"],
        &["select-layout", "-t", "s", "even-vertical"],
        &["set-option", "-g", "pane-border-status", "off"],
        &["select-layout", "-t", "s", "even-horizontal"],
        &["kill-pane", "-t", "s:0.2"],
    ];
    for step in steps {
        p.both(step);
        p.same_geometry(&step.join(" "));
    }
    // Without tmux to compare with, the halving rule at least: 80 = 40 | 39.
    let w = World::new();
    w.ok(&[
        "tmux",
        "new-session",
        "-d",
        "-s",
        "h",
        "-x",
        "80",
        "-y",
        "24",
    ]);
    w.ok(&["tmux", "split-window", "-h", "-t", "h"]);
    let got = w.ok(&["tmux", "list-panes", "-t", "h", "-F", GEOMETRY]);
    assert_eq!(got, "0 0 40 24\n41 0 39 24\n");
}

/// Odd window widths, percentages rounded down as tmux's, a window resized, and a
/// layout string tmux wrote, read back to tmux's sizes.
#[test]
fn percentages_resizes_and_layout_strings_as_tmux() {
    let p = Pair::new();
    let steps: &[&[&str]] = &[
        &["resize-window", "-t", "s", "-x", "81", "-y", "24"],
        &["split-window", "-h", "-t", "s"],
        &["split-window", "-h", "-t", "s", "-l", "33%"],
        &["resize-pane", "-t", "s:0.0", "-x", "30%"],
        &["split-window", "-v", "-t", "s:0.1", "-p", "35"],
        &["resize-window", "-t", "s", "-x", "100", "-y", "30"],
        &["resize-window", "-t", "s", "-x", "63", "-y", "17"],
        &["select-layout", "-t", "s", "tiled"],
        &["resize-window", "-t", "s", "-x", "90", "-y", "26"],
    ];
    for step in steps {
        p.both(step);
        p.same_geometry(&step.join(" "));
    }
    let Some(t) = &p.t else {
        return;
    };
    // tmux's own string, resized from another window size (fugue's main-* presets
    // size the main pane by `main-pane-percent`, so they are not compared).
    p.both(&["resize-pane", "-t", "s:0.1", "-R", "5"]);
    let layout = t.ok(&["display-message", "-p", "-t", "s", "#{window_layout}"]);
    p.both(&["select-layout", "-t", "s", "even-vertical"]);
    p.both(&["select-layout", "-t", "s", layout.trim()]);
    p.same_geometry(&format!("select-layout {}", layout.trim()));
}

/// `fugue`'s own look stays the boxes, and `pane-borders` switches a running server.
#[test]
fn fugue_keeps_its_boxes_until_pane_borders_says_shared() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "b", "-x", "80", "-y", "24"]);
    let size = || {
        w.ok(&[
            "display-message",
            "-p",
            "-t",
            "b",
            "#{pane_width}x#{pane_height}",
        ])
    };
    assert_eq!(size().trim(), "78x22");
    w.ok(&["set-option", "-s", "pane-borders", "shared"]);
    assert_eq!(size().trim(), "80x24");
    w.ok(&["set-option", "-s", "pane-borders", "boxed"]);
    assert_eq!(size().trim(), "78x22");
}

const LINES: &str = "─│┌┐└┘├┤┬┴┼";

/// Every border-line cell of a screen's rows above the status line: (row, col, char).
fn border_cells(s: &vt100::Screen, rows: u16, cols: u16) -> Vec<(u16, u16, String)> {
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let text = s.cell(r, c).map(|c| c.contents().to_string());
            if let Some(text) = text.filter(|t| !t.is_empty() && LINES.contains(t.as_str())) {
                out.push((r, c, text));
            }
        }
    }
    out
}

fn row_text(s: &vt100::Screen, row: u16) -> String {
    let (_, cols) = s.size();
    s.rows(0, cols.get())
        .nth(usize::from(row))
        .unwrap_or_default()
}

fn fg(s: &vt100::Screen, row: u16, col: u16) -> vt100::Color {
    s.cell(row, col)
        .map(|c| c.fgcolor())
        .unwrap_or(vt100::Color::Default)
}

/// A client of each draws the same border lines, the same `pane-border-status` line
/// with the format expanded per pane, and the border colours of the window's styles;
/// a pane's own `pane-border-style` (Claude Code's teammates) colours its border.
#[test]
fn clients_draw_tmuxs_borders_status_lines_and_colours() {
    let p = Pair::new();
    p.both(&["split-window", "-h", "-t", "s"]);
    p.both(&["split-window", "-v", "-t", "s:0.1"]);
    for (i, title) in ["lead", "mate-a", "mate-b"].iter().enumerate() {
        p.both(&["select-pane", "-T", title, "-t", &format!("s:0.{i}")]);
    }
    p.both(&["select-pane", "-t", "s:0.0"]);
    p.both(&["set-option", "-g", "pane-border-status", "top"]);
    p.both(&[
        "set-option",
        "-g",
        "pane-border-format",
        "#{pane_index}:#{pane_title}",
    ]);
    p.both(&["set-option", "-g", "pane-border-style", "fg=blue"]);
    p.both(&["set-option", "-g", "pane-active-border-style", "fg=yellow"]);
    let title_row = |s: &vt100::Screen| row_text(s, 0).contains("1:mate-a");
    let mine = p.w.tui(&["tmux", "attach", "-t", "s"], 80, 25);
    mine.wait("fugue's border status lines", title_row);
    let theirs: Option<Tui> = p.t.as_ref().map(|t| {
        let tt = p.w.sh(&t.script("-u attach -t s"), 80, 25);
        tt.wait("tmux's border status lines", title_row);
        tt
    });
    let drawn = mine.screen(|s| border_cells(s, 24, 80));
    // The lone divider column and the row between the right panes, no outer frame.
    assert!(drawn.contains(&(5, 40, "│".into())), "{drawn:?}");
    let frame = |(r, c, t): &(u16, u16, String)| {
        ((*c == 0 || *c == 79) && t == "│") || (*r == 23 && t == "─")
    };
    assert!(!drawn.iter().any(frame), "{drawn:?}");
    let status = mine.screen(|s| row_text(s, 0));
    assert!(status.starts_with("──0:lead"), "{status:?}");
    if let Some(tt) = &theirs {
        // tmux's screen is final once its status lines are there.
        tt.wait("tmux's divider", |s| {
            s.cell(5, 40).is_some_and(|c| c.contents() == "│")
        });
        assert_eq!(drawn, tt.screen(|s| border_cells(s, 24, 80)));
        for row in [0, 12] {
            let (a, b) = (
                mine.screen(|s| row_text(s, row)),
                tt.screen(|s| row_text(s, row)),
            );
            let border = |t: &str| t.chars().skip(40).collect::<String>();
            assert_eq!(border(&a), border(&b), "row {row} right of the divider");
        }
        // The active pane's border in its style, the others' in theirs.
        for (row, col) in [(5, 40), (12, 60), (0, 70)] {
            assert_eq!(
                mine.screen(|s| fg(s, row, col)),
                tt.screen(|s| fg(s, row, col)),
                "colour at {row},{col}"
            );
        }
    }
    assert_eq!(mine.screen(|s| fg(s, 5, 40)), vt100::Color::Idx(3));
    assert_eq!(mine.screen(|s| fg(s, 12, 60)), vt100::Color::Idx(4));
    // A pane's own format (tmux's `pane-border-format` is a pane option too).
    p.both(&[
        "set-option",
        "-p",
        "-t",
        "s:0.1",
        "pane-border-format",
        "mate #{pane_title}",
    ]);
    let own = |s: &vt100::Screen| row_text(s, 0).contains("mate mate-a");
    mine.wait("pane 1's own border format", own);
    if let Some(tt) = &theirs {
        tt.wait("tmux's pane 1 border format", own);
        assert_eq!(
            mine.screen(|s| row_text(s, 0)),
            tt.screen(|s| row_text(s, 0))
        );
    }
    // A teammate's own colour: pane 2's status line (the row above it) is in it.
    p.fugue(&[
        "set-option",
        "-p",
        "-t",
        "s:0.2",
        "pane-border-style",
        "fg=red",
    ]);
    mine.wait("pane 2's own border colour", |s| {
        fg(s, 12, 60) == vt100::Color::Idx(1)
    });
    // Not its neighbours': the active pane's divider and pane 1's line keep theirs.
    assert_eq!(mine.screen(|s| fg(s, 5, 40)), vt100::Color::Idx(3));
    assert_eq!(mine.screen(|s| fg(s, 0, 70)), vt100::Color::Idx(4));
}

/// Column `col` of rows 0..`rows`: each cell's text and colour.
fn column(s: &vt100::Screen, col: u16, rows: u16) -> Vec<(String, vt100::Color)> {
    (0..rows)
        .map(|r| {
            let text = s.cell(r, col).map(|c| c.contents().to_string());
            (text.unwrap_or_default(), fg(s, r, col))
        })
        .collect()
}

/// The divider between two panes side by side in each `pane-border-lines` set and
/// `pane-border-indicators` way, characters and colours, as tmux draws it: the
/// active pane's half in its colour, arrows one cell in, digits for `number`.
#[test]
fn line_sets_and_indicators_are_drawn_as_tmux_draws_them() {
    let p = Pair::new();
    let Some(t) = p.t.as_ref() else {
        return;
    };
    p.both(&["split-window", "-h", "-t", "s"]);
    p.both(&["select-pane", "-t", "s:0.0"]);
    p.both(&["set-option", "-g", "pane-active-border-style", "fg=yellow"]);
    let mine = p.w.tui(&["tmux", "attach", "-t", "s"], 80, 25);
    let theirs = p.w.sh(&t.script("-u attach -t s"), 80, 25);
    // (option, value, what tmux shows at (row, 40) once it has drawn the change)
    let steps = [
        ("pane-border-lines", "single", 5, "│"),
        ("pane-border-lines", "double", 5, "║"),
        ("pane-border-lines", "heavy", 5, "┃"),
        ("pane-border-lines", "simple", 5, "|"),
        ("pane-border-lines", "number", 20, "1"),
        ("pane-border-lines", "single", 5, "│"),
        ("pane-border-indicators", "arrows", 1, "←"),
        ("pane-border-indicators", "both", 1, "←"),
        ("pane-border-indicators", "off", 1, "│"),
    ];
    // What tmux showed after the step before: a step whose mark is the same as the
    // last one's (`arrows` then `both` both show `←`) is drawn only once tmux's column
    // has changed, else its old drawing would be read as the new one.
    let mut before: Option<Vec<(String, vt100::Color)>> = None;
    for (name, value, row, shown) in steps {
        p.both(&["set-option", "-g", name, value]);
        let at = |s: &vt100::Screen| {
            s.cell(row, 40).is_some_and(|c| c.contents() == shown)
                && before.as_ref().is_none_or(|b| column(s, 40, 24) != *b)
        };
        theirs.wait(&format!("tmux's {name} {value}"), at);
        let want = theirs.screen(|s| column(s, 40, 24));
        before = Some(want.clone());
        mine.wait(
            &format!("fugue's {name} {value} as tmux's: {want:?}"),
            |s| column(s, 40, 24) == want,
        );
    }
}
