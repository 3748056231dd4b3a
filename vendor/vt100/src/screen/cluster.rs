//! fugue patch: emoji sequences that take one cell.
//!
//! vt100 0.18 gave every character of non-zero width a cell of its own, so an emoji
//! ZWJ sequence (👩‍💻: woman, ZWJ, laptop) took four columns and an emoji with a skin
//! tone (👍🏽) four, where terminals that cluster graphemes (kitty, WezTerm, foot,
//! Ghostty, iTerm2) and tmux 3.3a (for ZWJ) take two. Here the character after a ZWJ
//! that follows a wide (emoji) cell, and a skin-tone modifier after a wide cell, are
//! appended to that cell, as a combining mark is. VS16 (❤️) already widened its cell.
//!
//! The cell keeps at most 19 bytes of text: a sequence longer than that (a family of
//! four is 25) ends where it stops fitting, and what follows takes cells of its own.

use super::Screen;

impl Screen {
    /// Whether `c`, of non-zero width, joins the cell before the cursor.
    #[inline]
    pub(crate) fn joins_previous(&self, c: char) -> bool {
        // Only emoji join: the General Punctuation to Supplemental Punctuation blocks
        // (where the text-style symbols of ZWJ sequences live, ♀ ⚕ ❤) and the
        // supplementary emoji planes. CJK text never pays for the look-up.
        (c >= '\u{1F000}' || ('\u{2000}'..'\u{2E80}').contains(&c))
            && self.joins_previous_cell(c)
    }

    #[inline(never)]
    fn joins_previous_cell(&self, c: char) -> bool {
        let grid = self.grid();
        let pos = grid.pos();
        if pos.col == 0 {
            return false;
        }
        let Some(row) = grid.drawing_row(pos.row) else {
            return false;
        };
        let mut col = pos.col - 1;
        if row.get(col).is_some_and(crate::Cell::is_wide_continuation) {
            if col == 0 {
                return false;
            }
            col -= 1;
        }
        let Some(base) = row.get(col) else {
            return false;
        };
        if !base.is_wide() || !base.has_room() {
            return false;
        }
        ('\u{1F3FB}'..='\u{1F3FF}').contains(&c)
            || base.contents_bytes().ends_with("\u{200D}".as_bytes())
    }
}
