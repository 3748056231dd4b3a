//! The vendored vt100's terminal core (issue 13, vendor/README.md): character sets, tab
//! stops, movement and modes. Each test feeds bytes and reads the screen back. (vt100 is
//! not a workspace member and its dev-dependencies keep `cargo test -p vt100` from
//! running, so its byte-level tests live here.)

use std::num::NonZeroU16;

fn nz(v: u16) -> NonZeroU16 {
    NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN)
}

fn term(rows: u16, cols: u16, bytes: &[u8]) -> vt100::Parser {
    let mut p = vt100::Parser::new(nz(rows), nz(cols), 0);
    p.process(bytes);
    p
}

/// The screen's rows, trailing blanks trimmed.
fn rows(p: &vt100::Parser) -> Vec<String> {
    let (_, cols) = p.screen().size();
    p.screen()
        .rows(0, cols.get())
        .map(|r| r.trim_end().to_string())
        .collect()
}

fn row(p: &vt100::Parser, n: usize) -> String {
    rows(p).get(n).cloned().unwrap_or_default()
}

fn cursor(p: &vt100::Parser) -> (u16, u16) {
    p.screen().cursor_position()
}

// 1. Character sets

#[test]
fn dec_special_graphics_draws_boxes() {
    let p = term(3, 20, b"\x1b(0lqqk\x1b(B lqqk\r\n\x1b(0x  x mqqj");
    assert_eq!(row(&p, 0), "┌──┐ lqqk");
    assert_eq!(row(&p, 1), "│  │ └──┘");
}

#[test]
fn every_special_graphic_and_what_it_leaves_alone() {
    let p = term(
        2,
        40,
        b"\x1b(0`abcdefghijklmnopqrstuvwxyz{|}~\r\nABC 123\x1b(B",
    );
    assert_eq!(row(&p, 0), "◆▒␉␌␍␊°±␤␋┘┐┌└┼⎺⎻─⎼⎽├┤┴┬│≤≥π≠£·");
    assert_eq!(
        row(&p, 1),
        "ABC 123",
        "upper case and digits are not remapped"
    );
}

#[test]
fn shift_out_and_shift_in_pick_g1_and_g0() {
    let p = term(2, 20, b"\x1b)0lqk\x0elqk\x0flqk");
    assert_eq!(row(&p, 0), "lqk┌─┐lqk");
}

#[test]
fn g2_and_g3_by_locking_and_single_shifts() {
    // LS2 (ESC n) and LS3 (ESC o) lock G2 and G3 into GL; SI goes back to G0.
    let p = term(2, 30, b"\x1b*0\x1b+Aq\x1bnq\x1bo#\x0fq#");
    assert_eq!(row(&p, 0), "q─£q#");
    // SS2 (ESC N) and SS3 (ESC O): one character only.
    let p = term(2, 30, b"\x1b*0\x1b+A\x1bNqq\x1bO##");
    assert_eq!(row(&p, 0), "─q£#");
}

#[test]
fn uk_set_and_ascii_designation() {
    let p = term(2, 20, b"\x1b(A#1\x1b(B#2");
    assert_eq!(row(&p, 0), "£1#2");
}

#[test]
fn decsc_and_decrc_keep_the_character_sets() {
    // Saved while line drawing was in G0, restored after switching back to ASCII.
    let p = term(2, 20, b"\x1b(0\x1b7\x1b(Bq\x1b8q");
    assert_eq!(
        row(&p, 0),
        "─",
        "restored at the saved cursor, with the saved set"
    );
    // Saved with SO in effect.
    let p = term(2, 20, b"\x1b)0\x0e\x1b7\x0fq\x1b8q");
    assert_eq!(row(&p, 0), "─");
}

#[test]
fn reset_and_soft_reset_forget_the_character_sets() {
    let p = term(2, 20, b"\x1b(0\x1bcq");
    assert_eq!(row(&p, 0), "q");
    let p = term(2, 20, b"\x1b(0\x1b)0\x0e\x1b[!pq");
    assert_eq!(row(&p, 0), "q");
}

#[test]
fn combining_and_wide_text_pass_through_a_special_set() {
    let p = term(2, 20, b"\x1b(0q\xe6\x97\xa5E\xcc\x81x");
    assert_eq!(row(&p, 0), "─日E\u{301}│");
}

// 2. Tab stops

#[test]
fn default_tab_stops_every_eight() {
    let p = term(2, 30, b"\tA\tB");
    assert_eq!(row(&p, 0), "        A       B");
}

