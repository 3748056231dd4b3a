//! fugue patch: the sequences upstream vt100 ignored, kept out of `screen.rs` and out
//! of the per-byte path: character sets, tab stops, IND/NEL/HPR/VPR, insert mode,
//! autowrap off, reverse wraparound, new-line mode, DECALN, DECCOLM, DECSTR,
//! SCOSC/SCORC, `?1047`/`?1048`, DECBI/DECFI; and what a multiplexer needs to answer
//! a program's questions about them (DECRQM, DECRQSS).

use crate::screen::{
    MODE_ALTERNATE_SCREEN, MODE_APPLICATION_CURSOR, MODE_APPLICATION_KEYPAD,
    MODE_BRACKETED_PASTE, MODE_HIDE_CURSOR, MouseProtocolEncoding,
    MouseProtocolMode, Screen, WrappedScreen,
};
use alloc::vec::Vec;

/// The print state a multiplexer must set aside to print a screen's own text again
/// (rewrapping on resize): mapping, insert mode and autowrap-off would change it.
#[derive(Clone, Copy, Debug)]
pub struct PrintState {
    charsets: crate::modes::Charsets,
    insert: bool,
    autowrap: bool,
}

impl Screen {
    /// fugue patch: a DEC private mode's state for DECRQM (`CSI ? Ps $ p`): Some(on)
    /// for a mode this screen keeps, None for one it does not know.
    #[must_use]
    pub fn dec_mode(&self, mode: u16) -> Option<bool> {
        let mouse = self.mouse_protocol_mode();
        let encoding = self.mouse_protocol_encoding();
        Some(match mode {
            1 => self.mode(MODE_APPLICATION_CURSOR),
            3 => self.term.columns_132,
            6 => self.grid().origin_mode(),
            7 => self.term.autowrap,
            9 => mouse == MouseProtocolMode::Press,
            25 => !self.mode(MODE_HIDE_CURSOR),
            45 => self.term.reverse_wrap,
            47 | 1047 | 1049 => self.mode(MODE_ALTERNATE_SCREEN),
            66 => self.mode(MODE_APPLICATION_KEYPAD),
            1000 => mouse == MouseProtocolMode::PressRelease,
            1002 => mouse == MouseProtocolMode::ButtonMotion,
            1003 => mouse == MouseProtocolMode::AnyMotion,
            1005 => encoding == MouseProtocolEncoding::Utf8,
            1006 => encoding == MouseProtocolEncoding::Sgr,
            2004 => self.mode(MODE_BRACKETED_PASTE),
            _ => return self.term.recorded(mode),
        })
    }

    /// fugue patch: an ANSI mode's state for DECRQM (`CSI Ps $ p`): insert (4) and
    /// new-line (20) modes; None for others.
    #[must_use]
    pub fn ansi_mode(&self, mode: u16) -> Option<bool> {
        match mode {
            4 => Some(self.term.insert),
            20 => Some(self.term.newline),
            _ => None,
        }
    }

    /// fugue patch: the scroll region (DECSTBM), 0-based and inclusive.
    #[must_use]
    pub fn scroll_region(&self) -> (u16, u16) {
        self.grid().scroll_region()
    }

    /// fugue patch: whether origin mode (DECOM, `?6`) is on.
    #[must_use]
    pub fn origin_mode(&self) -> bool {
        self.grid().origin_mode()
    }

    /// fugue patch: the cursor (row, col) saved by the last `?1049h`, if any.
    #[must_use]
    pub fn alternate_saved_cursor(&self) -> Option<(u16, u16)> {
        self.term.alternate_saved
    }

    /// fugue patch: whether autowrap (DECAWM, `?7`) is on.
    #[must_use]
    pub fn autowrap(&self) -> bool {
        self.term.autowrap
    }

    /// fugue patch: whether insert mode (IRM, `CSI 4 h`) is on.
    #[must_use]
    pub fn insert_mode(&self) -> bool {
        self.term.insert
    }

