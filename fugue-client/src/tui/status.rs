//! The status line: tmux's, drawn from the options the server sends
//! ([`fugue_protocol::status_line::StatusOptions`]): `status-left`, the window list
//! (`window-status-format` / `-current-format`, separator and styles), `status-right`,
//! laid out as tmux does ([`super::status_layout`]). A message (a notice) replaces the
//! whole line in `message-style` for `display-time`, as tmux's messages do; prompts
//! and questions take the line too. Copy mode's hint shows in place of
//! `status-right`; a pending prefix is the theme's to show (`#{client_prefix}`), as in
//! tmux. Agent badges follow the current window's label.

use super::state::{App, Mode};
use super::status_fmt::{self, StatusCtx, option_style};
use super::status_layout::{self, Cell, Parts, Side, cells};
use fugue_protocol::format;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

fn width(s: &str) -> u16 {
    u16::try_from(UnicodeWidthStr::width(s)).unwrap_or(u16::MAX)
}

/// A format expanded (strftime first, as tmux's status line) into cells, styled over
/// `base`, at most `max` columns.
fn expand_cells(
    fmt: &str,
    ctx: &StatusCtx<'_>,
    base: Style,
    window: Option<u32>,
    max: usize,
) -> Vec<Cell> {
    let text = format::expand_time(fmt, ctx);
    let mut out = Vec::new();
    for span in format::spans(&text) {
        out.extend(cells(
            &span.text,
            status_fmt::apply(base, &span.style),
            window,
        ));
        if out.len() >= max {
            out.truncate(max);
            break;
        }
    }
    out
}

/// The line's own style (`status-style`).
fn base_style(app: &App) -> Style {
    option_style(Style::default(), &app.status_opts.style)
}

/// The status line of `available` columns as the options describe it.
fn line(app: &App, available: usize) -> Vec<Option<Cell>> {
    let o = &app.status_opts;
    let base = base_style(app);
    let layout = app.layout.as_ref();
    let ctx = app.status_ctx();
    let left_base = option_style(base, &o.left_style);
    let left = expand_cells(&o.left, &ctx, left_base, None, usize::from(o.left_length));
    let right = match right_hint(app) {
        Some(text) => cells(&text, option_style(base, &o.message_style), None),
        None => {
            let right_base = option_style(base, &o.right_style);
            expand_cells(
                &o.right,
                &ctx,
                right_base,
                None,
                usize::from(o.right_length),
            )
        }
    };
    let (mut left, mut right) = (left, right);
    for (cells, side) in [(&mut left, Side::Left), (&mut right, Side::Right)] {
        for c in cells.iter_mut() {
            c.side = Some(side);
        }
    }
    let mut list = Vec::new();
    let mut focus = None;
    let windows = layout.map(|l| l.windows.as_slice()).unwrap_or(&[]);
    for (i, w) in windows.iter().enumerate() {
        let wctx = StatusCtx {
            window: Some(w),
            ..ctx
        };
        let mut st = option_style(base, &o.window_style);
        let fmt = if w.active {
            if o.window_current_style != "default" {
                st = option_style(base, &o.window_current_style);
            }
            &o.window_current_format
        } else {
            &o.window_format
        };
        if w.last && o.window_last_style != "default" {
            st = option_style(st, &o.window_last_style);
        }
        if w.bell && o.window_bell_style != "default" {
            st = option_style(st, &o.window_bell_style);
        } else if w.activity && o.window_activity_style != "default" {
            st = option_style(st, &o.window_activity_style);
        }
        let start = list.len();
        list.extend(expand_cells(fmt, &wctx, st, Some(w.index), usize::MAX));
        if w.active {
            let badges = format::FormatContext::var(&wctx, "fugue_badges").unwrap_or_default();
            if !badges.is_empty() {
                list.extend(cells(
                    &format!("[{badges}] "),
                    st.add_modifier(Modifier::BOLD),
                    Some(w.index),
                ));
            }
            focus = Some((start, list.len()));
        }
        if i + 1 < windows.len() {
            list.extend(expand_cells(
                &o.window_separator,
                &wctx,
                base,
                None,
                usize::MAX,
            ));
        }
    }
    let parts = Parts {
        left,
        right,
        list,
        focus,
        marker_left: cells("<", base, None),
        marker_right: cells(">", base, None),
    };
    status_layout::layout(&parts, available, o.justify)
}

/// What copy mode's status bar says: how to leave and search, or what is pending.
fn copy_hint(c: &super::copy::CopyMode) -> String {
    use fugue_protocol::ModeKeys;
    if let Some(n) = c.count {
        return format!(" copy: repeat {n} ");
    }
    if c.awaiting.is_some() {
        return " copy: jump to which character? ".into();
    }
    match c.opts.mode_keys {
        ModeKeys::Vi => " copy: q to leave, / ? search, v V C-v select, y copy ".into(),
        ModeKeys::Emacs => " copy: q to leave, C-s C-r search, C-Space select, M-w copy ".into(),
    }
}

/// What shows in place of `status-right`: copy mode's hint. A pending prefix draws
/// nothing of fugue's own over a theme's `status-right` (tmux draws none either): a
/// status line shows it with `#{client_prefix}`.
fn right_hint(app: &App) -> Option<String> {
    match &app.mode {
        Mode::Copy(c) => Some(copy_hint(c)),
        _ => None,
    }
}

/// The message shown over the whole line, if any.
fn message(app: &App) -> Option<&str> {
    app.notice.as_ref().map(|(t, _)| t.as_str())
}

