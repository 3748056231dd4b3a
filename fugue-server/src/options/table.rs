//! The declaration of every option: name, scope, type, default, what it does today.
//!
//! The order is tmux 3.3a's (`show-options` lists a scope's options in table order, not
//! alphabetically: `cursor-colour` comes before `aggressive-resize`), and so are names,
//! types, bounds and defaults, except where fugue's default differs on purpose (said
//! in the doc line and in docs/options.md). fugue's own options follow tmux's in each
//! scope. `docs/options.md` is checked against this table.

use fugue_protocol::limits;

/// Where an option lives (tmux's `OPTIONS_TABLE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Server,
    Session,
    Window,
    /// A window option that a pane may also set (tmux's `WINDOW|PANE`): a pane's value
    /// inherits its window's, which inherits the global one.
    WindowPane,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Server => "server",
            Scope::Session => "session",
            Scope::Window => "window",
            Scope::WindowPane => "window, pane",
        }
    }
}

/// An option's type, which decides what values it takes and how they print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// on/off (also yes/no, true/false, 1/0); no value toggles.
    Flag,
    /// A whole number within bounds.
    Number { min: i64, max: i64 },
    /// Any text (often a format).
    Str,
    /// tmux's style text (`fg=red,bold`), checked; one containing `#{` is a format
    /// and is kept as given.
    Style,
    /// A colour (`red`, `colour200`, `#ff0000`, `default`).
    Colour,
    /// A key in tmux's notation, or `None`.
    Key,
    /// One of a list; no value toggles between the first two, as tmux does.
    Choice(&'static [&'static str]),
    /// A list of strings (`name[0]`, `name[1]`...); `-a` adds an element.
    Array,
    /// `WxH` (tmux's `default-size`).
    Size,
    /// A number of cells or a percentage (`80`, `50%`; tmux's `main-pane-width`).
    CellsOrPercent,
}

impl Kind {
    /// tmux quotes these when `show-options` prints name and value.
    pub fn is_string(self) -> bool {
        matches!(
            self,
            Kind::Str | Kind::Style | Kind::Array | Kind::Size | Kind::CellsOrPercent
        )
    }

    pub fn describe(self) -> String {
        match self {
            Kind::Flag => "flag (on, off)".into(),
            Kind::Number { min, max } => format!("number ({min} to {max})"),
            Kind::Str => "string".into(),
            Kind::Style => "style".into(),
            Kind::Colour => "colour".into(),
            Kind::Key => "key".into(),
            Kind::Choice(c) => format!("choice ({})", c.join(", ")),
            Kind::Array => "array of strings".into(),
            Kind::Size => "size (WxH)".into(),
            Kind::CellsOrPercent => "cells or percentage (N or N%)".into(),
        }
    }
}

/// What changing the option does in fugue today.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Takes effect at once (attached clients are told where they act on it).
    Live,
    /// Applies to panes (or sessions) made after the change, as in tmux.
    New,
    /// Accepted and shown, so tmux configurations load, but fugue has no behaviour
    /// behind it yet.
    None,
    /// Read from the configuration file when the server starts; `set-option` refuses
    /// to change it, so no command can widen the limits or rights it is judged by.
    Startup,
}

impl Effect {
    pub fn describe(self) -> &'static str {
        match self {
            Effect::Live => "live",
            Effect::New => "new panes",
            Effect::None => "accepted, no effect yet",
            Effect::Startup => "configuration file only",
        }
    }
}

/// One option.
#[derive(Clone, Copy, Debug)]
pub struct OptionDef {
    pub name: &'static str,
    pub scope: Scope,
    pub kind: Kind,
    /// The default as text (parsed by the kind); for arrays, elements joined by `\n`.
    pub default: &'static str,
    pub effect: Effect,
    /// Where the configuration file sets it (`section.key`), if it has a key of its own;
    /// any option can also be set in `[options]` by name.
    pub toml: Option<&'static str>,
    pub doc: &'static str,
}

const fn n(min: i64, max: i64) -> Kind {
    Kind::Number { min, max }
}

