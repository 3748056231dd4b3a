//! Keyboard, mouse and focus through a real client in a PTY (issues 12 and 13): what
//! the outer terminal sends reaches a pane's program as the program asked for it.

use super::harness::{Answers, TestTmux, Tui, World, eventually};

/// Starts a session whose program sets the kitty keyboard flags `kitty` (none if 0)
/// and `modes` (other sequences), then records every byte it reads into `file`.
pub fn recorder(w: &World, session: &str, setup: &str, file: &str) {
    let path = w.path(file);
    let script = format!(
        "printf '{setup}'; stty raw -echo; printf READY; exec cat > '{}'",
        path.display()
    );
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        session,
        "--",
        "sh",
        "-c",
        &script,
    ]);
}

/// Waits until the recorder's file holds exactly `want`.
pub fn recorded(w: &World, file: &str, want: &[u8]) {
    let path = w.path(file);
    let mut last = Vec::new();
    let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        eventually(
            &format!("the pane to read {:?}", String::from_utf8_lossy(want)),
            || {
                last = std::fs::read(&path).unwrap_or_default();
                (last == want).then_some(())
            },
        )
    }));
    if got.is_err() {
        panic!(
            "the pane read {:?}, not {:?}",
            String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()),
            String::from_utf8_lossy(want)
        );
    }
}

fn attach(w: &World, answers: Answers, session: &str) -> Tui {
    let t = w.tui_in(answers, &["attach", "-t", session], 80, 24);
    t.wait_text("READY");
    t
}

/// What a kitty terminal with flags 3 (disambiguate, event types) sends for: Tab, C-i
/// and its release, Escape and its release, M-[, S-Enter, Enter, `a` and its release.
const KITTY_TYPED: &[u8] =
    b"\t\x1b[105;5u\x1b[105;5:3u\x1b[27u\x1b[27;1:3u\x1b[91;3u\x1b[13;2u\ra\x1b[97;1:3u";

/// Issue 13: with the kitty protocol on the outer terminal, keys legacy encoding
/// merges arrive distinct in a pane that asked for disambiguation, and a pane that
/// did not ask gets the legacy bytes (and no releases).
#[test]
fn kitty_keys_arrive_distinct_in_a_pane_that_asked() {
    let w = World::new();
    recorder(&w, "kitty", "\\033[>1u", "kitty.bin");
    let mut t = attach(&w, Answers::Kitty, "kitty");
    eventually("the client to switch the protocol on", || {
        (t.kitty_stack() == [3]).then_some(())
    });
    t.send(KITTY_TYPED);
    recorded(
        &w,
        "kitty.bin",
        b"\t\x1b[105;5u\x1b[27u\x1b[91;3u\x1b[13;2u\ra",
    );

    recorder(&w, "legacy", "", "legacy.bin");
    let mut t = attach(&w, Answers::Kitty, "legacy");
    eventually("the protocol on", || (t.kitty_stack() == [3]).then_some(()));
    t.send(KITTY_TYPED);
    recorded(&w, "legacy.bin", b"\t\t\x1b\x1b[\r\ra");
}

/// A pane that asked for event types gets releases (of keys it got the press of).
#[test]
fn releases_reach_a_pane_that_asked_for_event_types() {
    let w = World::new();
    recorder(&w, "ev", "\\033[>3u", "ev.bin");
    let mut t = attach(&w, Answers::Kitty, "ev");
    eventually("the protocol on", || (t.kitty_stack() == [3]).then_some(()));
    t.send(b"a\x1b[97;1:3u\x1b[1;1:2A\x1b[1;1:3A\x1b[99;5u\x1b[99;5:3u");
    recorded(
        &w,
        "ev.bin",
        b"a\x1b[97;1:3u\x1b[1;1:2A\x1b[1;1:3A\x1b[99;5u\x1b[99;5:3u",
    );
}

