//! The answers a pane owes its program: status reports, device attributes, mode and
//! setting requests, window reports, the title stack and screen checksums (issue 13;
//! the table of what is answered is in docs/terminal.md).
//!
//! Every answer is built from the pane's own screen, so programs get them with no
//! client attached. Answers follow xterm's formats; what fugue cannot know (pixel
//! sizes) is a fixed, documented value.

use super::terminal::Terminal;
use std::collections::VecDeque;
use std::fmt::Write as _;

/// The cell size in pixels fugue reports (`CSI 14 t`, `CSI 16 t`): the panes have no
/// pixels of their own and a client's terminal may not say, so a common 8x16 font.
pub const CELL_WIDTH_PX: u32 = 8;
pub const CELL_HEIGHT_PX: u32 = 16;

/// The most titles `CSI 22 t` keeps, as xterm; pushing more drops the oldest.
pub const TITLE_STACK_MAX: usize = 10;

/// The longest title or icon name kept, in characters (a title is shown in a status
/// line, not read as a document).
pub const TITLE_MAX_CHARS: usize = 256;

/// Saved titles (`CSI 22 t`), newest last; at most [`TITLE_STACK_MAX`].
#[derive(Debug, Default)]
pub struct TitleStack {
    /// (icon name, title) as pushed; None where that part was not pushed.
    saved: VecDeque<(Option<String>, Option<String>)>,
}

impl TitleStack {
    pub fn len(&self) -> usize {
        self.saved.len()
    }

    pub fn is_empty(&self) -> bool {
        self.saved.is_empty()
    }
}

/// A title or icon name as kept: no control characters, at most [`TITLE_MAX_CHARS`].
pub fn clean_title(raw: &[u8]) -> String {
    String::from_utf8_lossy(raw)
        .chars()
        .filter(|c| !c.is_control())
        .take(TITLE_MAX_CHARS)
        .collect()
}

fn param(params: &[&[u16]], i: usize) -> u16 {
    params.get(i).and_then(|p| p.first()).copied().unwrap_or(0)
}

/// Answers a CSI sequence vt100 left to its callbacks, if it is a question.
pub fn csi(
    term: &mut Terminal,
    screen: &vt100::Screen,
    i1: Option<u8>,
    i2: Option<u8>,
    params: &[&[u16]],
    c: char,
) {
    let first = param(params, 0);
    let out = &mut term.replies;
    match (i1, i2, c) {
        (None, None, 'n') => match first {
            // Device status: "terminal OK".
            5 => out.extend(b"\x1b[0n"),
            6 => {
                let (row, col) = cursor(screen);
                out.extend(format!("\x1b[{row};{col}R").as_bytes());
            }
            _ => {}
        },
        (Some(b'?'), None, 'n') => match first {
            // DECXCPR: with the page, as xterm (a VT420) answers.
            6 => {
                let (row, col) = cursor(screen);
                out.extend(format!("\x1b[?{row};{col};1R").as_bytes());
            }
            // No printer, user-defined keys unlocked, a North American keyboard.
            15 => out.extend(b"\x1b[?13n"),
            25 => out.extend(b"\x1b[?20n"),
            26 => out.extend(b"\x1b[?27;1;0;0n"),
            _ => {}
        },
        // Primary device attributes: a VT100 with advanced video, as tmux answers.
        (None, None, 'c') if first == 0 => out.extend(PRIMARY_DA),
        // Secondary device attributes.
        (Some(b'>'), None, 'c') if first == 0 => out.extend(b"\x1b[>84;0;0c"),
        // Tertiary device attributes (DECRPTUI): a unit id of zeros, as xterm.
        (Some(b'='), None, 'c') if first == 0 => out.extend(b"\x1bP!|00000000\x1b\\"),
        // XTVERSION.
        (Some(b'>'), None, 'q') if first == 0 => {
            out.extend(format!("\x1bP>|fugue {}\x1b\\", env!("CARGO_PKG_VERSION")).as_bytes())
        }
        (None, None, 't') => window_op(term, screen, params),
        // DECRQM, DEC private modes and ANSI modes.
        (Some(b'?'), Some(b'$'), 'p') => {
            let state = match screen.dec_mode(first) {
                Some(on) => mode_value(on),
                // Known but never settable here (docs/terminal.md): left/right margins
                // and highlight mouse tracking are permanently reset.
                None if first == 69 || first == 1001 => 4,
                None => 0,
            };
            out.extend(format!("\x1b[?{first};{state}$y").as_bytes());
        }
        (Some(b'$'), None, 'p') => {
            let state = screen.ansi_mode(first).map_or(0, mode_value);
            out.extend(format!("\x1b[{first};{state}$y").as_bytes());
        }
        (Some(b'*'), None, 'y') => {
            let sum = checksum(screen, params);
            out.extend(format!("\x1bP{first}!~{sum:04X}\x1b\\").as_bytes());
        }
        _ => {}
    }
}

