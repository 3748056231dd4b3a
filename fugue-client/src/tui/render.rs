//! Drawing into a buffer: pane boxes with their screens, the status bar, and overlays.
//!
//! Cells are copied exactly as the server's screen holds them (colors, attributes, wide
//! characters). [`draw`] draws everything; [`draw_pane_rows`] redraws only some rows of
//! one pane, which is all a keystroke's echo or a busy pane's frame needs (see
//! `compositor.rs`).

use super::paint::Links;
use super::state::{App, Mode, PaneLinks, PaneView};
use fugue_protocol::screen::{ColorKind, Extra, PaneRect, attr};
use fugue_protocol::{PaneId, Row};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Paragraph, Widget};
use std::sync::Arc;

fn color(c: fugue_protocol::screen::Color) -> Color {
    match c.kind() {
        ColorKind::Default => Color::Reset,
        ColorKind::Indexed(i) => Color::Indexed(i),
        ColorKind::Rgb(r, g, b) => Color::Rgb(r, g, b),
    }
}

/// The look of a cell: its colours, its attributes as ratatui modifiers (the underline
/// style and overline in bits ratatui leaves unused, see `paint.rs`), and its
/// underline colour.
fn style(s: fugue_protocol::Style, extra: Extra) -> Style {
    let mut m = Modifier::empty();
    for (bit, modifier) in [
        (attr::BOLD, Modifier::BOLD),
        (attr::DIM, Modifier::DIM),
        (attr::ITALIC, Modifier::ITALIC),
        (attr::UNDERLINE, Modifier::UNDERLINED),
        (attr::INVERSE, Modifier::REVERSED),
        (attr::STRIKETHROUGH, Modifier::CROSSED_OUT),
        (attr::BLINK, Modifier::SLOW_BLINK),
        (attr::HIDDEN, Modifier::HIDDEN),
        (attr::OVERLINE, super::paint::OVERLINE),
    ] {
        if s.attrs & bit != 0 {
            m |= modifier;
        }
    }
    m |= super::paint::underline_style(s.attrs);
    Style::default()
        .fg(color(s.fg))
        .bg(color(s.bg))
        .underline_color(color(extra.underline))
        .add_modifier(m)
}

/// Where rows are drawn: the buffer, the links beside it, and the pane's hyperlinks by
/// number.
pub(crate) struct Canvas<'a> {
    pub buf: &'a mut Buffer,
    pub links: &'a mut Links,
    pub known: &'a PaneLinks,
}

/// Copies rows into `area` of the buffer.
fn draw_rows(c: &mut Canvas<'_>, area: Rect, rows: &[Arc<Row>]) {
    for (y, row) in rows.iter().enumerate().take(usize::from(area.height)) {
        draw_row(c, area, area.y + y as u16, row);
    }
}

/// Copies one row into line `y` of `area`, over whatever was there.
pub(crate) fn draw_row(canvas: &mut Canvas<'_>, area: Rect, y: u16, row: &Row) {
    let buf = &mut *canvas.buf;
    for x in area.x..area.x + area.width {
        if let Some(c) = buf.cell_mut((x, y)) {
            c.reset();
        }
    }
    canvas.links.clear(Rect::new(area.x, y, area.width, 1));
    for cell in row.cells() {
        if cell.col >= area.width || (cell.wide && cell.col + 1 >= area.width) {
            break;
        }
        let x = area.x + cell.col;
        let look = style(cell.style, cell.extra);
        if let Some(c) = buf.cell_mut((x, y)) {
            c.set_symbol(if cell.text.is_empty() { " " } else { cell.text });
            c.set_style(look);
        }
        if cell.wide
            && let Some(c) = buf.cell_mut((x + 1, y))
        {
            c.reset();
            c.set_style(look);
        }
        if cell.extra.link != 0 {
            let link = canvas.known.get(&cell.extra.link).cloned();
            canvas.links.set(x, y, link.clone());
            if cell.wide {
                canvas.links.set(x + 1, y, link);
            }
        }
    }
}

