//! What tmux's formats read of a pane beyond its place in the tree: its terminal's
//! modes (`cursor_flag`, `mouse_*_flag`, `scroll_region_*`, ...) and its flags
//! (`pane_synchronized`, `pane_pipe`, `pane_last`). Part of [`crate::PaneInfo`].

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneDetail {
    pub cursor_visible: bool,
    /// IRM (`CSI 4 h`).
    pub insert: bool,
    /// DECCKM (`?1`) and DECKPAM (`ESC =`).
    pub keypad_cursor: bool,
    pub keypad: bool,
    /// Mouse reporting as the program asked: press and release (`?1000`, or `?9`),
    /// button motion (`?1002`), every motion (`?1003`); SGR (`?1006`) or UTF-8
    /// (`?1005`) encoding.
    pub mouse_standard: bool,
    pub mouse_button: bool,
    pub mouse_all: bool,
    pub mouse_sgr: bool,
    pub mouse_utf8: bool,
    /// DECOM (`?6`) and DECAWM (`?7`).
    pub origin: bool,
    pub wrap: bool,
    /// The scroll region's first and last rows (0-based, inclusive).
    pub scroll_upper: u16,
    pub scroll_lower: u16,
    /// The cursor (row, col) `?1049h` saved, if it ever did.
    pub alternate_saved: Option<(u16, u16)>,
    /// The character under the cursor (a space on a blank cell).
    pub cursor_character: String,
    /// The columns with a tab stop.
    pub tabs: Vec<u16>,
    /// The window's `synchronize-panes` is on.
    pub synchronized: bool,
    /// `pipe-pane` has a command for it.
    pub pipe: bool,
    /// The window's last active pane (`last-pane`).
    pub last: bool,
    /// The directory it was started in.
    pub start_path: String,
}

fn flag(b: bool) -> String {
    if b { "1" } else { "0" }.to_string()
}

impl PaneDetail {
    /// tmux's variable `name`, if it is one of these.
    pub fn var(&self, name: &str) -> Option<String> {
        // tmux prints an unset saved cursor as its UINT_MAX.
        let saved = |v: Option<u16>| v.map_or(u32::MAX, u32::from).to_string();
        Some(match name {
            "cursor_flag" => flag(self.cursor_visible),
            "insert_flag" => flag(self.insert),
            "keypad_cursor_flag" => flag(self.keypad_cursor),
            "keypad_flag" => flag(self.keypad),
            "mouse_standard_flag" => flag(self.mouse_standard),
            "mouse_button_flag" => flag(self.mouse_button),
            "mouse_all_flag" => flag(self.mouse_all),
            "mouse_any_flag" => flag(self.mouse_standard || self.mouse_button || self.mouse_all),
            "mouse_sgr_flag" => flag(self.mouse_sgr),
            "mouse_utf8_flag" => flag(self.mouse_utf8),
            "origin_flag" => flag(self.origin),
            "wrap_flag" => flag(self.wrap),
            "scroll_region_upper" => self.scroll_upper.to_string(),
            "scroll_region_lower" => self.scroll_lower.to_string(),
            "alternate_saved_x" => saved(self.alternate_saved.map(|(_, c)| c)),
            "alternate_saved_y" => saved(self.alternate_saved.map(|(r, _)| r)),
            "cursor_character" => self.cursor_character.clone(),
            "pane_tabs" => self
                .tabs
                .iter()
                .map(u16::to_string)
                .collect::<Vec<_>>()
                .join(","),
            "pane_synchronized" => flag(self.synchronized),
            "pane_pipe" => flag(self.pipe),
            "pane_last" => flag(self.last),
            "pane_start_path" => self.start_path.clone(),
            // The pane's default colours: fugue draws them as the terminal's own.
            "pane_fg" | "pane_bg" => "default".to_string(),
            _ => return None,
        })
    }
}