/// tmux's `INT_MAX` bound.
const INT: i64 = i32::MAX as i64;
const MAX_HISTORY: i64 = limits::MAX_HISTORY_LINES as i64;

/// tmux's default `status-format` (as `show -gv status-format[N]` prints it in 3.3a and
/// 3.5): element 0 is the whole first line made of the status options, which fugue
/// draws from the options themselves; element 1 lists the current window's panes
/// (`status_line::DEFAULT_FORMAT_1`, what a second line shows). Shown as tmux's so
/// tools reading the array (libtmux's `show_option("status-format")`) find both.
const STATUS_FORMAT: &str = concat!(
    "#[align=left range=left #{E:status-left-style}]#[push-default]#{T;=/#{status-left-length}:status-left}#[pop-default]#[norange default]#[list=on align=#{status-justify}]#[list=left-marker]<#[list=right-marker]>#[list=on]#{W:#[range=window|#{window_index} #{E:window-status-style}#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, #{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, #{E:window-status-activity-style},}}]#[push-default]#{T:window-status-format}#[pop-default]#[norange default]#{?window_end_flag,,#{window-status-separator}},#[range=window|#{window_index} list=focus #{?#{!=:#{E:window-status-current-style},default},#{E:window-status-current-style},#{E:window-status-style}}#{?#{&&:#{window_last_flag},#{!=:#{E:window-status-last-style},default}}, #{E:window-status-last-style},}#{?#{&&:#{window_bell_flag},#{!=:#{E:window-status-bell-style},default}}, #{E:window-status-bell-style},#{?#{&&:#{||:#{window_activity_flag},#{window_silence_flag}},#{!=:#{E:window-status-activity-style},default}}, #{E:window-status-activity-style},}}]#[push-default]#{T:window-status-current-format}#[pop-default]#[norange list=on default]#{?window_end_flag,,#{window-status-separator}}}#[nolist align=right range=right #{E:status-right-style}]#[push-default]#{T;=/#{status-right-length}:status-right}#[pop-default]#[norange default]",
    "\n",
    "#[align=centre]#{P:#{?pane_active,#[reverse],}#{pane_index}[#{pane_width}x#{pane_height}]#[default] }"
);

macro_rules! table {
    ($($name:literal $scope:ident $kind:expr, $default:expr, $effect:ident, $toml:expr, $doc:literal;)*) => {
        /// Every option, in tmux's order.
        pub static OPTIONS: &[OptionDef] = &[$(OptionDef {
            name: $name,
            scope: Scope::$scope,
            kind: $kind,
            default: $default,
            effect: Effect::$effect,
            toml: $toml,
            doc: $doc,
        }),*];
    };
}

use Kind::*;