    /// fugue patch: the columns with a tab stop.
    #[must_use]
    pub fn tab_stops(&self) -> Vec<u16> {
        self.term.tabs.columns().collect()
    }

    /// fugue patch: sets printing to plain (ASCII in GL, no insert, autowrap on) and
    /// returns what it was, for [`Screen::restore_print_state`].
    pub fn take_print_state(&mut self) -> PrintState {
        let state = PrintState {
            charsets: self.term.charsets,
            insert: self.term.insert,
            autowrap: self.term.autowrap,
        };
        self.term.charsets = crate::modes::Charsets::default();
        self.term.insert = false;
        self.term.autowrap = true;
        self.term.update(self.fast_paths);
        state
    }

    /// fugue patch: puts back what [`Screen::take_print_state`] set aside.
    pub fn restore_print_state(&mut self, state: PrintState) {
        self.term.charsets = state.charsets;
        self.term.insert = state.insert;
        self.term.autowrap = state.autowrap;
        self.term.update(self.fast_paths);
    }

    fn cols(&self) -> u16 {
        self.grid().size().cols()
    }

    /// The cursor's column, a pending wrap counted as the last column.
    fn cursor_col(&self) -> u16 {
        self.grid().pos().col.min(self.cols() - 1)
    }
}

impl<CB: crate::Callbacks> WrappedScreen<CB> {
    /// Printing when a character set, insert mode or autowrap-off applies (or the fast
    /// paths are off): map the character, make room or stay in the last column, then
    /// print as usual with the general path.
    #[cold]
    #[inline(never)]
    pub(crate) fn text_special(&mut self, c: char) {
        let screen = &mut self.screen;
        let c = if screen.term.charsets.is_plain() {
            c
        } else {
            let mapped = screen.term.charsets.map(c);
            screen.term.update(screen.fast_paths);
            mapped
        };
        if screen.term.insert || !screen.term.autowrap {
            if let Some(width) = screen.calculate_width(c).filter(|w| *w > 0) {
                let cols = screen.cols();
                if screen.grid().pos().col + width > cols {
                    if screen.term.autowrap {
                        // Wrap first, so the room is made on the next line.
                        let wrap = screen.new_character_should_wrap(width);
                        let blank = screen.attrs.erased();
                        let (grid, on_row) =
                            Self::grid_on_row(screen, &mut self.callbacks);
                        grid.col_wrap(width, wrap, blank, on_row);
                    } else {
                        // Autowrap off: the last column is written over.
                        screen.grid_mut().col_set(cols - width);
                    }
                }
                if screen.term.insert {
                    let blank = screen.attrs.erased();
                    screen.grid_mut().insert_cells(width, blank);
                }
            }
        }
        self.text_general(c);
    }

    /// BS in the first column with reverse wraparound (and autowrap) on: the end of
    /// the line above; at the top it stays, as in xterm.
    #[cold]
    #[inline(never)]
    pub(crate) fn reverse_wrap_bs(&mut self) {
        let screen = &mut self.screen;
        let row = screen.grid().pos().row;
        if !screen.term.autowrap || row == 0 {
            return;
        }
        let last = screen.cols() - 1;
        let grid = screen.grid_mut();
        grid.row_set(row - 1);
        grid.col_set(last);
    }

    // dispatch, out of line so that upstream's matches stay as they were

    /// C0 controls upstream's `execute` does not handle: SO and SI.
    #[cold]
    #[inline(never)]
    pub(crate) fn execute_more(&mut self, b: u8) {
        match b {
            14 => self.lock_shift(1),
            15 => self.lock_shift(0),
            _ => self.callbacks.unhandled_control(&mut self.screen, b),
        }
    }

