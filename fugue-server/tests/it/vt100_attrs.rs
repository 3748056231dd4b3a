//! The vendored vt100's cell attributes beyond vt100 0.18's five (issue 13): bytes in,
//! cells read back. See vendor/README.md.

use std::num::NonZeroU16;
use vt100::{Color, UnderlineStyle};

fn parser(rows: u16, cols: u16) -> vt100::Parser {
    let nz = |v: u16| NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN);
    vt100::Parser::new(nz(rows), nz(cols), 0)
}

/// The screen after `bytes`, on a 5x40 screen.
fn screen_after(bytes: &[u8]) -> vt100::Parser {
    let mut p = parser(5, 40);
    p.process(bytes);
    p
}

fn cell(p: &vt100::Parser, col: u16) -> vt100::Cell {
    p.screen()
        .cell(0, col)
        .cloned()
        .unwrap_or_else(|| panic!("no cell 0,{col}"))
}

#[test]
fn cells_stay_32_bytes() {
    assert_eq!(std::mem::size_of::<vt100::Cell>(), 32);
}

#[test]
fn strikethrough_blink_and_hidden_are_set_and_cleared() {
    let p = screen_after(b"\x1b[9ma\x1b[29mb\x1b[5mc\x1b[25m\x1b[6md\x1b[0m\x1b[8me\x1b[28mf");
    let flags = |col| {
        let c = cell(&p, col);
        (c.strikethrough(), c.blink(), c.hidden())
    };
    assert_eq!(flags(0), (true, false, false));
    assert_eq!(flags(1), (false, false, false));
    assert_eq!(flags(2), (false, true, false));
    // SGR 6 (rapid blink) is blink, as in tmux.
    assert_eq!(flags(3), (false, true, false));
    assert_eq!(flags(4), (false, false, true));
    assert_eq!(flags(5), (false, false, false));
}

#[test]
fn underline_styles_follow_the_colon_form_and_sgr_21() {
    let p = screen_after(
        b"\x1b[4:0ma\x1b[4:1mb\x1b[4:2mc\x1b[4:3md\x1b[4:4me\x1b[4:5mf\x1b[24mg\x1b[21mh\x1b[4mi\x1b[4:3m\x1b[4:9mj",
    );
    let s = p.screen();
    let ul = |col| {
        let c = cell(&p, col);
        c.underline().then(|| s.extra(&c).underline_style)
    };
    use UnderlineStyle::*;
    assert_eq!(ul(0), None);
    assert_eq!(ul(1), Some(Single));
    assert_eq!(ul(2), Some(Double));
    assert_eq!(ul(3), Some(Curly));
    assert_eq!(ul(4), Some(Dotted));
    assert_eq!(ul(5), Some(Dashed));
    assert_eq!(ul(6), None);
    // SGR 21 is a double underline, as xterm and tmux have it.
    assert_eq!(ul(7), Some(Double));
    // SGR 4 after a curly underline is single again.
    assert_eq!(ul(8), Some(Single));
    // An unknown style is ignored (tmux does the same).
    assert_eq!(ul(9), Some(Curly));
}

#[test]
fn overline_is_set_and_cleared() {
    let p = screen_after(b"\x1b[53ma\x1b[55mb\x1b[53;1mc\x1b[0md");
    let s = p.screen();
    let over: Vec<bool> = (0..4).map(|c| s.extra(&cell(&p, c)).overline).collect();
    assert_eq!(over, vec![true, false, true, false]);
    assert!(cell(&p, 2).bold());
}

/// Issue 13: `58;2;1;2;3` turned on dim (2), bold (1), dim (2) and italic (3).
#[test]
fn underline_colour_takes_its_parameters() {
    let p = screen_after(b"\x1b[58;2;1;2;3ma");
    let c = cell(&p, 0);
    assert!(!c.dim() && !c.bold() && !c.italic(), "{c:?}");
    assert_eq!(p.screen().extra(&c).underline_color, Color::Rgb(1, 2, 3));
}

#[test]
fn underline_colour_in_every_form() {
    let cases: [(&[u8], Color); 6] = [
        (b"\x1b[58;2;1;2;3m", Color::Rgb(1, 2, 3)),
        (b"\x1b[58;5;200m", Color::Idx(200)),
        (b"\x1b[58:2::4:5:6m", Color::Rgb(4, 5, 6)),
        (b"\x1b[58:2:7:8:9m", Color::Rgb(7, 8, 9)),
        (b"\x1b[58:5:9m", Color::Idx(9)),
        (b"\x1b[58;5;9m\x1b[59m", Color::Default),
    ];
    for (seq, want) in cases {
        let mut bytes = seq.to_vec();
        bytes.extend_from_slice(b"\x1b[4mx");
        let p = screen_after(&bytes);
        let c = cell(&p, 0);
        assert_eq!(
            p.screen().extra(&c).underline_color,
            want,
            "{}",
            String::from_utf8_lossy(seq)
        );
        assert!(c.underline() && !c.dim() && !c.bold() && !c.italic());
    }
}