#[test]
fn hts_and_tbc_set_and_clear_stops() {
    // Clear all, set one at column 4 (CHA 5).
    let p = term(2, 30, b"\x1b[3g\x1b[5G\x1bH\rA\tB\tC");
    assert_eq!(row(&p, 0), format!("A   B{}C", " ".repeat(24)));
    assert_eq!(
        cursor(&p),
        (0, 30),
        "no stop after column 4: the last column"
    );
    // TBC 0 (and CSI g) clears the stop under the cursor only.
    let p = term(2, 30, b"\x1b[9G\x1b[g\r\tA\x1b[17G\x1b[0g\r\tB");
    assert_eq!(
        row(&p, 0),
        format!("{}A{}B", " ".repeat(16), " ".repeat(7)),
        "stops 8 and 16 gone"
    );
    let p = term(2, 40, b"\x1b[9G\x1b[g\r\tA");
    assert_eq!(cursor(&p), (0, 17));
}

#[test]
fn cht_and_cbt_move_by_stops() {
    let p = term(2, 40, b"\x1b[2IA\x1b[30G\x1b[2ZB\x1b[Z\x1b[ZC");
    // A at 16; B at 16 (29 -> 24 -> 16) over it; then from 17 back to 16, then 8.
    assert_eq!(row(&p, 0), format!("{}C{}B", " ".repeat(8), " ".repeat(7)));
    let p = term(2, 40, b"\x1b[9IX");
    assert_eq!(cursor(&p), (0, 40), "past the last stop: the last column");
}

/// A tab after the last column leaves the wrap pending (xterm, tmux; issue 29, item 6):
/// `printf '%080d\tX'` puts X on the next line, not over column 80.
#[test]
fn a_tab_keeps_a_pending_wrap() {
    let p = term(3, 10, b"0123456789\tX");
    assert_eq!(row(&p, 0), "0123456789");
    assert_eq!(row(&p, 1), "X");
    let p = term(3, 10, b"0123456789\x1b[2IX");
    assert_eq!(row(&p, 1), "X", "CHT too");
}

#[test]
fn tab_stops_survive_a_resize_and_new_columns_get_defaults() {
    let mut p = term(2, 12, b"\x1b[3g\x1b[5G\x1bH");
    p.set_size(nz(2), nz(40));
    p.process(b"\r\tA\tB\tC");
    // Stop at 4 kept; 8 is an old column whose stop was cleared; 16, 24 are new.
    assert_eq!(
        row(&p, 0),
        format!("    A{}B{}C", " ".repeat(11), " ".repeat(7))
    );
    // Narrowing drops the stops past the edge; widening again gives them defaults.
    let mut p = term(2, 40, b"\x1b[3g");
    p.set_size(nz(2), nz(10));
    p.set_size(nz(2), nz(20));
    p.process(b"\r\tA");
    assert_eq!(row(&p, 0), "                A");
    assert_eq!(p.screen().tab_stops(), vec![16]);
}

// 3. Movement and modes

#[test]
fn ind_and_nel() {
    let p = term(3, 10, b"ab\x1bDc\x1bEd");
    assert_eq!(rows(&p), vec!["ab", "  c", "d"]);
    // IND at the bottom scrolls.
    let p = term(2, 10, b"a\r\nb\x1bDc");
    assert_eq!(rows(&p), vec!["b", " c"]);
    // Unlike LF, IND ignores new-line mode.
    let p = term(3, 10, b"\x1b[20hab\x1bDc");
    assert_eq!(rows(&p), vec!["ab", "  c", ""]);
}

#[test]
fn hpr_and_vpr() {
    let p = term(5, 10, b"a\x1b[3ab\x1b[2ec\x1b[9ad\x1b[9ee");
    assert_eq!(rows(&p), vec!["a   b", "", "     c   d", "", "         e"]);
}

#[test]
fn vpr_stays_in_the_region_in_origin_mode() {
    let p = term(6, 10, b"\x1b[2;4r\x1b[?6h\x1b[9eX");
    assert_eq!(cursor(&p), (3, 1));
}

#[test]
fn autowrap_off_writes_over_the_last_column() {
    let p = term(2, 5, b"\x1b[?7labcdefg\x1b[?7h\rxyzuvw");
    assert_eq!(rows(&p), vec!["xyzuv", "w"]);
    let p = term(2, 5, b"\x1b[?7labcdefg");
    assert_eq!(rows(&p), vec!["abcdg", ""]);
    assert!(!p.screen().row_wrapped(0));
    // A wide character at the edge with autowrap off stays on the line.
    let p = term(2, 5, "\x1b[?7labcd日".as_bytes());
    assert_eq!(rows(&p), vec!["abc日", ""]);
}

