//! `select-layout`: tmux's presets (the main pane sized by `main-pane-width` /
//! `main-pane-height` when set, else fugue's `main-pane-percent`) and tmux layout
//! strings (`#{window_layout}`), so a saved layout restores.

use super::Exec;
use crate::options::Level;
use crate::session::layout::{Borders, Frame, Layout, Rect};
use fugue_protocol::cmd;
use fugue_protocol::{CommandError, LayoutChoice, LayoutPreset, Response, Target, WindowId};

/// The main pane's share (main, rest) in `preset`: `main-pane-width` (main-vertical)
/// or `main-pane-height` (main-horizontal) when a person set it, in cells (the pane's
/// own, its border added) or a percentage, else `percent` of the window.
fn main_share(
    exec: &Exec<'_>,
    wid: WindowId,
    preset: LayoutPreset,
    area: Rect,
    frame: Frame,
    percent: u8,
) -> (u32, u32) {
    let percent = u32::from(percent.clamp(1, 99));
    let by_percent = (percent, 100 - percent);
    let (name, extent) = match preset {
        LayoutPreset::MainVertical => ("main-pane-width", area.width),
        LayoutPreset::MainHorizontal => ("main-pane-height", area.height),
        _ => return by_percent,
    };
    let text = {
        let options = exec.server.options.lock();
        let def = crate::options::table::find(name);
        let set = options
            .effective(Level::Window(wid), name)
            .map(|(v, _)| v.text())
            .filter(|v| def.is_none_or(|d| *v != d.default));
        match set {
            Some(v) => v,
            None => return by_percent,
        }
    };
    let extent = u32::from(extent);
    let main = match text.strip_suffix('%') {
        Some(p) => p
            .parse::<u32>()
            .map(|p| extent.saturating_mul(p.min(100)) / 100)
            .unwrap_or(extent / 2),
        None => {
            let cells = u16::try_from(text.parse::<u32>().unwrap_or(80)).unwrap_or(u16::MAX);
            u32::from(frame.tile_cells(cells))
        }
    };
    // The other panes keep room for a box at least.
    let main = main.clamp(1, extent.saturating_sub(5).max(1));
    (main, extent.saturating_sub(main).max(1))
}

pub fn select_layout(
    exec: &mut Exec<'_>,
    target: Option<&Target>,
    choice: LayoutChoice,
) -> Result<Response, CommandError> {
    let percent = exec.server.config().server.main_pane_percent;
    {
        let mut tree = exec.server.mux.tree();
        let (sid, wid) = tree.resolve_window(target, &exec.ctx)?;
        exec.resolved = Some(wid.to_string());
        let (area, frame) = (tree.layout_area(wid), tree.frame(wid));
        let last = tree.window(wid).and_then(|w| w.last_preset);
        let preset = match choice {
            LayoutChoice::Preset(p) => Some(p),
            LayoutChoice::Next => Some(
                last.map(LayoutPreset::next)
                    .unwrap_or(LayoutPreset::EvenHorizontal),
            ),
            LayoutChoice::Previous => Some(
                last.map(LayoutPreset::previous)
                    .unwrap_or(LayoutPreset::Tiled),
            ),
            LayoutChoice::Again => last,
            LayoutChoice::Tmux(_) | LayoutChoice::Spread | LayoutChoice::Undo => None,
        };
        // -E: the pane a target names (else the window's active one) and the panes
        // beside it in its split.
        let spread_pane = match (&choice, target) {
            (LayoutChoice::Spread, Some(Target::Pane(p))) => Some(*p),
            (LayoutChoice::Spread, _) => tree.window(wid).map(|w| w.active),
            _ => None,
        };
        let share = preset.map(|p| main_share(exec, wid, p, area, frame, percent));
        let w = tree
            .window_mut(wid)
            .ok_or_else(|| CommandError::internal("window vanished"))?;
        // Kept for `-o`, as tmux's old_layout: whatever this select-layout does.
        let before = w.layout.clone();
        match (preset, share, choice) {
            (Some(preset), Some(share), _) => {
                // As in tmux, the main pane of the main-* presets is the first pane, so
                // cycling through the presets never reorders the panes.
                let first = w.layout.panes().first().copied().unwrap_or(w.active);
                let tiles = (frame.borders == Borders::Shared).then_some(area);
                w.layout.apply_preset_share(preset, first, share, tiles);
                w.last_preset = Some(preset);
            }
            (_, _, LayoutChoice::Tmux(s)) => {
                w.layout =
                    Layout::from_tmux(&s, &w.layout.panes(), frame.borders).map_err(|why| {
                        CommandError::invalid_argument(
                            "layout",
                            format!(
                                "invalid layout: {why}: {}",
                                fugue_protocol::excerpt::excerpt(&s)
                            ),
                        )
                    })?;
            }
            (_, _, LayoutChoice::Spread) => {
                if let Some(p) = spread_pane {
                    w.layout.spread(p, area);
                }
            }
            (_, _, LayoutChoice::Undo) => match w.old_layout.take() {
                Some(old) if same_panes(&old, &w.layout) => w.layout = old,
                Some(_) => {
                    return Err(CommandError::invalid_argument(
                        "layout",
                        "invalid layout: the panes changed since",
                    ));
                }
                // As tmux: no layout to go back to, nothing changes.
                None => return Ok(Response::Done),
            },
            // `select-layout` alone with no preset applied before: as tmux, nothing.
            (_, _, LayoutChoice::Again) => return Ok(Response::Done),
            _ => return Err(CommandError::internal("no layout chosen")),
        }
        w.old_layout = Some(before);
        w.zoomed = false;
        exec.server.relayout(&mut tree, sid);
    }
    exec.server.mux.changed();
    Ok(Response::Done)
}

/// Whether two layouts hold the same panes (an old layout fits the window still).
fn same_panes(a: &Layout, b: &Layout) -> bool {
    let (mut x, mut y) = (a.panes(), b.panes());
    x.sort();
    y.sort();
    x == y
}

super::handler!(
    cmd::SelectLayout,
    |exec, cmd::SelectLayout { target, layout }| select_layout(exec, target.as_ref(), layout)
);
