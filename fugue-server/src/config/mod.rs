//! The configuration file.
//!
//! TOML at `$XDG_CONFIG_HOME/fugue/config.toml` (or `-f FILE`). Every field has a
//! default, documented in `config/fugue.toml`. A file that does not parse, or that holds
//! a key fugue does not know, is refused with the file, line, column and what was
//! expected: silently ignoring a typo is how an earlier multiplexer's prefix setting
//! went unnoticed.

mod agents;
mod copy;
mod keys;
pub mod mcp_http;
mod passthrough;
mod ranges;

pub use agents::{AgentsSection, MessagesSection, Preset, Scope, SidebandResults, TaskDelivery};
pub use copy::CopySection;
pub use keys::{Binding, KeysSection};
pub use mcp_http::McpHttpSection;
pub use passthrough::{BellAction, GetClipboard, PassthroughSection, SetClipboard};

use fugue_protocol::Tier;
use fugue_protocol::limits;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub server: ServerSection,
    pub status: StatusSection,
    pub keys: KeysSection,
    pub waits: WaitsSection,
    pub policy: PolicySection,
    pub sideband: SidebandSection,
    pub agents: AgentsSection,
    pub messages: MessagesSection,
    pub passthrough: PassthroughSection,
    pub copy: CopySection,
    pub mcp_http: McpHttpSection,
    pub worktrees: WorktreesSection,
    /// Any option by its tmux name (hyphens or underscores), for options without a
    /// key of their own above: `status-left = "[#S] "`. See docs/options.md.
    pub options: toml::Table,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerSection {
    /// Lines of history kept per pane.
    #[serde(deserialize_with = "ranges::within::<_, _, 0, { limits::MAX_HISTORY_LINES as u64 }>")]
    pub history_limit: usize,
    /// Keep a pane whose program exited, showing its exit status.
    pub remain_on_exit: bool,
    /// The program new panes run; empty means `$SHELL` (or /bin/sh).
    pub default_command: Vec<String>,
    /// `TERM` for programs in panes.
    pub term: String,
    /// Window size of a session no client is attached to.
    #[serde(
        deserialize_with = "ranges::within::<_, _, { limits::MIN_SESSION_COLS as u64 }, { limits::MAX_COLS as u64 }>"
    )]
    pub default_width: u16,
    #[serde(
        deserialize_with = "ranges::within::<_, _, { limits::MIN_SESSION_ROWS as u64 }, { limits::MAX_ROWS as u64 }>"
    )]
    pub default_height: u16,
    /// Most screen updates per second sent to a client for one pane.
    #[serde(deserialize_with = "ranges::within::<_, _, 1, 1000>")]
    pub frame_rate: u32,
    /// Share of the window the main pane gets in main-* layouts.
    #[serde(deserialize_with = "ranges::within::<_, _, 10, 90>")]
    pub main_pane_percent: u8,
    /// The longest OSC string (title, clipboard) a program may print; longer ones are
    /// dropped whole.
    #[serde(deserialize_with = "ranges::within::<_, _, 4096, { limits::MAX_OSC_BYTES as u64 }>")]
    pub max_osc_bytes: usize,
    /// Bytes that may wait to be written to one pane's program; past it, writes are
    /// refused with `limit_exceeded`.
    #[serde(
        deserialize_with = "ranges::within::<_, _, 65536, { limits::MAX_PANE_INPUT_BYTES as u64 }>"
    )]
    pub max_input_bytes: usize,
    /// Client and MCP connections at once (never more than half the descriptor limit).
    #[serde(deserialize_with = "ranges::within::<_, _, 8, 65536>")]
    pub max_connections: usize,
    /// Answer a program's requests for its window title and icon name (`CSI 21 t`,
    /// `CSI 20 t`). Off by default, as in xterm (allowTitleOps): a title can hold text
    /// another program put there, and the answer is typed into the asking program.
    pub allow_title_reports: bool,
    /// The most automatic paste buffers (tmux's `buffer-limit`); the oldest goes
    /// when a new one would pass it. Named buffers do not count.
    #[serde(deserialize_with = "ranges::within::<_, _, 1, 10000>")]
    pub buffer_limit: usize,
    /// How long input sent to a new pane (not a person's keys) waits for the
    /// program's first output, in ms from the pane's start.
    #[serde(deserialize_with = "ranges::within::<_, _, 0, 60000>")]
    pub input_ready_wait_ms: u64,
    /// Programs in panes that run `tmux` get fugue (a private folder holding the
    /// `tmux` name leads the pane's PATH), and `TMUX`/`TMUX_PANE` are set.
    pub tmux_compat: bool,
    /// Where Claude Code's agent-team teammates go when it starts them through the
    /// `tmux` name (docs/tmux.md#agent-teams).
    pub teammate_placement: TeammatePlacement,
    /// fugue's box around each pane, or tmux's shared one-cell borders and pane sizes
    /// (the default for a server started through the `tmux` name).
    pub pane_borders: PaneBorders,
    /// What a starting server does with sessions its journal holds that are not
    /// running (docs/reliability.md#restoring).
    pub restore: RestoreWhen,
    /// Commands restored panes may run again at once (globs: `*` any text, `?` one
    /// character, matched against the whole command line). Any other command waits
    /// behind "press Enter to run". At most 256 patterns.
    #[serde(deserialize_with = "ranges::at_most::<_, 256>")]
    pub restore_commands: Vec<String>,
    /// What of each pane's content the journal keeps, shown again above a
    /// "restored from DATE" line when the pane is restored.
    pub persist_scrollback: PersistScrollback,
}