#[test]
fn reverse_wraparound_backspaces_to_the_line_above() {
    let p = term(3, 5, b"\x1b[?45h\x1b[2;1H\x08X");
    assert_eq!(rows(&p), vec!["    X", "", ""]);
    // Off (the default): BS stops at the first column.
    let p = term(3, 5, b"\x1b[2;1H\x08X");
    assert_eq!(rows(&p), vec!["", "X", ""]);
    // It needs autowrap too, as in xterm; and stops at the top.
    let p = term(3, 5, b"\x1b[?45h\x1b[?7l\x1b[2;1H\x08X");
    assert_eq!(rows(&p), vec!["", "X", ""]);
    let p = term(3, 5, b"\x1b[?45h\x08X");
    assert_eq!(rows(&p), vec!["X", "", ""]);
}

#[test]
fn insert_mode_shifts_the_line_right() {
    let p = term(2, 8, b"abcdef\r\x1b[4hXY\x1b[4lZ");
    assert_eq!(row(&p, 0), "XYZbcdef");
    let p = term(2, 8, b"abcdefgh\r\x1b[4hXY");
    assert_eq!(row(&p, 0), "XYabcdef", "what passes the right edge is lost");
    let p = term(2, 8, "abcdef\r\x1b[4h日".as_bytes());
    assert_eq!(row(&p, 0), "日abcdef");
    // A pending wrap wraps first; the room is made on the next line.
    let p = term(2, 4, b"wxyz\r\nabc\x1b[1;4Hz\x1b[4hQ");
    assert_eq!(rows(&p), vec!["wxyz", "Qabc"]);
}

#[test]
fn new_line_mode_returns_the_carriage() {
    let p = term(3, 10, b"\x1b[20hab\ncd\x1b[20l\nef");
    assert_eq!(rows(&p), vec!["ab", "cd", "  ef"]);
}

#[test]
fn decstbm_homes_the_cursor() {
    let p = term(6, 10, b"\x1b[5;5H\x1b[2;4rX");
    assert_eq!(
        row(&p, 0),
        "X",
        "home is the screen's top without origin mode"
    );
    let p = term(6, 10, b"\x1b[?6h\x1b[5;5H\x1b[2;4rX");
    assert_eq!(row(&p, 1), "X", "and the region's top with it");
}

#[test]
fn an_empty_or_inverted_region_is_ignored() {
    let p = term(6, 10, b"\x1b[2;4r\x1b[5;5H\x1b[4;2r\x1b[4;4rX");
    assert_eq!(cursor(&p), (4, 5), "cursor not moved");
    // The 2;4 region still holds: LF at row 4 scrolls rows 2-4 only.
    let p = term(5, 10, b"1\r\n2\r\n3\r\n4\r\n5\x1b[2;4r\x1b[4;2r\x1b[4;1H\n");
    assert_eq!(rows(&p), vec!["1", "3", "4", "", "5"]);
}

#[test]
fn scosc_and_scorc() {
    let p = term(5, 10, b"\x1b[3;4H\x1b[s\x1b[1;1Hab\x1b[uX");
    assert_eq!(rows(&p), vec!["ab", "", "   X", "", ""]);
}

#[test]
fn a_pending_wrap_survives_decsc_and_decrc() {
    let p = term(3, 4, b"abcd\x1b7\x1b[3;1H\x1b8X");
    assert_eq!(rows(&p), vec!["abcd", "X", ""]);
    assert!(p.screen().row_wrapped(0));
}

#[test]
fn decaln_fills_with_e_and_resets() {
    let p = term(3, 4, b"\x1b[2;3r\x1b[?6h\x1b[1mab\x1b#8X");
    assert_eq!(rows(&p), vec!["XEEE", "EEEE", "EEEE"]);
    assert_eq!(cursor(&p), (0, 1));
    assert!(!p.screen().cell(0, 0).unwrap().bold(), "rendition reset");
    assert!(!p.screen().cell(0, 1).unwrap().bold());
    assert!(!p.screen().origin_mode());
    assert_eq!(p.screen().scroll_region(), (0, 2));
}

#[test]
fn deccolm_clears_homes_and_resets_margins_though_the_width_stays() {
    for set in [&b"h"[..], b"l"] {
        let mut bytes = b"text\x1b[2;3r\x1b[3;3H\x1b[?3".to_vec();
        bytes.extend_from_slice(set);
        bytes.extend_from_slice(b"X");
        let p = term(4, 10, &bytes);
        assert_eq!(rows(&p), vec!["X", "", "", ""]);
        assert_eq!(p.screen().size().1.get(), 10);
        assert_eq!(p.screen().scroll_region(), (0, 3));
    }
}