/// The rect of a pane inside the area panes are drawn in.
fn pane_area(r: &PaneRect, within: Rect) -> Rect {
    let x = within.x.saturating_add(r.x);
    let y = within.y.saturating_add(r.y);
    Rect::new(x, y, r.width, r.height).intersection(within)
}

/// Where a pane's screen goes in its rect: inside its box, or the whole rect when
/// the panes share tmux's borders (the rect is then the pane's own cells).
fn inner(app: &App, area: Rect) -> Rect {
    if app.shared_borders() {
        area
    } else {
        Block::default().borders(Borders::ALL).inner(area)
    }
}

fn draw_pane(
    buf: &mut Buffer,
    links: &mut Links,
    app: &App,
    r: &PaneRect,
    area: Rect,
) -> Option<Position> {
    let active = r.active;
    let border = if active {
        Style::default().fg(Color::Green)
    } else {
        Style::default().fg(Color::DarkGray)
    };
    let mut title = format!(" {} ", r.title);
    if let Some(status) = r.exit_status {
        title.push_str(&format!("[exited {status}] "));
    }
    if let Some(badge) = &r.badge {
        title.push_str(&format!("[{badge}] "));
    }
    let title_style = if active {
        border.add_modifier(Modifier::BOLD)
    } else {
        border
    };
    let inner = if app.shared_borders() {
        // tmux's borders are drawn around all panes at once (`borders.rs`).
        area
    } else {
        let block = Block::default()
            .borders(Borders::ALL)
            .border_type(BorderType::Plain)
            .border_style(border)
            .title(Span::styled(title, title_style));
        let inner = block.inner(area);
        block.render(area, buf);
        inner
    };
    match &app.mode {
        Mode::Copy(c) if c.pane == r.pane => super::copy::view::draw(buf, links, inner, c),
        _ => {
            let view = app.panes.get(&r.pane)?;
            let mut canvas = Canvas {
                buf,
                links,
                known: &view.links,
            };
            draw_rows(&mut canvas, inner, &view.lines);
            pane_cursor(app, r, view, inner)
        }
    }
}

/// Where the terminal's cursor goes: at the active pane's cursor, unless a mode shows
/// something else.
fn pane_cursor(app: &App, r: &PaneRect, view: &PaneView, inner: Rect) -> Option<Position> {
    let c = view.cursor;
    (r.active
        && matches!(app.mode, Mode::Normal | Mode::Prefix)
        && c.visible
        && c.col < inner.width
        && c.row < inner.height)
        .then(|| Position::new(inner.x + c.col, inner.y + c.row))
}

/// A command's output over the panes, scrolled to `scroll`, as tmux's view mode
/// shows it (the whole panes area: output is read, not glanced at).
fn view(
    buf: &mut Buffer,
    links: &mut Links,
    title: &str,
    lines: &[String],
    area: Rect,
    scroll: usize,
) {
    Clear.render(area, buf);
    links.clear(area);
    let scroll = u16::try_from(scroll.min(lines.len().saturating_sub(1))).unwrap_or(u16::MAX);
    let text: Vec<Line> = lines.iter().map(|l| Line::from(l.as_str())).collect();
    Paragraph::new(text)
        .scroll((scroll, 0))
        .block(
            Block::bordered()
                .title(format!(" {title} (q leaves, arrows scroll) "))
                .border_style(Style::default().fg(Color::Yellow)),
        )
        .render(area, buf);
}

