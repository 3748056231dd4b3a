//! `display-panes` (`C-b q`): each pane of the window shown gets its index drawn
//! over it, in large digits where the pane has room (as tmux 3.3a draws them: 5x5
//! blocks in `display-panes-colour`, the active pane's in
//! `display-panes-active-colour`, the pane's size in its top right corner), else as
//! text in its middle. Pressing a pane's index (0-9, a-z for 10 to 35) runs the
//! template with `%%` the pane's id and dismisses the numbers; any other key dismisses
//! them and then does what it does (tmux passes it on). They go by themselves after
//! `display-panes-time` (or `-d`; 0 keeps them until a key). With `-N` keys are not
//! taken: a key dismisses them and does what it does.

use super::input::Request;
use super::state::App;
use fugue_protocol::format::style::Colour;
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::screen::PaneRect;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use std::time::{Duration, Instant};

/// tmux's default template.
const DEFAULT_TEMPLATE: &str = "select-pane -t '%%'";

/// The numbers shown over the panes.
#[derive(Debug)]
pub struct DisplayPanes {
    /// The command line a chosen pane runs, `%%` not yet replaced.
    template: String,
    /// When they go by themselves (None: only a key dismisses them).
    pub until: Option<Instant>,
    /// `-N`: keys are not taken.
    no_keys: bool,
}

/// `display-panes [-bN] [-d ms] [template]` as the verb table parses it.
pub fn open(app: &mut App, argv: &[String]) -> Result<(), String> {
    let a: fugue_protocol::flags::DisplayPanes = fugue_verbs::line::parse_flags(argv)?;
    let ms = a.duration.unwrap_or(app.status_opts.display_panes_time_ms);
    let template = match a.template.as_slice() {
        [] => DEFAULT_TEMPLATE.to_string(),
        [one] => one.clone(),
        words => fugue_protocol::tmux_cmd::print_sequence(&[words.to_vec()]),
    };
    app.display_panes = Some(DisplayPanes {
        template,
        until: (ms > 0).then(|| Instant::now() + Duration::from_millis(u64::from(ms))),
        no_keys: a.no_keys,
    });
    app.damage_all();
    Ok(())
}

/// The pane index a key names: 0-9, or a-z for 10 to 35 (tmux's), unmodified.
fn index_of(key: &Key) -> Option<u32> {
    if !key.mods.without(Mods::LOCKS).is_empty() {
        return None;
    }
    match key.code {
        KeyCode::Char(c @ '0'..='9') => Some(u32::from(c) - u32::from('0')),
        KeyCode::Char(c @ 'a'..='z') => Some(10 + u32::from(c) - u32::from('a')),
        _ => None,
    }
}

/// A key while the numbers show: Some(requests) when it was theirs (a pane's index),
/// None when it must go on to be handled as usual (the numbers are gone either way).
pub fn on_key(app: &mut App, key: &Key) -> Option<Vec<Request>> {
    let shown = app.display_panes.take()?;
    app.damage_all();
    if shown.no_keys {
        return None;
    }
    let index = index_of(key)?;
    let pane = app
        .layout
        .as_ref()?
        .panes
        .iter()
        .find(|p| p.index == index)
        .map(|p| p.pane);
    // An index no pane has: the key is used up all the same (tmux's).
    let Some(pane) = pane else {
        return Some(Vec::new());
    };
    let line = fugue_verbs::tree::substitute(&shown.template, &pane.to_string());
    Some(app.run_line(&line))
}

