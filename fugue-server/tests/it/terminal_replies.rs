//! What a pane answers its program (issue 13; docs/terminal.md): mode and setting
//! requests, status reports, window reports, the title stack, checksums and colours.
//! Answers come from the pane's own state, with no client attached.

use fugue_server::pane::state::PaneState;

fn pane(cols: u16, rows: u16) -> PaneState {
    PaneState::new(cols, rows, 100)
}

/// The answers to `bytes`, as text (escapes shown as `^[`).
fn ask(p: &mut PaneState, bytes: &[u8]) -> String {
    String::from_utf8_lossy(&p.process(bytes).replies).replace('\x1b', "^[")
}

#[test]
fn decrqm_reports_the_real_state_of_dec_modes() {
    let mut p = pane(20, 5);
    // Defaults: autowrap and the cursor on, the rest off.
    for (mode, state) in [
        (1, 2),
        (6, 2),
        (7, 1),
        (25, 1),
        (45, 2),
        (47, 2),
        (1000, 2),
        (1002, 2),
        (1003, 2),
        (1004, 2),
        (1005, 2),
        (1006, 2),
        (1049, 2),
        (2004, 2),
        (2026, 2),
    ] {
        assert_eq!(
            ask(&mut p, format!("\x1b[?{mode}$p").as_bytes()),
            format!("^[[?{mode};{state}$y"),
            "mode {mode} at start"
        );
    }
    p.process(b"\x1b[?1049h\x1b[?1h\x1b[?6h\x1b[?7l\x1b[?25l\x1b[?45h\x1b[?1002h\x1b[?1004h\x1b[?1006h\x1b[?2004h\x1b[?2026h");
    for mode in [1, 6, 45, 1002, 1004, 1006, 1049, 2004, 2026] {
        assert_eq!(
            ask(&mut p, format!("\x1b[?{mode}$p").as_bytes()),
            format!("^[[?{mode};1$y"),
            "mode {mode} set"
        );
    }
    for mode in [7, 25, 1000] {
        assert_eq!(
            ask(&mut p, format!("\x1b[?{mode}$p").as_bytes()),
            format!("^[[?{mode};2$y"),
            "mode {mode} reset"
        );
    }
    // Left/right margins and highlight tracking are not supported: permanently
    // reset. Unknown: 0.
    assert_eq!(ask(&mut p, b"\x1b[?69$p"), "^[[?69;4$y");
    assert_eq!(ask(&mut p, b"\x1b[?1001$p"), "^[[?1001;4$y");
    assert_eq!(ask(&mut p, b"\x1b[?4242$p"), "^[[?4242;0$y");
}

#[test]
fn decrqm_reports_ansi_modes() {
    let mut p = pane(20, 5);
    assert_eq!(ask(&mut p, b"\x1b[4$p\x1b[20$p"), "^[[4;2$y^[[20;2$y");
    p.process(b"\x1b[4h\x1b[20h");
    assert_eq!(ask(&mut p, b"\x1b[4$p\x1b[20$p"), "^[[4;1$y^[[20;1$y");
    assert_eq!(ask(&mut p, b"\x1b[3$p"), "^[[3;0$y");
}

#[test]
fn decrqss_reports_settings_as_the_sequences_that_set_them() {
    let mut p = pane(30, 10);
    assert_eq!(ask(&mut p, b"\x1bP$qm\x1b\\"), "^[P1$r0m^[\\");
    p.process(b"\x1b[1;4;31;48;5;200m");
    let sgr = ask(&mut p, b"\x1bP$qm\x1b\\");
    // Fed back, the answer gives the same rendition.
    let params = sgr
        .strip_prefix("^[P1$r")
        .and_then(|s| s.strip_suffix("m^[\\"))
        .unwrap_or_else(|| panic!("{sgr}"));
    let mut q = pane(30, 10);
    q.process(format!("\x1b[{params}mX").as_bytes());
    p.process(b"X");
    let (a, b) = (
        p.screen().cell(0, 0).cloned(),
        q.screen().cell(0, 0).cloned(),
    );
    assert_eq!(a, b, "{sgr}");
    assert!(params.starts_with("0;"), "{sgr}");

    assert_eq!(ask(&mut p, b"\x1bP$qr\x1b\\"), "^[P1$r1;10r^[\\");
    p.process(b"\x1b[3;7r");
    assert_eq!(ask(&mut p, b"\x1bP$qr\x1b\\"), "^[P1$r3;7r^[\\");
    assert_eq!(ask(&mut p, b"\x1bP$qs\x1b\\"), "^[P1$r1;30s^[\\");
    assert_eq!(ask(&mut p, b"\x1bP$q q\x1b\\"), "^[P1$r2 q^[\\");
    p.process(b"\x1b[5 q");
    assert_eq!(ask(&mut p, b"\x1bP$q q\x1b\\"), "^[P1$r5 q^[\\");
    assert_eq!(ask(&mut p, b"\x1bP$q\"p\x1b\\"), "^[P1$r61\"p^[\\");
    assert_eq!(ask(&mut p, b"\x1bP$qz\x1b\\"), "^[P0$r^[\\");
    // A device control string that is not DECRQSS gets nothing, and a long one
    // (images, say) is not kept.
    assert_eq!(ask(&mut p, b"\x1bP+q544e\x1b\\"), "");
    let mut long = b"\x1bP$q".to_vec();
    long.extend(std::iter::repeat_n(b'm', 100_000));
    long.extend(b"\x1b\\");
    assert_eq!(ask(&mut p, &long), "");
    assert!(
        ask(&mut p, b"\x1bP$qm\x1b\\").starts_with("^[P1$r0;"),
        "answers again"
    );
}