/// The area panes are drawn in, and the status line's (its lines, `status` 1 to 5:
/// the first is the usual line, the others `status_lines.rs`).
fn areas(app: &App, full: Rect) -> (Rect, Option<Rect>) {
    use fugue_protocol::status_line::StatusPosition;
    let n = u16::from(app.status_opts.lines.clamp(1, 5));
    if app.status && full.height > n {
        let rest = full.height - n;
        match app.status_opts.position {
            StatusPosition::Bottom => (
                Rect::new(full.x, full.y, full.width, rest),
                Some(Rect::new(full.x, full.y + rest, full.width, n)),
            ),
            // tmux's `status-position top`: the panes move down.
            StatusPosition::Top => (
                Rect::new(full.x, full.y + n, full.width, rest),
                Some(Rect::new(full.x, full.y, full.width, n)),
            ),
        }
    } else {
        (full, None)
    }
}

/// The first row of the status line's area: the usual status line.
fn first_row(area: Rect) -> Rect {
    Rect::new(area.x, area.y, area.width, area.height.min(1))
}

/// Draws everything into `buf` (which the caller has cleared); returns where the
/// terminal's cursor goes.
pub fn draw(buf: &mut Buffer, links: &mut Links, app: &App) -> Option<Position> {
    let (panes_area, status_area) = areas(app, buf.area);
    let mut cursor = None;
    if let Some(layout) = &app.layout {
        for r in &layout.panes {
            let area = pane_area(r, panes_area);
            if area.width > 0 && area.height > 0 {
                cursor = draw_pane(buf, links, app, r, area).or(cursor);
            }
        }
        if let Some(look) = &layout.shared_borders {
            let window = (layout.cols, layout.rows);
            super::borders::draw(buf, look, &layout.panes, window, panes_area);
        }
    }
    if let Some(clock) = &app.clock
        && let Some(r) = app
            .layout
            .as_ref()
            .and_then(|l| l.panes.iter().find(|r| r.pane == clock.pane))
    {
        super::clock::draw(buf, app, inner(app, pane_area(r, panes_area)));
    }
    if app.display_panes.is_some()
        && let Some(layout) = &app.layout
    {
        let shown: Vec<_> = layout
            .panes
            .iter()
            .map(|r| (r, inner(app, pane_area(r, panes_area))))
            .collect();
        super::display_panes::draw(buf, app, &shown);
    }
    if let Some(area) = status_area {
        if let Some(c) = super::status::draw(buf, app, first_row(area)) {
            cursor = Some(c);
        }
        super::status_lines::draw(buf, app, area);
    }
    if app.popup().is_some() {
        cursor = super::popup::draw(buf, links, app, panes_area);
    }
    if let Mode::Menu(m) = &app.mode {
        super::menu::draw(buf, m, panes_area);
        cursor = None;
    }
    if let Mode::View {
        title,
        lines,
        scroll,
    } = &app.mode
    {
        view(buf, links, title, lines, panes_area, *scroll);
        cursor = None;
    }
    if let Mode::Buffers(b) = &app.mode {
        super::buffers::draw(buf, b, panes_area);
        cursor = None;
    }
    if let Mode::Clients(c) = &app.mode {
        super::client_chooser::draw(buf, c, panes_area);
        cursor = None;
    }
    if let Mode::Options(c) = &app.mode {
        cursor = super::customize_draw::draw(buf, c, &app.keys, panes_area);
    }
    if let Mode::Tree(t) = &app.mode {
        let colours = super::display_panes::colours(app);
        super::tree_draw::draw(buf, t, panes_area, status_area.map(first_row), colours);
        cursor = None;
    }
    cursor
}

