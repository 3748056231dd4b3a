//! What a client needs to draw tmux's status line itself: the formats and styles of
//! the options `status-left`, `status-right`, `window-status-format`, ... as the
//! server's option store holds them for the client's session. Sent inside
//! [`crate::ClientOptions`] when the client attaches and whenever one changes.
//!
//! Every field defaults to tmux 3.3a's default (`tmux -f /dev/null show -g`), so a
//! message from an older server without them draws tmux's status line.

use serde::{Deserialize, Serialize};

/// Where the status line goes (`status-position`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StatusPosition {
    Top,
    #[default]
    Bottom,
}

/// Where the window list goes (`status-justify`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StatusJustify {
    #[default]
    Left,
    Centre,
    Right,
    /// Centred on the whole line, not on the room between left and right.
    AbsoluteCentre,
}

impl StatusJustify {
    /// The option's value (`left`, `centre`, ...); anything else is `left`.
    pub fn parse(s: &str) -> StatusJustify {
        match s {
            "centre" | "center" => StatusJustify::Centre,
            "right" => StatusJustify::Right,
            "absolute-centre" => StatusJustify::AbsoluteCentre,
            _ => StatusJustify::Left,
        }
    }
}

/// The status line's options. Formats are expanded by the client
/// ([`crate::format::expand_time`]); styles are tmux style strings (`bg=green,fg=black`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatusOptions {
    pub left: String,
    pub right: String,
    pub style: String,
    pub left_style: String,
    pub right_style: String,
    /// The widest the expanded `status-left` / `status-right` may be, in columns.
    pub left_length: u16,
    pub right_length: u16,
    pub position: StatusPosition,
    pub justify: StatusJustify,
    /// Seconds between redraws of the line (the clock, `#()`); 0: only when something
    /// else changes.
    pub interval: u32,
    pub window_format: String,
    pub window_current_format: String,
    pub window_style: String,
    pub window_current_style: String,
    pub window_last_style: String,
    pub window_activity_style: String,
    pub window_bell_style: String,
    pub window_separator: String,
    /// Messages (notices, `display-message`) replace the line in this style...
    pub message_style: String,
    /// ...for this many milliseconds (`display-time`; 0: until a key is pressed).
    pub display_time_ms: u32,
    /// tmux's `status` 2 to 5: the lines of the status line (1 when `on`).
    pub lines: u8,
    /// `status-format`: element N (from 1) draws line N; line 0 is drawn from
    /// `status-left`, the window list and `status-right`. An empty or missing element
    /// 1 is tmux's default.
    pub formats: Vec<String>,
    /// `display-panes-time`: how long `display-panes` shows its numbers (ms).
    #[serde(default = "default_display_panes_ms")]
    pub display_panes_time_ms: u32,
    /// `display-panes-colour` / `display-panes-active-colour`: tmux colour names.
    #[serde(default)]
    pub display_panes_colour: String,
    #[serde(default)]
    pub display_panes_active_colour: String,
    /// `clock-mode-colour` (a tmux colour name) and `clock-mode-style` (12 or 24).
    #[serde(default)]
    pub clock_mode_colour: String,
    #[serde(default)]
    pub clock_mode_style: String,
    /// `lock-command`: what locks the client's terminal (`lock-server` and kin).
    #[serde(default = "default_lock_command")]
    pub lock_command: String,
    /// `lock-after-time`: lock after this many seconds without a key (0: never).
    #[serde(default)]
    pub lock_after_secs: u32,
}

fn default_lock_command() -> String {
    "lock -np".into()
}

fn default_display_panes_ms() -> u32 {
    1000
}

/// tmux 3.3a's `status-format[1]`: the current window's panes.
pub const DEFAULT_FORMAT_1: &str = "#[align=centre]#{P:#{?pane_active,#[reverse],}#{pane_index}[#{pane_width}x#{pane_height}]#[default] }";

impl Default for StatusOptions {
    fn default() -> StatusOptions {
        const WINDOW: &str = "#I:#W#{?window_flags,#{window_flags}, }";
        StatusOptions {
            left: "[#{session_name}] ".into(),
            right: "#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}\"#{=21:pane_title}\" %H:%M %d-%b-%y".into(),
            style: "bg=green,fg=black".into(),
            left_style: "default".into(),
            right_style: "default".into(),
            left_length: 10,
            right_length: 40,
            position: StatusPosition::Bottom,
            justify: StatusJustify::Left,
            interval: 15,
            window_format: WINDOW.into(),
            window_current_format: WINDOW.into(),
            window_style: "default".into(),
            window_current_style: "default".into(),
            window_last_style: "default".into(),
            window_activity_style: "reverse".into(),
            window_bell_style: "reverse".into(),
            window_separator: " ".into(),
            message_style: "bg=yellow,fg=black".into(),
            display_time_ms: 750,
            lines: 1,
            formats: Vec::new(),
            display_panes_time_ms: default_display_panes_ms(),
            display_panes_colour: "blue".into(),
            display_panes_active_colour: "red".into(),
            clock_mode_colour: "blue".into(),
            clock_mode_style: "24".into(),
            lock_command: default_lock_command(),
            lock_after_secs: 0,
        }
    }
}