/// The client asks the terminal, switches the protocol on only if it answers, and
/// switches it off (pops) when it gives the terminal back: on suspend and on detach.
#[test]
fn the_client_switches_the_protocol_on_only_where_it_is_spoken() {
    let w = World::new();
    recorder(&w, "p", "\\033[>1u", "p.bin");
    // A terminal that answers device attributes only: no kitty protocol.
    let mut t = attach(&w, Answers::Plain, "p");
    // Keys typed at once still arrive, as legacy bytes.
    t.send(b"x\x1b[27u");
    recorded(&w, "p.bin", b"x\x1b[27u");
    let written = t.written();
    assert!(
        written.windows(4).any(|s| s == b"\x1b[?u"),
        "the client did not ask"
    );
    assert!(
        !written.windows(5).any(|s| s == b"\x1b[>3u"),
        "the client pushed kitty flags on a terminal without the protocol"
    );
    drop(t);

    let mut t = attach(&w, Answers::Kitty, "p");
    eventually("the protocol on", || (t.kitty_stack() == [3]).then_some(()));
    let pid = t.pid().expect("client pid") as i32;
    // SAFETY: signals to the client process this test started.
    unsafe { libc::kill(pid, libc::SIGTSTP) };
    eventually("the protocol off while suspended", || {
        t.kitty_stack().is_empty().then_some(())
    });
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    eventually("the protocol on again", || {
        (t.kitty_stack() == [3]).then_some(())
    });
    t.send(b"\x02d");
    t.wait_exit();
    assert!(t.kitty_stack().is_empty(), "left on: {:?}", t.kitty_stack());
}

/// Where a pane's screen starts on the client's terminal: where its program's READY
/// is (it printed it first, at the pane's top left).
fn origin(t: &Tui) -> (u16, u16) {
    t.screen(|s| {
        let contents = s.contents();
        contents
            .lines()
            .enumerate()
            .find_map(|(row, line)| {
                let byte = line.find("READY")?;
                let col = line[..byte].chars().count();
                Some((col as u16, row as u16))
            })
            .expect("READY on screen")
    })
}

/// Issue 13: a program that asked for mouse reports gets the events over its pane,
/// in its own coordinates and encoding; the client switches mouse reporting on in its
/// terminal for it; Shift keeps an event from the program.
#[test]
fn mouse_events_reach_the_pane_that_asked_in_its_coordinates() {
    let w = World::new();
    recorder(&w, "m", "\\033[?1002h\\033[?1006h", "m.bin");
    // A pane on the left, not selected: the recorder's pane is not at the origin.
    w.ok(&["split-window", "-t", "m", "-h", "-b", "-d"]);
    let mut t = attach(&w, Answers::Plain, "m");
    let (x, y) = origin(&t);
    assert!(x > 10, "the recorder's pane starts at column {x}");
    eventually("mouse reporting on in the client's terminal", || {
        let w = t.written();
        let has = |s: &[u8]| w.windows(s.len()).any(|p| p == s);
        (has(b"\x1b[?1006h") && has(b"\x1b[?1002h")).then_some(())
    });
    // SGR reports are 1-based: the pane's cell (4, 2) is the terminal's (x+4, y+2).
    let at = |b: u8, col: u16, row: u16, end: char| {
        format!("\x1b[<{b};{};{}{end}", x + col + 1, y + row + 1).into_bytes()
    };
    t.send(&at(0, 4, 2, 'M'));
    t.send(&at(32, 6, 3, 'M'));
    t.send(&at(0, 6, 3, 'm'));
    // Shift-click: the multiplexer's. Over the other pane (a release, which does not
    // focus it): not this program's.
    t.send(&at(4, 1, 1, 'M'));
    t.send(format!("\x1b[<0;2;{}m", y + 2).as_bytes());
    t.send(b"z");
    recorded(&w, "m.bin", b"\x1b[<0;5;3M\x1b[<32;7;4M\x1b[<0;7;4mz");
}

