//! Arguments and answers of the commands that watch programs: reading a pane with a
//! cursor, waiting for output, running a command to completion, searching panes.

use crate::ids::PaneId;
use crate::target::Target;
use serde::{Deserialize, Serialize};

/// Default and largest number of lines `read-pane` returns.
pub const READ_LINES_DEFAULT: u32 = 200;
pub const READ_LINES_MAX: u32 = 2000;
/// Largest text a read returns; longer text keeps its tail.
pub const READ_BYTES_MAX: usize = 256 * 1024;

/// What `read-pane` reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReadSource {
    /// The visible screen.
    Screen,
    /// The last lines of history and screen together.
    Scrollback,
    /// Lines that arrived since a cursor returned by an earlier read or wait.
    Since(String),
}

/// `read-pane`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadPane {
    pub target: Option<Target>,
    pub source: ReadSource,
    /// At most this many lines (the last ones); default 200, at most 2000.
    pub lines: Option<u32>,
    /// Keep colors as SGR escape sequences.
    pub ansi: bool,
}

/// What a read returned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaneText {
    pub pane: PaneId,
    pub text: String,
    /// Lines in `text`.
    pub lines: u32,
    /// Pass to the next read (`Since`) to get only what arrives after this one.
    pub cursor: String,
    /// Lines that arrived since the cursor but had already left the history.
    pub lines_missed: u64,
    /// Lines still in the history that this answer left out (it keeps the newest
    /// `lines`): read them forward with `next_cursor`.
    pub lines_skipped: u64,
    /// A cursor for the lines this answer left out, oldest first; none when nothing
    /// was left out.
    pub next_cursor: Option<String>,
    /// The text was cut to its tail (line or size limit).
    pub truncated: bool,
    pub cursor_row: u16,
    pub cursor_col: u16,
    pub alternate_screen: bool,
    pub width: u16,
    pub height: u16,
}

/// What `send-keys` answers: where the pane's output stood just before the input, so
/// a following wait sees output that arrives before it starts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputSent {
    pub pane: PaneId,
    pub cursor: String,
    /// How long the call waited for the program: to be ready for input, and between
    /// text and a key that follows it (Enter), for the program to take the text.
    pub waited_ms: u64,
}

/// What `wait-for` waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WaitCondition {
    /// A line of output matching a regex, among output that arrives after the call (or
    /// after `after`, a cursor from an earlier read).
    Text {
        pattern: String,
        after: Option<String>,
    },
    /// No output for this long.
    Idle { ms: u64 },
    /// The program ended.
    Exit,
    /// The pane (an agent) is in this state.
    State(crate::agent::AgentState),
}

/// `wait-for`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitFor {
    pub target: Option<Target>,
    pub condition: WaitCondition,
    /// Capped by the server's configured maximum; the answer says which cap applied.
    pub timeout_ms: Option<u64>,
}

/// What a wait saw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitOutcome {
    pub pane: PaneId,
    /// The matching line, for a text wait.
    pub line: Option<String>,
    /// The text the pattern matched.
    pub matched: Option<String>,
    /// The exit status, for an exit wait (or a state wait that saw the pane exit).
    pub exit_status: Option<i32>,
    /// The pane's agent state, for a state wait.
    pub state: Option<crate::agent::AgentState>,
    /// Continue reading from here (for example `read-pane` with `Since`).
    pub cursor: String,
    pub waited_ms: u64,
    /// The timeout that applied after capping.
    pub timeout_ms: u64,
}

/// `run-command`: run a shell command to completion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunCommand {
    /// Type it into this pane's shell; otherwise a new pane is split off `split_from`
    /// (default: the caller's pane or the current one) and closes when the command ends.
    pub pane: Option<Target>,
    pub split_from: Option<Target>,
    pub command: String,
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    pub timeout_ms: Option<u64>,
    /// Keep a new pane open after the command ends.
    pub keep: bool,
}

/// What a command run produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOutcome {
    pub pane: PaneId,
    pub exit_status: i32,
    pub output: String,
    /// The output was cut to its tail.
    pub truncated: bool,
    pub duration_ms: u64,
}

/// `search-panes`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchPanes {
    pub pattern: String,
    /// Panes to search; empty means every pane.
    pub targets: Vec<Target>,
    /// Search history too, not only screens.
    pub history: bool,
    pub offset: u32,
    pub limit: u32,
    /// Only lines after this one (or, with `backward`, before it), numbered as in
    /// [`SearchMatch::line`]; `None` searches every line. Scroll mode's `n` and `N`.
    #[serde(default)]
    pub from_line: Option<i64>,
    /// Search each pane from its last line up, listing the nearest (newest) match first.
    #[serde(default)]
    pub backward: bool,
    /// `from_line` and the matches' lines are absolute line numbers (lines ever
    /// scrolled into history before them) instead of relative to the screen's top:
    /// copy mode's frozen view names lines that way while output moves on.
    #[serde(default)]
    pub absolute: bool,
}

/// One line that matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchMatch {
    pub pane: PaneId,
    /// 0 is the top of the screen, negative lines are history (with
    /// [`SearchPanes::absolute`], the absolute line number).
    pub line: i64,
    pub text: String,
}

/// A page of matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchResult {
    pub matches: Vec<SearchMatch>,
    pub total: u32,
    /// Offset of the next page, when there is one.
    pub next_offset: Option<u32>,
}

/// A line bound of `capture-pane`: 0 is the first visible line, negative lines are
/// history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LineBound {
    Line(i64),
    /// `-`: the start of history (for `-S`) or the end of the screen (for `-E`).
    Edge,
}

/// `capture-pane`
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapturePane {
    pub target: Option<Target>,
    pub start: Option<LineBound>,
    pub end: Option<LineBound>,
    /// Keep colors and attributes as SGR escape sequences.
    pub escapes: bool,
    /// Join soft-wrapped lines (and keep trailing spaces, as tmux's `-J` does).
    pub join: bool,
    /// `-a`: the screen under the alternate screen a program shows (the main one),
    /// without history; an error when the pane shows no alternate screen.
    #[serde(default)]
    pub alternate: bool,
    /// `-N`: keep trailing spaces a program wrote.
    #[serde(default)]
    pub keep_spaces: bool,
    /// `-C`: write non-printable characters (and `\`) as octal escapes (`\033`).
    #[serde(default)]
    pub escape_c0: bool,
    /// `-q`: no error for a missing alternate screen (an empty capture instead).
    #[serde(default)]
    pub quiet: bool,
    /// `-P`: only the start of an escape sequence the pane has not finished
    /// receiving (iTerm2 asks at attach). fugue's parser keeps no such bytes to give
    /// back, so the answer is empty.
    #[serde(default)]
    pub pending: bool,
}
