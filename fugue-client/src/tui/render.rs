//! Drawing: pane boxes with their screens, the status bar, and overlays.
//!
//! Cells are copied exactly as the server's screen holds them (colors, attributes, wide
//! characters); ratatui then writes only what differs from the previous frame.

use super::state::{App, Mode, PaneView};
use fugue_protocol::Row;
use fugue_protocol::screen::{ColorKind, PaneRect, attr};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
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

fn style(s: fugue_protocol::Style) -> Style {
    let mut m = Modifier::empty();
    for (bit, modifier) in [
        (attr::BOLD, Modifier::BOLD),
        (attr::DIM, Modifier::DIM),
        (attr::ITALIC, Modifier::ITALIC),
        (attr::UNDERLINE, Modifier::UNDERLINED),
        (attr::INVERSE, Modifier::REVERSED),
    ] {
        if s.attrs & bit != 0 {
            m |= modifier;
        }
    }
    Style::default()
        .fg(color(s.fg))
        .bg(color(s.bg))
        .add_modifier(m)
}

/// Copies rows into `area` of the buffer.
fn draw_rows(buf: &mut Buffer, area: Rect, rows: &[Arc<Row>]) {
    for (y, row) in rows.iter().enumerate().take(usize::from(area.height)) {
        let y = area.y + y as u16;
        for cell in row.cells() {
            if cell.col >= area.width || (cell.wide && cell.col + 1 >= area.width) {
                break;
            }
            let x = area.x + cell.col;
            if let Some(c) = buf.cell_mut((x, y)) {
                c.set_symbol(if cell.text.is_empty() { " " } else { cell.text });
                c.set_style(style(cell.style));
            }
            if cell.wide
                && let Some(c) = buf.cell_mut((x + 1, y))
            {
                c.reset();
                c.set_style(style(cell.style));
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

fn draw_pane(f: &mut Frame, app: &App, r: &PaneRect, area: Rect) {
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
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Plain)
        .border_style(border)
        .title(Span::styled(title, title_style));
    let inner = block.inner(area);
    f.render_widget(block, area);
    match &app.mode {
        Mode::Scroll(s) if s.pane == r.pane => {
            draw_rows(f.buffer_mut(), inner, &s.rows);
            let tag = format!(
                "[{}/{}]",
                s.offset,
                s.history.map(|h| h.to_string()).unwrap_or_default()
            );
            let x = (inner.x + inner.width).saturating_sub(tag.len() as u16);
            f.buffer_mut().set_string(
                x,
                inner.y,
                tag,
                Style::default().fg(Color::Black).bg(Color::Yellow),
            );
        }
        _ => {
            if let Some(view) = app.panes.get(&r.pane) {
                draw_rows(f.buffer_mut(), inner, &view.lines);
                if active && matches!(app.mode, Mode::Normal | Mode::Prefix) {
                    place_cursor(f, view, inner);
                }
            }
        }
    }
}

fn place_cursor(f: &mut Frame, view: &PaneView, inner: Rect) {
    if view.cursor.visible && view.cursor.col < inner.width && view.cursor.row < inner.height {
        f.set_cursor_position((inner.x + view.cursor.col, inner.y + view.cursor.row));
    }
}

fn status_bar(f: &mut Frame, app: &App, area: Rect) {
    let bar = Style::default().fg(Color::Black).bg(Color::Green);
    match &app.mode {
        Mode::Prompt { kind, input } => {
            let line = format!("{}: {input}", kind.label());
            let cursor_x = area.x
                + (unicode_width::UnicodeWidthStr::width(line.as_str()) as u16)
                    .min(area.width.saturating_sub(1));
            f.render_widget(
                Paragraph::new(line).style(Style::default().fg(Color::Black).bg(Color::Yellow)),
                area,
            );
            f.set_cursor_position((cursor_x, area.y));
            return;
        }
        Mode::Confirm { question, .. } => {
            f.render_widget(
                Paragraph::new(question.as_str())
                    .style(Style::default().fg(Color::Black).bg(Color::Yellow)),
                area,
            );
            return;
        }
        _ => {}
    }
    let mut spans = vec![Span::styled(format!("[{}] ", app.session_name), bar)];
    if let Some(layout) = &app.layout {
        for w in &layout.windows {
            let flag = if w.active {
                "*"
            } else if w.last {
                "-"
            } else {
                ""
            };
            let zoom = if w.zoomed { "Z" } else { "" };
            let s = format!("{}:{}{flag}{zoom} ", w.index, w.name);
            let st = if w.active {
                bar.add_modifier(Modifier::BOLD)
            } else {
                bar
            };
            spans.push(Span::styled(s, st));
        }
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(bar), area);
    let right = match &app.mode {
        Mode::Prefix => Some((
            format!(" {} ", app.keys.prefix),
            Style::default().fg(Color::Black).bg(Color::Yellow),
        )),
        Mode::Scroll(_) => Some((
            " scroll: q to leave ".to_string(),
            Style::default().fg(Color::Black).bg(Color::Yellow),
        )),
        _ => app
            .notice
            .as_ref()
            .map(|(t, _)| (format!(" {t} "), bar.add_modifier(Modifier::BOLD))),
    };
    if let Some((text, st)) = right {
        let w = (unicode_width::UnicodeWidthStr::width(text.as_str()) as u16).min(area.width);
        let x = area.x + area.width - w;
        f.render_widget(Paragraph::new(text).style(st), Rect::new(x, area.y, w, 1));
    }
}

fn help(f: &mut Frame, app: &App, area: Rect, scroll: usize) {
    let mut lines: Vec<Line> = vec![Line::from(format!(
        "prefix: {}   (q leaves, arrows scroll)",
        app.keys.prefix
    ))];
    for (k, a) in &app.keys.prefix_bindings {
        lines.push(Line::from(format!(
            "  {} {:<10} {a}",
            app.keys.prefix,
            k.to_string()
        )));
    }
    for (k, a) in &app.keys.root_bindings {
        lines.push(Line::from(format!("  {:<13} {a}", k.to_string())));
    }
    let w = area.width.saturating_sub(4).min(64);
    let h = area.height.saturating_sub(2).min(lines.len() as u16 + 2);
    let popup = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    Clear.render(popup, f.buffer_mut());
    let scroll = scroll.min(lines.len().saturating_sub(1)) as u16;
    f.render_widget(
        Paragraph::new(lines).scroll((scroll, 0)).block(
            Block::bordered()
                .title(" keys ")
                .border_style(Style::default().fg(Color::Yellow)),
        ),
        popup,
    );
}

pub fn draw(f: &mut Frame, app: &App) {
    let full = f.area();
    let (panes_area, status_area) = if app.status && full.height > 1 {
        (
            Rect::new(full.x, full.y, full.width, full.height - 1),
            Some(Rect::new(full.x, full.y + full.height - 1, full.width, 1)),
        )
    } else {
        (full, None)
    };
    if let Some(layout) = &app.layout {
        for r in &layout.panes {
            let area = pane_area(r, panes_area);
            if area.width > 0 && area.height > 0 {
                draw_pane(f, app, r, area);
            }
        }
    }
    if let Some(area) = status_area {
        status_bar(f, app, area);
    }
    if let Mode::Help { scroll } = app.mode {
        help(f, app, panes_area, scroll);
    }
}