#[test]
fn decstr_soft_reset() {
    let p = term(
        4,
        10,
        b"\x1b[3;3H\x1b7\x1b[?7l\x1b[4h\x1b[2;3r\x1b[?6h\x1b(0\x1b[1;7m\x1b[?25l\x1b[?1h\x1b=\x1b[!p",
    );
    let s = p.screen();
    assert!(!s.hide_cursor());
    assert!(!s.application_cursor() && !s.application_keypad());
    assert!(!s.bold() && !s.inverse());
    assert!(!s.origin_mode());
    assert_eq!(s.scroll_region(), (0, 3));
    assert_eq!(cursor(&p), (1, 0), "DECSTR does not move the cursor");
    assert_eq!(s.dec_mode(7), Some(true));
    assert_eq!(s.ansi_mode(4), Some(false));
    let mut p = p;
    // The saved cursor is home; printing is plain again (no line drawing, no insert,
    // autowrap on).
    p.process(b"\x1b8qqqqqqqqqqqq");
    assert_eq!(rows(&p), vec!["qqqqqqqqqq", "qq", "", ""]);
}

#[test]
fn alternate_screen_1047_and_cursor_1048() {
    let p = term(3, 10, b"main\x1b[?1047halt\x1b[?1047l");
    assert_eq!(rows(&p), vec!["main", "", ""]);
    let mut p = term(3, 10, b"main\x1b[?1047halt\x1b[?47l\x1b[?47h");
    assert_eq!(row(&p, 0), "alt", "47 does not clear");
    p.process(b"\x1b[?1047l\x1b[?47h");
    assert_eq!(row(&p, 0), "", "1047l cleared it");
    let p = term(3, 10, b"\x1b[2;3H\x1b[?1048h\x1b[HX\x1b[?1048lY");
    assert_eq!(rows(&p), vec!["X", "  Y", ""]);
}

#[test]
fn decbi_and_decfi_scroll_sideways_at_the_edges() {
    let p = term(2, 5, b"abcde\r\n12345\x1b[1;1H\x1b6");
    assert_eq!(rows(&p), vec![" abcd", " 1234"]);
    let p = term(2, 5, b"abcde\r\n12345\x1b[1;5H\x1b9X");
    assert_eq!(rows(&p), vec!["bcdeX", "2345"]);
    let p = term(2, 5, b"\x1b[1;3H\x1b6X\x1b9\x1b9Y");
    assert_eq!(rows(&p), vec![" X  Y", ""]);
}

#[test]
fn rewrapping_on_resize_prints_plain_whatever_the_program_left_set() {
    // A pane resized while the program has line drawing in G0, insert mode and
    // autowrap off: the screen's own text must come back as it was.
    let mut st = fugue_server::pane::state::PaneState::new(10, 3, 100);
    st.process(b"lqk abcdefghij\r\nxyz\x1b(0\x1b[4h\x1b[?7l");
    st.resize(6, 3);
    st.resize(10, 3);
    let cap = st.capture(None, None, false, false);
    assert!(cap.starts_with("lqk abcdef\nghij\nxyz"), "{cap:?}");
    // And the program's modes are as it left them.
    let mut cap_after = fugue_server::pane::state::PaneState::new(10, 3, 100);
    cap_after.process(b"\x1b(0\x1b[4h");
    cap_after.resize(5, 3);
    cap_after.process(b"AB\rq");
    assert_eq!(
        cap_after.capture(None, None, false, false).lines().next(),
        Some("─AB")
    );
}

/// tmux's `alternate_saved_x/y`: the cursor `?1049h` saved, kept after `?1049l`;
/// none before (tmux prints 4294967295), none for `?1047h` (which saves no cursor), and
/// none again after RIS.
#[test]
fn the_cursor_saved_by_1049_is_kept_for_tmuxs_formats() {
    let mut p = term(4, 10, b"ab\r\n  cd");
    assert_eq!(p.screen().alternate_saved_cursor(), None);
    p.process(b"\x1b[?1047hx\x1b[?1047l");
    assert_eq!(p.screen().alternate_saved_cursor(), None);
    p.process(b"\x1b[?1049h\x1b[3;3Hzz");
    assert_eq!(p.screen().alternate_saved_cursor(), Some((1, 4)));
    p.process(b"\x1b[?1049l");
    assert_eq!(p.screen().alternate_saved_cursor(), Some((1, 4)));
    assert!(p.screen().autowrap() && !p.screen().insert_mode());
    p.process(b"\x1b[?7l\x1b[4h");
    assert!(!p.screen().autowrap() && p.screen().insert_mode());
    p.process(b"\x1bc");
    assert_eq!(p.screen().alternate_saved_cursor(), None);
}
