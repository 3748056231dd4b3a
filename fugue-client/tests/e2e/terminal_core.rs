//! Issue 13, the pane's terminal core end to end: a program prints sequences into a
//! real pane and `capture-pane -p` reads the screen back, compared with real tmux
//! where tmux behaves the same, and with the expected screen always (so the test
//! means something where tmux is missing). Where tmux 3.3a differs, what it shows is
//! recorded with the reason.

use super::harness::World;
use super::twins::print_in_both;

/// Rows of a capture as the test writes them: `|` ends each row.
fn lines(capture: &str) -> String {
    capture.lines().map(|l| format!("{l}|\n")).collect()
}

struct Case {
    name: &'static str,
    bytes: &'static [u8],
    /// The screen, one row a line, each ending in `|`.
    expect: &'static str,
}

fn check(w: &World, case: &Case, tmux_same: bool) -> Option<String> {
    let p = print_in_both(w, case.name, 20, 4, case.bytes);
    assert_eq!(lines(&p.fugue), case.expect, "{} in fugue", case.name);
    if tmux_same && let Some(t) = &p.tmux {
        assert_eq!(lines(t), case.expect, "{} in tmux", case.name);
    }
    p.tmux.map(|t| lines(&t))
}

#[test]
fn movement_and_modes_show_as_in_tmux() {
    let w = World::new();
    let cases = [
        Case {
            name: "ind_nel",
            bytes: b"ab\x1bDc\x1bEd",
            expect: "ab|\n  c|\nd|\n|\n",
        },
        Case {
            name: "insert_mode",
            bytes: b"abcdef\r\x1b[4hXY\x1b[4lZ",
            expect: "XYZbcdef|\n|\n|\n|\n",
        },
        Case {
            name: "autowrap_off",
            bytes: b"\x1b[?7labcdefghijklmnopqrstuvwxyz\x1b[?7h",
            expect: "abcdefghijklmnopqrsz|\n|\n|\n|\n",
        },
        Case {
            name: "decstbm_homes",
            bytes: b"\x1b[3;5H\x1b[2;3rX",
            expect: "X|\n|\n|\n|\n",
        },
        Case {
            name: "scosc_scorc",
            bytes: b"\x1b[3;4H\x1b[s\x1b[1;1Hab\x1b[uX",
            expect: "ab|\n|\n   X|\n|\n",
        },
        Case {
            name: "decaln",
            bytes: b"hello\x1b[2;3r\x1b#8\x1b[2;2HX",
            expect: "EEEEEEEEEEEEEEEEEEEE|\nEXEEEEEEEEEEEEEEEEEE|\nEEEEEEEEEEEEEEEEEEEE|\nEEEEEEEEEEEEEEEEEEEE|\n",
        },
        Case {
            name: "deccolm",
            bytes: b"hello\x1b[2;3r\x1b[4;4H\x1b[?3hX",
            expect: "X|\n|\n|\n|\n",
        },
        Case {
            name: "tab_stops",
            // HTS at 4 after TBC 3; HTS at 8; CBT back over 8; TBC 0 clears 8 again.
            bytes: b"\x1b[3g\x1b[5G\x1bH\rA\tB\tC\r\n\tD\x1b[9G\x1bH\r\n\tE\tF\r\n\x1b[18G\x1b[ZG\x1b[9G\x1b[g\x1b[Z\x1b[ZH",
            expect: "A   B              C|\n    D|\n    E   F|\nH       G|\n",
        },
    ];
    for case in &cases {
        check(&w, case, true);
    }
}

/// Where tmux 3.3a is not the reference: the expected screen is xterm's.
#[test]
fn sequences_tmux_lacks_or_gets_wrong() {
    let w = World::new();
    // DEC Special Graphics: tmux keeps the ASCII bytes and draws lines only on its
    // own client's terminal, so its capture-pane prints `lqqk`.
    let boxes = Case {
        name: "line_drawing",
        bytes: b"\x1b(0lqqk\x1b(B ok\r\n\x1b)0\x0ex  x\x0f\r\n\x0emqqj\x0f",
        expect: "┌──┐ ok|\n│  │|\n└──┘|\n|\n",
    };
    if let Some(t) = check(&w, &boxes, false) {
        assert_eq!(t, "lqqk ok|\nx  x|\nmqqj|\n|\n", "tmux 3.3a");
    }
    // HPR, VPR and CHT: tmux 3.3a ignores them.
    let relative = Case {
        name: "hpr_vpr_cht",
        bytes: b"a\x1b[3ab\x1b[2ec\r\n\x1b[2Id",
        expect: "a   b|\n|\n     c|\n                d|\n",
    };
    check(&w, &relative, false);
    // DECSTBM in origin mode homes to the region's top; tmux homes to the screen's.
    let origin = Case {
        name: "decstbm_origin",
        bytes: b"\x1b[?6h\x1b[4;5H\x1b[2;3rX",
        expect: "|\nX|\n|\n|\n",
    };
    if let Some(t) = check(&w, &origin, false) {
        assert_eq!(t, "X|\n|\n|\n|\n", "tmux 3.3a");
    }
    // DECSTR turns autowrap back on (xterm); tmux 3.3a leaves it off.
    let soft = Case {
        name: "decstr",
        bytes: b"\x1b[?7l\x1b[4h\x1b(0\x1b[!p\x1b[Hqqqqqqqqqqqqqqqqqqqqqqq",
        expect: "qqqqqqqqqqqqqqqqqqqq|\nqqq|\n|\n|\n",
    };
    check(&w, &soft, false);
}

/// A program in a pane no client ever attached to asks its terminal questions and gets
/// answers from the server itself.
#[test]
fn queries_are_answered_with_no_client_attached() {
    let w = World::new();
    let out = w.path("answers");
    let done = w.path("answers.done");
    let script = format!(
        "stty raw -echo; \
         printf '\\033[?2004h\\033[?2004$p\\033[?7l\\033[?7$p\\033[4$p\\033[3;9r\\033P$qr\\033\\\\\\033[16t\\033[18t\\033[?6n'; \
         timeout --foreground 2 cat > '{}'; : > '{}'; exec sleep 600",
        out.display(),
        done.display()
    );
    super::twins::fugue_pane(&w, "q", 30, 10, &script);
    super::harness::eventually("the answers", || done.exists().then_some(()));
    let answers = std::fs::read(&out).expect("answers");
    assert_eq!(
        String::from_utf8_lossy(&answers).replace('\x1b', "^["),
        "^[[?2004;1$y^[[?7;2$y^[[4;2$y^[P1$r3;9r^[\\^[[6;16;8t^[[8;10;30t^[[?1;1;1R"
    );
}