table! {
    // Server options.
    "backspace" Server Key, "C-?", None, Option::None, "the key sent for backspace";
    "buffer-limit" Server n(1, 10000), "50", Live, Some("server.buffer_limit"), "the most automatic paste buffers; the oldest goes (fugue caps at 10000)";
    "command-alias" Server Array, "split-pane=split-window\nsplitp=split-window\nserver-info=show-messages -JT\ninfo=show-messages -JT\nchoose-window=choose-tree -w\nchoose-session=choose-tree -s", None, Option::None, "custom command names";
    "copy-command" Server Str, "", Live, Some("copy.copy_command"), "a shell command that gets each copy on its stdin (clients get it when told of the change)";
    "default-terminal" Server Str, "xterm-256color", New, Some("server.term"), "TERM for programs in new panes (fugue's default: xterm-256color)";
    "editor" Server Str, "/usr/bin/vi", None, Option::None, "the editor for commands that open one";
    "escape-time" Server n(0, INT), "500", None, Option::None, "how long to wait after Escape for a sequence (fugue's client reads whole sequences at once)";
    "exit-empty" Server Flag, "on", None, Option::None, "exit the server when no sessions remain (fugue always does)";
    "exit-unattached" Server Flag, "off", None, Option::None, "exit the server when no clients are attached";
    "extended-keys" Server Choice(&["off", "on", "always"]), "off", None, Option::None, "extended key reports (fugue follows each pane's kitty/modifyOtherKeys request)";
    "focus-events" Server Flag, "on", None, Option::None, "pass focus events to programs: fugue always does for programs that ask (mode 1004), so it says `on` (tmux: `off`), as programs that read it (Claude Code) should hear";
    "history-file" Server Str, "", None, Option::None, "file for the command prompt's history";
    "message-limit" Server n(0, INT), "1000", Live, Option::None, "messages kept in the message log";
    "prompt-history-limit" Server n(0, 65536), "100", Live, Option::None, "command prompt history entries kept";
    "set-clipboard" Server Choice(&["off", "external", "on"]), "external", Live, Some("passthrough.set_clipboard"), "programs' and fugue's copies (OSC 52) to the terminal's clipboard";
    "terminal-overrides" Server Array, "", None, Option::None, "terminfo overrides of outer terminals";
    "terminal-features" Server Array, "xterm*:clipboard:ccolour:cstyle:focus:title\nscreen*:title\nrxvt*:ignorefkeys", None, Option::None, "features of outer terminals (tmux 3.5's default)";
    "user-keys" Server Array, "", None, Option::None, "user key sequences";
    // fugue's own server options.
    "input-ready-wait" Server n(0, 60000), "3000", Live, Some("server.input_ready_wait_ms"), "fugue's: ms input sent to a new pane (send-keys, MCP, tags; not a person's keys) waits for the program's first output, so a shell that flushes early input loses none";
    "teammate-placement" Server Choice(&["split", "window"]), "split", Live, Some("server.teammate_placement"), "fugue's: where Claude Code's agent-team teammates go: `split` the lead's window as it asks, or a `window` per team";
    "pane-borders" Server Choice(&["boxed", "shared"]), "boxed", Live, Some("server.pane_borders"), "fugue's: `boxed` draws each pane in a box of its own (fugue's look); `shared` draws tmux's shared one-cell borders with no outer frame and gives panes exactly tmux's sizes (the default for a server started through the `tmux` name)";
    "tmux-compat" Server Flag, "on", New, Some("server.tmux_compat"), "fugue's: new panes find fugue as `tmux` (PATH) and get TMUX and TMUX_PANE, so programs that drive tmux (Claude Code's agent teams) drive fugue";
    "allow-title-reports" Server Flag, "off", Live, Some("server.allow_title_reports"), "answer programs asking for their title (CSI 21 t), as xterm's allowTitleOps";
    "frame-rate" Server n(1, 1000), "60", Startup, Some("server.frame_rate"), "most screen updates per second for one busy pane";
    "get-clipboard" Server Choice(&["off", "buffer"]), "off", Live, Some("passthrough.get_clipboard"), "what a program asking for the clipboard (OSC 52 ?) gets";
    "main-pane-percent" Server n(10, 90), "60", Live, Some("server.main_pane_percent"), "share of the window the main pane gets in main-* layouts (next layout applied)";
    "max-connections" Server n(8, 65536), "512", Startup, Some("server.max_connections"), "client and MCP connections served at once";
    "max-input-bytes" Server n(65536, limits::MAX_PANE_INPUT_BYTES as i64), "16777216", Startup, Some("server.max_input_bytes"), "bytes that may wait to be written to one pane";
    "max-osc-bytes" Server n(4096, limits::MAX_OSC_BYTES as i64), "1048576", Startup, Some("server.max_osc_bytes"), "the longest OSC string a program may print";
    "message-human-pause" Server n(0, 600000), "2000", Live, Some("messages.human_pause_ms"), "ms without a person typing before send_message types";
    "message-max-queued" Server n(1, 1024), "16", Live, Some("messages.max_queued"), "messages that may wait for one pane";
    "message-quiescence" Server n(0, 600000), "500", Live, Some("messages.quiescence_ms"), "default quiet time of a message, in ms";
    "search-incremental" Server Flag, "off", Live, Some("copy.search_incremental"), "copy mode's search moves as the pattern is typed";
    "search-regex" Server Flag, "off", Live, Some("copy.search_regex"), "copy mode's search patterns are regular expressions";
    "wait-default-timeout" Server n(1, 86400000), "30000", Live, Some("waits.default_timeout_ms"), "timeout of a wait that names none, in ms";
    "wait-max-timeout" Server n(1, 86400000), "300000", Live, Some("waits.max_timeout_ms"), "the longest any wait may last, in ms";
    // Session options.
    "activity-action" Session Choice(&["none", "any", "current", "other"]), "other", None, Option::None, "which activity alerts are shown";
    "assume-paste-time" Session n(0, INT), "1", None, Option::None, "keys this close together are a paste (ms)";
    "base-index" Session n(0, INT), "0", Live, Option::None, "the first window's index (new windows and sessions, renumbering)";
    "bell-action" Session Choice(&["none", "any", "current", "other"]), "any", Live, Some("passthrough.bell_action"), "which bells ring the client's terminal (global value)";
    "default-command" Session Str, "", New, Some("server.default_command"), "the command new panes run; empty: the default shell";
    "default-shell" Session Str, "/bin/sh", None, Option::None, "the shell for default-command (fugue uses $SHELL)";
    "default-size" Session Size, "80x24", New, Some("server.default_width"), "size of new detached sessions (server.default_width/height)";
    "destroy-unattached" Session Flag, "off", None, Option::None, "close a session when its last client detaches";
    "detach-on-destroy" Session Choice(&["off", "on", "no-detached", "previous", "next"]), "on", None, Option::None, "what a client does when its session closes";
    "display-panes-active-colour" Session Colour, "red", Live, Option::None, "display-panes' active pane colour";
    "display-panes-colour" Session Colour, "blue", Live, Option::None, "display-panes' colour";
    "display-panes-time" Session n(1, INT), "1000", Live, Option::None, "how long display-panes shows (ms)";
    "display-time" Session n(0, INT), "750", Live, Option::None, "how long status messages show (ms)";
    "history-limit" Session n(0, MAX_HISTORY), "10000", New, Some("server.history_limit"), "lines of history of new panes: their session's value, else the global one, as tmux (fugue's default 10000, at most 1000000)";
    "key-table" Session Str, "root", None, Option::None, "the key table used without the prefix";
    "lock-after-time" Session n(0, INT), "0", Live, Option::None, "lock after this many idle seconds";
    "lock-command" Session Str, "lock -np", Live, Option::None, "the command that locks";
    "message-command-style" Session Style, "bg=black,fg=yellow", None, Option::None, "style of the command prompt in vi command mode";
    "message-style" Session Style, "bg=yellow,fg=black", Live, Option::None, "style of status messages";
    "mouse" Session Flag, "on", Live, Some("keys.mouse"), "fugue's own use of the mouse (fugue's default: on; global value)";
    "prefix" Session Key, "C-b", Live, Some("keys.prefix"), "the prefix key (global value)";
    "prefix2" Session Key, "None", None, Option::None, "a second prefix key";
    "renumber-windows" Session Flag, "off", Live, Option::None, "renumber windows when one closes";
    "repeat-time" Session n(0, 32767), "500", Live, Some("keys.repeat_time_ms"), "how long repeatable keys repeat without the prefix (ms; global value)";
    "set-titles" Session Flag, "off", Live, Some("passthrough.set_titles"), "set the terminal's title (global value)";
    "set-titles-string" Session Str, "#S:#I:#W - \"#T\"", Live, Some("passthrough.set_titles_string"), "the title's format (fugue's default leaves out #{session_alerts})";
    "silence-action" Session Choice(&["none", "any", "current", "other"]), "other", None, Option::None, "which silence alerts are shown";
    "status" Session Choice(&["off", "on", "2", "3", "4", "5"]), "on", Live, Some("status.enabled"), "show the status bar: on is one line, 2 to 5 that many (global value)";
    "status-bg" Session Colour, "default", Live, Option::None, "status background (use status-style)";
    "status-fg" Session Colour, "default", Live, Option::None, "status foreground (use status-style)";
    "status-format" Session Array, STATUS_FORMAT, Live, Option::None, "lines 1 to 4 of a status of 2 to 5 lines (line 0 is status-left, the windows, status-right; fugue draws it from those options, not from status-format[0])";
    "status-interval" Session n(0, INT), "15", Live, Option::None, "seconds between status redraws";
    "status-justify" Session Choice(&["left", "centre", "right", "absolute-centre"]), "left", Live, Option::None, "where the window list goes";
    "status-keys" Session Choice(&["emacs", "vi"]), "emacs", None, Option::None, "keys of the command prompt";
    "status-left" Session Str, "[#{session_name}] ", Live, Option::None, "the status bar's left part";
    "status-left-length" Session n(0, i16::MAX as i64), "10", Live, Option::None, "its longest width";
    "status-left-style" Session Style, "default", Live, Option::None, "its style";
    "status-position" Session Choice(&["top", "bottom"]), "bottom", Live, Option::None, "where the status bar goes";
    "status-right" Session Str, "#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}\"#{=21:pane_title}\" %H:%M %d-%b-%y", Live, Option::None, "the status bar's right part";
    "status-right-length" Session n(0, i16::MAX as i64), "40", Live, Option::None, "its longest width";
    "status-right-style" Session Style, "default", Live, Option::None, "its style";
    "status-style" Session Style, "bg=green,fg=black", Live, Option::None, "the status bar's style";
    "update-environment" Session Array, "DISPLAY\nKRB5CCNAME\nSSH_ASKPASS\nSSH_AUTH_SOCK\nSSH_AGENT_PID\nSSH_CONNECTION\nWINDOWID\nXAUTHORITY", New, Option::None, "variables copied from a client's environment into the session's when it makes or attaches to the session (removed when the client lacks them)";
    "visual-activity" Session Choice(&["off", "on", "both"]), "off", None, Option::None, "show activity alerts as messages";
    "visual-bell" Session Choice(&["off", "on", "both"]), "off", None, Option::None, "show bells as messages";
    "visual-silence" Session Choice(&["off", "on", "both"]), "off", None, Option::None, "show silence alerts as messages";
    "word-separators" Session Str, "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~", None, Option::None, "word boundaries in copy mode";
    // Window options (and window-and-pane ones).
    "cursor-colour" WindowPane Colour, "none", None, Option::None, "the cursor's colour";
    "cursor-style" WindowPane Choice(&["default", "blinking-block", "block", "blinking-underline", "underline", "blinking-bar", "bar"]), "default", None, Option::None, "the cursor's shape";
    "aggressive-resize" Window Flag, "off", None, Option::None, "size windows to the clients showing them (fugue always does: a window belongs to one session)";
    "allow-passthrough" WindowPane Choice(&["off", "on", "all"]), "off", None, Option::None, "programs may pass sequences to the terminal (DCS tmux;)";
    "allow-rename" WindowPane Flag, "off", None, Option::None, "programs may rename the window";
    "alternate-screen" WindowPane Flag, "on", None, Option::None, "programs may use the alternate screen";
    "automatic-rename" Window Flag, "on", Live, Option::None, "name windows after their program; a window given a name (`new-window -n`, `rename-window`) has it off";
    "automatic-rename-format" Window Str, "#{?pane_in_mode,[tmux],#{pane_current_command}}#{?pane_dead,[dead],}", None, Option::None, "the automatic name's format";
    "clock-mode-colour" Window Colour, "blue", Live, Option::None, "clock mode's colour";
    "clock-mode-style" Window Choice(&["12", "24"]), "24", Live, Option::None, "clock mode's hours";
    "copy-mode-match-style" Window Style, "bg=cyan,fg=black", None, Option::None, "search matches in copy mode";
    "copy-mode-current-match-style" Window Style, "bg=magenta,fg=black", None, Option::None, "the current match in copy mode";
    "copy-mode-mark-style" Window Style, "bg=red,fg=black", None, Option::None, "the marked line in copy mode";
    "fill-character" Window Str, "", None, Option::None, "fills the unused part of a window";
    "main-pane-height" Window CellsOrPercent, "24", Live, Option::None, "main pane height in main-horizontal (next layout applied; left at its default, main-pane-percent sizes it)";
    "main-pane-width" Window CellsOrPercent, "80", Live, Option::None, "main pane width in main-vertical (next layout applied; left at its default, main-pane-percent sizes it)";
    "mode-keys" Window Choice(&["emacs", "vi"]), "vi", Live, Some("copy.mode_keys"), "copy mode's keys (fugue's default: vi; global value)";
    "mode-style" Window Style, "bg=yellow,fg=black", None, Option::None, "copy mode's selection style";
    "monitor-activity" Window Flag, "off", None, Option::None, "flag windows with activity";
    "monitor-bell" Window Flag, "on", None, Option::None, "flag windows that rang, ring for them (`bell-action`) and run `alert-bell`";
    "monitor-silence" Window n(0, INT), "0", None, Option::None, "flag windows silent this many seconds";
    "other-pane-height" Window CellsOrPercent, "0", None, Option::None, "other panes' height in main-horizontal";
    "other-pane-width" Window CellsOrPercent, "0", None, Option::None, "other panes' width in main-vertical";
    "pane-active-border-style" WindowPane Style, "#{?pane_in_mode,fg=yellow,#{?synchronize-panes,fg=red,fg=green}}", Live, Option::None, "the active pane's border (drawn with `pane-borders shared`; a pane may set its own, as tmux 3.3 takes `set -p`)";
    "pane-base-index" Window n(0, u16::MAX as i64), "0", Live, Option::None, "the first pane's index (#{pane_index}, targets); fugue takes the global value for every window";
    "pane-border-format" WindowPane Str, "#{?pane_active,#[reverse],}#{pane_index}#[default] \"#{pane_title}\"", Live, Option::None, "text in pane borders (with `pane-borders shared`)";
    "pane-border-indicators" Window Choice(&["off", "colour", "arrows", "both"]), "colour", Live, Option::None, "how the active pane's border shows (with `pane-borders shared`)";
    "pane-border-lines" Window Choice(&["single", "double", "heavy", "simple", "number"]), "single", Live, Option::None, "border characters (with `pane-borders shared`)";
    "pane-border-status" Window Choice(&["off", "top", "bottom"]), "off", Live, Option::None, "a status line in pane borders (with `pane-borders shared`; it takes a row, as in tmux)";
    "pane-border-style" WindowPane Style, "default", Live, Option::None, "pane borders' style (drawn with `pane-borders shared`; a pane may set its own, as tmux 3.3 takes `set -p`)";
    "pane-colours" WindowPane Array, "", None, Option::None, "the pane's palette";
    "popup-style" Window Style, "default", None, Option::None, "popups' style";
    "popup-border-style" Window Style, "default", None, Option::None, "popups' border style";
    "popup-border-lines" Window Choice(&["single", "double", "heavy", "simple", "rounded", "padded", "none"]), "single", None, Option::None, "popups' border characters";
    "remain-on-exit" WindowPane Choice(&["off", "on", "failed"]), "off", Live, Some("server.remain_on_exit"), "keep a pane whose program exited (failed: only on a non-zero status)";
    "remain-on-exit-format" WindowPane Str, "Pane is dead (#{?#{!=:#{pane_dead_status},},status #{pane_dead_status},}#{?#{!=:#{pane_dead_signal},},signal #{pane_dead_signal},}, #{t:pane_dead_time})", None, Option::None, "the dead pane's message";
    "scroll-on-clear" WindowPane Flag, "on", None, Option::None, "a clear screen scrolls into history (fugue always does, tmux's default; off is not read yet)";
    "synchronize-panes" WindowPane Flag, "off", Live, Option::None, "keys and text typed into a pane go to every pane of the window that has it on";
    "window-active-style" WindowPane Style, "default", None, Option::None, "the active pane's style";
    "window-size" Window Choice(&["largest", "smallest", "manual", "latest"]), "latest", Live, Option::None, "which clients size a session's windows: the latest active (attached, typed, resized), the largest, the smallest, or none (manual: the size it has)";
    "window-style" WindowPane Style, "default", None, Option::None, "panes' default style";
    "window-status-activity-style" Window Style, "reverse", Live, Option::None, "windows with activity in the status bar";
    "window-status-bell-style" Window Style, "reverse", Live, Option::None, "windows that rang";
    "window-status-current-format" Window Str, "#I:#W#{?window_flags,#{window_flags}, }", Live, Option::None, "the current window in the status bar";
    "window-status-current-style" Window Style, "default", Live, Option::None, "its style";
    "window-status-format" Window Str, "#I:#W#{?window_flags,#{window_flags}, }", Live, Option::None, "other windows in the status bar";
    "window-status-last-style" Window Style, "default", Live, Option::None, "the last window's style";
    "window-status-separator" Window Str, " ", Live, Option::None, "between windows in the status bar";
    "window-status-style" Window Style, "default", Live, Option::None, "windows' style in the status bar";
    "wrap-search" Window Flag, "on", Live, Some("copy.wrap_search"), "copy mode's searches go on from the other end (global value)";
    "xterm-keys" Window Flag, "on", None, Option::None, "xterm-style modified keys (fugue always sends them)";
}