impl ServerSection {
    pub fn input_ready_wait(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.input_ready_wait_ms)
    }
}

/// `[server] persist_scrollback`: `"off"`, `"visible"` or a number of lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PersistScrollback {
    Off,
    /// The visible screen.
    #[default]
    Visible,
    /// The screen and this many lines of history above it (at most
    /// [`PersistScrollback::MAX_LINES`]; a pane keeps at most 8 MiB of text).
    Lines(u32),
}

impl PersistScrollback {
    pub const MAX_LINES: u32 = 100_000;
}

impl<'de> Deserialize<'de> for PersistScrollback {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Repr {
            Word(String),
            Lines(i64),
        }
        use serde::de::Error;
        match Repr::deserialize(d)? {
            Repr::Word(w) if w == "off" => Ok(PersistScrollback::Off),
            Repr::Word(w) if w == "visible" => Ok(PersistScrollback::Visible),
            Repr::Word(w) => Err(D::Error::custom(format!(
                "`{w}`: expected \"off\", \"visible\" or a number of lines"
            ))),
            Repr::Lines(n) if (0..=i64::from(Self::MAX_LINES)).contains(&n) => {
                Ok(PersistScrollback::Lines(n as u32))
            }
            Repr::Lines(n) => Err(D::Error::custom(format!(
                "{n} is out of range: expected 0 to {}",
                Self::MAX_LINES
            ))),
        }
    }
}

/// `[server] teammate_placement`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TeammatePlacement {
    /// Where Claude Code asks: a split of the lead's window, as in tmux.
    #[default]
    Split,
    /// A window of their own per team (named after it), leaving the lead's window
    /// whole (anthropics/claude-code#23615, #25396).
    Window,
}

/// `[server] pane_borders`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaneBorders {
    /// Each pane in a box of its own, its title in the box (fugue's look).
    #[default]
    Boxed,
    /// tmux's: panes separated by shared one-cell borders, no outer frame, and
    /// exactly tmux's pane sizes.
    Shared,
}

/// `[server] restore`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RestoreWhen {
    /// `always` after a kill or a crash, `ask` after a reboot.
    #[default]
    Auto,
    /// Keep them restorable; `fugue` asks, `fugue restore` brings them back.
    Ask,
    Always,
    /// Keep them restorable, never bring them back unasked.
    Never,
}

