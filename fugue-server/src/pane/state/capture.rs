//! `capture-pane`: lines of a pane's history and screen as text, with tmux's flags
//! (`-S`/`-E` bounds, `-e` escapes, `-J` joins, `-N` trailing spaces, `-C` octal
//! escapes, `-a` the screen under the alternate one).

use super::PaneState;
use crate::pane::rows::{ansi, row_from_cells, screen_row};
use fugue_protocol::{CapturePane, LineBound, Row};

impl PaneState {
    /// Resolves capture bounds to an inclusive range of line numbers (0 = top of the
    /// screen, negative = history), tmux style. `history` is false for `-a` (the main
    /// screen under the alternate one has none to reach).
    fn line_range(
        &self,
        start: Option<LineBound>,
        end: Option<LineBound>,
        history: bool,
    ) -> (i64, i64) {
        let hist = if history {
            self.history().len() as i64
        } else {
            0
        };
        let rows = i64::from(self.size().1);
        let first = -hist;
        let last = rows - 1;
        let s = match start {
            None => 0,
            Some(LineBound::Edge) => first,
            Some(LineBound::Line(n)) => n.clamp(first, last),
        };
        let e = match end {
            None | Some(LineBound::Edge) => last,
            Some(LineBound::Line(n)) => n.clamp(first, last),
        };
        // A reversed range is swapped, as tmux's capture-pane does: `-S 5 -E 2` is rows 2-5.
        (s.min(e), s.max(e))
    }

    /// Line `n` (see [`Self::line_range`]) as a row, with how many cells it uses
    /// (up to the last one a program wrote, spaces included: tmux's `-N`). History
    /// rows keep no trailing spaces in the default style, so theirs end at their
    /// last kept cell. `main`: the main screen's row even while the alternate screen
    /// is shown.
    fn line_row(&self, n: i64, main: bool) -> (Row, usize) {
        let screen = self.parser.screen();
        if n < 0 {
            let hist = self.history().len() as i64;
            let row = self
                .history()
                .get((hist + n) as usize)
                .map(|r| r.to_row())
                .unwrap_or_default();
            let used = row.len();
            return (row, used);
        }
        let Ok(n) = u16::try_from(n) else {
            return (Row::default(), 0);
        };
        let (cells, wrapped) = if main {
            (screen.main_row_cells(n), screen.main_row_wrapped(n))
        } else {
            (screen.row_cells(n), screen.row_wrapped(n))
        };
        match cells {
            Some(cells) => {
                let used = usize::from(screen.row_used(n, main).unwrap_or(0)).min(cells.len());
                let row = if main {
                    row_from_cells(screen, cells, wrapped)
                } else {
                    screen_row(screen, n)
                };
                (row, used)
            }
            None => (Row::default(), 0),
        }
    }

    /// The text of line `n` and whether it wraps (plain, trailing spaces removed).
    pub(in crate::pane) fn line(&self, n: i64, escapes: bool) -> (String, bool) {
        let c = CapturePane {
            escapes,
            ..CapturePane::default()
        };
        self.line_text(n, &c, None)
    }

    /// Line `n` as `c` asks. With escapes and `last` (a capture's look so far) the
    /// codes are tmux's, carried from line to line; without `last` the line stands
    /// alone and ends in the default look.
    fn line_text(
        &self,
        n: i64,
        c: &CapturePane,
        last: Option<&mut (fugue_protocol::Style, fugue_protocol::screen::Color)>,
    ) -> (String, bool) {
        let (row, used) = self.line_row(n, c.alternate);
        let mut text = if c.escapes {
            let screen = self.parser.screen();
            let mut text = match last {
                Some(last) => {
                    let mut text = super::super::rows::ansi_after(&row, screen, last);
                    // tmux writes codes for every cell the program wrote (its
                    // `cellused`, erased cells included), then trims the spaces:
                    // cells past the row's last kept one are in the default look, so
                    // the codes come back to it and a styled space before them stays
                    // (Claude Code's drawn cursor); one written last is trimmed.
                    if used > row.len() {
                        super::super::rows::sgr_to_default(last, &mut text);
                    }
                    text
                }
                None => ansi(&row, screen),
            };
            if !c.keep_spaces {
                // tmux trims the spaces a line ends in, codes or not (a row keeps
                // the spaces a program wrote; styled ones end in a reset, so stay).
                text.truncate(text.trim_end_matches(' ').len());
            }
            text
        } else if c.keep_spaces {
            row.to_plain_untrimmed()
        } else {
            row.to_plain()
        };
        if c.keep_spaces {
            // The default-style spaces a row does not store, up to the last cell the
            // program wrote (bounded by the pane's width).
            let pad = used.saturating_sub(row.len());
            text.extend(std::iter::repeat_n(' ', pad));
        }
        if c.escape_c0 {
            text = escape_c0(&text);
        }
        (text, row.wrapped)
    }

