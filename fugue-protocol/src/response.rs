//! What commands answer.

use crate::bindings::KeyTable;
use crate::ids::{PaneId, SessionId, WindowId};
use crate::observe::{InputSent, PaneText, RunOutcome, SearchResult, WaitOutcome};
use crate::screen::Row;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// What a command that made something made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Created {
    pub session: SessionId,
    pub session_name: String,
    pub window: WindowId,
    pub window_index: u32,
    pub pane: PaneId,
    /// Where the input the command typed into the new pane begins (`create_pane` with
    /// `input`): a text wait from this cursor sees the answer, however fast it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// A session, as `list-sessions` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub id: SessionId,
    pub name: String,
    pub windows: u32,
    /// Seconds since the Unix epoch.
    pub created: u64,
    pub attached: u32,
    pub width: u16,
    pub height: u16,
    /// The server's marked pane is in this session (tmux's `session_marked`).
    #[serde(default)]
    pub marked: bool,
    /// Its session group (`new-session -t`), named as tmux names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The group's sessions, in the order they joined it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_members: Vec<String>,
}

/// An attached terminal client, as `list-clients` shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientInfo {
    /// tmux's client name: its terminal (`/dev/pts/3`), else `client-N`.
    pub name: String,
    pub tty: String,
    pub pid: Option<u32>,
    pub session: Option<SessionId>,
    pub session_name: Option<String>,
    pub width: u16,
    pub height: u16,
    /// Its `TERM`.
    pub termname: String,
    /// Seconds since the Unix epoch: when it connected, and when it last attached,
    /// typed or resized.
    pub created: u64,
    pub activity: u64,
    pub focused: bool,
    /// A control-mode client (`tmux -C`): no terminal of its own.
    #[serde(default)]
    pub control_mode: bool,
}

/// A pane and where it lives, as `list-panes` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneInfo {
    pub id: PaneId,
    pub session: String,
    pub session_id: SessionId,
    pub window_index: u32,
    pub window_name: String,
    pub window_id: WindowId,
    pub window_active: bool,
    /// Position in the window's reading order.
    pub index: u32,
    pub title: String,
    /// The program in the foreground of the pane's terminal.
    pub command: String,
    pub pid: Option<u32>,
    pub cwd: Option<String>,
    pub width: u16,
    pub height: u16,
    /// The active pane of its window.
    pub active: bool,
    pub alive: bool,
    pub exit_status: Option<i32>,
    pub alternate_screen: bool,
    pub cursor_row: u16,
    pub cursor_col: u16,
    pub sideband: bool,
    /// Who made the pane: `person`, `mcp N`, `sideband %N`, `server`.
    pub created_by: String,
    /// The agent pane behind the pane's creation (its parent in the lineage).
    pub parent: Option<PaneId>,
    /// For agent panes: preset, state, tags, result.
    pub agent: Option<crate::agent::AgentInfo>,
    /// The pane's position in its window (tmux's `pane_left`, `pane_top`).
    #[serde(default)]
    pub left: u16,
    #[serde(default)]
    pub top: u16,
    /// The window's size (tmux's `window_width`, `window_height`).
    #[serde(default)]
    pub window_width: u16,
    #[serde(default)]
    pub window_height: u16,
    /// tmux's `window_zoomed_flag`, `window_last_flag`, `window_bell_flag`.
    #[serde(default)]
    pub window_zoomed: bool,
    #[serde(default)]
    pub window_last: bool,
    #[serde(default)]
    pub window_bell: bool,
    /// The command the pane was started with (tmux's `pane_start_command`), empty for
    /// the default shell.
    #[serde(default)]
    pub start_command: String,
    /// The pane's terminal device (tmux's `pane_tty`), when known.
    #[serde(default)]
    pub tty: Option<String>,
    /// tmux's `window_activity_flag` and `window_silence_flag` (`monitor-activity`,
    /// `monitor-silence`).
    #[serde(default)]
    pub window_activity_flag: bool,
    #[serde(default)]
    pub window_silence: bool,
    /// The window's last output, seconds since the Unix epoch (tmux's
    /// `window_activity`).
    #[serde(default)]
    pub window_activity: u64,
    /// The window's layout as tmux writes it (`#{window_layout}`).
    #[serde(default)]
    pub window_layout: String,
    /// The most lines of history the pane keeps (tmux's `history_limit`), and how many
    /// it holds (`history_size`).
    #[serde(default)]
    pub history_limit: u32,
    #[serde(default)]
    pub history_size: u32,
    /// What the pane's history takes, in bytes (tmux's `history_bytes`).
    #[serde(default)]
    pub history_bytes: u64,
    /// The pane's box touches the window's right and bottom edges (tmux's
    /// `pane_at_right`, `pane_at_bottom`: fugue's panes draw their own borders, so
    /// this is not `left + width` against the window's width).
    #[serde(default)]
    pub at_right: bool,
    #[serde(default)]
    pub at_bottom: bool,
    /// The values of the options and environment variables the listing asked for
    /// (`ListPanes::values`) that exist here, as a format writes them (a flag is `1`
    /// or `0`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<(String, String)>,
    /// Its terminal's modes and its flags, for tmux's formats.
    #[serde(default)]
    pub detail: crate::pane_detail::PaneDetail,
    /// Input to the pane is off (`select-pane -d`, tmux's `pane_input_off`).
    #[serde(default)]
    pub input_off: bool,
    /// This is the server's marked pane (`select-pane -m`, tmux's `pane_marked`).
    #[serde(default)]
    pub marked: bool,
    /// Some pane of the server is marked (tmux's `pane_marked_set`).
    #[serde(default)]
    pub marked_set: bool,
    /// Its window's links' sessions, one name per link, when it has more than one
    /// (`link-window`, session groups): tmux's `window_linked_sessions_list`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub window_linked_sessions: Vec<String>,
    /// tmux's `window_linked` (session_is_linked): the window has links beyond one
    /// per member of this session's group (beyond one, with no group).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub window_linked: bool,
    /// The mode the pane keeps for the next client to show (`copy-mode` from the CLI
    /// with none attached), by tmux's name: `copy-mode`, `tree-mode`, `buffer-mode`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
}

