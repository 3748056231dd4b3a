//! Limits on sizes and counts that callers, config files and programs can choose.
//!
//! Each is documented in docs/reliability.md (name, default, maximum, what happens past
//! it); the server checks them on every surface (the dispatcher validates commands from
//! keys, the CLI, MCP and sideband alike) and in the config file. Kept in one place so
//! that the client, the server and the docs test agree.

/// The widest window or pane, in cells. A screen costs 32 bytes a cell (twice while a
/// full-screen program shows its alternate screen), so 1000x1000 is 32 MB: a terminal
/// wider than any real display at a readable font, yet not enough for one caller to
/// take gigabytes with `new-session -x 10000 -y 10000`. A client whose terminal is
/// larger sees the window at this size.
pub const MAX_COLS: u16 = 1000;
/// The tallest window or pane, in cells.
pub const MAX_ROWS: u16 = 1000;
/// The smallest session size `new-session -x/-y` and the config accept.
pub const MIN_SESSION_COLS: u16 = 10;
pub const MIN_SESSION_ROWS: u16 = 5;

/// The most option and environment names one listing asks values of (`list-panes -F`
/// and `list-windows -F` formats that name options): more are ignored, the first kept.
/// A format that names more than this is a template, not a listing.
pub const MAX_LISTED_VALUES: usize = 64;

/// The most history lines a pane may keep (`server.history_limit`). A history line
/// costs about 60 bytes plus its text, so the maximum is in the hundreds of MB for a
/// busy pane: higher values would let one pane exhaust memory.
pub const MAX_HISTORY_LINES: usize = 1_000_000;

/// The default and the largest cap on one OSC/DCS string a program prints (a title, a
/// clipboard copy); longer ones are dropped whole. OSC 52 clipboard copies of large
/// selections need more than a title does, hence the room above the default.
pub const DEFAULT_OSC_BYTES: usize = 1024 * 1024;
pub const MAX_OSC_BYTES: usize = 64 * 1024 * 1024;

/// The default and largest number of bytes waiting to be written to one pane's program
/// (`send-keys`, pastes, MCP `send_input` that the program has not read yet). Past it,
/// writes are refused with `limit_exceeded` instead of queueing without bound.
pub const DEFAULT_PANE_INPUT_BYTES: usize = 16 * 1024 * 1024;
pub const MAX_PANE_INPUT_BYTES: usize = 1024 * 1024 * 1024;

/// Clamps a size a client reports to what a window may have.
pub fn clamp_size(cols: u16, rows: u16) -> (u16, u16) {
    (cols.clamp(1, MAX_COLS), rows.clamp(1, MAX_ROWS))
}