#[test]
fn window_reports_sizes_at_the_documented_cell_size() {
    let mut p = pane(80, 24);
    assert_eq!(ask(&mut p, b"\x1b[14t"), "^[[4;384;640t");
    assert_eq!(ask(&mut p, b"\x1b[16t"), "^[[6;16;8t");
    assert_eq!(ask(&mut p, b"\x1b[18t"), "^[[8;24;80t");
    p.resize(100, 30);
    assert_eq!(
        ask(&mut p, b"\x1b[14t\x1b[18t"),
        "^[[4;480;800t^[[8;30;100t"
    );
}

#[test]
fn title_stack_pushes_and_pops_and_is_bounded() {
    let mut p = pane(20, 5);
    p.process(b"\x1b]2;first\x07\x1b[22;0t\x1b]2;second\x07");
    assert_eq!(p.title(), Some("second"));
    let out = p.process(b"\x1b[23;0t");
    assert!(out.title_changed);
    assert_eq!(p.title(), Some("first"));
    // Popping an empty stack changes nothing.
    p.process(b"\x1b[23t\x1b[23t");
    assert_eq!(p.title(), Some("first"));
    // Push 15: only the last 10 are kept.
    for i in 0..15 {
        p.process(format!("\x1b]2;t{i}\x07\x1b[22t").as_bytes());
    }
    for i in (5..15).rev() {
        p.process(b"\x1b[23t");
        assert_eq!(p.title(), Some(format!("t{i}").as_str()));
    }
    p.process(b"\x1b]2;last\x07\x1b[23t");
    assert_eq!(p.title(), Some("last"), "nothing older than 10 pushes");
    // Pushing the icon name only leaves the title alone when popped.
    p.process(b"\x1b]1;icon\x07\x1b[22;1t\x1b]0;both\x07\x1b[23;1t");
    assert_eq!(p.title(), Some("both"));
}

#[test]
fn title_reports_only_when_allowed() {
    let mut p = pane(20, 5);
    p.process(b"\x1b]2;secret\x07\x1b]1;ic\x07");
    assert_eq!(ask(&mut p, b"\x1b[21t\x1b[20t"), "", "off by default");
    p.set_title_reports(true);
    assert_eq!(ask(&mut p, b"\x1b[21t\x1b[20t"), "^[]lsecret^[\\^[]Lic^[\\");
    // Control characters never reach the title, so never the answer.
    p.process(b"\x1b]2;a\x1b[31mb\x07");
    let answer = ask(&mut p, b"\x1b[21t");
    assert_eq!(answer.matches("^[").count(), 2, "{answer}");
}

#[test]
fn status_reports_as_xterm_answers_them() {
    let mut p = pane(20, 6);
    p.process(b"ab");
    assert_eq!(ask(&mut p, b"\x1b[6n"), "^[[1;3R");
    assert_eq!(ask(&mut p, b"\x1b[?6n"), "^[[?1;3;1R");
    assert_eq!(ask(&mut p, b"\x1b[?15n"), "^[[?13n");
    assert_eq!(ask(&mut p, b"\x1b[?25n"), "^[[?20n");
    assert_eq!(ask(&mut p, b"\x1b[?26n"), "^[[?27;1;0;0n");
    assert_eq!(ask(&mut p, b"\x1b[5n"), "^[[0n");
    // Origin mode: relative to the region's top.
    p.process(b"\x1b[3;5r\x1b[?6h\x1b[2;4H");
    assert_eq!(ask(&mut p, b"\x1b[6n"), "^[[2;4R");
    // A pending wrap reports the last column, not one past it.
    let mut p = pane(10, 3);
    p.process(b"0123456789");
    assert_eq!(ask(&mut p, b"\x1b[6n"), "^[[1;10R");
    // DA3.
    assert_eq!(ask(&mut p, b"\x1b[=c"), "^[P!|00000000^[\\");
}

