//! tmux's format language, sans I/O: one engine for every `-F`, `display-message -p`,
//! titles and the status line. See docs/formats.md.
//!
//! - [`expand`] / [`expand_time`]: a format to its text, with a [`FormatContext`] that
//!   answers variables, enumerates sessions/windows/panes for the loops and gives the
//!   cached output of `#(shell command)`.
//! - [`style::spans`]: an expanded string split at its `#[...]` style directives.
//! - [`vars`]: contexts over fugue's info types ([`crate::PaneInfo`] and friends).
//!
//! The syntax follows tmux 3.3a's `format.c` (checked against the real tmux in
//! fugue-client's e2e tests), including its quirks: an unknown variable is empty, a
//! malformed `#{` ends the expansion there, `#{?1,a,b}` is `b` (a condition that is
//! no variable and does not change when expanded is false).

pub mod display;
mod eval;
pub mod local;
mod modifiers;
mod parse;
pub mod style;
pub mod time;
pub mod vars;

pub use display::FormatMode;
pub use modifiers::{glob as fnmatch, quote_shell};
pub use style::{Span, StyleSpec, spans};

/// Formats expand inside formats (`#{E:}`, loops, conditions); deeper than this expands
/// to nothing, as tmux's loop limit does. Bounds recursion on hostile input.
pub const MAX_DEPTH: usize = 32;
/// One expansion's output is cut at this many bytes (padding and loops included).
pub const MAX_OUTPUT: usize = 64 * 1024;
/// A loop (`#{S:}`, `#{W:}`, `#{P:}`) visits at most this many objects.
pub const MAX_LOOP_ITEMS: usize = 1024;
/// Replacements (`#{...}`) one top-level expansion may perform in all; past it every
/// further one is empty. Bounds the work of formats that multiply (`#{E:}` of loops).
pub const MAX_STEPS: usize = 100_000;

/// What a format is expanded against.
pub trait FormatContext {
    /// A variable's value (`session_name`, ...), or an option's when the context knows
    /// options (tmux's `#{status-left}`); None for an unknown name, which expands to
    /// nothing.
    fn var(&self, name: &str) -> Option<String>;
    /// Every session, for `#{S:}` (`current` marks the context's own).
    fn sessions(&self) -> Vec<LoopItem<'_>> {
        Vec::new()
    }
    /// The windows of the context's session, for `#{W:}`.
    fn windows(&self) -> Vec<LoopItem<'_>> {
        Vec::new()
    }
    /// The panes of the context's window, for `#{P:}`.
    fn panes(&self) -> Vec<LoopItem<'_>> {
        Vec::new()
    }
    /// The extension point of `#(command)`: the last line of the command's cached
    /// output. The engine never runs anything; a context that runs commands (the
    /// status line's) starts the command here and answers its previous output, or
    /// None (expands to nothing) until it has one.
    fn shell_output(&self, _command: &str) -> Option<String> {
        None
    }
    /// Seconds since the Unix epoch, for strftime and `#{t/p:}`.
    fn now(&self) -> i64 {
        0
    }
    /// The local time zone's offset from UTC, in seconds east, at `at`.
    fn utc_offset(&self, _at: i64) -> i64 {
        0
    }
}

/// One object of a loop: its context and whether it is the current one.
pub struct LoopItem<'a> {
    pub ctx: Box<dyn FormatContext + 'a>,
    pub current: bool,
}

/// Expands `format` against `ctx`. Never fails: what tmux would stop at ends the text
/// there, unknown variables are empty, and the limits above bound the work.
pub fn expand(format: &str, ctx: &dyn FormatContext) -> String {
    eval::Expander::new().expand(ctx, format, false, 0)
}

/// Expands `format` after passing it through strftime at `ctx.now()`, as tmux does for
/// the status line, titles and `display-message` (`%%` is a `%`).
pub fn expand_time(format: &str, ctx: &dyn FormatContext) -> String {
    eval::Expander::new().expand(ctx, format, true, 0)
}