    /// Escape sequences with an intermediate: SCS (`ESC ( ) * + F`), DECALN
    /// (`ESC # 8`).
    #[cold]
    #[inline(never)]
    pub(crate) fn esc_intermediate(&mut self, i1: u8, i2: Option<u8>, b: u8) {
        match (i1, i2, b) {
            (b'(', _, _) => self.scs(0, b),
            (b')', _, _) => self.scs(1, b),
            (b'*', _, _) => self.scs(2, b),
            (b'+', _, _) => self.scs(3, b),
            (b'#', None, b'8') => self.decaln(),
            _ => self
                .callbacks
                .unhandled_escape(&mut self.screen, Some(i1), i2, b),
        }
    }

    /// Escape sequences without an intermediate that upstream does not handle.
    #[cold]
    #[inline(never)]
    pub(crate) fn esc_more(&mut self, b: u8) {
        match b {
            b'D' => self.ind(),
            b'E' => self.nel(),
            b'H' => self.hts(),
            b'N' => self.single_shift(2),
            b'O' => self.single_shift(3),
            b'n' => self.lock_shift(2),
            b'o' => self.lock_shift(3),
            b'6' => self.decbi(),
            b'9' => self.decfi(),
            _ => self
                .callbacks
                .unhandled_escape(&mut self.screen, None, None, b),
        }
    }

    /// CSI sequences with an intermediate other than `?` and space: DECSTR
    /// (`CSI ! p`); the rest go to the callbacks as upstream sent them.
    #[cold]
    #[inline(never)]
    pub(crate) fn csi_intermediate(
        &mut self,
        params: &vte::Params,
        intermediates: &[u8],
        c: char,
    ) {
        if intermediates == b"!" && c == 'p' {
            self.decstr();
            return;
        }
        self.callbacks.unhandled_csi(
            &mut self.screen,
            intermediates.first().copied(),
            intermediates.get(1).copied(),
            &params.iter().collect::<Vec<_>>(),
            c,
        );
    }

    /// CSI sequences without an intermediate that upstream does not handle.
    #[cold]
    #[inline(never)]
    pub(crate) fn csi_more(
        &mut self,
        params: &vte::Params,
        c: char,
        mut unhandled: impl FnMut(&mut Self),
    ) {
        let count = crate::perform::canonicalize_params_1(params, 1);
        let first = crate::perform::canonicalize_params_1(params, 0);
        match c {
            'I' => self.cht(count),
            'Z' => self.cbt(count),
            'a' => self.hpr(count),
            'e' => self.vpr(count),
            'g' => self.tbc(first),
            'h' => self.ansi_modes(params, true, unhandled),
            'l' => self.ansi_modes(params, false, unhandled),
            's' => self.decsc(),
            'u' => self.decrc(),
            _ => unhandled(self),
        }
    }

    // character sets

    /// SCS: `ESC ( F` designates G0, `)` G1, `*` G2, `+` G3.
    pub(crate) fn scs(&mut self, slot: usize, final_byte: u8) {
        self.screen.term.charsets.designate(slot, final_byte);
        self.screen.term.update(self.screen.fast_paths);
    }

    /// SI (G0), SO (G1), LS2 (`ESC n`, G2), LS3 (`ESC o`, G3).
    pub(crate) fn lock_shift(&mut self, n: u8) {
        self.screen.term.charsets.lock_shift(n);
        self.screen.term.update(self.screen.fast_paths);
    }

    /// SS2 (`ESC N`), SS3 (`ESC O`).
    pub(crate) fn single_shift(&mut self, n: u8) {
        self.screen.term.charsets.single_shift(n);
        self.screen.term.update(self.screen.fast_paths);
    }

    // movement

    /// IND (`ESC D`): down a line, scrolling at the bottom margin; never a carriage
    /// return (unlike LF in new-line mode).
    pub(crate) fn ind(&mut self) {
        let blank = self.screen.attrs.erased();
        let (grid, on_row) =
            Self::grid_on_row(&mut self.screen, &mut self.callbacks);
        grid.row_inc_scroll(1, blank, on_row);
    }