/// The primary device attributes (`CSI c`, and DECID): a VT100 with advanced video, as
/// tmux answers.
pub const PRIMARY_DA: &[u8] = b"\x1b[?1;2c";

fn mode_value(on: bool) -> u8 {
    if on { 1 } else { 2 }
}

/// The cursor, 1-based, as a report gives it: relative to the scroll region in origin
/// mode, and a pending wrap counted as the last column (as xterm).
fn cursor(screen: &vt100::Screen) -> (u16, u16) {
    let (row, col) = screen.cursor_position();
    let (_, cols) = screen.size();
    let top = if screen.origin_mode() {
        screen.scroll_region().0
    } else {
        0
    };
    (
        row.saturating_sub(top).saturating_add(1),
        col.min(cols.get().saturating_sub(1)).saturating_add(1),
    )
}

/// XTWINOPS (`CSI Ps t`): sizes, the title stack, and title reports when allowed.
fn window_op(term: &mut Terminal, screen: &vt100::Screen, params: &[&[u16]]) {
    let (rows, cols) = screen.size();
    let (rows, cols) = (u32::from(rows.get()), u32::from(cols.get()));
    let which = param(params, 1);
    let out = &mut term.replies;
    match param(params, 0) {
        // The text area in pixels, at the documented cell size.
        14 => out.extend(
            format!("\x1b[4;{};{}t", rows * CELL_HEIGHT_PX, cols * CELL_WIDTH_PX).as_bytes(),
        ),
        16 => out.extend(format!("\x1b[6;{CELL_HEIGHT_PX};{CELL_WIDTH_PX}t").as_bytes()),
        18 => out.extend(format!("\x1b[8;{rows};{cols}t").as_bytes()),
        20 if term.title_reports => {
            let icon = term.icon.as_deref().unwrap_or_default();
            out.extend(format!("\x1b]L{icon}\x1b\\").as_bytes());
        }
        21 if term.title_reports => {
            let title = term.title.as_deref().unwrap_or_default();
            out.extend(format!("\x1b]l{title}\x1b\\").as_bytes());
        }
        22 => {
            let stack = &mut term.titles.saved;
            if stack.len() >= TITLE_STACK_MAX {
                stack.pop_front();
            }
            let icon = (which != 2).then(|| term.icon.clone().unwrap_or_default());
            let title = (which != 1).then(|| term.title.clone().unwrap_or_default());
            stack.push_back((icon, title));
        }
        23 => {
            if let Some((icon, title)) = term.titles.saved.pop_back() {
                if which != 2
                    && let Some(icon) = icon
                {
                    term.icon = Some(icon);
                }
                if which != 1
                    && let Some(title) = title
                {
                    term.set_title(title);
                }
            }
        }
        _ => {}
    }
}

