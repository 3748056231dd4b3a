//! What tmux's formats read of a pane's terminal (`cursor_flag`, `mouse_any_flag`,
//! `scroll_region_upper`, `pane_tabs`, ...), taken from its screen.

use fugue_protocol::pane_detail::PaneDetail;
use vt100::{MouseProtocolEncoding, MouseProtocolMode};

/// The screen's modes as tmux names them; the pane's own flags are left default.
pub fn of_screen(screen: &vt100::Screen) -> PaneDetail {
    let mouse = screen.mouse_protocol_mode();
    let encoding = screen.mouse_protocol_encoding();
    let (scroll_upper, scroll_lower) = screen.scroll_region();
    let (row, col) = screen.cursor_position();
    let cursor_character = screen
        .cell(row, col)
        .map(|c| c.contents())
        .filter(|c| !c.is_empty())
        .map_or_else(|| " ".to_string(), str::to_string);
    PaneDetail {
        cursor_visible: !screen.hide_cursor(),
        insert: screen.insert_mode(),
        keypad_cursor: screen.application_cursor(),
        keypad: screen.application_keypad(),
        // tmux takes X10 (`?9`) as its standard mode too.
        mouse_standard: matches!(
            mouse,
            MouseProtocolMode::Press | MouseProtocolMode::PressRelease
        ),
        mouse_button: mouse == MouseProtocolMode::ButtonMotion,
        mouse_all: mouse == MouseProtocolMode::AnyMotion,
        mouse_sgr: encoding == MouseProtocolEncoding::Sgr,
        mouse_utf8: encoding == MouseProtocolEncoding::Utf8,
        origin: screen.origin_mode(),
        wrap: screen.autowrap(),
        scroll_upper,
        scroll_lower,
        alternate_saved: screen.alternate_saved_cursor(),
        cursor_character,
        tabs: screen.tab_stops(),
        ..PaneDetail::default()
    }
}
