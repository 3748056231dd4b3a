//! The status bar: session name, the window list, and the prefix/scroll/notice
//! indicator on the right; or a prompt or question in its place.
//!
//! When the window list is wider than the bar, it scrolls so the current window stays
//! visible, and `<` / `>` mark windows hidden on either side, as tmux does.

use super::state::{App, Mode};
use fugue_protocol::screen::WindowTab;
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use unicode_width::UnicodeWidthStr;

fn width(s: &str) -> u16 {
    u16::try_from(UnicodeWidthStr::width(s)).unwrap_or(u16::MAX)
}

/// A window's flags in tmux's order: `!` a bell rang there, `*` current, `-` last,
/// `Z` zoomed.
pub fn flags(w: &WindowTab) -> String {
    let mut f = String::new();
    if w.bell {
        f.push('!');
    }
    if w.active {
        f.push('*');
    } else if w.last {
        f.push('-');
    }
    if w.zoomed {
        f.push('Z');
    }
    f
}

fn tab_label(w: &WindowTab) -> String {
    format!("{}:{}{} ", w.index, w.name, flags(w))
}

/// Which labels (a range of indices) fit in `budget` columns with `active` among them.
/// Windows are added on both sides of the active one in turn, so it stays near the
/// middle; when some are left out, a column on each side is kept for the markers.
pub fn visible_range(widths: &[u16], active: usize, budget: u16) -> std::ops::Range<usize> {
    let total: u32 = widths.iter().map(|w| u32::from(*w)).sum();
    if total <= u32::from(budget) || widths.is_empty() {
        return 0..widths.len();
    }
    let active = active.min(widths.len() - 1);
    let budget = u32::from(budget.saturating_sub(2));
    let (mut lo, mut hi) = (active, active + 1);
    let mut used = u32::from(widths[active]);
    loop {
        let mut grew = false;
        if let Some(w) = widths.get(hi).map(|w| u32::from(*w))
            && used + w <= budget
        {
            used += w;
            hi += 1;
            grew = true;
        }
        if lo > 0 && used + u32::from(widths[lo - 1]) <= budget {
            lo -= 1;
            used += u32::from(widths[lo]);
            grew = true;
        }
        if !grew {
            return lo..hi;
        }
    }
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

/// Draws the status bar; returns where the terminal's cursor goes (in a prompt).
pub fn draw(buf: &mut Buffer, app: &App, area: Rect) -> Option<Position> {
    let bar = Style::default().fg(Color::Black).bg(Color::Green);
    let yellow = Style::default().fg(Color::Black).bg(Color::Yellow);
    match &app.mode {
        Mode::Prompt { kind, input } => {
            let line = format!("{}: {}", kind.label(), input.text());
            let before = format!("{}: {}", kind.label(), input.before_cursor());
            let cursor_x = area.x + width(&before).min(area.width.saturating_sub(1));
            Paragraph::new(line).style(yellow).render(area, buf);
            return Some(Position::new(cursor_x, area.y));
        }
        Mode::Copy(c) if c.prompt.is_some() => {
            let Some(p) = &c.prompt else { return None };
            // tmux's prompts: "(search up)" for `?` and C-r, "(search down)" for `/`.
            let label = if p.up { "search up" } else { "search down" };
            let line = format!("{label}: {}", p.input.text());
            let before = format!("{label}: {}", p.input.before_cursor());
            let cursor_x = area.x + width(&before).min(area.width.saturating_sub(1));
            Paragraph::new(line).style(yellow).render(area, buf);
            return Some(Position::new(cursor_x, area.y));
        }
        Mode::Confirm { question, .. } => {
            Paragraph::new(question.as_str())
                .style(yellow)
                .render(area, buf);
            return None;
        }
        _ => {}
    }
    let right = match &app.mode {
        Mode::Prefix => Some((format!(" {} ", app.keys.prefix), yellow)),
        // A search's "not found" shows in place of the hint while it lasts.
        Mode::Copy(c) => Some(match &app.notice {
            Some((t, _)) => (format!(" {t} "), yellow.add_modifier(Modifier::BOLD)),
            None => (copy_hint(c).to_string(), yellow),
        }),
        _ => app
            .notice
            .as_ref()
            .map(|(t, _)| (format!(" {t} "), bar.add_modifier(Modifier::BOLD))),
    };
    let session = format!("[{}] ", app.session_name);
    let mut spans = vec![Span::styled(session.clone(), bar)];
    if let Some(layout) = &app.layout {
        let labels: Vec<String> = layout.windows.iter().map(tab_label).collect();
        let widths: Vec<u16> = labels.iter().map(|l| width(l)).collect();
        let active = layout.windows.iter().position(|w| w.active).unwrap_or(0);
        let right_width = right.as_ref().map_or(0, |(t, _)| width(t));
        let budget = area
            .width
            .saturating_sub(width(&session))
            .saturating_sub(right_width);
        let shown = visible_range(&widths, active, budget);
        if shown.start > 0 {
            spans.push(Span::styled("<", bar.add_modifier(Modifier::BOLD)));
        }
        for (w, label) in layout.windows[shown.clone()]
            .iter()
            .zip(&labels[shown.clone()])
        {
            let st = if w.active {
                bar.add_modifier(Modifier::BOLD)
            } else if w.bell {
                // tmux's window-status-bell-style.
                bar.add_modifier(Modifier::REVERSED)
            } else {
                bar
            };
            spans.push(Span::styled(label.clone(), st));
        }
        if shown.end < labels.len() {
            spans.push(Span::styled(">", bar.add_modifier(Modifier::BOLD)));
        }
    }
    Paragraph::new(Line::from(spans))
        .style(bar)
        .render(area, buf);
    if let Some((text, st)) = right {
        let w = width(&text).min(area.width);
        let x = area.x + area.width - w;
        Paragraph::new(text)
            .style(st)
            .render(Rect::new(x, area.y, w, 1), buf);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::visible_range;

    #[test]
    fn everything_shows_when_it_fits() {
        assert_eq!(visible_range(&[5, 5, 5], 2, 15), 0..3);
    }

    #[test]
    fn the_active_window_stays_visible_with_neighbours_on_both_sides() {
        let widths = [6; 20];
        // 30 columns, 2 kept for markers: four labels around window 12.
        let r = visible_range(&widths, 12, 30);
        assert!(r.contains(&12), "{r:?}");
        assert_eq!(r.len(), 4);
        assert!(r.start > 0 && r.end < 20);
        // At either end, the rest of the room goes to the other side.
        assert_eq!(visible_range(&widths, 0, 30), 0..4);
        assert_eq!(visible_range(&widths, 19, 30), 16..20);
    }

    #[test]
    fn a_label_wider_than_the_bar_is_still_the_one_shown() {
        assert_eq!(visible_range(&[4, 50, 4], 1, 20), 1..2);
    }
}
