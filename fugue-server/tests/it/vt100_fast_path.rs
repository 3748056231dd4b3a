//! The vendored vt100's fast paths (printable ASCII, bulk erase; see vendor/README.md)
//! must leave exactly the screen the general paths leave, for any output and any screen
//! size.

use proptest::prelude::*;
use std::num::NonZeroU16;

fn parser(rows: u16, cols: u16, fast: bool) -> vt100::Parser {
    let nz = |v: u16| NonZeroU16::new(v).unwrap_or(NonZeroU16::MIN);
    let mut p = vt100::Parser::new(nz(rows), nz(cols), 20);
    p.screen_mut().set_fast_paths(fast);
    p
}

fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        "[ -~]{0,12}".prop_map(|s| s.into_bytes()),
        Just("日本".as_bytes().to_vec()),
        Just("e\u{301}".as_bytes().to_vec()),
        Just("🎉".as_bytes().to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\x08".to_vec()),
        Just(b"\t".to_vec()),
        Just(b"\x1b[31m".to_vec()),
        Just(b"\x1b[0m".to_vec()),
        Just(b"\x1b[2;3H".to_vec()),
        Just(b"\x1b[K".to_vec()),
        Just(b"\x1b[0K".to_vec()),
        Just(b"\x1b[41m".to_vec()),
        Just(b"\x1b[1;4H".to_vec()),
        Just(b"\x1b[2J".to_vec()),
        Just(b"\x1b[1;2r".to_vec()),
        Just(b"\x1b[?1049h".to_vec()),
        Just(b"\x1b[?1049l".to_vec()),
        Just(b"\x1b[3@".to_vec()),
        Just(b"\x1b[2P".to_vec()),
        Just(b"\x1b[5b".to_vec()),
        Just(b"\x1b[?7l".to_vec()),
        Just(b"\x1b[?7h".to_vec()),
        // Character sets, insert mode and new-line mode switch the fast path off and
        // on (issue 13): both paths must still agree.
        Just(b"\x1b(0".to_vec()),
        Just(b"\x1b(B".to_vec()),
        Just(b"\x1b)0\x0e".to_vec()),
        Just(b"\x0f".to_vec()),
        Just(b"\x1bN".to_vec()),
        Just(b"\x1b[4h".to_vec()),
        Just(b"\x1b[4l".to_vec()),
        Just(b"\x1b[20h".to_vec()),
        Just(b"\x1b7".to_vec()),
        Just(b"\x1b8".to_vec()),
        Just(b"\x1b[!p".to_vec()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn fast_and_general_paths_agree(
        rows in 1u16..6,
        cols in 1u16..12,
        pieces in proptest::collection::vec(piece(), 0..40),
    ) {
        let input = pieces.concat();
        let mut fast = parser(rows, cols, true);
        let mut slow = parser(rows, cols, false);
        fast.process(&input);
        slow.process(&input);
        let (f, s) = (fast.screen(), slow.screen());
        prop_assert_eq!(f.cursor_position(), s.cursor_position());
        prop_assert_eq!(f.contents_formatted(), s.contents_formatted());
        for r in 0..rows {
            prop_assert_eq!(f.row_wrapped(r), s.row_wrapped(r));
            for c in 0..cols {
                prop_assert_eq!(f.cell(r, c), s.cell(r, c), "cell {},{}", r, c);
            }
        }
        // History rows too.
        prop_assert_eq!(f.scrollback_len(), s.scrollback_len());
    }
}
