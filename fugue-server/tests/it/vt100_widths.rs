//! The vendored vt100's widths for emoji sequences (issue 13): an emoji ZWJ sequence,
//! an emoji with VS16 and an emoji with a skin tone each take the two columns modern
//! terminals (kitty, WezTerm, foot, Ghostty, iTerm2) give them, in one cell.

use std::num::NonZeroU16;

fn parser(rows: u16, cols: u16) -> vt100::Parser {
    let nz = |v: u16| NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN);
    vt100::Parser::new(nz(rows), nz(cols), 0)
}

/// The cells of row 0 after `text`, as (contents, wide), and the cursor column.
fn cells_after(text: &str, cols: u16) -> (Vec<(String, bool)>, u16) {
    let mut p = parser(3, cols);
    p.process(text.as_bytes());
    let s = p.screen();
    let cells = (0..cols)
        .map(|c| {
            let cell = s.cell(0, c).expect("cell");
            (cell.contents().to_string(), cell.is_wide())
        })
        .collect();
    (cells, s.cursor_position().1)
}

fn wide(s: &str) -> (String, bool) {
    (s.to_string(), true)
}

fn narrow(s: &str) -> (String, bool) {
    (s.to_string(), false)
}

#[test]
fn a_zwj_sequence_is_one_wide_cell() {
    let (cells, col) = cells_after("a\u{1F469}\u{200D}\u{1F4BB}b", 6);
    assert_eq!(
        cells[..4],
        [
            narrow("a"),
            wide("\u{1F469}\u{200D}\u{1F4BB}"),
            narrow(""),
            narrow("b")
        ]
    );
    assert_eq!(col, 4);
}

#[test]
fn a_family_of_three_is_one_wide_cell() {
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    let (cells, col) = cells_after(&format!("{family}x"), 6);
    assert_eq!(cells[..3], [wide(family), narrow(""), narrow("x")]);
    assert_eq!(col, 3);
}

#[test]
fn vs16_makes_a_text_symbol_wide() {
    let (cells, col) = cells_after("c\u{2764}\u{FE0F}d", 6);
    assert_eq!(
        cells[..4],
        [
            narrow("c"),
            wide("\u{2764}\u{FE0F}"),
            narrow(""),
            narrow("d")
        ]
    );
    assert_eq!(col, 4);
}

#[test]
fn a_skin_tone_joins_its_emoji() {
    let (cells, col) = cells_after("e\u{1F44D}\u{1F3FD}f", 6);
    assert_eq!(
        cells[..4],
        [
            narrow("e"),
            wide("\u{1F44D}\u{1F3FD}"),
            narrow(""),
            narrow("f")
        ]
    );
    assert_eq!(col, 4);
}

/// A ZWJ after something that is not an emoji joins nothing: the next character
/// takes its own cell, as before.
#[test]
fn a_zwj_after_text_joins_nothing() {
    let (cells, col) = cells_after("a\u{200D}b", 4);
    assert_eq!(cells[..2], [narrow("a\u{200D}"), narrow("b")]);
    assert_eq!(col, 2);
}

/// A sequence that reaches the last column wraps whole.
#[test]
fn a_zwj_sequence_at_the_end_of_a_row_wraps_whole() {
    let mut p = parser(3, 4);
    p.process("abc\u{1F469}\u{200D}\u{1F4BB}".as_bytes());
    let s = p.screen();
    assert_eq!(
        s.cell(1, 0).expect("cell").contents(),
        "\u{1F469}\u{200D}\u{1F4BB}"
    );
    assert_eq!(s.cursor_position(), (1, 2));
    assert!(s.row_wrapped(0));
}
