//! The vt100 callbacks of a pane: history capture, answers the terminal owes the
//! program, and the title.
//!
//! Programs ask their terminal questions (where is the cursor, what are you, what color
//! is the background) and some wait for the answer. The server answers them itself so
//! that programs work with no client attached.

use super::history::History;
use super::input_modes::InputModes;
use vt100::capture::RowContents;

/// State vt100 hands to its callbacks.
#[derive(Debug, Default)]
pub struct Terminal {
    pub history: History,
    /// Bytes to write back to the program.
    pub replies: Vec<u8>,
    pub title: Option<String>,
    /// Counts changes of `title`, so the reader thread tells a new title from the
    /// same one set again by comparing a number, not a copy of the title per read.
    pub title_changes: u64,
    /// The icon name (`OSC 1`, `OSC 0`), kept only to report and push it.
    pub icon: Option<String>,
    /// Titles saved by `CSI 22 t`.
    pub titles: super::queries::TitleStack,
    /// Colours the program set (`OSC 4`, `OSC 10`-`12`), to answer its queries.
    pub colors: super::colors::Colors,
    /// Whether `CSI 21 t` / `CSI 20 t` are answered (`server.allow_title_reports`).
    pub title_reports: bool,
    pub bell: bool,
    /// Rows at the end of history that scrolled off a screen still showing what
    /// followed them: a taller pane may take them back. Clearing the screen ends that
    /// (what was above is gone from view, as in tmux), so it is counted from zero again.
    pub pullable: usize,
    /// Input modes vt100 does not track: kitty keyboard flags, focus events, urxvt
    /// mouse encoding.
    pub input: InputModes,
    /// Set while `reflow` clears the screen to print it again: that clear is fugue's
    /// own and scrolls nothing into history (see `scroll_on_clear`).
    pub reflowing: bool,
    /// The pane has focus (the server says; see `Server::update_focus`).
    pub focused: bool,
    /// Cursor colour, clipboard, bell and synchronized updates, for the person's own
    /// terminal (`passthrough.rs`).
    pub passthrough: super::passthrough::Passthrough,
}

impl Terminal {
    pub fn new(history_limit: usize) -> Self {
        Terminal {
            history: History::new(history_limit),
            ..Default::default()
        }
    }

    /// Sets the program's title; counted as a change only when it differs (shells
    /// that set the same title at every prompt announce nothing).
    pub fn set_title(&mut self, title: String) {
        if self.title.as_deref() != Some(title.as_str()) {
            self.title = Some(title);
            self.title_changes = self.title_changes.wrapping_add(1);
        }
    }
}

/// What a program with focus events on reads when its pane gains or loses focus.
pub fn focus_report(focused: bool) -> &'static [u8] {
    if focused { b"\x1b[I" } else { b"\x1b[O" }
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

    /// tmux's `scroll-on-clear` at its default (on): `clear -x` (CSI H CSI 2 J)
    /// leaves what was on the screen in history. The option is not read per pane
    /// yet, so off is not honoured.
    fn scroll_on_clear(&self) -> bool {
        !self.reflowing
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
        self.set_title(super::queries::clean_title(title));
    }

    fn set_window_icon_name(&mut self, _: &mut vt100::Screen, icon: &[u8]) {
        self.icon = Some(super::queries::clean_title(icon));
    }

    fn audible_bell(&mut self, _: &mut vt100::Screen) {
        self.bell = true;
        self.passthrough.bell();
    }

    fn copy_to_clipboard(&mut self, _: &mut vt100::Screen, ty: &[u8], data: &[u8]) {
        self.passthrough.copy(ty, data);
    }

    fn paste_from_clipboard(&mut self, _: &mut vt100::Screen, ty: &[u8]) {
        self.passthrough.paste(ty);
    }

    fn on_reset(&mut self, _: &mut vt100::Screen) {
        // RIS resets every mode, these too (kitty resets its flag stacks).
        self.input = InputModes::default();
    }

    fn unhandled_escape(&mut self, _: &mut vt100::Screen, i1: Option<u8>, _: Option<u8>, b: u8) {
        // DECID (`ESC Z`), the VT100's older device attributes request: answered as
        // primary device attributes (CSI c), as xterm does.
        if i1.is_none() && b == b'Z' {
            self.replies.extend_from_slice(super::queries::PRIMARY_DA);
        }
    }

    fn unhandled_csi(
        &mut self,
        screen: &mut vt100::Screen,
        i1: Option<u8>,
        i2: Option<u8>,
        params: &[&[u16]],
        c: char,
    ) {
        let first = params.first().and_then(|p| p.first()).copied().unwrap_or(0);
        let second = params.get(1).and_then(|p| p.first()).copied().unwrap_or(0);
        let alternate = screen.alternate_screen();
        match (i1, c, first) {
            // The kitty keyboard protocol, on the screen in use: push, pop, query, set.
            (Some(b'>'), 'u', flags) => self.input.stack_mut(alternate).push(flags),
            (Some(b'<'), 'u', n) => self.input.stack_mut(alternate).pop(n.max(1)),
            (Some(b'?'), 'u', _) => {
                let flags = self.input.kitty(alternate);
                self.replies.extend(format!("\x1b[?{flags}u").as_bytes());
            }
            (Some(b'='), 'u', flags) => self.input.stack_mut(alternate).set(flags, second.max(1)),
            // Private modes vt100 does not know: focus events, urxvt mouse encoding.
            (Some(b'?'), 'h' | 'l', _) => {
                let on = c == 'h';
                // Synchronized output (2026) is passthrough's.
                self.passthrough.private_mode(on, params);
                for p in params {
                    match p.first() {
                        Some(1004) => {
                            self.input.focus = on;
                            // As tmux: a program switching focus events on hears at
                            // once whether it has focus.
                            if on {
                                self.replies.extend_from_slice(focus_report(self.focused));
                            }
                        }
                        Some(1015) => self.input.urxvt_mouse = on,
                        _ => {}
                    }
                }
            }
            _ => super::queries::csi(self, screen, i1, i2, params, c),
        }
    }

    fn dcs(&mut self, screen: &mut vt100::Screen, intermediates: &[u8], action: char, data: &[u8]) {
        super::queries::dcs(&mut self.replies, screen, intermediates, action, data);
    }

    fn unhandled_osc(&mut self, _: &mut vt100::Screen, params: &[&[u8]]) {
        // Colour queries answer what the program set, else the documented defaults.
        self.colors.osc(params, &mut self.replies);
        // The cursor colour, for the person's terminal (passthrough).
        self.passthrough.osc(params);
    }
}