    /// `capture-pane`: lines from `start` to `end`, each ending in a newline (wrapped
    /// lines joined when `join`).
    pub fn capture(
        &self,
        start: Option<LineBound>,
        end: Option<LineBound>,
        escapes: bool,
        join: bool,
    ) -> String {
        self.capture_pane(&CapturePane {
            start,
            end,
            escapes,
            join,
            ..CapturePane::default()
        })
        .unwrap_or_default()
    }

    /// `capture-pane` with all of tmux's flags; None for `-a` when the pane shows no
    /// alternate screen (tmux: "no alternate screen").
    pub fn capture_pane(&self, c: &CapturePane) -> Option<String> {
        if c.alternate && !self.parser.screen().alternate_screen() {
            return None;
        }
        let (s, e) = self.line_range(c.start, c.end, !c.alternate);
        let mut out = String::new();
        let mut last = Default::default();
        for n in s..=e {
            let (text, wrapped) = self.line_text(n, c, Some(&mut last));
            out.push_str(&text);
            if !(c.join && wrapped && n < e) {
                out.push('\n');
            }
        }
        Some(out)
    }
}

/// tmux's `-C`: a backslash doubled, other non-printable characters (the escape
/// character of `-e`'s sequences among them) as three octal digits.
fn escape_c0(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\{:03o}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(p: &PaneState, f: impl FnOnce(&mut CapturePane)) -> Option<String> {
        let mut c = CapturePane::default();
        f(&mut c);
        p.capture_pane(&c)
    }

    #[test]
    fn trailing_spaces_are_kept_with_n_up_to_the_last_written_cell() {
        let mut p = PaneState::new(20, 3, 10);
        p.process(b"ab   \x1b[K\r\ncd  ef  ");
        assert_eq!(cap(&p, |_| {}).unwrap(), "ab\ncd  ef\n\n");
        assert_eq!(cap(&p, |c| c.escapes = true).unwrap(), "ab\ncd  ef\n\n");
        assert_eq!(
            cap(&p, |c| c.keep_spaces = true).unwrap(),
            "ab   \ncd  ef  \n\n"
        );
    }

    #[test]
    fn c_escapes_backslashes_and_the_escape_character_as_octal() {
        let mut p = PaneState::new(20, 2, 10);
        p.process(b"\x1b[31mred\x1b[0m x\\y");
        let plain = cap(&p, |c| {
            c.escape_c0 = true;
            c.end = Some(LineBound::Line(0));
        });
        assert_eq!(plain.unwrap(), "red x\\\\y\n");
        let coded = cap(&p, |c| {
            c.escape_c0 = true;
            c.escapes = true;
            c.end = Some(LineBound::Line(0));
        })
        .unwrap();
        assert!(
            coded.starts_with("\\033[") && coded.contains("31mred\\033["),
            "{coded}"
        );
        assert!(!coded.contains('\x1b'), "{coded}");
    }

    #[test]
    fn a_reads_the_main_screen_under_the_alternate_one_and_fails_without_one() {
        let mut p = PaneState::new(20, 3, 10);
        p.process(b"shell");
        assert_eq!(cap(&p, |c| c.alternate = true), None);
        p.process(b"\x1b[?1049h\x1b[Hvim");
        assert_eq!(cap(&p, |c| c.alternate = true).unwrap(), "shell\n\n\n");
        assert_eq!(cap(&p, |_| {}).unwrap(), "vim\n\n\n");
    }
}