#[test]
fn truecolour_in_the_colon_form_with_a_colour_space() {
    let p = screen_after(b"\x1b[38:2::10:20:30;48:2::1:2:3ma\x1b[38:2:0:4:5:6mb");
    let a = cell(&p, 0);
    assert_eq!(a.fgcolor(), Color::Rgb(10, 20, 30));
    assert_eq!(a.bgcolor(), Color::Rgb(1, 2, 3));
    assert_eq!(cell(&p, 1).fgcolor(), Color::Rgb(4, 5, 6));
}

#[test]
fn an_unknown_extended_colour_does_not_turn_into_attributes() {
    // 38;3 (CMY) is not supported: the rest of the sequence is skipped, not read as
    // SGR 1, 2, 3.
    let p = screen_after(b"\x1b[38;3;1;2;3ma\x1b[58;7;1;3mb");
    for col in 0..2 {
        let c = cell(&p, col);
        assert!(!c.bold() && !c.dim() && !c.italic(), "{c:?}");
    }
}

#[test]
fn sgr_0_clears_the_rare_attributes() {
    let p = screen_after(b"\x1b[4:3;53;58;5;1;9;5;8ma\x1b[0mb\x1b[4mc");
    let s = p.screen();
    let b = cell(&p, 1);
    assert_eq!(s.extra(&b), vt100::Extra::default());
    assert!(!b.strikethrough() && !b.blink() && !b.hidden() && !b.underline());
    let c = cell(&p, 2);
    assert_eq!(s.extra(&c).underline_style, UnderlineStyle::Single);
    assert_eq!(s.extra(&c).underline_color, Color::Default);
}

/// More distinct underline colours than the table holds, over time: the slots no
/// cell uses any more are taken back, so the newest text keeps its colour.
#[test]
fn the_table_of_rare_attributes_takes_back_unused_slots() {
    let mut p = parser(3, 10);
    for i in 0..(vt100::EXTRAS_MAX as u32 * 3) {
        let (r, g, b) = ((i >> 16) as u8, (i >> 8) as u8, i as u8);
        p.process(format!("\x1b[H\x1b[4;58;2;{r};{g};{b}mx").as_bytes());
        let c = p.screen().cell(0, 0).cloned().expect("cell");
        assert_eq!(p.screen().extra(&c).underline_color, Color::Rgb(r, g, b));
    }
    assert!(p.screen().extras_held().0 <= vt100::EXTRAS_MAX);
}

/// A screen full of distinct combinations: past the limit new ones are dropped (the
/// text keeps its colours and flags), and the table stays bounded.
#[test]
fn the_table_of_rare_attributes_is_bounded() {
    let mut p = parser(100, 100);
    for i in 0..(vt100::EXTRAS_MAX as u32 + 100) {
        let (g, b) = ((i >> 8) as u8, i as u8);
        p.process(format!("\x1b[1;4;58;2;0;{g};{b}mx").as_bytes());
    }
    let s = p.screen();
    assert!(s.extras_held().0 <= vt100::EXTRAS_MAX);
    let last = s.cell(41, 0).cloned().expect("cell");
    assert!(last.bold() && last.underline());
}

#[test]
fn attributes_formatted_restores_the_rare_attributes() {
    let p = screen_after(b"\x1b[9;4:3;53;58;5;3m");
    let restore = p.screen().attributes_formatted();
    let mut q = parser(2, 10);
    q.process(restore.as_bytes());
    q.process(b"x");
    let c = q.screen().cell(0, 0).cloned().expect("cell");
    let e = q.screen().extra(&c);
    assert!(c.strikethrough() && c.underline());
    assert_eq!(
        (e.underline_style, e.overline, e.underline_color),
        (UnderlineStyle::Curly, true, Color::Idx(3))
    );
}

fn link_at(p: &vt100::Parser, row: u16, col: u16) -> Option<(String, String)> {
    let s = p.screen();
    let c = s.cell(row, col)?;
    s.hyperlink(s.extra(c).hyperlink)
        .map(|l| (l.id.clone(), l.uri.clone()))
}

fn link(id: &str, uri: &str) -> Option<(String, String)> {
    Some((id.to_string(), uri.to_string()))
}