/// The option named exactly `name`.
pub fn find(name: &str) -> Option<&'static OptionDef> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// How a name given by a caller matched.
pub enum Lookup {
    Found(&'static OptionDef),
    Ambiguous(Vec<&'static str>),
    Unknown,
}

/// `name` exactly, or the one option it is a prefix of, as tmux's `options_match`.
/// Underscores count as hyphens (TOML keys), as the configuration file allows.
pub fn lookup(name: &str) -> Lookup {
    let name = name.replace('_', "-");
    if let Some(o) = find(&name) {
        return Lookup::Found(o);
    }
    let matches: Vec<&'static OptionDef> = OPTIONS
        .iter()
        .filter(|o| o.name.starts_with(&name))
        .collect();
    match matches.as_slice() {
        [one] => Lookup::Found(one),
        [] => Lookup::Unknown,
        many => Lookup::Ambiguous(many.iter().map(|o| o.name).collect()),
    }
}

/// The known names closest to an unknown one (sharing its first word), for the error.
pub fn similar(name: &str) -> Vec<&'static str> {
    let first = name.split(['-', '_']).next().unwrap_or(name);
    OPTIONS
        .iter()
        .filter(|o| !first.is_empty() && o.name.contains(first))
        .map(|o| o.name)
        .take(8)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_parse() {
        let mut names: Vec<_> = OPTIONS.iter().map(|o| o.name).collect();
        names.sort_unstable();
        let len = names.len();
        names.dedup();
        assert_eq!(names.len(), len);
        for o in OPTIONS {
            if o.kind != Kind::Array {
                super::super::value::parse(o, o.default)
                    .unwrap_or_else(|e| panic!("{}: default {:?}: {e}", o.name, o.default));
            }
        }
    }

    /// A second status line draws status-format[1]; the default is the one the
    /// client draws when the element is empty.
    #[test]
    fn status_format_default_is_tmuxs_two_lines() {
        let lines: Vec<&str> = STATUS_FORMAT.split('\n').collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("#[align=left range=left #{E:status-left-style}]"));
        assert_eq!(lines[1], fugue_protocol::status_line::DEFAULT_FORMAT_1);
    }

    #[test]
    fn prefixes_match_as_tmux() {
        assert!(matches!(lookup("history-limit"), Lookup::Found(o) if o.name == "history-limit"));
        assert!(matches!(lookup("history_limit"), Lookup::Found(o) if o.name == "history-limit"));
        assert!(matches!(lookup("hist"), Lookup::Ambiguous(v) if v.contains(&"history-file")));
        assert!(matches!(lookup("renumber"), Lookup::Found(o) if o.name == "renumber-windows"));
        assert!(matches!(lookup("foo"), Lookup::Unknown));
        // An exact name wins over longer names it prefixes.
        assert!(matches!(lookup("status"), Lookup::Found(o) if o.name == "status"));
    }
}
