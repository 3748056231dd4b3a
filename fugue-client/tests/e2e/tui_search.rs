//! Searching in copy mode, with tmux's keys: `?` up (search-backward, "search up"),
//! `/` down (search-forward, "search down"), `n` and `N`.

use super::harness::{Tui, World, write_config};

/// The screen's rows as text.
fn lines(s: &vt100::Screen) -> Vec<String> {
    let (_, cols) = s.size();
    s.rows(0, cols.get()).collect()
}

/// The row whose text inside the pane's border is exactly `text`, and its column.
fn row_of(s: &vt100::Screen, text: &str) -> Option<(u16, u16)> {
    lines(s).iter().enumerate().find_map(|(y, l)| {
        let inner = l.trim_start_matches('│').trim_end_matches('│').trim_end();
        let x = l.find(text).map_or(0, |i| l[..i].chars().count() as u16);
        (inner == text).then_some((y as u16, x))
    })
}

fn status_line(s: &vt100::Screen) -> String {
    lines(s).pop().unwrap_or_default()
}

/// A session whose pane has printed 1 to 3000.
fn counted(w: &World, name: &str) -> Tui {
    let mut t = w.tui(&["new-session", "-s", name], 80, 24);
    t.wait_text(&format!("[{name}]"));
    t.send(b"seq 1 3000\r");
    t.wait("3000 printed", |s| row_of(s, "3000").is_some());
    t
}

fn shows(t: &Tui, line: &str) -> bool {
    t.screen(|s| row_of(s, line).is_some())
}

#[test]
fn question_mark_finds_older_lines_highlights_them_and_n_goes_on() {
    let w = World::new();
    let mut t = counted(&w, "sr");
    assert!(!shows(&t, "1234"), "1234 is not on the live screen");
    t.prefix(b"[");
    t.wait_text("copy: q to leave");
    // 777 is in 2777, 1777 and 777: `n` goes on upward, `N` back down.
    t.send(b"?777\r");
    t.wait("2777 first", |s| row_of(s, "2777").is_some());
    t.send(b"n");
    t.wait("then 1777", |s| {
        row_of(s, "1777").is_some() && row_of(s, "2777").is_none()
    });
    t.send(b"n");
    t.wait("then 777", |s| {
        row_of(s, "777").is_some() && row_of(s, "1777").is_none()
    });
    // Past the oldest, tmux's wrap-search goes on from the bottom.
    t.send(b"n");
    t.wait("round to 2777", |s| cursor_in(s, "2777"));
    t.send(b"N");
    t.wait("N goes back down, round to 777", |s| cursor_in(s, "777"));
    t.send(b"N");
    t.wait("N goes on down to 1777", |s| cursor_in(s, "1777"));
    t.send(b"?1234");
    t.wait("the search prompt", |s| {
        status_line(s).contains("search up: 1234")
    });
    t.send(b"\r");
    t.wait("1234 in view", |s| row_of(s, "1234").is_some());
    t.screen(|s| {
        let (y, x) = row_of(s, "1234").expect("1234");
        for col in x..x + 4 {
            assert!(
                s.cell(y, col).is_some_and(|c| c.inverse()),
                "1234 highlighted"
            );
        }
        let (y, x) = row_of(s, "1233").expect("the lines around the match show too");
        assert!(!s.cell(y, x).is_some_and(|c| c.inverse()), "1233 is not");
    });
    // `/` searches down from the cursor.
    t.send(b"/2345\r");
    t.wait("2345 below", |s| row_of(s, "2345").is_some());
    t.send(b"q");
    t.wait("q leaves scroll mode", |s| {
        !s.contents().contains("copy: q to leave") && row_of(s, "3000").is_some()
    });
}

#[test]
fn a_search_that_finds_nothing_says_so_and_keeps_the_view() {
    let w = World::new();
    let mut t = counted(&w, "nf");
    t.prefix(b"\x1b[5~");
    t.wait("a page up", |s| {
        s.contents().contains("copy: q to leave") && row_of(s, "2970").is_some()
    });
    let before = t.screen(|s| {
        let mut l = lines(s);
        l.pop();
        l
    });
    t.send(b"/nothing-like-this\r");
    t.wait("the notice", |s| {
        status_line(s).contains("not found: nothing-like-this")
    });
    let after = t.screen(|s| {
        let mut l = lines(s);
        l.pop();
        l
    });
    assert_eq!(before, after, "the view is unchanged");
    // Smart case: a pattern with a capital matches case.
    t.send(b"/SEQ\r");
    t.wait("SEQ matches nothing", |s| {
        status_line(s).contains("not found: SEQ")
    });
    t.send(b"q");
    t.wait("left", |s| !s.contents().contains("copy: q to leave"));
}

fn cursor_on(s: &vt100::Screen, text: &str) -> bool {
    row_of(s, text).is_some_and(|(y, x)| s.cursor_position() == (y, x))
}

/// The cursor is on the row that reads `text` (a match inside it).
fn cursor_in(s: &vt100::Screen, text: &str) -> bool {
    row_of(s, text).is_some_and(|(y, _)| s.cursor_position().0 == y)
}

/// tmux 3.3a's copy-mode-vi: `/` is search-forward, "(search down)", towards newer
/// lines; `?` is search-backward. At the bottom, `/` goes on from the top, as tmux's
/// `wrap-search` (on by default; tmux 3.3a found 1234 so, checked by hand).
#[test]
fn slash_searches_down_as_tmuxs_does() {
    let w = World::new();
    let mut t = counted(&w, "sd");
    t.prefix(b"[");
    t.wait_text("copy: q to leave");
    t.send(b"/1234");
    t.wait("the prompt says down", |s| {
        status_line(s).contains("search down: 1234")
    });
    t.send(b"\r");
    t.wait("/ wrapped round to it from the top", |s| {
        cursor_on(s, "1234")
    });
    t.send(b"?1234\r");
    t.wait("? wrapped round to it from the bottom", |s| {
        cursor_on(s, "1234")
    });
    // From there `/` goes down, `N` back up, `n` down again.
    t.send(b"/123\r");
    t.wait("/ went down", |s| cursor_on(s, "1235"));
    t.send(b"N");
    t.wait("N went up", |s| cursor_on(s, "1234"));
    t.send(b"nn");
    t.wait("n went down twice", |s| cursor_on(s, "1236"));
    t.send(b"q");
}

/// With `wrap_search = false` (tmux's `wrap-search off`) a search stops at the end.
#[test]
fn without_wrap_search_a_search_stops_at_the_end() {
    let w = World::new();
    write_config(&w, "[copy]\nwrap_search = false\n");
    let mut t = counted(&w, "nw");
    t.prefix(b"[");
    t.wait_text("copy: q to leave");
    t.send(b"/1234\r");
    t.wait("nothing below the bottom", |s| {
        status_line(s).contains("not found: 1234")
    });
    t.send(b"?1234\r");
    t.wait("? goes up to it", |s| cursor_on(s, "1234"));
    t.send(b"q");
}
