//! `display-message`'s ways with a format besides expanding it: `-l` prints it as
//! given, `-a` lists every variable with its value, `-v` shows the expansion.

use super::FormatContext;
use serde::{Deserialize, Serialize};

/// What `display-message -p` does with its format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormatMode {
    /// Expanded (after strftime), as tmux does.
    #[default]
    Expand,
    /// `-l`: printed as given.
    Literal,
    /// `-a`: every variable and its value, `name=value`, one per line.
    List,
    /// `-v`: expanded, after lines saying what was expanded (tmux's `# ...` lines).
    Verbose,
}

/// The variables fugue's contexts answer (tmux's names, and fugue's own `agent_*`
/// and `pane_agent*`), sorted: what `-a` lists besides a context's globals.
#[rustfmt::skip]
pub const VARIABLES: &[&str] = &[
    "active_window_index", "agent", "agent_state", "agent_tags", "alternate_on",
    "alternate_saved_x", "alternate_saved_y", "buffer_created", "buffer_name",
    "buffer_sample", "buffer_size", "client_activity", "client_control_mode",
    "client_created", "client_discarded", "client_flags", "client_height",
    "client_key_table", "client_name", "client_pid", "client_prefix", "client_readonly",
    "client_session", "client_termname", "client_tty", "client_uid", "client_user",
    "client_utf8", "client_width", "client_written", "cursor_character", "cursor_flag",
    "cursor_x", "cursor_y", "history_bytes", "history_limit", "history_size", "insert_flag",
    "keypad_cursor_flag", "keypad_flag", "last_window_index", "mouse_all_flag",
    "mouse_any_flag", "mouse_button_flag", "mouse_sgr_flag", "mouse_standard_flag",
    "mouse_utf8_flag", "origin_flag", "pane_active", "pane_agent", "pane_agent_state",
    "pane_agent_tags", "pane_at_bottom", "pane_at_left", "pane_at_right", "pane_at_top",
    "pane_bg", "pane_bottom", "pane_created_by", "pane_current_command",
    "pane_current_path", "pane_dead", "pane_dead_status", "pane_fg", "pane_format",
    "pane_height", "pane_id", "pane_in_mode", "pane_index", "pane_input_off", "pane_last",
    "pane_left", "pane_marked", "pane_marked_set", "pane_parent", "pane_path", "pane_pid",
    "pane_pipe", "pane_right", "pane_sideband", "pane_start_command", "pane_start_path",
    "pane_synchronized", "pane_tabs", "pane_title", "pane_top", "pane_tty", "pane_width",
    "scroll_region_lower", "scroll_region_upper", "session_attached", "session_created",
    "session_format", "session_grouped", "session_height", "session_id",
    "session_many_attached", "session_marked", "session_name", "session_width",
    "session_windows", "window_active", "window_activity", "window_activity_flag",
    "window_bell_flag", "window_end_flag", "window_flags", "window_format", "window_height",
    "window_id", "window_index", "window_last_flag", "window_layout", "window_linked",
    "window_linked_sessions", "window_linked_sessions_list", "window_marked_flag",
    "window_name", "window_panes", "window_raw_flags", "window_silence_flag",
    "window_start_flag", "window_visible_layout", "window_width", "window_zoomed_flag",
    "wrap_flag",
];

/// `-a`: every variable `ctx` answers, with `globals` (the context's server-wide
/// names), sorted and once each, as `name=value` lines.
pub fn list_all<'a>(ctx: &dyn FormatContext, globals: impl Iterator<Item = &'a str>) -> String {
    let mut names: Vec<&str> = VARIABLES.iter().copied().chain(globals).collect();
    names.sort_unstable();
    names.dedup();
    let mut out = String::new();
    for name in names {
        if let Some(v) = ctx.var(name) {
            out.push_str(name);
            out.push('=');
            out.push_str(&v);
            out.push('\n');
        }
        if out.len() > super::MAX_OUTPUT {
            break;
        }
    }
    out
}

/// `-v`: tmux traces every step of an expansion; fugue says what it expanded and
/// what came of it, in tmux's first and last lines, then the result.
pub fn verbose(format: &str, ctx: &dyn FormatContext) -> String {
    let result = super::expand_time(format, ctx);
    format!("# expanding format: {format}\n# result is: {result}\n{result}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variables_are_sorted_and_once_each() {
        let mut sorted = VARIABLES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, VARIABLES);
    }
}