    /// NEL (`ESC E`): carriage return and IND.
    pub(crate) fn nel(&mut self) {
        self.screen.grid_mut().col_set(0);
        self.ind();
    }

    /// HPR (`CSI n a`): right `n` columns, as CUP to the column would.
    pub(crate) fn hpr(&mut self, n: u16) {
        let col = self.screen.cursor_col();
        self.screen.grid_mut().col_set(col.saturating_add(n));
    }

    /// VPR (`CSI n e`): down `n` rows, as CUP to the row would (origin mode counts).
    pub(crate) fn vpr(&mut self, n: u16) {
        let grid = self.screen.grid_mut();
        let pos = grid.pos();
        let top = if grid.origin_mode() { grid.scroll_region().0 } else { 0 };
        grid.set_pos(crate::grid::Pos {
            row: pos.row.saturating_sub(top).saturating_add(n),
            col: pos.col,
        });
    }

    // tab stops

    /// HTS (`ESC H`): a stop at the cursor's column.
    pub(crate) fn hts(&mut self) {
        let col = self.screen.cursor_col();
        self.screen.term.tabs.set(col);
    }

    /// TBC (`CSI g`): 0 clears the stop at the cursor, 3 every stop.
    pub(crate) fn tbc(&mut self, mode: u16) {
        match mode {
            0 => {
                let col = self.screen.cursor_col();
                self.screen.term.tabs.clear(col);
            }
            3 => self.screen.term.tabs.clear_all(),
            _ => {}
        }
    }

    /// CHT (`CSI n I`, and TAB for 1): forward `n` stops, or to the last column.
    #[inline(never)]
    pub(crate) fn cht(&mut self, n: u16) {
        // A wrap pending after the last column stays pending: there is no stop to
        // go to, and the next character goes to the next line (xterm, tmux).
        if self.screen.grid().pos().col >= self.screen.cols() {
            return;
        }
        let col = self.screen.cursor_col();
        let to = self.screen.term.tabs.forward(col, n);
        self.screen.grid_mut().col_set(to);
    }

    /// CBT (`CSI n Z`): back `n` stops, or to the first column.
    pub(crate) fn cbt(&mut self, n: u16) {
        let col = self.screen.cursor_col();
        let to = self.screen.term.tabs.backward(col, n);
        self.screen.grid_mut().col_set(to);
    }

    // modes

    /// SM / RM (`CSI Ps h`, `CSI Ps l`): insert mode (4) and new-line mode (20); the
    /// others go to the callbacks.
    #[cold]
    #[inline(never)]
    pub(crate) fn ansi_modes(
        &mut self,
        params: &vte::Params,
        on: bool,
        mut unhandled: impl FnMut(&mut Self),
    ) {
        for param in params {
            match param {
                [4] => self.screen.term.insert = on,
                [20] => self.screen.term.newline = on,
                _ => unhandled(self),
            }
        }
        self.screen.term.update(self.screen.fast_paths);
    }

    /// The DEC private modes upstream did not handle. Returns false for a mode to pass
    /// to the callbacks (after recording it if DECRQM reports it).
    #[cold]
    #[inline(never)]
    pub(crate) fn private_mode(&mut self, mode: u16, on: bool) -> bool {
        match mode {
            3 => self.deccolm(on),
            7 => self.screen.term.autowrap = on,
            45 => self.screen.term.reverse_wrap = on,
            66 => {
                if on {
                    self.screen.set_mode(MODE_APPLICATION_KEYPAD);
                } else {
                    self.screen.clear_mode(MODE_APPLICATION_KEYPAD);
                }
            }
            1047 => {
                if on {
                    self.screen.enter_alternate_grid();
                } else {
                    // Leaving clears the alternate screen, as in xterm.
                    if self.screen.mode(MODE_ALTERNATE_SCREEN) {
                        self.screen
                            .alternate_grid
                            .erase_all(crate::attrs::Attrs::default());
                    }
                    self.screen.exit_alternate_grid();
                }
            }
            1048 => {
                if on {
                    self.decsc();
                } else {
                    self.decrc();
                }
            }
            _ => {
                self.screen.term.record(mode, on);
                return false;
            }
        }
        self.screen.term.update(self.screen.fast_paths);
        true
    }