impl Default for ServerSection {
    fn default() -> Self {
        ServerSection {
            history_limit: 10_000,
            remain_on_exit: false,
            default_command: Vec::new(),
            term: "xterm-256color".into(),
            default_width: 80,
            default_height: 24,
            frame_rate: 60,
            main_pane_percent: 60,
            max_osc_bytes: limits::DEFAULT_OSC_BYTES,
            max_input_bytes: limits::DEFAULT_PANE_INPUT_BYTES,
            max_connections: 512,
            allow_title_reports: false,
            buffer_limit: 50,
            tmux_compat: true,
            input_ready_wait_ms: 3000,
            restore: RestoreWhen::Auto,
            teammate_placement: TeammatePlacement::Split,
            pane_borders: PaneBorders::Boxed,
            restore_commands: Vec::new(),
            persist_scrollback: PersistScrollback::Visible,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StatusSection {
    /// Show the status bar.
    pub enabled: bool,
    /// Its lines when shown (tmux's `status` 2 to 5; 1 is `on`).
    #[serde(deserialize_with = "ranges::within::<_, _, 1, 5>")]
    pub lines: u8,
}

impl Default for StatusSection {
    fn default() -> Self {
        StatusSection {
            enabled: true,
            lines: 1,
        }
    }
}

impl StatusSection {
    /// The rows the status line takes from the windows.
    pub fn rows(&self) -> u16 {
        if self.enabled {
            u16::from(self.lines.clamp(1, 5))
        } else {
            0
        }
    }
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WaitsSection {
    /// Timeout of a wait (wait-for, run-command) that names none.
    #[serde(deserialize_with = "ranges::within::<_, _, 1, 86400000>")]
    pub default_timeout_ms: u64,
    /// The longest any wait may last; longer requests are capped (and told so).
    #[serde(deserialize_with = "ranges::within::<_, _, 1, 86400000>")]
    pub max_timeout_ms: u64,
}

impl Default for WaitsSection {
    fn default() -> Self {
        WaitsSection {
            default_timeout_ms: 30_000,
            max_timeout_ms: 300_000,
        }
    }
}

/// Where `spawn-agent` with `worktree` puts agents' git worktrees.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WorktreesSection {
    /// The folder of worktrees, relative to the repository's top folder unless
    /// absolute; empty: `../NAME.worktrees` beside the repository.
    pub dir: String,
}

/// What each surface may do.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PolicySection {
    /// Command tiers (read, write, destroy) for CLI verbs.
    pub cli: Vec<Tier>,
    /// ...for keys of attached clients.
    pub keys: Vec<Tier>,
    /// ...for MCP tool calls.
    pub mcp: Vec<Tier>,
    /// ...for sideband tags.
    pub sideband: Vec<Tier>,
    /// Let an MCP caller or a sideband pane close its own pane, window or session, or
    /// kill the server.
    pub allow_self_destroy: bool,
    /// Which panes MCP connections see and control.
    pub mcp_scope: Scope,
    /// Which panes sideband tags see and control.
    pub sideband_scope: Scope,
    /// Agents may not type into, close or kill the first pane of a session a person
    /// made.
    pub protect_first_pane: bool,
    /// Agents may close the panes and windows they created (and their descendants)
    /// without the destroy tier; everything else still needs it.
    pub close_own: bool,
}

impl Default for PolicySection {
    fn default() -> Self {
        PolicySection {
            cli: vec![Tier::Read, Tier::Write, Tier::Destroy],
            keys: vec![Tier::Read, Tier::Write, Tier::Destroy],
            mcp: vec![Tier::Read, Tier::Write],
            sideband: vec![Tier::Read, Tier::Write],
            allow_self_destroy: false,
            mcp_scope: Scope::All,
            sideband_scope: Scope::All,
            protect_first_pane: true,
            close_own: true,
        }
    }
}

/// When panes are scanned for sideband tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SidebandMode {
    /// Scan panes that asked for it or run a program named in `enable_for`.
    On,
    /// Never scan.
    Off,
    /// As `on`, except panes whose agent is connected over MCP (MCP takes precedence).
    Auto,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SidebandSection {
    pub mode: SidebandMode,
    /// Program names whose panes are scanned without asking (for tags with the key).
    pub enable_for: Vec<String>,
    /// How many generations of panes spawned by sideband tags may exist.
    #[serde(deserialize_with = "ranges::within::<_, _, 0, 16>")]
    pub max_depth: u32,
    /// Live panes one pane may have spawned by sideband tags.
    #[serde(deserialize_with = "ranges::within::<_, _, 0, 256>")]
    pub max_children: u32,
    /// Tags a pane may run per second, and in a burst.
    pub rate_per_second: f64,
    #[serde(deserialize_with = "ranges::within::<_, _, 1, 10000>")]
    pub burst: u32,
    /// A tag without an id runs once per identical text within this many seconds.
    #[serde(deserialize_with = "ranges::within::<_, _, 0, 86400>")]
    pub dedup_seconds: u64,
    /// A possible tag longer than this is released to the screen unread.
    #[serde(deserialize_with = "ranges::within::<_, _, 256, 16777216>")]
    pub max_tag_bytes: usize,
    /// A possible tag still open when the pane has been quiet this long is released to
    /// the screen unread (an agent quoting `<fugue:notify>` in a usage line).
    #[serde(deserialize_with = "ranges::within::<_, _, 10, 60000>")]
    pub release_after_ms: u64,
}

impl Default for SidebandSection {
    fn default() -> Self {
        SidebandSection {
            mode: SidebandMode::Auto,
            enable_for: vec!["claude".into(), "codex".into(), "gemini".into()],
            max_depth: 3,
            max_children: 16,
            rate_per_second: 5.0,
            burst: 20,
            dedup_seconds: 60,
            max_tag_bytes: 64 * 1024,
            release_after_ms: 750,
        }
    }
}

/// A config file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("invalid config file {path}:\n{message}")]
    Invalid { path: PathBuf, message: String },
}

impl Config {
    /// Parses config text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let invalid = |message: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let config: Config = toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
        config.validate().map_err(invalid)?;
        Ok(config)
    }

