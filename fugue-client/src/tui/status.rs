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

/// What shows on the right: the prefix, copy mode's hint or a notice.
fn right_part(app: &App, bar: Style, yellow: Style) -> Option<(String, Style)> {
    match &app.mode {
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
    }
}

/// A window's label as shown in the status bar.
struct Tab {
    index: u32,
    label: String,
    active: bool,
    bell: bool,
    /// Its first column on the terminal.
    x: u16,
}

/// The left part of the bar: the session, then the windows that fit.
struct Tabs {
    session: String,
    more_left: bool,
    shown: Vec<Tab>,
    more_right: bool,
}

/// What the left part of the bar shows, and where, with `right_width` columns kept
/// for the right part. Drawing and the mouse both use it, so a click lands on the
/// window drawn under it.
fn tabs(app: &App, area: Rect, right_width: u16) -> Tabs {
    let session = format!("[{}] ", app.session_name);
    let mut tabs = Tabs {
        more_left: false,
        shown: Vec::new(),
        more_right: false,
        session,
    };
    let Some(layout) = &app.layout else {
        return tabs;
    };
    let labels: Vec<String> = layout.windows.iter().map(tab_label).collect();
    let widths: Vec<u16> = labels.iter().map(|l| width(l)).collect();
    let active = layout.windows.iter().position(|w| w.active).unwrap_or(0);
    let budget = area
        .width
        .saturating_sub(width(&tabs.session))
        .saturating_sub(right_width);
    let shown = visible_range(&widths, active, budget);
    tabs.more_left = shown.start > 0;
    tabs.more_right = shown.end < labels.len();
    let mut x = area
        .x
        .saturating_add(width(&tabs.session))
        .saturating_add(u16::from(tabs.more_left));
    for (w, (label, lw)) in layout.windows[shown.clone()]
        .iter()
        .zip(labels[shown.clone()].iter().zip(&widths[shown]))
    {
        tabs.shown.push(Tab {
            index: w.index,
            label: label.clone(),
            active: w.active,
            bell: w.bell,
            x,
        });
        x = x.saturating_add(*lw);
    }
    tabs
}

/// The index of the window whose label (its trailing space included) is drawn at
/// column `col` of the bar in `area`.
pub fn window_at(app: &App, area: Rect, col: u16) -> Option<u32> {
    if !matches!(app.mode, Mode::Normal | Mode::Prefix | Mode::Copy(_)) {
        return None;
    }
    let bar = Style::default();
    let right = right_part(app, bar, bar);
    let right_width = right.as_ref().map_or(0, |(t, _)| width(t));
    if col >= (area.x + area.width).saturating_sub(right_width) {
        return None;
    }
    tabs(app, area, right_width)
        .shown
        .into_iter()
        .find(|t| col >= t.x && col < t.x.saturating_add(width(&t.label)))
        .map(|t| t.index)
}

/// Draws the status bar; returns where the terminal's cursor goes (in a prompt).
pub fn draw(buf: &mut Buffer, app: &App, area: Rect) -> Option<Position> {
    let bar = Style::default().fg(Color::Black).bg(Color::Green);
    let yellow = Style::default().fg(Color::Black).bg(Color::Yellow);
    match &app.mode {
        Mode::Prompt { kind, input } => {
            let line = format!("{}{}", kind.prompt(), input.text());
            let before = format!("{}{}", kind.prompt(), input.before_cursor());
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
    let right = right_part(app, bar, yellow);
    let right_width = right.as_ref().map_or(0, |(t, _)| width(t));
    let tabs = tabs(app, area, right_width);
    let mut spans = vec![Span::styled(tabs.session, bar)];
    if tabs.more_left {
        spans.push(Span::styled("<", bar.add_modifier(Modifier::BOLD)));
    }
    for tab in tabs.shown {
        let st = if tab.active {
            bar.add_modifier(Modifier::BOLD)
        } else if tab.bell {
            // tmux's window-status-bell-style.
            bar.add_modifier(Modifier::REVERSED)
        } else {
            bar
        };
        spans.push(Span::styled(tab.label, st));
    }
    if tabs.more_right {
        spans.push(Span::styled(">", bar.add_modifier(Modifier::BOLD)));
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
        };
        app.apply(Frame {
            layout: Some(ClientLayout {
                session: fugue_protocol::SessionId(1),
                session_name: "s".into(),
                windows: vec![tab(0, "sh", true), tab(3, "vim", false)],
                panes: Vec::new(),
                cols: 80,
                rows: 23,
            }),
            panes: Vec::new(),
            outer: Default::default(),
        });
        let bar = ratatui::layout::Rect::new(0, 23, 80, 1);
        // "[s] 0:sh* 3:vim "
        let at = |app: &App, col| super::window_at(app, bar, col);
        assert_eq!([at(&app, 0), at(&app, 3)], [None, None]);
        assert_eq!([at(&app, 4), at(&app, 9)], [Some(0), Some(0)]);
        assert_eq!([at(&app, 10), at(&app, 15)], [Some(3), Some(3)]);
        assert_eq!(at(&app, 16), None);
        app.notice("a notice as wide as the whole bar, over the windows' labels ........");
        assert_eq!(at(&app, 12), None);
    }

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