    /// DECCOLM (`?3h`, `?3l`): the pane's width is the layout's, so only what the mode
    /// does besides resizing: clear the screen, home the cursor, reset the margins.
    fn deccolm(&mut self, on: bool) {
        self.screen.term.columns_132 = on;
        let grid = self.screen.grid_mut();
        grid.reset_scroll_region();
        grid.erase_all(crate::attrs::Attrs::default());
        grid.row_set(0);
        grid.col_set(0);
    }

    /// DECALN (`ESC # 8`): the screen filled with `E`, margins reset, origin mode off,
    /// rendition reset, cursor home (as xterm).
    pub(crate) fn decaln(&mut self) {
        self.screen.attrs = crate::attrs::Attrs::default();
        let grid = self.screen.grid_mut();
        grid.clear_origin_mode();
        grid.reset_scroll_region();
        for row in grid.drawing_rows_mut() {
            for cell in row.cells_mut() {
                cell.set('E', crate::attrs::Attrs::default());
            }
            row.wrap(false);
        }
        grid.row_set(0);
        grid.col_set(0);
    }

    /// DECSTR (`CSI ! p`), as xterm's soft reset: cursor shown, insert and origin mode
    /// off, autowrap on, margins reset, rendition reset, character sets reset, cursor
    /// and keypad keys normal, and the saved cursor at home with those defaults. The
    /// cursor stays where it is.
    pub(crate) fn decstr(&mut self) {
        let screen = &mut self.screen;
        screen.clear_mode(MODE_HIDE_CURSOR);
        screen.clear_mode(MODE_APPLICATION_CURSOR);
        screen.clear_mode(MODE_APPLICATION_KEYPAD);
        screen.attrs = crate::attrs::Attrs::default();
        screen.saved_attrs = crate::attrs::Attrs::default();
        screen.term.soft_reset();
        screen.term.update(screen.fast_paths);
        for grid in [&mut screen.grid, &mut screen.alternate_grid] {
            grid.reset_scroll_region();
            grid.clear_origin_mode();
            grid.reset_saved_cursor();
        }
    }

    /// DECBI (`ESC 6`): left a column; in the first column the screen's rows within
    /// the scroll region move right one column instead (no left/right margins here).
    pub(crate) fn decbi(&mut self) {
        let col = self.screen.grid().pos().col;
        if col > 0 {
            self.screen.grid_mut().col_dec(1);
            return;
        }
        let (top, bottom) = self.screen.scroll_region();
        let blank = self.screen.attrs.erased();
        let grid = self.screen.grid_mut();
        for row in grid
            .drawing_rows_mut()
            .skip(usize::from(top))
            .take(usize::from(bottom - top) + 1)
        {
            row.insert(0, 1, blank);
        }
    }

    /// DECFI (`ESC 9`): right a column; in the last column the rows within the scroll
    /// region move left one column instead.
    pub(crate) fn decfi(&mut self) {
        let cols = self.screen.cols();
        let col = self.screen.grid().pos().col;
        if col + 1 < cols {
            self.screen.grid_mut().col_inc(1);
            return;
        }
        let (top, bottom) = self.screen.scroll_region();
        let blank = self.screen.attrs.erased();
        let grid = self.screen.grid_mut();
        for row in grid
            .drawing_rows_mut()
            .skip(usize::from(top))
            .take(usize::from(bottom - top) + 1)
        {
            row.remove(0..1, blank);
        }
        grid.col_set(cols - 1);
    }
}
