//! The vt100 callbacks of a pane: history capture, answers the terminal owes the
//! program, and the title.
//!
//! Programs ask their terminal questions (where is the cursor, what are you, what color
//! is the background) and some wait for the answer. The server answers them itself so
//! that programs work with no client attached.

use super::history::History;
use vt100::capture::RowContents;

/// State vt100 hands to its callbacks.
#[derive(Debug, Default)]
pub struct Terminal {
    pub history: History,
    /// Bytes to write back to the program.
    pub replies: Vec<u8>,
    pub title: Option<String>,
    pub bell: bool,
    /// Rows at the end of history that scrolled off a screen still showing what
    /// followed them: a taller pane may take them back. Clearing the screen ends that
    /// (what was above is gone from view, as in tmux), so it is counted from zero again.
    pub pullable: usize,
}

impl Terminal {
    pub fn new(history_limit: usize) -> Self {
        Terminal {
            history: History::new(history_limit),
            ..Default::default()
        }
    }
}

impl vt100::Callbacks for Terminal {
    fn on_scroll(&mut self, contents: RowContents<'_>, alternate_screen: bool) {
        // Full-screen programs scroll their own alternate screen; that is not history.
        if alternate_screen {
            return;
        }
        if !self.history.keeps_rows() {
            self.history.skip();
            return;
        }
        let mut row = self.history.recycle();
        super::rows::fill_row(row.row_mut(), contents.cells(), contents.wrapped(), |c| {
            contents.extra(c)
        });
        self.history.push(row);
        self.pullable = (self.pullable + 1).min(self.history.len());
    }

    fn on_erase(&mut self, _: &mut vt100::Screen, mode: u16, alternate_screen: bool) {
        if alternate_screen {
            return;
        }
        self.pullable = 0;
        // `clear` sends CSI 3 J after CSI 2 J: the history goes too, as in tmux.
        if mode == 3 {
            self.history.clear();
        }
    }

    fn set_window_title(&mut self, _: &mut vt100::Screen, title: &[u8]) {
        self.title = Some(
            String::from_utf8_lossy(title)
                .chars()
                .filter(|c| !c.is_control())
                .take(256)
                .collect(),
        );
    }

    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bell = true;
    }

    fn unhandled_csi(
        &mut self,
        screen: &mut vt100::Screen,
        i1: Option<u8>,
        _i2: Option<u8>,
        params: &[&[u16]],
        c: char,
    ) {
        let first = params.first().and_then(|p| p.first()).copied().unwrap_or(0);
        match (i1, c, first) {
            // Device status report: cursor position.
            (None, 'n', 6) => {
                let (row, col) = screen.cursor_position();
                self.replies
                    .extend(format!("\x1b[{};{}R", row + 1, col + 1).as_bytes());
            }
            (Some(b'?'), 'n', 6) => {
                let (row, col) = screen.cursor_position();
                self.replies
                    .extend(format!("\x1b[?{};{}R", row + 1, col + 1).as_bytes());
            }
            // Device status report: "terminal OK".
            (None, 'n', 5) => self.replies.extend(b"\x1b[0n"),
            // Primary device attributes: a VT100 with advanced video, as tmux answers.
            (None, 'c', 0) => self.replies.extend(b"\x1b[?1;2c"),
            // Secondary device attributes.
            (Some(b'>'), 'c', 0) => self.replies.extend(b"\x1b[>84;0;0c"),
            // XTVERSION.
            (Some(b'>'), 'q', 0) => self
                .replies
                .extend(format!("\x1bP>|fugue {}\x1b\\", env!("CARGO_PKG_VERSION")).as_bytes()),
            // Text area size in characters.
            (None, 't', 18) => {
                let (rows, cols) = screen.size();
                self.replies
                    .extend(format!("\x1b[8;{rows};{cols}t").as_bytes());
            }
            _ => {}
        }
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        // Foreground/background color queries: answer a plain light-on-dark terminal.
        match params {
            [b"10", b"?"] => self.replies.extend(b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\"),
            [b"11", b"?"] => self.replies.extend(b"\x1b]11;rgb:0000/0000/0000\x1b\\"),
            _ => {}
        }
    }
}