/// What is drawn at column `col` of the bar in `area`, as the mouse keys name it: a
/// window's label, `status-left`, `status-right`, or the rest of the line.
pub fn range_at(app: &App, area: Rect, col: u16) -> StatusRange {
    if let Some(index) = window_at(app, area, col) {
        return StatusRange::Window(index);
    }
    let Some(at) = col.checked_sub(area.x).map(usize::from) else {
        return StatusRange::Default;
    };
    if message(app).is_some() {
        return StatusRange::Default;
    }
    let side = line(app, usize::from(area.width))
        .get(at)
        .and_then(|c| c.as_ref().and_then(|c| c.side));
    match side {
        Some(Side::Left) => StatusRange::Left,
        Some(Side::Right) => StatusRange::Right,
        None => StatusRange::Default,
    }
}

/// A part of the status line under the mouse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusRange {
    Window(u32),
    Left,
    Right,
    Default,
}

/// The index of the window whose label is drawn at column `col` of the bar in `area`.
pub fn window_at(app: &App, area: Rect, col: u16) -> Option<u32> {
    if !matches!(app.mode, Mode::Normal | Mode::Prefix | Mode::Copy(_)) || message(app).is_some() {
        return None;
    }
    let at = usize::from(col.checked_sub(area.x)?);
    line(app, usize::from(area.width))
        .get(at)?
        .as_ref()
        .and_then(|c| c.window)
}

/// Draws the status bar; returns where the terminal's cursor goes (in a prompt).
pub fn draw(buf: &mut Buffer, app: &App, area: Rect) -> Option<Position> {
    let base = base_style(app);
    let msg_style = option_style(base, &app.status_opts.message_style);
    match &app.mode {
        Mode::Prompt { kind, input } => {
            let prompt = match (kind, &app.template) {
                (super::state::PromptKind::Template, Some(t)) => t.prompt.clone(),
                (k, _) => k.prompt(),
            };
            let line = format!("{prompt}{}", input.text());
            let before = format!("{prompt}{}", input.before_cursor());
            let cursor_x = area.x + width(&before).min(area.width.saturating_sub(1));
            Paragraph::new(line).style(msg_style).render(area, buf);
            return Some(Position::new(cursor_x, area.y));
        }
        Mode::Copy(c) if c.prompt.is_some() => {
            let Some(p) = &c.prompt else { return None };
            // tmux's prompts: "(search up)" for `?` and C-r, "(search down)" for `/`.
            let label = if p.up { "search up" } else { "search down" };
            let line = format!("{label}: {}", p.input.text());
            let before = format!("{label}: {}", p.input.before_cursor());
            let cursor_x = area.x + width(&before).min(area.width.saturating_sub(1));
            Paragraph::new(line).style(msg_style).render(area, buf);
            return Some(Position::new(cursor_x, area.y));
        }
        Mode::Confirm { question, .. } => {
            Paragraph::new(question.as_str())
                .style(msg_style)
                .render(area, buf);
            return None;
        }
        _ => {}
    }
    if let Some(text) = message(app) {
        Paragraph::new(text).style(msg_style).render(area, buf);
        return None;
    }
    Paragraph::new("").style(base).render(area, buf);
    for (i, cell) in line(app, usize::from(area.width)).into_iter().enumerate() {
        let (Some(cell), Ok(dx)) = (cell, u16::try_from(i)) else {
            continue;
        };
        if let Some(c) = buf.cell_mut(Position::new(area.x + dx, area.y)) {
            if cell.text.is_empty() {
                // The second column of a wide character (the diff skips it).
                c.reset();
            } else {
                c.set_symbol(&cell.text);
            }
            c.set_style(cell.style);
        }
    }
    None
}

#[cfg(test)]
mod tests {

    /// The mouse finds a window where its label is drawn: after the session's name,
    /// each label with its trailing space, and nothing on the right part.
    #[test]
    fn clicks_find_the_window_drawn_under_them() {
        use super::super::state::App;
        use fugue_protocol::keys::{Key, KeyCode, Mods};
        use fugue_protocol::screen::{ClientLayout, Frame, WindowTab};
        let mut app = App::new(
            fugue_protocol::KeyTable {
                prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
                bindings: Vec::new(),
                repeat_time_ms: 0,
            },
            true,
            "s".into(),
        );
        let tab = |index, name: &str, active| WindowTab {
            index,
            name: name.into(),
            active,
            last: false,
            zoomed: false,
            activity: false,
            bell: false,
            silence: false,
            marked: false,
        };
        app.apply(Frame {
            layout: Some(ClientLayout {
                session: fugue_protocol::SessionId(1),
                session_name: "s".into(),
                windows: vec![tab(0, "sh", true), tab(3, "vim", false)],
                panes: Vec::new(),
                cols: 80,
                rows: 23,
                popup: None,
                shared_borders: None,
            }),
            panes: Vec::new(),
            outer: Default::default(),
        });
        let bar = ratatui::layout::Rect::new(0, 23, 80, 1);
        // tmux's default: "[s] 0:sh* 3:vim" (the flags, or a space, end each label).
        let at = |app: &App, col| super::window_at(app, bar, col);
        assert_eq!([at(&app, 0), at(&app, 3)], [None, None]);
        assert_eq!([at(&app, 4), at(&app, 8)], [Some(0), Some(0)]);
        // The separator is no window's.
        assert_eq!(at(&app, 9), None);
        assert_eq!([at(&app, 10), at(&app, 15)], [Some(3), Some(3)]);
        assert_eq!(at(&app, 16), None);
        app.notice("a notice as wide as the whole bar, over the windows' labels ........");
        assert_eq!(at(&app, 12), None);
    }
}