/// tmux's truth: anything but empty and `0`.
/// tmux's default formats of its list commands (cmd-list-*.c), which fugue's lists
/// print when no `-F` is given, so tools that read tmux's lines read fugue's.
pub mod defaults {
    pub const LIST_SESSIONS: &str = "#{session_name}: #{session_windows} windows (created #{t:session_created})#{?session_grouped, (group ,}#{session_group}#{?session_grouped,),}#{?session_attached, (attached),}";
    pub const LIST_WINDOWS: &str = "#{window_index}: #{window_name}#{window_raw_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] [layout #{window_layout}] #{window_id}#{?window_active, (active),}";
    pub const LIST_WINDOWS_ALL: &str = "#{session_name}:#{window_index}: #{window_name}#{window_raw_flags} (#{window_panes} panes) [#{window_width}x#{window_height}] ";
    /// cmd-list-commands.c's line.
    pub const LIST_COMMANDS: &str = "#{command_list_name}#{?command_list_alias, (#{command_list_alias}),} #{command_list_usage}";
    /// cmd-list-clients.c's line.
    pub const LIST_CLIENTS: &str = "#{client_name}: #{session_name} [#{client_width}x#{client_height} #{client_termname}] #{?#{!=:#{client_uid},#{uid}},[user #{?client_user,#{client_user},#{client_uid},}] ,}#{?client_flags,(,}#{client_flags}#{?client_flags,),}";
    const PANE: &str = "[#{pane_width}x#{pane_height}] [history #{history_size}/#{history_limit}, #{history_bytes} bytes] #{pane_id}#{?pane_active, (active),}#{?pane_dead, (dead),}";
    pub fn list_panes(session: bool, all: bool) -> String {
        let at = match (all, session) {
            (true, _) => "#{session_name}:#{window_index}.#{pane_index}: ",
            (false, true) => "#{window_index}.#{pane_index}: ",
            (false, false) => "#{pane_index}: ",
        };
        format!("{at}{PANE}")
    }
}

/// A window's flags as tmux prints them (window_printable_flags), in its order: `#`
/// activity, `!` bell, `~` silence, `*` current, `-` last, `M` holds the marked
/// pane, `Z` zoomed.
pub fn window_flags(f: WindowFlags) -> String {
    let mut out = String::new();
    for (on, c) in [
        (f.activity, '#'),
        (f.bell, '!'),
        (f.silence, '~'),
        (f.current, '*'),
        (f.last && !f.current, '-'),
        (f.marked, 'M'),
        (f.zoomed, 'Z'),
    ] {
        if on {
            out.push(c);
        }
    }
    out
}

/// What [`window_flags`] shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct WindowFlags {
    pub activity: bool,
    pub bell: bool,
    pub silence: bool,
    pub current: bool,
    pub last: bool,
    pub zoomed: bool,
    /// The window holds the server's marked pane.
    pub marked: bool,
}

/// The names in formats that may be options or environment variables (`#{@theme}`,
/// `#{?automatic-rename,...}`, `#{T:status-left}`, `#{MYENV}`), for a listing to ask
/// the server their values: a name with `@`, with a hyphen or with no underscore (an
/// option's), or in capitals (an environment variable's); tmux's variables, spelled
/// with underscores, are the listing's own. At most [`crate::limits::MAX_LISTED_VALUES`],
/// each once, in order.
pub fn value_names<'a>(formats: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in formats {
        for (at, _) in f.match_indices("#{") {
            let rest = &f[at + 2..];
            let end = rest.find(['}', ',', '#']).unwrap_or(rest.len());
            let inner = &rest[..end];
            let name = inner.rsplit(':').next().unwrap_or(inner);
            let name = name.trim_start_matches(['?', '!']);
            let valid = name
                .strip_prefix('@')
                .unwrap_or(name)
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            let lower = name.chars().all(|c| !c.is_ascii_uppercase());
            let capitals = name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
            let wanted = name.starts_with('@') || (lower && !name.contains('_')) || capitals;
            if name.is_empty() || name == "@" || !valid || !wanted || out.iter().any(|n| n == name)
            {
                continue;
            }
            if out.len() == crate::limits::MAX_LISTED_VALUES {
                return out;
            }
            out.push(name.to_string());
        }
    }
    out
}

pub fn is_true(s: &str) -> bool {
    !s.is_empty() && s != "0"
}

/// A context of fixed variables (tests, simple callers).
impl FormatContext for std::collections::HashMap<String, String> {
    fn var(&self, name: &str) -> Option<String> {
        self.get(name).cloned()
    }
}

#[cfg(test)]
mod tests;