/// DECRQSS (`DCS $ q Pt ST`): the setting `Pt` names, as the sequence that sets it.
pub fn dcs(
    out: &mut Vec<u8>,
    screen: &vt100::Screen,
    intermediates: &[u8],
    action: char,
    data: &[u8],
) {
    if intermediates != b"$" || action != 'q' {
        return;
    }
    let value = match data {
        b"m" => Some(format!("{}m", sgr(screen))),
        b"r" => {
            let (top, bottom) = screen.scroll_region();
            Some(format!("{};{}r", u32::from(top) + 1, u32::from(bottom) + 1))
        }
        // No left/right margins: always the whole width.
        b"s" => Some(format!("1;{}s", screen.size().1.get())),
        b" q" => Some(format!("{} q", cursor_style(screen.cursor_style()))),
        // The level DA1 claims (a VT100): no 8-bit controls to report.
        b"\"p" => Some("61\"p".to_string()),
        _ => None,
    };
    match value {
        Some(v) => out.extend(format!("\x1bP1$r{v}\x1b\\").as_bytes()),
        None => out.extend(b"\x1bP0$r\x1b\\"),
    }
}

/// The current rendition as SGR parameters, starting from `0` as xterm's do.
fn sgr(screen: &vt100::Screen) -> String {
    let codes = screen.attributes_formatted();
    let mut out = String::from("0");
    for seq in codes.split("\x1b[").filter_map(|s| s.strip_suffix('m')) {
        if !seq.is_empty() {
            let _ = write!(out, ";{seq}");
        }
    }
    out
}

/// DECSCUSR's number for a cursor style; the terminal's default is reported as
/// xterm's (a steady block).
fn cursor_style(style: vt100::CursorStyle) -> u8 {
    use vt100::CursorStyle as S;
    match style {
        S::BlinkBlock => 1,
        S::Default | S::SteadyBlock => 2,
        S::BlinkUnderline => 3,
        S::SteadyUnderline => 4,
        S::BlinkVerticalBar => 5,
        S::SteadyVerticalBar => 6,
    }
}

/// DECRQCRA (`CSI Pi ; Pg ; Pt ; Pl ; Pb ; Pr * y`): xterm's default checksum of a
/// rectangle (`xtermCheckRect`): for each cell something was written in, its character
/// plus 0x10 underlined, 0x20 inverse, 0x80 bold; the sum negated, 16 bits. Erased
/// cells count nothing. Rows are relative to the scroll region in origin mode and the
/// rectangle is clamped to the screen (or region); an inverted one sums to 0.
fn checksum(screen: &vt100::Screen, params: &[&[u16]]) -> u16 {
    let (rows, cols) = screen.size();
    let (region_top, region_bottom) = screen.scroll_region();
    let (min_row, max_row, offset) = if screen.origin_mode() {
        (region_top + 1, region_bottom + 1, region_top)
    } else {
        (1, rows.get(), 0)
    };
    let row = |v: u16, default: u16| {
        if v == 0 {
            default
        } else {
            v.saturating_add(offset)
        }
        .clamp(min_row, max_row)
    };
    let col = |v: u16, default: u16| if v == 0 { default } else { v }.clamp(1, cols.get());
    let top = row(param(params, 2), min_row);
    let left = col(param(params, 3), 1);
    let bottom = row(param(params, 4), max_row);
    let right = col(param(params, 5), cols.get());
    let mut total: u32 = 0;
    for r in top..=bottom {
        for c in left..=right {
            let Some(cell) = screen.cell(r - 1, c - 1) else {
                continue;
            };
            let Some(ch) = cell.contents().chars().next() else {
                continue;
            };
            let mut v = u32::from(ch);
            if cell.underline() {
                v += 0x10;
            }
            if cell.inverse() {
                v += 0x20;
            }
            if cell.bold() {
                v += 0x80;
            }
            total = total.wrapping_add(v);
        }
    }
    (total.wrapping_neg() & 0xffff) as u16
}