#[test]
fn osc_8_links_text_until_it_is_closed() {
    let p = screen_after(
        b"a\x1b]8;;http://x/a;b?c\x1b\\bc\x1b]8;;\x1b\\d\x1b]8;id=k:foo=1;http://y\x07e\x1b[0mf\x1b]8;;\x07g",
    );
    assert_eq!(link_at(&p, 0, 0), None);
    // A URI may hold `;`.
    assert_eq!(link_at(&p, 0, 1), link("", "http://x/a;b?c"));
    assert_eq!(link_at(&p, 0, 2), link("", "http://x/a;b?c"));
    assert_eq!(link_at(&p, 0, 3), None);
    // Only `id` among the parameters is kept; BEL ends the string as well as ST.
    assert_eq!(link_at(&p, 0, 4), link("k", "http://y"));
    // SGR 0 does not end a link (as in tmux and xterm).
    assert_eq!(link_at(&p, 0, 5), link("k", "http://y"));
    assert_eq!(link_at(&p, 0, 6), None);
}

#[test]
fn the_same_link_gets_the_same_number() {
    let p = screen_after(b"\x1b]8;;http://x\x1b\\a\x1b]8;;\x1b\\b\x1b]8;;http://x\x1b\\c");
    let s = p.screen();
    let n = |col| s.extra(s.cell(0, col).expect("cell")).hyperlink;
    assert_ne!(n(0), 0);
    assert_eq!(n(0), n(2));
    assert_eq!(s.extras_held().1, 1);
}

#[test]
fn links_that_are_not_printable_or_too_long_are_not_kept() {
    let long = format!("\x1b]8;;http://{}\x1b\\a", "x".repeat(vt100::LINK_URI_MAX));
    let long_id = format!(
        "\x1b]8;id={};http://x\x1b\\a",
        "i".repeat(vt100::LINK_ID_MAX + 1)
    );
    for bytes in [
        long.as_bytes(),
        long_id.as_bytes(),
        b"\x1b]8;;http://\xc2\x85x\x1b\\a",
    ] {
        // Each follows an open link: a link that cannot be kept ends the one before.
        let mut all = b"\x1b]8;;http://before\x1b\\".to_vec();
        all.extend_from_slice(bytes);
        let p = screen_after(&all);
        assert_eq!(
            link_at(&p, 0, 0),
            None,
            "{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

/// Past the limit the oldest links are forgotten: the text that carried them has no
/// link, and a number is never given to another link.
#[test]
fn the_link_table_is_bounded_and_forgets_the_oldest() {
    let mut p = parser(3, 10);
    p.process(b"\x1b]8;;http://first\x1b\\F\x1b]8;;\x1b\\");
    let first = p
        .screen()
        .extra(p.screen().cell(0, 0).expect("cell"))
        .hyperlink;
    for i in 0..vt100::LINKS_MAX {
        p.process(format!("\x1b[2;1H\x1b]8;;http://{i}\x1b\\x\x1b]8;;\x1b\\").as_bytes());
    }
    assert_eq!(p.screen().extras_held().1, vt100::LINKS_MAX);
    assert!(p.screen().hyperlink(first).is_none());
    assert_eq!(link_at(&p, 0, 0), None);
    assert_eq!(
        link_at(&p, 1, 0),
        link("", &format!("http://{}", vt100::LINKS_MAX - 1))
    );
    // Opened again, the first link is new: a number past every other.
    p.process(b"\x1b[3;1H\x1b]8;;http://first\x1b\\G");
    let again = p
        .screen()
        .extra(p.screen().cell(2, 0).expect("cell"))
        .hyperlink;
    assert!(again > first);
    assert_eq!(link_at(&p, 0, 0), None);
    // Bytes too: 1 MiB of URIs at most.
    let mut q = parser(3, 10);
    for i in 0..1000 {
        q.process(format!("\x1b]8;;http://{i}/{}\x1b\\x", "u".repeat(2000)).as_bytes());
    }
    assert!(q.screen().extras_held().1 * 2000 <= vt100::LINK_BYTES_MAX);
}

/// A reset clears the screen but keeps link numbers meaning what they meant (fugue's
/// history keeps them).
#[test]
fn a_reset_keeps_link_numbers() {
    let mut p = parser(3, 10);
    p.process(b"\x1b]8;;http://x\x1b\\a");
    let n = p
        .screen()
        .extra(p.screen().cell(0, 0).expect("cell"))
        .hyperlink;
    p.process(b"\x1bc");
    assert!(p.screen().pen_extra() == vt100::Extra::default());
    assert_eq!(
        p.screen().hyperlink(n).map(|l| l.uri.as_str()),
        Some("http://x")
    );
}
