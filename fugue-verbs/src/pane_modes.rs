//! `copy-mode` and `choose-buffer` from the CLI: modes a terminal client shows over
//! a pane. The command line goes to the clients attached to the pane's session, as
//! `choose-tree`'s does; with none attached, the server keeps it on the pane for the
//! next client to show (tmux's modes are the pane's, whoever looks).

use clap::Args;

/// `copy-mode [-deHMqSu] [-s src-pane] [-t target-pane]`.
#[derive(Args, Debug, Clone, Default)]
pub struct CopyModeArgs {
    /// Leave copy mode when scrolled back to the bottom.
    #[arg(short = 'e')]
    pub exit_at_bottom: bool,
    /// Scroll one page up at once (`C-b PgUp`).
    #[arg(short = 'u')]
    pub page_up: bool,
    /// Scroll one page down (tmux 3.5).
    #[arg(short = 'd')]
    pub page_down: bool,
    /// Leave copy mode (and any other mode) instead.
    #[arg(short = 'q')]
    pub quit: bool,
    /// tmux's -H (hide the position indicator), -M (start a mouse drag) and -S
    /// (scrollbar drag): accepted; the client's copy mode draws its own indicator.
    #[arg(short = 'H')]
    pub hide_position: bool,
    #[arg(short = 'M')]
    pub mouse: bool,
    #[arg(short = 'S')]
    pub scrollbar: bool,
    /// Copy from this pane's contents (tmux 3.5): the client's copy mode reads the
    /// target pane only, so it is accepted and the target is shown.
    #[arg(short = 's', value_name = "SRC-PANE")]
    pub source: Option<String>,
    /// The pane.
    #[arg(short = 't')]
    pub target: Option<String>,
}

impl CopyModeArgs {
    /// The command line for the clients: the pane (`-t`) stays in it, since a client
    /// shows every pane of its window and enters copy mode on the one named.
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["copy-mode".to_string()];
        for (on, f) in [
            (self.exit_at_bottom, "-e"),
            (self.page_up, "-u"),
            (self.page_down, "-d"),
            (self.quit, "-q"),
        ] {
            if on {
                v.push(f.to_string());
            }
        }
        if let Some(t) = &self.target {
            v.extend(["-t".to_string(), t.clone()]);
        }
        v
    }
}

/// tmux's chooser flags that fugue's buffer and client choosers take and draw no
/// differently: `-N` (no preview), `-r` (reverse), `-Z` (zoom: the chooser covers
/// the window anyway), `-F`, `-f`, `-K` and `-O`. The choosers draw tmux's default
/// lines in tmux's default order.
#[derive(Args, Debug, Clone, Default)]
pub struct AcceptedChooserFlags {
    #[arg(short = 'N')]
    pub no_preview: bool,
    #[arg(short = 'r')]
    pub reverse: bool,
    #[arg(short = 'Z')]
    pub zoom: bool,
    #[arg(short = 'F', value_name = "FORMAT")]
    pub format: Option<String>,
    #[arg(short = 'f', value_name = "FILTER")]
    pub filter: Option<String>,
    #[arg(short = 'K', value_name = "KEY-FORMAT")]
    pub key_format: Option<String>,
    #[arg(short = 'O', value_name = "SORT-ORDER")]
    pub sort: Option<String>,
}

/// `choose-buffer [-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order]
/// [-t target-pane] [template]`.
#[derive(Args, Debug, Clone, Default)]
pub struct ChooseBufferArgs {
    #[command(flatten)]
    pub accepted: AcceptedChooserFlags,
    /// The pane whose clients choose (and that Enter pastes into).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// tmux's template: accepted; Enter pastes the buffer (tmux's default template).
    #[arg(trailing_var_arg = true)]
    pub template: Vec<String>,
}

impl ChooseBufferArgs {
    pub fn argv(&self) -> Vec<String> {
        vec!["choose-buffer".to_string()]
    }
}

/// `choose-client [-NrZ] [-F format] [-f filter] [-K key-format] [-O sort-order]
/// [-t target-pane] [template]`.
#[derive(Args, Debug, Clone, Default)]
pub struct ChooseClientArgs {
    #[command(flatten)]
    pub accepted: AcceptedChooserFlags,
    /// The pane whose clients choose.
    #[arg(short = 't')]
    pub target: Option<String>,
    /// The command Enter runs, `%%` the client's name (default
    /// `detach-client -t '%%'`).
    #[arg(trailing_var_arg = true)]
    pub template: Vec<String>,
}

impl ChooseClientArgs {
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["choose-client".to_string()];
        if !self.template.is_empty() {
            v.push("--".into());
            v.extend(self.template.iter().cloned());
        }
        v
    }
}

/// `clock-mode [-t target-pane]`.
#[derive(Args, Debug, Clone, Default)]
pub struct ClockModeArgs {
    /// The pane.
    #[arg(short = 't')]
    pub target: Option<String>,
}

impl ClockModeArgs {
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["clock-mode".to_string()];
        if let Some(t) = &self.target {
            v.extend(["-t".to_string(), t.clone()]);
        }
        v
    }
}

/// `customize-mode [-NZ] [-F format] [-f filter] [-t target-pane]`.
#[derive(Args, Debug, Clone, Default)]
pub struct CustomizeModeArgs {
    /// `-N`: start without the selected item's information.
    #[arg(short = 'N')]
    pub no_info: bool,
    /// `-Z`: zoom the pane (fugue's modes cover the window's panes already).
    #[arg(short = 'Z')]
    pub zoom: bool,
    /// `-F`: tmux's format of each line: accepted, fugue draws `name value`.
    #[arg(short = 'F', value_name = "FORMAT")]
    pub format: Option<String>,
    /// `-f`: show only the options whose name, and the keys whose name or command,
    /// contains this text (tmux: a format).
    #[arg(short = 'f', value_name = "FILTER")]
    pub filter: Option<String>,
    /// The pane whose values are shown.
    #[arg(short = 't')]
    pub target: Option<String>,
}

impl CustomizeModeArgs {
    pub fn argv(&self) -> Vec<String> {
        let mut v = vec!["customize-mode".to_string()];
        if self.no_info {
            v.push("-N".into());
        }
        if let Some(f) = &self.filter {
            v.extend(["-f".to_string(), f.clone()]);
        }
        if let Some(t) = &self.target {
            v.extend(["-t".to_string(), t.clone()]);
        }
        v
    }
}

/// tmux's names of the pane modes fugue has (`#{pane_mode}`).
pub const MODE_NAMES: &[&str] = &[
    "copy-mode",
    "clock-mode",
    "client-mode",
    "buffer-mode",
    "tree-mode",
    "options-mode",
];

/// The mode a pane-mode command line puts a pane in, by tmux's name for it
/// (`#{pane_mode}`); None for a line that is not one.
pub fn mode_name(argv: &[String]) -> Option<&'static str> {
    match argv.first().map(String::as_str)? {
        "copy-mode" => Some("copy-mode"),
        "clock-mode" => Some("clock-mode"),
        "choose-client" => Some("client-mode"),
        "customize-mode" => Some("options-mode"),
        "choose-buffer" => Some("buffer-mode"),
        "choose-tree" | "choose-window" | "choose-session" | "find-window" | "findw" => {
            Some("tree-mode")
        }
        _ => None,
    }
}