/// Press at the pane's cell (4, 2), drag to (6, 3), release there, then `z`: what a
/// program asking for 1002 and 1006 reads, in fugue and in tmux alike.
const CLICK_DRAG_RELEASE: &[u8] = b"\x1b[<0;5;3M\x1b[<32;7;4M\x1b[<0;7;4mz";

fn click_drag_release(t: &mut Tui, (x, y): (u16, u16)) {
    for (b, col, row, end) in [(0, 4, 2, 'M'), (32, 6, 3, 'M'), (0, 6, 3, 'm')] {
        t.send(format!("\x1b[<{b};{};{}{end}", x + col + 1, y + row + 1).as_bytes());
    }
    t.send(b"z");
}

/// tmux (3.3a, `mouse on`) gives a program the same reports for the same events.
#[test]
fn mouse_reports_are_what_tmux_sends() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "set -g mouse on\nset -g status off\n");
    let file = w.path("tmux.bin");
    let program = format!(
        "printf '\\033[?1002h\\033[?1006h'; stty raw -echo; printf READY; exec cat > '{}'",
        file.display()
    );
    let mut t = w.sh(&tmux.script(&format!("new-session \"{program}\"")), 80, 24);
    t.wait_text("READY");
    let at = origin(&t);
    click_drag_release(&mut t, at);
    recorded(&w, "tmux.bin", CLICK_DRAG_RELEASE);

    recorder(&w, "f", "\\033[?1002h\\033[?1006h", "f.bin");
    let mut t = attach(&w, Answers::Plain, "f");
    let at = origin(&t);
    click_drag_release(&mut t, at);
    recorded(&w, "f.bin", CLICK_DRAG_RELEASE);
}

/// The same event in a pane that asked for X10 encoding (1000 alone) is written as
/// X10 bytes, and a pane that asked for nothing gets nothing (and the client's
/// terminal reports no more than fugue's own use of the mouse asks for).
#[test]
fn mouse_reports_use_the_encoding_the_program_asked_for() {
    let w = World::new();
    recorder(&w, "x", "\\033[?1000h", "x.bin");
    let mut t = attach(&w, Answers::Plain, "x");
    let (x, y) = origin(&t);
    // With fugue's own mouse on (the default) the terminal reports drags too (1002);
    // the server drops what the program did not ask for.
    eventually("mouse reporting on", || {
        t.written()
            .windows(8)
            .any(|p| p == b"\x1b[?1002h")
            .then_some(())
    });
    // The pane's cell (2, 1): X10 writes 32 + the 1-based column and row.
    t.send(format!("\x1b[<0;{};{}M", x + 3, y + 2).as_bytes());
    t.send(format!("\x1b[<0;{};{}m", x + 3, y + 2).as_bytes());
    t.send(b"z");
    recorded(&w, "x.bin", b"\x1b[M #\"\x1b[M##\"z");

    recorder(&w, "none", "", "none.bin");
    let mut t = attach(&w, Answers::Plain, "none");
    let (x, y) = origin(&t);
    t.send(format!("\x1b[<0;{};{}M", x + 3, y + 2).as_bytes());
    t.send(b"z");
    recorded(&w, "none.bin", b"z");
    assert!(
        !t.written().windows(8).any(|p| p == b"\x1b[?1000h"),
        "mouse reporting on for a pane that did not ask"
    );
}

/// The steps of the focus test, for fugue or tmux: switch panes, switch the
/// terminal's focus, switch windows, each there and back.
trait Mux {
    fn select_pane(&self, index: u32);
    fn new_window(&self);
    fn select_window(&self, index: u32);
}

struct FugueMux<'a>(&'a World);

impl Mux for FugueMux<'_> {
    fn select_pane(&self, index: u32) {
        self.0.ok(&["select-pane", "-t", &format!("fo:0.{index}")]);
    }
    fn new_window(&self) {
        self.0.ok(&["new-window", "-t", "fo"]);
    }
    fn select_window(&self, index: u32) {
        self.0.ok(&["select-window", "-t", &format!("fo:{index}")]);
    }
}

