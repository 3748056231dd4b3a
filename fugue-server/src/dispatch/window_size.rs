//! `resize-window`: a window laid out at a size of its own, whatever the clients'
//! size, as tmux's `window-size manual` (tmux 3.5's cmd-resize-window semantics:
//! `-x`/`-y` first, then the adjustment, then `-A`/`-a`).

use super::Exec;
use crate::attached::WindowSize;
use crate::options::Level;
use crate::options::store::SetMode;
use fugue_protocol::arrange::{ResizeWindow, WindowFit};
use fugue_protocol::limits::{MAX_COLS, MAX_ROWS};
use fugue_protocol::{CommandError, Direction, Response};

pub fn resize_window(exec: &mut Exec<'_>, c: ResizeWindow) -> Result<Response, CommandError> {
    let server = exec.server;
    let mut tree = server.mux.tree();
    let (sid, wid) = tree.resolve_window(c.target.as_ref(), &exec.ctx)?;
    exec.resolved = Some(wid.to_string());
    let area = tree.window_area(wid);
    let mut width = c.width.unwrap_or(area.width);
    let mut height = c.height.unwrap_or(area.height);
    // As tmux: shrinking by more than the window has leaves it as it is.
    match c.adjust {
        Some((Direction::Left, n)) => width = width.checked_sub(n).unwrap_or(width),
        Some((Direction::Right, n)) => width = width.saturating_add(n),
        Some((Direction::Up, n)) => height = height.checked_sub(n).unwrap_or(height),
        Some((Direction::Down, n)) => height = height.saturating_add(n),
        None => {}
    }
    if let Some(fit) = c.fit {
        let policy = match fit {
            WindowFit::Largest => WindowSize::Largest,
            WindowFit::Smallest => WindowSize::Smallest,
        };
        let status_rows = server.config().status.rows();
        // No client on the session: the size new sessions get (tmux's
        // `default-size`).
        (width, height) = server
            .mux
            .attached
            .area_of(sid, status_rows, policy)
            .unwrap_or_else(|| {
                let config = server.config();
                (config.server.default_width, config.server.default_height)
            });
    }
    let size = (width.clamp(1, MAX_COLS), height.clamp(1, MAX_ROWS));
    {
        // Lock order: the tree, then the options (as the session's sizing).
        let mut options = server.options.lock();
        let def = crate::options::table::find("window-size");
        options
            .set(
                Level::Window(wid),
                def,
                "window-size",
                Some("manual"),
                SetMode::default(),
            )
            .map_err(|e| CommandError::internal(format!("window-size: {e}")))?;
    }
    if let Some(w) = tree.window_mut(wid) {
        w.manual_size = Some(size);
    }
    server.relayout(&mut tree, sid);
    drop(tree);
    server.mux.changed();
    Ok(Response::Done)
}

super::handler!(fugue_protocol::arrange::ResizeWindow, |exec, c| {
    resize_window(exec, c)
});
