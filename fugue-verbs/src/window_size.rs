//! `resize-window`: a window given its own size, apart from the clients' (tmux's
//! `window-size manual`).

use crate::convert_args::{direction, target};
use anyhow::bail;
use clap::Args;
use fugue_protocol::Command;
use fugue_protocol::arrange::{ResizeWindow, WindowFit};
use fugue_protocol::limits::{MAX_COLS, MAX_ROWS};

/// `resize-window [-aADLRU] [-x width] [-y height] [-t target-window] [adjustment]`.
#[derive(Args, Debug, Clone, Default)]
pub struct ResizeWindowArgs {
    #[arg(short = 't')]
    pub target: Option<String>,
    /// Take the smallest attached client's size.
    #[arg(short = 'a')]
    pub smallest: bool,
    /// Take the largest attached client's size.
    #[arg(short = 'A')]
    pub largest: bool,
    #[arg(short = 'L')]
    pub left: bool,
    #[arg(short = 'R')]
    pub right: bool,
    #[arg(short = 'U')]
    pub up: bool,
    #[arg(short = 'D')]
    pub down: bool,
    /// The window's width in cells.
    #[arg(short = 'x')]
    pub width: Option<u16>,
    /// The window's height in cells.
    #[arg(short = 'y')]
    pub height: Option<u16>,
    /// Cells the window grows or shrinks by with -L/-R/-U/-D (default 1).
    pub adjustment: Option<u16>,
}

impl ResizeWindowArgs {
    pub fn command(self) -> anyhow::Result<Command> {
        let within = |v: Option<u16>, max: u16, what: &str| -> anyhow::Result<Option<u16>> {
            match v {
                Some(n) if n == 0 || n > max => {
                    bail!("{what} {n} is out of range: give 1 to {max} cells")
                }
                v => Ok(v),
            }
        };
        let adjust = match self.adjustment {
            Some(0) => bail!("adjustment 0 is too small: give at least 1"),
            n => n.unwrap_or(1),
        };
        let fit = match (self.largest, self.smallest) {
            (true, _) => Some(WindowFit::Largest),
            (false, true) => Some(WindowFit::Smallest),
            (false, false) => None,
        };
        Ok(Command::ResizeWindow(ResizeWindow {
            target: target(self.target)?,
            width: within(self.width, MAX_COLS, "width")?,
            height: within(self.height, MAX_ROWS, "height")?,
            adjust: direction(self.left, self.right, self.up, self.down)?.map(|d| (d, adjust)),
            fit,
        }))
    }
}