/// Rows for a client's scroll mode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowsReply {
    /// Line number of the first row (0 = top of the screen, negative = history).
    pub start: i64,
    /// Lines of history the pane holds.
    pub history: u64,
    pub rows: Vec<Arc<Row>>,
    /// The hyperlinks the rows carry (those the pane still knows).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<crate::screen::Hyperlink>,
    /// Lines ever scrolled into history (retained or dropped): the absolute number of
    /// the screen's top line when the rows were read, so `total + start` is the first
    /// row's absolute number.
    #[serde(default)]
    pub total: u64,
}

/// What an attached client needs to know up front.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachInfo {
    pub session: SessionId,
    pub session_name: String,
    pub client_id: u64,
    pub keys: KeyTable,
    /// Status bar on (true) or hidden.
    pub status: bool,
    /// The format of the terminal's title when the client sets it (tmux's `set-titles`
    /// on and its `set-titles-string`); None: the client leaves the title alone.
    #[serde(default)]
    pub titles: Option<String>,
    /// The client uses the mouse itself (the configuration's `keys.mouse`, tmux's
    /// `mouse` option): focus, borders, the wheel, the status bar.
    #[serde(default = "yes")]
    pub mouse: bool,
    /// How copy mode behaves (`[copy]` in the server's configuration).
    #[serde(default)]
    pub copy: CopyOptions,
    /// The status line's formats and styles (boxed: it is large, and answers are
    /// mostly small).
    #[serde(default)]
    pub status_line: Box<crate::status_line::StatusOptions>,
    /// Every option name the server knows, for the command prompt's completion.
    #[serde(default)]
    pub option_names: Vec<String>,
}

/// tmux's `mode-keys`: the key table of copy mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModeKeys {
    #[default]
    Vi,
    Emacs,
}

/// Copy mode's options, which the client needs (the `[copy]` section).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CopyOptions {
    pub mode_keys: ModeKeys,
    /// The client writes its copies to its terminal's clipboard (OSC 52): tmux's
    /// `set-clipboard` "on" or "external".
    pub clipboard: bool,
    /// Searches move as the pattern is typed (tmux's emacs `C-s`, for every search).
    pub search_incremental: bool,
    /// Patterns are regular expressions (tmux's `search-forward`) instead of text.
    pub search_regex: bool,
    /// A command (argv) the client runs with each copy on its stdin (tmux's
    /// `copy-pipe`, e.g. `["wl-copy"]`); empty runs none.
    pub copy_command: Vec<String>,
    /// A search that reaches the end goes on from the other end (tmux's
    /// `wrap-search`, on by default). Absent from older servers: on.
    #[serde(default = "wrap_search_default")]
    pub wrap_search: bool,
}

fn wrap_search_default() -> bool {
    true
}

impl Default for CopyOptions {
    fn default() -> Self {
        CopyOptions {
            mode_keys: ModeKeys::Vi,
            clipboard: true,
            search_incremental: false,
            search_regex: false,
            copy_command: Vec::new(),
            wrap_search: true,
        }
    }
}

fn yes() -> bool {
    true
}

/// The answer to a command that succeeded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Response {
    Done,
    Created(Created),
    Sessions(Vec<SessionInfo>),
    Panes(Vec<PaneInfo>),
    Clients(Vec<ClientInfo>),
    Captured(String),
    Rows(RowsReply),
    Attached(AttachInfo),
    Read(PaneText),
    Waited(WaitOutcome),
    Ran(RunOutcome),
    Found(SearchResult),
    Sent(InputSent),
    /// Boxed: the largest answer, and every message carries the size of the largest.
    AgentSpawned(Box<crate::agent::AgentSpawned>),
    Messages(Vec<crate::agent::MessageOutcome>),
    Result(crate::agent::AgentResult),
    Worktree(crate::agent::WorktreeOutcome),
    Buffer(crate::buffers::BufferContent),
    Buffers(Vec<crate::buffers::BufferInfo>),
    /// `show-options`' lines, in tmux's order.
    Options(Vec<crate::options::OptionLine>),
    /// `restore`, `restore --list`, `restore --discard`.
    Restore(crate::restore::RestoreOutcome),
    /// `show-prompt-history`: each type asked for, its lines oldest first.
    PromptHistory(crate::admin::PromptHistory),
}