struct TmuxMux<'a>(&'a TestTmux);

impl TmuxMux<'_> {
    fn tmux(&self, args: &[&str]) {
        self.0.ok(args);
    }
}

impl Mux for TmuxMux<'_> {
    fn select_pane(&self, index: u32) {
        self.tmux(&["select-pane", "-t", &format!("fo:0.{index}")]);
    }
    fn new_window(&self) {
        self.tmux(&["new-window", "-t", "fo"]);
    }
    fn select_window(&self, index: u32) {
        self.tmux(&["select-window", "-t", &format!("fo:{index}")]);
    }
}

/// Waits for the recorder to have read `n` bytes more than `from` (focus reports
/// come from the server on its own time; each step must land before the next).
fn read_grows(w: &World, file: &str, to: usize) {
    let path = w.path(file);
    let deadline = std::time::Instant::now() + super::harness::TIMEOUT;
    loop {
        let got = std::fs::read(&path).unwrap_or_default();
        if got.len() >= to {
            return;
        }
        // A failure says what the program did read, and what the server logged.
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {file} to hold {to} bytes: it holds {:?}\nserver log:\n{}",
            String::from_utf8_lossy(&got),
            w.log()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn focus_steps(w: &World, file: &str, t: &mut Tui, mux: &dyn Mux) {
    // Attached: the recorder's pane (the active one) has focus.
    read_grows(w, file, 6);
    mux.select_pane(1);
    read_grows(w, file, 9);
    mux.select_pane(0);
    read_grows(w, file, 12);
    // The client's terminal loses focus, and gets it back.
    t.send(b"\x1b[O");
    read_grows(w, file, 15);
    t.send(b"\x1b[I");
    read_grows(w, file, 18);
    mux.new_window();
    read_grows(w, file, 21);
    mux.select_window(0);
    read_grows(w, file, 24);
    t.send(b"z");
}

/// What the program reads: told it has no focus when it switches focus events on
/// (no client yet), then focus in on attach, and out and in again for each switch.
const FOCUS_SEEN: &[u8] = b"\x1b[O\x1b[I\x1b[O\x1b[I\x1b[O\x1b[I\x1b[O\x1b[Iz";

/// Issue 13: focus events (1004) reach the program when its pane gains or loses
/// focus (another pane, another window, the terminal's own focus), as tmux sends
/// them with `focus-events on`.
#[test]
fn focus_events_follow_the_pane_and_the_terminal_as_in_tmux() {
    let w = World::new();
    recorder(&w, "fo", "\\033[?1004h", "fugue.bin");
    w.ok(&["split-window", "-t", "fo", "-d"]);
    let mut t = attach(&w, Answers::Plain, "fo");
    assert!(
        t.written().windows(8).any(|p| p == b"\x1b[?1004h"),
        "focus events not asked of the client's terminal"
    );
    focus_steps(&w, "fugue.bin", &mut t, &FugueMux(&w));
    recorded(&w, "fugue.bin", FOCUS_SEEN);

    let test_tmux = TestTmux::new(&w, "set -g focus-events on\nset -g status off\n");
    let file = w.path("tmux.bin");
    let program = format!(
        "printf '\\033[?1004h'; stty raw -echo; printf READY; exec cat > '{}'",
        file.display()
    );
    let tmux = TmuxMux(&test_tmux);
    tmux.tmux(&["new-session", "-d", "-s", "fo", &program]);
    tmux.tmux(&["split-window", "-t", "fo", "-d"]);
    let mut t = w.sh(&test_tmux.script("attach -t fo"), 80, 24);
    t.wait_text("READY");
    focus_steps(&w, "tmux.bin", &mut t, &tmux);
    recorded(&w, "tmux.bin", FOCUS_SEEN);
}
