//! `display-popup`: a floating pane over the window, its flags and their checks.

use crate::Caller;
use crate::args::SpawnArgs;
use crate::convert_args::{spawn, target};
use anyhow::bail;
use clap::Args;
use fugue_protocol::Command;
use std::path::PathBuf;

/// `display-popup [-BCE] [-b border-lines] [-c target-client] [-d start-directory]
/// [-e environment] [-h height] [-s border-style] [-S style] [-t target] [-T title]
/// [-w width] [-x position] [-y position] [shell-command]`.
#[derive(Args, Debug, Clone, Default)]
pub struct DisplayPopupArgs {
    /// Close the popup when its command exits (twice: only when it succeeds).
    #[arg(short = 'E', action = clap::ArgAction::Count)]
    pub close_on_exit: u8,
    /// Close the session's popup.
    #[arg(short = 'C')]
    pub close: bool,
    /// No border.
    #[arg(short = 'B')]
    pub no_border: bool,
    /// Width in cells or N% (default 50%).
    #[arg(short = 'w', value_name = "WIDTH")]
    pub width: Option<String>,
    /// Height in cells or N% (default 50%).
    #[arg(short = 'h', value_name = "HEIGHT")]
    pub height: Option<String>,
    /// The column of its left edge (or C, R).
    #[arg(short = 'x', value_name = "POSITION")]
    pub x: Option<String>,
    /// The row of its top edge (or C, S).
    #[arg(short = 'y', value_name = "POSITION")]
    pub y: Option<String>,
    /// The command's starting directory.
    #[arg(short = 'd', value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// The title on its top border.
    #[arg(short = 'T', value_name = "TITLE")]
    pub title: Option<String>,
    /// An environment variable for the command (NAME=VALUE; repeatable).
    #[arg(short = 'e', value_name = "VARIABLE")]
    pub env: Vec<String>,
    /// The border's lines (tmux's popup-border-lines): `none` draws no border, as
    /// -B; the others draw fugue's single-line border.
    #[arg(short = 'b', value_name = "BORDER-LINES")]
    pub border_lines: Option<String>,
    /// The client to show it on: fugue shows it on every client of the session,
    /// so it is accepted and names no one.
    #[arg(short = 'c', value_name = "CLIENT")]
    pub client: Option<String>,
    /// tmux's border style (-s) and popup style (-S): fugue's clients draw the
    /// popup in the pane border's colours, so they are accepted, not applied.
    #[arg(short = 's', value_name = "STYLE")]
    pub border_style: Option<String>,
    #[arg(short = 'S', value_name = "STYLE")]
    pub style: Option<String>,
    /// The session (default the caller's).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// The command (a single argument with spaces runs in the shell).
    #[arg(trailing_var_arg = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

impl DisplayPopupArgs {
    pub fn command(self, caller: &Caller) -> anyhow::Result<Command> {
        let DisplayPopupArgs {
            close_on_exit,
            close,
            no_border,
            width,
            height,
            x,
            y,
            cwd,
            title,
            env,
            border_lines,
            target: t,
            command,
            ..
        } = self;
        use fugue_protocol::popup::{PopupPos, PopupSize};
        const LINES: [&str; 7] = [
            "single", "rounded", "double", "heavy", "simple", "padded", "none",
        ];
        if let Some(b) = border_lines.as_deref().filter(|b| !LINES.contains(b)) {
            bail!("unknown border lines: {b} (one of {})", LINES.join(", "));
        }
        let no_border = no_border || border_lines.as_deref() == Some("none");
        let size = |s: Option<String>| {
            s.map(|s| PopupSize::parse(&s).map_err(anyhow::Error::msg))
                .transpose()
        };
        let pos = |s: Option<String>| {
            s.map(|s| PopupPos::parse(&s).map_err(anyhow::Error::msg))
                .transpose()
                .map(Option::unwrap_or_default)
        };
        let args = SpawnArgs {
            cwd,
            env,
            command,
            ..Default::default()
        };
        Ok(Command::DisplayPopup(fugue_protocol::popup::DisplayPopup {
            target: target(t)?,
            close,
            spawn: spawn(args, true, caller)?,
            width: size(width)?,
            height: size(height)?,
            x: pos(x)?,
            y: pos(y)?,
            title,
            close_on_exit: close_on_exit.min(2),
            no_border,
        }))
    }
}
