//! Copy mode through a real client: motions with numeric prefixes, a rectangle across
//! a wide character, a line-wise copy of a wrapped line, where copies go (OSC 52 in
//! the client's output, `copy_command`), and the view frozen while output goes on.

use super::harness::{Tui, World, eventually, write_config};

/// A world whose copies also go to `copied.txt` (through `copy_command`), with a
/// client attached to session `name` of `cols` columns, after `cat FILE` printed
/// `text` (written to a file so the command line does not hold it).
fn copying(name: &str, text: &str, cols: u16) -> (World, Tui) {
    let w = World::new();
    let out = w.path("copied.txt");
    write_config(
        &w,
        &format!(
            "[copy]\ncopy_command = [\"sh\", \"-c\", \"cat > {}\"]\n",
            out.display()
        ),
    );
    std::fs::write(w.path("text.txt"), text).unwrap();
    let mut t = w.tui(&["new-session", "-s", name], cols, 24);
    t.wait_text(&format!("[{name}]"));
    t.send(b"clear; cat text.txt\r");
    let last = text.lines().last().unwrap_or("").to_string();
    t.wait("the text", |s| {
        s.contents().contains(&last) && s.contents().matches("$ ").count() >= 1
    });
    (w, t)
}

fn copied(w: &World) -> String {
    eventually("the copy command's output", || {
        std::fs::read_to_string(w.path("copied.txt"))
            .ok()
            .filter(|t| !t.is_empty())
    })
}

/// What OSC 52 carries for `text` (as `base64`).
fn base64(data: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            out.push(if i <= c.len() {
                A[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

fn enter(t: &mut Tui) {
    t.prefix(b"[");
    // The position indicator, `[N/M]`: N is 0 unless output came in before the first
    // drawing of the mode (a program that keeps printing).
    t.wait("copy mode", |s| {
        s.contents().lines().any(|l| {
            l.rsplit_once('[')
                .and_then(|(_, r)| r.split_once('/'))
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
    });
}

#[test]
fn a_rectangle_across_a_wide_character_copies_it_whole_to_the_clipboard_and_command() {
    // Rows: `$ clear; cat...` is cleared; then "ab日cd", "wxyz12", "end", the prompt.
    let (w, mut t) = copying("rect", "ab日cd\nwxyz12\nend\n", 80);
    enter(&mut t);
    // From the prompt: 3 up, line start, 3 right: the right half of 日 (columns 2-3).
    // A rectangle from there to one row down, one column right: 日 is taken whole.
    t.send(b"3k03l\x16jl");
    // 日 shows selected whole (both halves), as it is copied whole.
    t.wait("日 highlighted", |s| {
        let (rows, cols) = s.size();
        (0..rows.get()).any(|y| {
            (0..cols.get()).any(|x| {
                s.cell(y, x)
                    .is_some_and(|c| c.contents() == "日" && c.bgcolor() == vt100::Color::Idx(3))
            })
        })
    });
    t.send(b"y");
    let text = copied(&w);
    assert_eq!(text, "日c\nz1");
    // The paste buffer has it too, and `C-b ]` types it into a program.
    eventually("the paste buffer", || {
        (w.ok(&["show-buffer"]) == text).then_some(())
    });
    let osc = format!("\x1b]52;c;{}\x07", base64(text.as_bytes()));
    t.wait_raw("OSC 52 with the copy", |raw| {
        raw.windows(osc.len()).any(|win| win == osc.as_bytes())
    });
    t.wait("copy mode left", |s| {
        !s.contents().contains("copy: q to leave")
    });
}

/// `H` (and `M`, `L`) go to the first column of their row, as tmux's top-line; the
/// cursor starts at the prompt's column 2.
#[test]
fn h_goes_to_the_first_column_of_the_top_row() {
    let (w, mut t) = copying("hml", "ab日cd\nwxyz12\nend\n", 80);
    enter(&mut t);
    t.send(b"Hvly");
    assert_eq!(copied(&w), "ab");
}

#[test]
fn a_line_wise_copy_joins_a_wrapped_line() {
    let long = "0123456789abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJ";
    let (w, mut t) = copying("wrap", &format!("first\n{long}\nlast\n"), 30);
    enter(&mut t);
    // The wrapped line's second row is two up from the prompt; `V` there, one up is
    // still the same line, and one more is "first".
    t.send(b"2kVky");
    assert_eq!(copied(&w), long);
    std::fs::remove_file(w.path("copied.txt")).unwrap();
    enter(&mut t);
    t.send(b"4kVjjjy");
    assert_eq!(copied(&w), format!("first\n{long}\nlast"));
    // `A` appends to the latest buffer instead of making one.
    enter(&mut t);
    t.send(b"kV0A");
    eventually("appended", || {
        (w.ok(&["show-buffer"]) == format!("first\n{long}\nlastlast")).then_some(())
    });
}

/// A pane whose program prints a numbered line every 50 ms: the view stays as it was
/// when copy mode began, and `[n/m]` counts the lines output moved on since.
#[test]
fn the_view_is_frozen_while_the_program_prints() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "fr"], 80, 24);
    t.wait_text("[fr]");
    t.send(b"i=0; while [ $i -lt 400 ]; do i=$((i+1)); echo line$i; sleep 0.05; done\r");
    t.wait("printing", |s| s.contents().contains("line30"));
    enter(&mut t);
    let rows = |t: &Tui| {
        t.screen(|s| {
            let (_, cols) = s.size();
            let mut l: Vec<String> = s.rows(0, cols.get()).collect();
            l.truncate(22);
            // The indicator is on the first row: leave it out. So is the border above
            // it, which names the foreground command: sh or sleep, turn about.
            l.remove(1);
            l.remove(0);
            l
        })
    };
    let before = rows(&t);
    t.wait("output moves on", |s| {
        let c = s.contents();
        let n = c
            .split_once('[')
            .and_then(|(_, r)| r.split_once('/'))
            .and_then(|(n, _)| n.parse::<u32>().ok());
        n.is_some_and(|n| n >= 10)
    });
    assert_eq!(rows(&t), before, "the view did not move");
    // Up a page, still the lines from before (now read from history).
    t.send(b"\x02");
    t.wait("a page up", |s| !s.contents().contains("[0/"));
    t.send(b"q");
    t.wait("live again", |s| !s.contents().contains("copy: q to leave"));
}
