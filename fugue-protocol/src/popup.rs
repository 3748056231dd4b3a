//! What the attached client draws over the panes: `display-popup` (a pane of its own,
//! on the server, in no layout) and the commands whose answer is a person's at a
//! terminal (`confirm-before`, `display-menu`), which the server hands to the clients
//! attached to a session when they come from the CLI.

use crate::command::Spawn;
use crate::ids::PaneId;
use crate::target::Target;
use serde::{Deserialize, Serialize};

/// A size as tmux's `-w` / `-h` take it: cells, or `N%` of the client's area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PopupSize {
    Cells(u16),
    /// 1..=100.
    Percent(u8),
}

impl PopupSize {
    /// `40` or `50%`.
    pub fn parse(s: &str) -> Result<PopupSize, String> {
        let bad = || format!("`{s}` is not a size: give cells (40) or a percentage (50%)");
        match s.strip_suffix('%') {
            Some(p) => match p.parse::<u8>() {
                Ok(n @ 1..=100) => Ok(PopupSize::Percent(n)),
                _ => Err(bad()),
            },
            None => match s.parse::<u16>() {
                Ok(n) if n > 0 => Ok(PopupSize::Cells(n)),
                _ => Err(bad()),
            },
        }
    }

    /// The size in cells of `of` cells (at least 1).
    pub fn cells(self, of: u16) -> u16 {
        match self {
            PopupSize::Cells(n) => n.min(of),
            PopupSize::Percent(p) => {
                (u32::from(of) * u32::from(p) / 100).clamp(1, u32::from(of.max(1))) as u16
            }
        }
        .max(1)
    }
}

/// Where a popup goes along one axis (`-x` / `-y`): tmux's `C` centres it (the
/// default), a number is the cell of its left or top edge, `N%` a share of the room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PopupPos {
    #[default]
    Centre,
    Cell(u16),
    Percent(u8),
    /// tmux's `R` for -x and `S`... simplified: the far edge (right or bottom).
    End,
}

impl PopupPos {
    pub fn parse(s: &str) -> Result<PopupPos, String> {
        match s {
            // tmux's W (the window's place on the status line), P (the pane) and M
            // (the mouse), which its default menus use: centred here, as fugue does
            // not place a popup by them yet (docs/tmux.md).
            "C" | "W" | "P" | "M" => Ok(PopupPos::Centre),
            "R" | "S" => Ok(PopupPos::End),
            _ => match s.strip_suffix('%') {
                Some(p) => p
                    .parse::<u8>()
                    .ok()
                    .filter(|n| *n <= 100)
                    .map(PopupPos::Percent)
                    .ok_or_else(|| format!("`{s}` is not a position")),
                None => s.parse::<u16>().map(PopupPos::Cell).map_err(|_| {
                    format!("`{s}` is not a position: give a cell, N%, C (centre) or R")
                }),
            },
        }
    }

    /// The first cell of an extent `size` within `room` cells, kept inside.
    pub fn place(self, size: u16, room: u16) -> u16 {
        let free = room.saturating_sub(size);
        match self {
            PopupPos::Centre => free / 2,
            PopupPos::Cell(n) => n.min(free),
            PopupPos::Percent(p) => {
                (u32::from(room) * u32::from(p) / 100).min(u32::from(free)) as u16
            }
            PopupPos::End => free,
        }
    }
}

/// `display-popup`: a floating pane running a command over a session's window.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisplayPopup {
    /// The session (default the caller's).
    pub target: Option<Target>,
    /// `-C`: close the session's popup instead of opening one.
    pub close: bool,
    /// The command (default the shell) and `-d` its directory.
    pub spawn: Spawn,
    /// `-w` / `-h`: default half the area, as tmux.
    pub width: Option<PopupSize>,
    pub height: Option<PopupSize>,
    pub x: PopupPos,
    pub y: PopupPos,
    /// `-T`: the title on its top border.
    pub title: Option<String>,
    /// `-E`: 1 closes it when the command exits, 2 only when it succeeds.
    pub close_on_exit: u8,
    /// `-B`: no border.
    pub no_border: bool,
}

/// A popup as the client draws it: the whole box (border included) in the client's
/// area, and the pane inside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PopupRect {
    pub pane: PaneId,
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub title: String,
    pub border: bool,
    /// Its program ended and it stays open (no `-E`): a key closes it.
    pub exited: bool,
}

/// `confirm-before` or `display-menu` from the CLI: the tmux command line (its argv,
/// command name first) for the clients attached to the target session, which ask their
/// person and run the answer as a binding's command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientCommandLine {
    pub target: Option<Target>,
    /// `-t` as given: a client's name (`list-clients`), which asks alone; else
    /// `target` names the session whose clients ask.
    #[serde(default)]
    pub client: Option<String>,
    pub argv: Vec<String>,
}

/// Longest argv a client command line may carry, in bytes all told.
pub const MAX_CLIENT_LINE: usize = 16 * 1024;

impl ClientCommandLine {
    /// The line for `-t` as given, within its bound. tmux's `-t` here names a client
    /// (`/dev/pts/3`, `client-123`), which need not read as a target; fugue's older
    /// use names a session, which does.
    pub fn new(t: Option<String>, argv: Vec<String>) -> Result<Self, String> {
        let size: usize = argv.iter().map(String::len).sum();
        if size > MAX_CLIENT_LINE {
            return Err(format!(
                "the command line is longer than {MAX_CLIENT_LINE} bytes"
            ));
        }
        Ok(ClientCommandLine {
            target: t.as_deref().and_then(|s| s.parse::<Target>().ok()),
            client: t,
            argv,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_positions_parse_as_tmux_writes_them() {
        assert_eq!(PopupSize::parse("40"), Ok(PopupSize::Cells(40)));
        assert_eq!(PopupSize::parse("50%"), Ok(PopupSize::Percent(50)));
        assert!(PopupSize::parse("0").is_err());
        assert!(PopupSize::parse("101%").is_err());
        assert_eq!(PopupSize::Percent(50).cells(80), 40);
        assert_eq!(PopupSize::Cells(200).cells(80), 80);
        assert_eq!(PopupPos::parse("C"), Ok(PopupPos::Centre));
        assert_eq!(PopupPos::Centre.place(40, 80), 20);
        assert_eq!(PopupPos::Cell(70).place(40, 80), 40);
        assert_eq!(PopupPos::End.place(40, 80), 40);
        assert!(PopupPos::parse("x").is_err());
    }
}
