//! Background colour erase (issue 29, item 1; vendor/README.md): cells that scrolling,
//! inserting or deleting blanks take the background colour of the moment, and nothing
//! else of the attributes, as in xterm and tmux. vim with a coloured `Normal`
//! background scrolls with these (C-e is SU or DL, C-y SD or IL).

use std::num::NonZeroU16;
use vt100::Color;

fn nz(v: u16) -> NonZeroU16 {
    NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN)
}

/// A 6x10 screen blanked in blue, then `bytes` written with the background `\e[44m`
/// (blue) and bold underline on, so only the background may reach the new cells.
fn blue(bytes: &[u8]) -> vt100::Parser {
    let mut p = vt100::Parser::new(nz(6), nz(10), 100);
    p.process(b"\x1b[0m\x1b[2J\x1b[H");
    p.process(b"\x1b[1;4;44m");
    p.process(bytes);
    p
}

/// The background of every cell of `row`.
fn backgrounds(p: &vt100::Parser, row: u16) -> Vec<Color> {
    (0..10)
        .map(|c| {
            p.screen()
                .cell(row, c)
                .map_or(Color::Default, |c| c.bgcolor())
        })
        .collect()
}

fn all(c: Color) -> Vec<Color> {
    vec![c; 10]
}

#[track_caller]
fn blank_in_blue(p: &vt100::Parser, row: u16, what: &str) {
    assert_eq!(backgrounds(p, row), all(Color::Idx(4)), "{what}: row {row}");
    for col in 0..10 {
        let cell = p.screen().cell(row, col).expect("cell");
        assert!(
            !cell.bold() && !cell.underline(),
            "{what}: row {row} col {col} took more than the background"
        );
    }
}

#[test]
fn inserted_and_deleted_lines_are_blank_in_the_background_colour() {
    blank_in_blue(&blue(b"\x1b[5;1H\x1b[L"), 4, "IL");
    blank_in_blue(&blue(b"\x1b[2;1H\x1b[M"), 5, "DL");
    blank_in_blue(&blue(b"\x1b[2;1H\x1b[2M"), 4, "DL 2");
}

#[test]
fn scrolls_fill_with_the_background_colour() {
    blank_in_blue(&blue(b"\x1b[S"), 5, "SU");
    blank_in_blue(&blue(b"\x1b[T"), 0, "SD");
    blank_in_blue(&blue(b"\x1b[6;1H\n"), 5, "LF at the bottom");
    blank_in_blue(&blue(b"\x1b[6;1H\x1bD"), 5, "IND at the bottom");
    blank_in_blue(&blue(b"\x1b[1;1H\x1bM"), 0, "RI at the top");
    blank_in_blue(&blue(b"\x1b[2;4r\x1b[4;1H\n"), 3, "LF in a region");
    // The wrapped character itself is bold and underlined; the rest of its new line
    // is blank in blue.
    let p = blue(b"\x1b[6;1H0123456789x");
    assert_eq!(
        backgrounds(&p, 5),
        all(Color::Idx(4)),
        "autowrap at the bottom"
    );
    assert!(!p.screen().cell(5, 1).expect("cell").bold());
}

#[test]
fn inserted_and_deleted_characters_are_blank_in_the_background_colour() {
    let p = blue(b"\x1b[0mabcdef\x1b[44m\x1b[1G\x1b[2@");
    let bg = backgrounds(&p, 0);
    assert_eq!(&bg[..2], &[Color::Idx(4); 2], "ICH");
    assert_eq!(
        &bg[2..8],
        &[Color::Default; 6],
        "ICH keeps the moved text's"
    );
    let p = blue(b"\x1b[0mabcdef\x1b[44m\x1b[1G\x1b[2P");
    let bg = backgrounds(&p, 0);
    assert_eq!(&bg[..4], &[Color::Default; 4], "DCH keeps the moved text's");
    assert_eq!(&bg[8..], &[Color::Idx(4); 2], "DCH");
}

#[test]
fn the_default_background_leaves_default_cells() {
    let mut p = vt100::Parser::new(nz(3), nz(10), 100);
    p.process(b"\x1b[44mx\x1b[0m\x1b[3;1H\n\x1b[L");
    assert_eq!(backgrounds(&p, 2), all(Color::Default));
    assert_eq!(backgrounds(&p, 0), all(Color::Default));
}