/// Redraws rows of one pane's live screen; returns the terminal lines it touched, or
/// None when the pane is not drawn as a live screen (the caller then draws everything).
pub fn draw_pane_rows(
    buf: &mut Buffer,
    links: &mut Links,
    app: &App,
    pane: PaneId,
    rows: &[u16],
) -> Option<Vec<u16>> {
    // Overlays cover panes: a row of a pane under one is not drawn alone.
    if matches!(
        app.mode,
        Mode::View { .. }
            | Mode::Copy(_)
            | Mode::Buffers(_)
            | Mode::Clients(_)
            | Mode::Options(_)
            | Mode::Menu(_)
            | Mode::Tree(_)
    ) || app.popup().is_some()
        || app.display_panes.is_some()
        || app.clock.is_some()
    {
        return None;
    }
    let (panes_area, _) = areas(app, buf.area);
    let r = app.layout.as_ref()?.panes.iter().find(|p| p.pane == pane)?;
    let view = app.panes.get(&pane)?;
    let inner = inner(app, pane_area(r, panes_area));
    let mut touched = Vec::with_capacity(rows.len());
    let mut canvas = Canvas {
        buf,
        links,
        known: &view.links,
    };
    for &row in rows {
        if row >= inner.height {
            continue;
        }
        let Some(line) = view.lines.get(usize::from(row)) else {
            continue;
        };
        let y = inner.y + row;
        draw_row(&mut canvas, inner, y, line);
        touched.push(y);
    }
    Some(touched)
}

/// Where a pane's screen is drawn on a terminal of `full` size (inside its box).
pub fn pane_content(app: &App, full: Rect, pane: PaneId) -> Option<Rect> {
    let (panes_area, _) = areas(app, full);
    let r = app.layout.as_ref()?.panes.iter().find(|p| p.pane == pane)?;
    Some(inner(app, pane_area(r, panes_area)))
}

/// Where the panes' boxes are drawn on a terminal of `full` size, and the area they
/// share (the status bar's row left out). With tmux's shared borders a pane's box is
/// the pane and the border on its right and below it.
pub fn pane_boxes(app: &App, full: Rect) -> (Rect, Vec<(PaneId, Rect)>) {
    let (panes_area, _) = areas(app, full);
    let shared = app.shared_borders();
    let tile = |r: &PaneRect| {
        let mut r = r.clone();
        if shared {
            r.width = r.width.saturating_add(1);
            r.height = r.height.saturating_add(1);
        }
        pane_area(&r, panes_area)
    };
    let boxes = app
        .layout
        .as_ref()
        .map(|l| l.panes.iter().map(|r| (r.pane, tile(r))).collect())
        .unwrap_or_default();
    (panes_area, boxes)
}

/// The status bar's row on a terminal of `full` size, if it is shown.
pub fn status_area(app: &App, full: Rect) -> Option<Rect> {
    areas(app, full).1.map(first_row)
}

/// The program's cursor in the active pane (or the popup) and where that pane's
/// screen is drawn, in the modes that show programs as they draw themselves.
fn program_cursor(app: &App, full: Rect) -> Option<(fugue_protocol::screen::Cursor, Rect)> {
    if !matches!(app.mode, Mode::Normal | Mode::Prefix) {
        return None;
    }
    let (panes_area, _) = areas(app, full);
    if let Some(p) = app.popup() {
        let (_, inner) = super::popup::rects(p, panes_area);
        let c = app.panes.get(&p.pane)?.cursor;
        return (!p.exited).then_some((c, inner));
    }
    let r = app.active_rect()?;
    let view = app.panes.get(&r.pane)?;
    Some((view.cursor, inner(app, pane_area(r, panes_area))))
}

/// Where the cursor goes when nothing but panes' rows changed.
pub fn cursor(app: &App, full: Rect) -> Option<Position> {
    let (c, area) = program_cursor(app, full)?;
    (c.visible && c.col < area.width && c.row < area.height)
        .then(|| Position::new(area.x + c.col, area.y + c.row))
}

/// Where the terminal's cursor waits, hidden, while the program in the active pane
/// hides its own: at the program's cursor, as tmux puts it. Programs that draw their
/// own caret (Claude Code) hide the cursor and park it at the caret, and IME windows
/// and screen magnifiers follow the terminal's cursor there.
pub fn parked(app: &App, full: Rect) -> Option<Position> {
    let (c, area) = program_cursor(app, full)?;
    (!c.visible && c.col < area.width && c.row < area.height)
        .then(|| Position::new(area.x + c.col, area.y + c.row))
}