    /// Loads `explicit` (which must exist), else the user's file if there is one, else
    /// the defaults.
    pub fn load(
        explicit: Option<&Path>,
        user_default: &Path,
    ) -> Result<(Config, Option<PathBuf>), ConfigError> {
        let path = match explicit {
            Some(p) => p.to_path_buf(),
            None if user_default.exists() => user_default.to_path_buf(),
            None => return Ok((Config::default(), None)),
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        Ok((Config::parse(&text, &path)?, Some(path)))
    }

    fn validate(&self) -> Result<(), String> {
        let s = &self.server;
        let sb = &self.sideband;
        if !(sb.rate_per_second > 0.0 && sb.rate_per_second <= 1000.0) {
            return Err("sideband.rate_per_second must be in (0, 1000]".into());
        }
        self.agents.validate()?;
        self.messages.validate()?;
        self.passthrough.validate()?;
        self.copy.validate()?;
        self.mcp_http.validate()?;
        // Every option the file sets must be one, with a value it takes.
        crate::options::apply::from_config(self)?;
        if s.term.is_empty() {
            return Err(
                "server.term is empty: expected a terminal name such as xterm-256color".into(),
            );
        }
        Ok(())
    }

    /// The program a pane runs when none is given.
    pub fn default_argv(&self) -> Vec<String> {
        if !self.server.default_command.is_empty() {
            return self.server.default_command.clone();
        }
        let shell = std::env::var("SHELL").ok().filter(|s| !s.is_empty());
        vec![shell.unwrap_or_else(|| "/bin/sh".into())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_default_file_is_the_default() {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../config/fugue.toml"));
        let text = std::fs::read_to_string(path).expect("config/fugue.toml exists");
        let parsed = Config::parse(&text, path).expect("config/fugue.toml parses");
        assert_eq!(parsed, Config::default());
    }

    /// The `[keys]` examples in config/fugue.toml, uncommented as a person would, bind
    /// what they say.
    #[test]
    fn the_documented_key_examples_bind() {
        let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../config/fugue.toml"));
        let text = std::fs::read_to_string(path).expect("config/fugue.toml exists");
        let examples: Vec<&str> = text
            .split("[keys.prefix_bindings]")
            .next()
            .and_then(|before| before.rsplit("# Example:").next())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix("#   "))
            .collect();
        assert_eq!(examples.len(), 3, "{examples:?}");
        let file = format!("[keys.prefix_bindings]\n{}\n", examples.join("\n"));
        let table = Config::parse(&file, Path::new("x.toml"))
            .unwrap()
            .keys
            .table();
        let line = |k: char| {
            table
                .lookup("prefix", &fugue_protocol::keys::Key::char(k))
                .map(|b| fugue_protocol::tmux_cmd::print_sequence(&b.commands))
        };
        assert_eq!(line('|').as_deref(), Some("split-window -h"));
        assert_eq!(
            line('-').as_deref(),
            Some("split-window -v -c \"#{pane_current_path}\"")
        );
        assert_eq!(line('%'), None);
    }

    #[test]
    fn unknown_keys_are_refused_with_a_location() {
        let err = Config::parse("[server]\nhistory_limt = 5\n", Path::new("/x.toml")).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("/x.toml"), "{msg}");
        assert!(msg.contains("line 2"), "{msg}");
        assert!(msg.contains("history_limit"), "{msg}");
    }

    #[test]
    fn wrong_types_say_what_was_expected() {
        let msg = Config::parse("[server]\nhistory_limit = \"lots\"\n", Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("line 2") && msg.contains("column"), "{msg}");
    }

    #[test]
    fn bad_key_names_and_actions_are_refused() {
        let msg = Config::parse(
            "[keys.prefix_bindings]\n\"C-Foo\" = \"zoom\"\n",
            Path::new("c.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(msg.contains("C-Foo"), "{msg}");
        let msg = Config::parse(
            "[keys.prefix_bindings]\nz = \"zoomify\"\n",
            Path::new("c.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(msg.contains("zoomify") && msg.contains("line 2"), "{msg}");
        let msg = Config::parse("[keys]\nprefix = \"C-Foo\"\n", Path::new("c.toml"))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("line 2"), "{msg}");
    }

    #[test]
    fn range_checks() {
        assert!(Config::parse("[server]\nframe_rate = 0\n", Path::new("c")).is_err());
    }

    /// Issue 11: sizes and limits from the config were trusted (`default_width = 65535`
    /// aborted the server on its first session; `history_limit = 100000000000` and
    /// `max_depth = 4294967295` were accepted). Each is refused with its position.
    #[test]
    fn issue_11_sizes_and_limits_are_bounded_with_a_position() {
        for (text, key) in [
            ("[server]\ndefault_width = 65535\n", "65535"),
            ("[server]\ndefault_height = 5000\n", "5000"),
            ("[server]\nhistory_limit = 100000000000\n", "100000000000"),
            ("[sideband]\nmax_depth = 4294967295\n", "4294967295"),
            ("[sideband]\nmax_children = 100000\n", "100000"),
            ("[server]\nmax_osc_bytes = 1\n", "1"),
            ("[server]\nmax_input_bytes = 99999999999\n", "99999999999"),
            ("[waits]\nmax_timeout_ms = 0\n", "0"),
        ] {
            let msg = Config::parse(text, Path::new("/c.toml"))
                .unwrap_err()
                .to_string();
            assert!(msg.contains("/c.toml"), "{text}: {msg}");
            assert!(msg.contains("line 2"), "{text}: {msg}");
            assert!(msg.contains("out of range"), "{text}: {msg}");
            assert!(msg.contains(key), "{text}: {msg}");
        }
        // The maxima themselves are fine.
        let ok = format!(
            "[server]\ndefault_width = {}\ndefault_height = {}\nhistory_limit = {}\n",
            fugue_protocol::limits::MAX_COLS,
            fugue_protocol::limits::MAX_ROWS,
            fugue_protocol::limits::MAX_HISTORY_LINES
        );
        Config::parse(&ok, Path::new("c")).unwrap();
    }
}