#[test]
fn decrqcra_checksums_a_rectangle_as_xterm() {
    let mut p = pane(20, 5);
    // Nothing written: nothing counted.
    assert_eq!(ask(&mut p, b"\x1b[1;1;1;1;5;20*y"), "^[P1!~0000^[\\");
    p.process(b"AB\x1b[2;1H\x1b[1mC\x1b[0;4;7mD");
    // A (0x41) + B (0x42) = 0x83, negated: 0xff7d.
    assert_eq!(ask(&mut p, b"\x1b[7;1;1;1;1;2*y"), "^[P7!~FF7D^[\\");
    // Whole screen: A + B + bold C (0x43 + 0x80) + underlined inverse D (0x44 + 0x30).
    let sum: u32 = 0x41 + 0x42 + 0x43 + 0x80 + 0x44 + 0x30;
    let want = format!("^[P2!~{:04X}^[\\", sum.wrapping_neg() & 0xffff);
    assert_eq!(ask(&mut p, b"\x1b[2*y"), want);
    // Clamped to the screen; an inverted rectangle is empty.
    assert_eq!(ask(&mut p, b"\x1b[2;1;1;1;99;99*y"), want);
    assert_eq!(ask(&mut p, b"\x1b[3;1;2;1;1;20*y"), "^[P3!~0000^[\\");
    // Origin mode: rows relative to the region.
    p.process(b"\x1b[2;3r\x1b[?6h");
    let d = (0x43u32 + 0x80 + 0x44 + 0x30).wrapping_neg() & 0xffff;
    assert_eq!(
        ask(&mut p, b"\x1b[4;1;1;1;1;20*y"),
        format!("^[P4!~{d:04X}^[\\")
    );
}

#[test]
fn colour_queries_answer_what_the_program_set() {
    let mut p = pane(20, 5);
    // Defaults: white on black (as before), white cursor, xterm's palette.
    assert_eq!(
        ask(&mut p, b"\x1b]10;?\x1b\\\x1b]11;?\x07\x1b]12;?\x07"),
        "^[]10;rgb:ffff/ffff/ffff^[\\^[]11;rgb:0000/0000/0000^[\\^[]12;rgb:ffff/ffff/ffff^[\\"
    );
    assert_eq!(
        ask(&mut p, b"\x1b]4;1;?;21;?;255;?\x07"),
        "^[]4;1;rgb:cdcd/0000/0000^[\\^[]4;21;rgb:0000/0000/ffff^[\\^[]4;255;rgb:eeee/eeee/eeee^[\\"
    );
    // Set, then asked: what was set, in X11's 16-bit form.
    p.process(b"\x1b]10;#102030\x07\x1b]11;rgb:f/80/1234\x07\x1b]12;#abc\x07");
    assert_eq!(
        ask(&mut p, b"\x1b]10;?;?;?\x07"),
        "^[]10;rgb:1010/2020/3030^[\\^[]11;rgb:ffff/8080/1234^[\\^[]12;rgb:aaaa/bbbb/cccc^[\\"
    );
    p.process(b"\x1b]4;1;rgb:11/22/33;2;#445566\x07");
    assert_eq!(
        ask(&mut p, b"\x1b]4;1;?;2;?;3;?\x07"),
        "^[]4;1;rgb:1111/2222/3333^[\\^[]4;2;rgb:4444/5555/6666^[\\^[]4;3;rgb:cdcd/cdcd/0000^[\\"
    );
    // Resets: one entry, every entry, each dynamic colour.
    p.process(b"\x1b]104;1\x07");
    assert_eq!(
        ask(&mut p, b"\x1b]4;1;?\x07"),
        "^[]4;1;rgb:cdcd/0000/0000^[\\"
    );
    assert_eq!(
        ask(&mut p, b"\x1b]4;2;?\x07"),
        "^[]4;2;rgb:4444/5555/6666^[\\"
    );
    p.process(b"\x1b]104\x07\x1b]110\x07\x1b]111\x07\x1b]112\x07");
    assert_eq!(
        ask(&mut p, b"\x1b]4;2;?\x07\x1b]10;?;?;?\x07"),
        "^[]4;2;rgb:0000/cdcd/0000^[\\^[]10;rgb:ffff/ffff/ffff^[\\^[]11;rgb:0000/0000/0000^[\\^[]12;rgb:ffff/ffff/ffff^[\\"
    );
    // What is not a colour is ignored: bad specs, names, indexes past 255.
    p.process(b"\x1b]4;5;red\x07\x1b]4;6;rgb:12345/0/0\x07\x1b]4;300;#fff\x07\x1b]10;#12\x07");
    assert_eq!(
        ask(&mut p, b"\x1b]4;5;?;6;?;300;?\x07\x1b]10;?\x07"),
        "^[]4;5;rgb:cdcd/0000/cdcd^[\\^[]4;6;rgb:0000/cdcd/cdcd^[\\^[]10;rgb:ffff/ffff/ffff^[\\"
    );
}

#[test]
fn the_palette_a_program_sets_is_bounded() {
    let mut p = pane(20, 5);
    // Every index set many times: 256 entries at most, the last value wins.
    for round in 0..4u32 {
        let mut osc = Vec::new();
        for i in 0..=255u32 {
            osc.extend(format!("\x1b]4;{i};rgb:{:02x}/00/00\x07", (i + round) % 256).as_bytes());
        }
        p.process(&osc);
    }
    assert_eq!(
        ask(&mut p, b"\x1b]4;0;?\x07"),
        "^[]4;0;rgb:0303/0000/0000^[\\"
    );
    assert_eq!(
        ask(&mut p, b"\x1b]4;255;?\x07"),
        "^[]4;255;rgb:0202/0000/0000^[\\"
    );
}
