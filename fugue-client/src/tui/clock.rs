//! `clock-mode` (`C-b t`): the time in big digits over a pane, as tmux draws it in
//! `clock-mode-colour`, 24-hour or 12-hour (`clock-mode-style`), until any key.
//! Drawn again when the minute turns.

use super::state::App;
use fugue_protocol::PaneId;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The clock shown over a pane.
#[derive(Debug)]
pub struct Clock {
    pub pane: PaneId,
}

/// `clock-mode [-t %N]`: over that pane, else the active one.
pub fn open(app: &mut App, argv: &[String]) -> Result<(), String> {
    let a: fugue_protocol::flags::ClockMode = fugue_verbs::line::parse_flags(argv)?;
    if app.layout.is_none() {
        // A clock the pane kept, handed over on attach before the first frame: opened
        // once that frame has shown the pane (as copy mode's is). Dropped here, it was
        // lost whenever the hand-over overtook the frame (seen under load).
        app.pending_mode = Some(argv.to_vec());
        return Ok(());
    }
    let pane = a
        .target
        .as_deref()
        .and_then(|t| t.parse::<PaneId>().ok())
        .filter(|p| app.panes.contains_key(p))
        .or_else(|| app.active_pane())
        .ok_or("clock-mode: no pane is shown")?;
    app.clock = Some(Clock { pane });
    app.damage_all();
    Ok(())
}

/// A key while the clock shows: it goes, and the key with it (tmux's). A clock whose
/// pane is no longer shown just goes: the key does what it does.
pub fn on_key(app: &mut App) -> bool {
    let Some(clock) = app.clock.take() else {
        return false;
    };
    app.damage_all();
    app.layout
        .as_ref()
        .is_some_and(|l| l.panes.iter().any(|r| r.pane == clock.pane))
}

fn now_secs() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0))
}

/// When the minute turns (the clock is drawn again then).
pub fn next_tick(app: &App) -> Option<Instant> {
    app.clock.as_ref()?;
    let into = now_secs().rem_euclid(60);
    let left = u64::try_from(60 - into).unwrap_or(60);
    Some(Instant::now() + Duration::from_secs(left))
}

/// The text shown: `HH:MM`, or `H:MM` with `AM`/`PM` for style 12.
pub fn text(style: &str, now: i64, offset: i64) -> String {
    use fugue_protocol::format::time::strftime;
    if style == "12" {
        let hm = strftime("%I:%M", now, offset);
        let hm = hm.strip_prefix('0').unwrap_or(&hm).to_string();
        format!("{hm} {}", strftime("%p", now, offset))
    } else {
        strftime("%H:%M", now, offset)
    }
}

/// 5x5 glyphs for the digits, `:`, A, P and M: bit 4 is the leftmost cell.
fn glyph(c: char) -> Option<[u8; 5]> {
    Some(match c {
        '0'..='9' => super::display_panes::digit(c as u8 - b'0')?,
        ':' => [0b00000, 0b00100, 0b00000, 0b00100, 0b00000],
        'A' => [0b11111, 0b10001, 0b11111, 0b10001, 0b10001],
        'P' => [0b11111, 0b10001, 0b11111, 0b10000, 0b10000],
        'M' => [0b10001, 0b11011, 0b10101, 0b10001, 0b10001],
        _ => return None,
    })
}

/// Draws the clock over `area` (the pane's screen), which it clears first.
pub fn draw(buf: &mut Buffer, app: &App, area: Rect) {
    let o = &app.status_opts;
    let colour = fugue_protocol::format::style::Colour::parse(&o.clock_mode_colour)
        .map(super::status_fmt::colour)
        .unwrap_or(Color::Blue);
    let now = now_secs();
    let shown = text(
        &o.clock_mode_style,
        now,
        fugue_protocol::format::local::utc_offset(now),
    );
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            buf[(x, y)].reset();
        }
    }
    let chars: Vec<char> = shown.chars().filter(|c| *c != ' ').collect();
    let len = u16::try_from(chars.len()).unwrap_or(u16::MAX);
    let wide = len.saturating_mul(6);
    if area.width < wide || area.height < 6 {
        // Too small for the big digits: the text in the middle.
        let tl = u16::try_from(shown.chars().count()).unwrap_or(u16::MAX);
        if area.width >= tl && area.height > 0 {
            let x = area.x + (area.width - tl) / 2;
            let y = area.y + area.height / 2;
            buf.set_string(x, y, &shown, Style::default().fg(colour));
        }
        return;
    }
    let bg = Style::default().bg(colour);
    let mut x = area.x + (area.width - wide) / 2;
    let y = area.y + (area.height - 5) / 2;
    for c in chars {
        if let Some(rows) = glyph(c) {
            for (j, bits) in rows.iter().enumerate() {
                for i in 0..5u16 {
                    if bits & (0b10000 >> i) != 0 {
                        buf[(x + i, y + j as u16)].set_char(' ').set_style(bg);
                    }
                }
            }
        }
        x += 6;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_text_follows_the_style() {
        // 2026-11-24 21:05:00 UTC, shown one hour east.
        let t = 1_795_554_300;
        assert_eq!(super::text("24", t, 3600), "22:05");
        assert_eq!(super::text("12", t, 3600), "10:05 PM");
        assert_eq!(super::text("12", t, -12 * 3600), "9:05 AM");
    }
}