/// Rows of the big digits (tmux's clock font): bit 4 is the leftmost cell.
const FONT: [[u8; 5]; 10] = [
    [0b11111, 0b10001, 0b10001, 0b10001, 0b11111],
    [0b00001, 0b00001, 0b00001, 0b00001, 0b00001],
    [0b11111, 0b00001, 0b11111, 0b10000, 0b11111],
    [0b11111, 0b00001, 0b11111, 0b00001, 0b11111],
    [0b10001, 0b10001, 0b11111, 0b00001, 0b00001],
    [0b11111, 0b10000, 0b11111, 0b00001, 0b11111],
    [0b11111, 0b10000, 0b11111, 0b10001, 0b11111],
    [0b11111, 0b00001, 0b00001, 0b00001, 0b00001],
    [0b11111, 0b10001, 0b11111, 0b10001, 0b11111],
    [0b11111, 0b10001, 0b11111, 0b00001, 0b11111],
];

/// The glyph of digit `d`.
pub fn digit(d: u8) -> Option<[u8; 5]> {
    FONT.get(usize::from(d)).copied()
}

fn option_colour(name: &str, fallback: Color) -> Color {
    Colour::parse(name)
        .map(super::status_fmt::colour)
        .unwrap_or(fallback)
}

fn put(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style, area: Rect) {
    for (i, ch) in text.chars().enumerate() {
        let Some(cx) = u16::try_from(i).ok().and_then(|i| x.checked_add(i)) else {
            return;
        };
        if cx < area.right() && y < area.bottom() && cx >= area.x && y >= area.y {
            buf[(cx, y)].set_char(ch).set_style(style);
        }
    }
}

/// `display-panes-colour` and `display-panes-active-colour` (the tree's preview
/// labels use them too, as tmux's).
pub fn colours(app: &App) -> (Color, Color) {
    let o = &app.status_opts;
    (
        option_colour(&o.display_panes_colour, Color::Blue),
        option_colour(&o.display_panes_active_colour, Color::Red),
    )
}

/// Draws the numbers over each pane's screen (`content` is where the pane's screen
/// is drawn).
pub fn draw(buf: &mut Buffer, app: &App, panes: &[(&PaneRect, Rect)]) {
    let (colour, active) = colours(app);
    for (r, area) in panes {
        let c = if r.active { active } else { colour };
        draw_one(buf, r, *area, c);
    }
}

fn draw_one(buf: &mut Buffer, r: &PaneRect, area: Rect, c: Color) {
    let number = r.index.to_string();
    let len = u16::try_from(number.len()).unwrap_or(u16::MAX);
    let (sx, sy) = (area.width, area.height);
    if sx < len || sy == 0 {
        return;
    }
    let fg = Style::default().fg(c);
    let letter = (10..36)
        .contains(&r.index)
        .then(|| char::from_u32(u32::from('a') + r.index - 10))
        .flatten()
        .map(String::from)
        .unwrap_or_default();
    let (px, py) = (sx / 2, sy / 2);
    if sx < len.saturating_mul(6) || sy < 5 {
        let text = if !letter.is_empty() && sx > len + 1 {
            format!("{number} {letter}")
        } else {
            number
        };
        let tl = u16::try_from(text.len()).unwrap_or(0);
        put(buf, area.x + px - tl / 2, area.y + py, &text, fg, area);
        return;
    }
    let bg = Style::default().bg(c);
    let mut x = area.x + px - len * 3;
    let y = area.y + py - 2;
    for d in number.bytes() {
        let Some(glyph) = FONT.get(usize::from(d.wrapping_sub(b'0'))) else {
            continue;
        };
        for (j, bits) in glyph.iter().enumerate() {
            for i in 0..5u16 {
                if bits & (0b10000 >> i) != 0 {
                    put(buf, x.saturating_add(i), y + j as u16, " ", bg, area);
                }
            }
        }
        x = x.saturating_add(6);
    }
    if sy <= 6 {
        return;
    }
    let size = format!("{sx}x{sy}");
    let sl = u16::try_from(size.len()).unwrap_or(u16::MAX);
    if sx >= sl {
        put(buf, area.x + sx - sl, area.y, &size, fg, area);
    }
    if !letter.is_empty() {
        put(buf, area.x + sx / 2 + len * 3 - 2, y + 5, &letter, fg, area);
    }
}
