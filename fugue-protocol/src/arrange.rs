//! Where panes go and how they are arranged: directions, split sizes, layouts, the
//! choices of `select-window`, `select-pane`, `resize-pane` and `list-panes`. Part of
//! the command set ([`crate::command`] re-exports them), kept apart so the command
//! declaration stays one readable file.

use serde::{Deserialize, Serialize};

/// A direction on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    /// tmux's `-L`, `-R`, `-U`, `-D` (`select-pane`, `resize-pane`): at most one.
    pub fn from_flags(
        left: bool,
        right: bool,
        up: bool,
        down: bool,
    ) -> Result<Option<Self>, String> {
        match (left, right, up, down) {
            (false, false, false, false) => Ok(None),
            (true, false, false, false) => Ok(Some(Direction::Left)),
            (false, true, false, false) => Ok(Some(Direction::Right)),
            (false, false, true, false) => Ok(Some(Direction::Up)),
            (false, false, false, true) => Ok(Some(Direction::Down)),
            _ => Err("give at most one of -L, -R, -U, -D".into()),
        }
    }

    pub fn parse(s: &str) -> Option<Direction> {
        match s.to_ascii_lowercase().as_str() {
            "left" | "l" => Some(Direction::Left),
            "right" | "r" => Some(Direction::Right),
            "up" | "u" | "top" => Some(Direction::Up),
            "down" | "d" | "bottom" => Some(Direction::Down),
            _ => None,
        }
    }
}

/// How much room a new pane takes from the pane it splits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SplitSize {
    /// Percent of the split pane's extent along the split (1..=99).
    Percent(u8),
    /// Cells (columns or rows) of the new pane along the split, borders not counted.
    Cells(u16),
}

impl SplitSize {
    /// tmux's `-l` (cells, or a percentage such as 30%) or `-p` (a percentage, which
    /// wins): `split-window`'s and `join-pane`'s size.
    pub fn from_flags(size: Option<&str>, percent: Option<u8>) -> Result<Option<Self>, String> {
        if let Some(p) = percent {
            return Ok(Some(SplitSize::Percent(p)));
        }
        let Some(s) = size else { return Ok(None) };
        let bad = || format!("invalid -l `{s}`: expected cells or a percentage like 30%");
        Ok(Some(match s.strip_suffix('%') {
            Some(p) => SplitSize::Percent(p.parse().map_err(|_| bad())?),
            None => SplitSize::Cells(s.parse().map_err(|_| bad())?),
        }))
    }
}

/// Preset arrangements of a window's panes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayoutPreset {
    EvenHorizontal,
    EvenVertical,
    MainVertical,
    MainHorizontal,
    Tiled,
}

impl LayoutPreset {
    /// The order `next-layout` cycles through.
    pub const CYCLE: [LayoutPreset; 5] = [
        LayoutPreset::EvenHorizontal,
        LayoutPreset::EvenVertical,
        LayoutPreset::MainHorizontal,
        LayoutPreset::MainVertical,
        LayoutPreset::Tiled,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LayoutPreset::EvenHorizontal => "even-horizontal",
            LayoutPreset::EvenVertical => "even-vertical",
            LayoutPreset::MainVertical => "main-vertical",
            LayoutPreset::MainHorizontal => "main-horizontal",
            LayoutPreset::Tiled => "tiled",
        }
    }

    pub fn parse(s: &str) -> Option<LayoutPreset> {
        LayoutPreset::CYCLE.into_iter().find(|p| p.name() == s)
    }

    pub fn next(self) -> LayoutPreset {
        let i = LayoutPreset::CYCLE
            .iter()
            .position(|p| *p == self)
            .unwrap_or(0);
        LayoutPreset::CYCLE[(i + 1) % LayoutPreset::CYCLE.len()]
    }

    /// The preset before this one in `next-layout`'s cycle (`previous-layout`).
    pub fn previous(self) -> LayoutPreset {
        let n = LayoutPreset::CYCLE.len();
        let i = LayoutPreset::CYCLE
            .iter()
            .position(|p| *p == self)
            .unwrap_or(0);
        LayoutPreset::CYCLE[(i + n - 1) % n]
    }
}

/// Which layout `select-layout` applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LayoutChoice {
    Preset(LayoutPreset),
    /// The preset after the one last applied to this window.
    Next,
    /// The preset before it (`previous-layout`, `select-layout -p`).
    Previous,
    /// The preset last applied, again (`select-layout` with no name); nothing when
    /// none was.
    Again,
    /// The target pane and its siblings evened out (`select-layout -E`).
    Spread,
    /// A layout as tmux writes it (`#{window_layout}`: checksum, sizes, splits),
    /// for a window with as many panes.
    Tmux(String),
    /// `select-layout -o`: the layout the window had before the last
    /// `select-layout` (again: the one after it); nothing when there was none.
    Undo,
}

/// Which panes `list-panes` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaneScope {
    /// The target window (default).
    Window,
    /// Every window of the target session.
    Session,
    /// Everything on the server.
    All,
    /// Just the target pane (for a window or session target: its active pane; with no
    /// target: the caller's pane), as `display-message -p` and `-P -F` print it.
    Pane,
}

/// Which window to select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowSelect {
    /// The window the target names.
    Target,
    Index(u32),
    Next,
    Previous,
    Last,
    /// `next-window -a`: the next window with an alert (bell, activity, silence),
    /// wrapping round.
    NextAlert,
    /// `previous-window -a`: the previous window with an alert.
    PreviousAlert,
    /// `select-window -T`: the window the target names, or the last window when that
    /// is already the current one.
    TargetOrLast,
}

/// Which pane to make active.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PaneSelect {
    /// The pane the target names.
    Target,
    Direction(Direction),
    Next,
    Previous,
    Last,
}

/// How to resize a pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Resize {
    /// Move the pane's border in `Direction` by this many cells.
    By(Direction, u16),
    /// Toggle zoom (the pane fills its window).
    ZoomToggle,
    /// Make the pane this many cells wide and/or high, box included (with tmux's shared
    /// borders: the pane and the border after it) (tmux's
    /// `resize-pane -x/-y`): its right (bottom) border moves, or its left (top) one when
    /// it is last in the window. A border dragged with the mouse sends this at every
    /// step: the size is absolute, so a step the server has not applied yet, or one it
    /// clamped, is not added up with the next.
    To {
        width: Option<u16>,
        height: Option<u16>,
    },
    /// `resize-pane -x/-y` from the CLI: cells (the box included) or a percentage of
    /// the window's width/height, as tmux takes `-x 30%`.
    ToSize {
        width: Option<SplitSize>,
        height: Option<SplitSize>,
    },
}

/// `resize-window`: a window's own size, kept whatever the clients' size (tmux's
/// `window-size manual`). The width and height (`-x`, `-y`) are taken first, then the
/// adjustment, then the clients' size if `fit` asks for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResizeWindow {
    pub target: Option<crate::Target>,
    pub width: Option<u16>,
    pub height: Option<u16>,
    /// Grow or shrink towards a side by this many cells (`-L -R -U -D`).
    pub adjust: Option<(Direction, u16)>,
    /// Take the largest (`-A`) or smallest (`-a`) attached client's size.
    pub fit: Option<WindowFit>,
}

/// Which attached client's size `resize-window -A/-a` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WindowFit {
    Largest,
    Smallest,
}
