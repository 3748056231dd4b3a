//! tmux control mode (`tmux -C`, issue 16): `fugue tmux -C` driven through pipes, as
//! iTerm2 and libtmux drive it, side by side with tmux 3.3a where it does the same.
//! Times and command numbers are normalised; ids are compared by kind.

use super::faults::{rss_mb, server_pid};
use super::harness::{TIMEOUT, TestTmux, World, eventually};
use parking_lot::{Condvar, Mutex};
use std::io::{BufRead, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A control client: its standard input, and the lines of its standard output as a
/// thread reads them (which a test may hold back, to be a slow reader).
pub struct Ctl {
    pub child: Child,
    stdin: Option<ChildStdin>,
    lines: Arc<(Mutex<Vec<String>>, Condvar)>,
    hold: Arc<AtomicBool>,
}

impl Ctl {
    pub fn start(mut cmd: Command) -> Ctl {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().expect("control client");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let lines = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        let hold = Arc::new(AtomicBool::new(false));
        let (l, h) = (Arc::clone(&lines), Arc::clone(&hold));
        std::thread::spawn(move || {
            let mut r = std::io::BufReader::with_capacity(4096, stdout);
            loop {
                while h.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                }
                let mut line = Vec::new();
                match r.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let text = String::from_utf8_lossy(&line)
                    .trim_end_matches('\n')
                    .to_string();
                l.0.lock().push(text);
                l.1.notify_all();
            }
        });
        Ctl {
            child,
            stdin,
            lines,
            hold,
        }
    }

    pub fn fugue(w: &World, args: &[&str]) -> Ctl {
        let mut all = vec!["tmux", "-C"];
        all.extend_from_slice(args);
        Ctl::start(w.cmd(&all))
    }

    pub fn tmux(t: &TestTmux, args: &[&str]) -> Ctl {
        let mut cmd = Command::new("sh");
        let quoted: Vec<String> = args
            .iter()
            .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
            .collect();
        cmd.arg("-c")
            .arg(t.script(&format!("-C {}", quoted.join(" "))))
            .env_remove("TMUX");
        Ctl::start(cmd)
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    pub fn lines(&self) -> Vec<String> {
        self.lines.0.lock().clone()
    }

    /// Waits for a line `pred` takes, after the first `from` lines; its index.
    pub fn wait_from(&self, from: usize, what: &str, pred: impl Fn(&str) -> bool) -> usize {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = self.lines.0.lock();
        loop {
            if let Some(i) = lines.iter().skip(from).position(|l| pred(l)) {
                return from + i;
            }
            let now = Instant::now();
            assert!(
                now < deadline,
                "timed out waiting for {what}: {}",
                tail(&lines)
            );
            self.lines.1.wait_for(&mut lines, deadline - now);
        }
    }

    pub fn wait(&self, what: &str, pred: impl Fn(&str) -> bool) -> usize {
        self.wait_from(0, what, pred)
    }

    /// Sends a command line and waits for the blocks it makes (`n` of them): their
    /// lines, from the first `%begin` to the last `%end`/`%error`.
    pub fn reply(&mut self, line: &str, n: usize) -> Vec<String> {
        let from = self.lines().len();
        self.send(line);
        let mut at = from;
        for _ in 0..n {
            at = self.wait_from(at, line, |l| {
                l.starts_with("%end ") || l.starts_with("%error ")
            }) + 1;
        }
        self.lines()[from..at].to_vec()
    }

    /// Ends the client with an empty line; its status.
    pub fn detach(&mut self) -> std::process::ExitStatus {
        self.send("");
        self.wait("%exit", |l| l.starts_with("%exit"));
        self.stdin = None;
        wait_child(&mut self.child)
    }
}

impl Drop for Ctl {
    fn drop(&mut self) {
        self.hold.store(false, Ordering::Relaxed);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_child(child: &mut Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(s) = child.try_wait().expect("wait") {
            return s;
        }
        assert!(Instant::now() < deadline, "the control client did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The last lines, each cut short: what a failure shows (a flood is megabytes).
fn tail(lines: &[String]) -> String {
    let from = lines.len().saturating_sub(30);
    let mut out = format!("{} lines; the last:\n", lines.len());
    for l in &lines[from..] {
        let cut: String = l.chars().take(160).collect();
        out.push_str(&format!("{cut:?}\n"));
    }
    out
}

/// Blocks with their times and numbers normalised (`%begin T N F`), notifications
/// left out; checks on the way that each block's end repeats its begin's number and
/// that numbers go up.
pub fn blocks(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside: Option<(u64, String)> = None;
    let mut last = 0u64;
    for l in lines {
        let parts: Vec<&str> = l.split(' ').collect();
        match (parts.first().copied(), inside.as_ref()) {
            (Some("%begin"), None) => {
                assert_eq!(parts.len(), 4, "{l}");
                parts[1].parse::<u64>().expect("time");
                let n: u64 = parts[2].parse().expect("number");
                assert!(n > last, "numbers go up: {lines:#?}");
                last = n;
                inside = Some((n, parts[3].to_string()));
                out.push(format!("%begin T N {}", parts[3]));
            }
            (Some(end @ ("%end" | "%error")), Some((n, flags))) => {
                assert_eq!(parts.len(), 4, "{l}");
                assert_eq!(parts[2], n.to_string(), "end of block {n}: {lines:#?}");
                assert_eq!(parts[3], flags, "{l}");
                out.push(format!("{end} T N {flags}"));
                inside = None;
            }
            (_, Some(_)) => out.push(l.clone()),
            (_, None) => {}
        }
    }
    out
}

/// What fugue and tmux are asked, and answer alike.
const COMMANDS: &[(&str, usize)] = &[
    ("display -p hello", 1),
    ("foo", 1),
    ("display -Q x", 1),
    ("list-windows -t nosuch", 1),
    ("display -p a ; display -p b", 2),
    ("select-window -t :9", 1),
    ("display -p '#{session_name}'", 1),
    ("new-window -d", 1),
    // `$0` is a session id, not a variable (iTerm2 sends `-t $N` unquoted).
    ("display -p [$0]", 1),
    ("list-windows -t $0 -F '#{window_index}'", 1),
];

#[test]
fn command_replies_and_errors_are_tmuxs() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    // The command given with -C has a block of its own, with flags 0.
    for c in [&f, &r] {
        c.wait("-C's block", |l| l.starts_with("%end "));
        assert_eq!(blocks(&c.lines()), ["%begin T N 0", "%end T N 0"]);
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
    }
    for (line, n) in COMMANDS {
        let ours = blocks(&f.reply(line, *n));
        let theirs = blocks(&r.reply(line, *n));
        assert_eq!(ours, theirs, "{line}");
    }
    assert!(f.detach().success());
    r.detach();
    assert_eq!(f.lines().last().map(String::as_str), Some("%exit"));
    assert_eq!(r.lines().last().map(String::as_str), Some("%exit"));
}

/// `-CC` wraps the stream in a DCS (`ESC P 1000 p` ... `ESC \`), as iTerm2 reads it.
#[test]
fn double_c_wraps_the_stream_in_a_dcs() {
    let w = World::new();
    let mut f = Ctl::start(w.cmd(&["tmux", "-CC", "new-session", "-s", "x", "cat"]));
    f.wait("first block", |l| l.starts_with("%end "));
    assert!(
        f.lines()[0].starts_with("\x1bP1000p%begin "),
        "{:?}",
        f.lines()
    );
    f.detach();
    // The end: `%exit`, then the string terminator with no newline of its own.
    let last = eventually("the string terminator", || {
        f.lines().last().filter(|l| l.ends_with("\x1b\\")).cloned()
    });
    assert_eq!(last, "\x1b\\", "{:?}", f.lines());
}

/// `kill-server` from a control client ends the server and the client after its
/// block, as tmux's does: the client sees `%exit` and exits 0. (The client knows the
/// command by its declaration since issue 26, no longer by a verb of its own.)
#[test]
fn kill_server_ends_the_control_client_as_tmuxs() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    let mut ends = Vec::new();
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let from = c.lines().len();
        c.send("kill-server");
        c.wait_from(from, "%exit", |l| l.starts_with("%exit"));
        assert!(wait_child(&mut c.child).success());
        let after = c.lines()[from..].to_vec();
        ends.push(blocks(&after));
        assert_eq!(after.last().map(String::as_str), Some("%exit"), "{after:?}");
    }
    assert_eq!(ends[0], ends[1], "fugue's blocks, then tmux's");
    assert!(
        !w.run(&["list-sessions"]).status.success(),
        "the server is gone"
    );
}

/// The payload of a `%output` line for the first pane output that has `marker`.
fn output_of(c: &Ctl, marker: &str) -> String {
    let i = c.wait(marker, |l| l.starts_with("%output %") && l.contains(marker));
    let l = &c.lines()[i];
    let (_, rest) = l.split_once(' ').expect("pane");
    let (_, data) = rest.split_once(' ').expect("data");
    data.to_string()
}

#[test]
fn pane_output_is_escaped_as_tmux_escapes_it() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    let cmd = r#"new-window -d 'printf "MARK x\\ty\\\\z\\033[1m\\n"; sleep 5'"#;
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        c.reply(cmd, 1);
    }
    let ours = output_of(&f, "MARK");
    assert_eq!(ours, output_of(&r, "MARK"));
    assert_eq!(ours, r"MARK x\011y\134z\033[1m\015\012");
}

/// `%window-add`, `%layout-change`, `%window-renamed`, `%window-close` (tmux 3.3a:
/// `%unlinked-window-close`, the window being gone from the session when it is told),
/// with ids and layouts as tmux writes them.
#[test]
fn window_notifications_are_tmuxs() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    let script = [
        "new-window -d -n two cat",
        "rename-window -t :1 three",
        "split-window -d -t :0 cat",
        "kill-window -t :1",
    ];
    let mut seen = Vec::new();
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let from = c.lines().len();
        for line in script {
            c.reply(line, 1);
        }
        // A marker after the last notification.
        c.reply("display -p done", 1);
        let kinds: Vec<String> = c.lines()[from..]
            .iter()
            .filter(|l| !l.starts_with("%begin") && !l.starts_with("%end"))
            .filter(|l| l.starts_with('%'))
            .map(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                let kind = words[0];
                assert!(
                    words.get(1).is_some_and(|id| id.starts_with('@')),
                    "a window id: {l}"
                );
                match kind {
                    "%window-renamed" => format!("{kind} {}", words[2]),
                    // The layout and the visible layout (no zoom), and the flags.
                    "%layout-change" => {
                        assert_eq!(words[2], words[3], "{l}");
                        format!("{kind} {}", words[4..].join(" "))
                    }
                    _ => kind.to_string(),
                }
            })
            .collect();
        seen.push(kinds);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(
        seen[0],
        [
            "%window-add",
            "%window-renamed three",
            "%layout-change *",
            "%unlinked-window-close"
        ]
    );
}

/// A client that asked for `pause-after` and stopped reading: the pane's output is
/// paused (`%pause`), output is `%extended-output` with its age, and `refresh-client
/// -A %P:continue` brings it back (`%continue`).
#[test]
fn pause_after_pauses_a_pane_a_slow_client_falls_behind_on() {
    let w = World::new();
    let mut f = Ctl::fugue(&w, &["new-session", "-s", "x", "cat"]);
    f.wait("%session-changed", |l| l.starts_with("%session-changed $"));
    f.reply("refresh-client -f pause-after=1", 1);
    let pane = f.reply(
        "split-window -d -P -F '#{pane_id}' 'sleep 0.5; yes flood'",
        1,
    )[1]
    .clone();
    assert!(pane.starts_with('%'), "{pane}");
    let from = f.wait("extended output", |l| l.starts_with("%extended-output "));
    let l = &f.lines()[from];
    let words: Vec<&str> = l.splitn(5, ' ').collect();
    assert_eq!(words[1], pane, "{l}");
    words[2].parse::<u64>().expect("age in ms");
    assert_eq!(words[3], ":", "{l}");
    // Stop reading for longer than pause-after.
    // Part of the scenario: the client falls behind by not reading for longer than
    // pause-after (1 s); while it does not read, it cannot see anything to wait for.
    f.hold.store(true, Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(2500));
    f.hold.store(false, Ordering::Relaxed);
    let paused = format!("%pause {pane}");
    let at = f.wait(&paused, |l| l == paused);
    // Paused: no more output from it after the %pause line, up to the answer to a
    // later command (the server writes to this client in order, and `yes` keeps
    // writing: a pane still sent would show before the answer).
    f.reply("display-message -p after-the-pause", 1);
    let after: Vec<String> = f.lines()[at..]
        .iter()
        .filter(|l| l.starts_with(&format!("%extended-output {pane} ")))
        .cloned()
        .collect();
    assert!(after.is_empty(), "output after %pause: {}", after.len());
    let from = f.lines().len();
    f.send(&format!("refresh-client -A '{pane}:continue'"));
    let cont = format!("%continue {pane}");
    let at = f.wait_from(from, &cont, |l| l == cont);
    f.wait_from(at, "output again", |l| {
        l.starts_with(&format!("%extended-output {pane} "))
    });
}

/// A control client that never reads does not slow the pane (another client still
/// sees its output move) nor grow the server: its queue is bounded, and past it the
/// client is ended with `%exit too far behind`, as tmux ends one.
#[test]
fn a_reader_that_never_reads_stalls_nothing_and_is_let_go() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x", "cat"]);
    let pid = server_pid(&w);
    let mut f = Ctl::fugue(&w, &["attach", "-t", "x"]);
    f.wait("%session-changed", |l| l.starts_with("%session-changed $"));
    f.hold.store(true, Ordering::Relaxed);
    // Not read: the reply sits in the pipe.
    f.send("split-window -d 'seq 1 100000000'");
    let pane = eventually("the flooding pane", || {
        let out = w.ok(&[
            "list-panes",
            "-t",
            "x",
            "-F",
            "#{pane_id} #{pane_start_command}",
        ]);
        out.lines()
            .find(|l| l.contains("seq"))
            .map(|l| l.split(' ').next().unwrap_or("").to_string())
    });
    let last_number = || -> u64 {
        w.ok(&["capture-pane", "-p", "-t", &pane])
            .lines()
            .filter_map(|l| l.trim().parse::<u64>().ok())
            .max()
            .unwrap_or(0)
    };
    let mut seen = last_number();
    let before = rss_mb(pid);
    // Until the pane wrote well past the queue's bound (4 MiB) and the pipes' and
    // sockets' buffers: about 9 bytes a number. It must keep moving all along.
    let deadline = Instant::now() + Duration::from_secs(90);
    while seen < 1_500_000 {
        assert!(
            Instant::now() < deadline,
            "the pane wrote only {seen} numbers"
        );
        // Part of the scenario: the pane must move in every interval, not just once.
        std::thread::sleep(Duration::from_millis(700));
        let now = last_number();
        assert!(
            now > seen,
            "the pane stalled at {seen} behind a control client that does not read"
        );
        seen = now;
    }
    let grown = rss_mb(pid).saturating_sub(before);
    assert!(
        grown < 64,
        "the server grew {grown} MB behind a reader that does not read"
    );
    f.hold.store(false, Ordering::Relaxed);
    f.wait("%exit too far behind", |l| l == "%exit too far behind");
    wait_child(&mut f.child);
}

/// The client's session killed, another left: the client is detached (`%exit`), as
/// tmux's default `detach-on-destroy on` does.
#[test]
fn killing_the_clients_session_detaches_it() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        c.reply("new-session -d -s y cat", 1);
        c.send("kill-session -t x");
        c.wait("%exit", |l| l.starts_with("%exit"));
        wait_child(&mut c.child);
        assert_eq!(c.lines().last().map(String::as_str), Some("%exit"));
    }
    // The other session lives on.
    w.ok(&["has-session", "-t", "y"]);
}

/// A control client is a client: `list-clients` shows it as tmux does (named
/// `client-PID`, no terminal, flagged `control-mode`, 80 columns by no rows), which
/// libtmux waits for before it uses one; it is gone from the list once it ends.
#[test]
fn list_clients_shows_a_control_client_as_tmux_does() {
    const FMT: &str = "#{client_pid}|#{client_name}|#{client_tty}|#{client_flags}|#{client_control_mode}|#{client_width}x#{client_height}|#{client_session}";
    let w = World::new();
    let t = TestTmux::new(&w, "");
    w.ok(&["new-session", "-d", "-s", "c", "-x", "80", "-y", "24"]);
    t.ok(&["new-session", "-d", "-s", "c", "-x", "80", "-y", "24"]);
    let mut f = Ctl::fugue(&w, &["attach-session", "-t", "c"]);
    let mut r = Ctl::tmux(&t, &["attach-session", "-t", "c"]);
    let list = |side: &dyn Fn(&[&str]) -> String| side(&["list-clients", "-F", FMT]);
    let fugue_side = |a: &[&str]| w.ok(a);
    let tmux_side = |a: &[&str]| t.ok(a);
    let mut shown = Vec::new();
    for (c, side) in [
        (&mut f, &fugue_side as &dyn Fn(&[&str]) -> String),
        (&mut r, &tmux_side),
    ] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let out = eventually("the control client listed", || {
            let out = list(side);
            (!out.is_empty()).then_some(out)
        });
        let pid = out.split('|').next().unwrap_or_default().to_string();
        assert!(!pid.is_empty(), "{out}");
        shown.push(out.replace(&pid, "PID"));
    }
    assert_eq!(
        shown[0], shown[1],
        "fugue's control client listed unlike tmux's"
    );
    // libtmux matches the pid to the process it started.
    let pid = list(&fugue_side);
    assert!(
        pid.starts_with(&format!("{}|", f.child.id())),
        "{pid} (client {})",
        f.child.id()
    );
    f.detach();
    eventually("the client gone", || {
        list(&fugue_side).is_empty().then_some(())
    });
}

/// `detach-client` as tmux's: `-t` names a client wherever it is attached (its
/// control connection ends with `%exit`), `-a -t` keeps only that one, `-s` takes a
/// session's clients, and no `-t` from outside any client takes the latest active.
#[test]
fn detach_client_picks_clients_as_tmux_does() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let fugue_side = |a: &[&str]| w.ok(a);
    let tmux_side = |a: &[&str]| t.ok(a);
    for (side, start) in [
        (
            &fugue_side as &dyn Fn(&[&str]) -> String,
            &(|a: &[&str]| Ctl::fugue(&w, a)) as &dyn Fn(&[&str]) -> Ctl,
        ),
        (&tmux_side, &|a: &[&str]| Ctl::tmux(&t, a)),
    ] {
        side(&["new-session", "-d", "-s", "a"]);
        side(&["new-session", "-d", "-s", "b"]);
        let names = || -> Vec<String> {
            let mut v: Vec<String> = side(&["list-clients", "-F", "#{client_name}"])
                .lines()
                .map(str::to_string)
                .collect();
            v.sort();
            v
        };
        let mut ctls: Vec<Ctl> = ["a", "a", "b"]
            .iter()
            .map(|s| start(&["attach-session", "-t", s]))
            .collect();
        for c in &ctls {
            c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        }
        eventually("three clients", || (names().len() == 3).then_some(()));
        // -t: the client on b, from outside it.
        let on_b = side(&["list-clients", "-t", "b", "-F", "#{client_name}"]);
        side(&["detach-client", "-t", on_b.trim()]);
        ctls[2].wait("%exit", |l| l.starts_with("%exit"));
        eventually("two clients", || (names().len() == 2).then_some(()));
        // -a -t KEEP: only KEEP stays.
        let keep = names()[0].clone();
        side(&["detach-client", "-a", "-t", &keep]);
        eventually("one client", || {
            (names() == vec![keep.clone()]).then_some(())
        });
        // No -t from outside any client: the one left (the latest active).
        side(&["detach-client"]);
        eventually("no client", || names().is_empty().then_some(()));
        for c in &mut ctls {
            wait_child(&mut c.child);
        }
        side(&["kill-server"]);
    }
}

/// A notification with its ids and layouts replaced by their kinds.
fn shape(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let id = w.len() > 1
                && w.starts_with(['$', '@', '%'])
                && w[1..].bytes().all(|b| b.is_ascii_digit());
            match () {
                _ if i == 0 => w.to_string(),
                _ if id => w[..1].to_string(),
                _ if words[0] == "%layout-change" && (i == 2 || i == 3) => "LAYOUT".into(),
                _ => w.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `%session-window-changed`, `%window-pane-changed`, `%session-renamed`, in tmux's
/// order (its automatic renaming of windows aside).
#[test]
fn session_and_pane_notifications_are_tmuxs() {
    let w = World::new();
    let t = TestTmux::new(&w, "set -g automatic-rename off");
    let first = ["new-session", "-s", "x", "-x", "80", "-y", "24", "cat"];
    let mut f = Ctl::fugue(&w, &first);
    let mut r = Ctl::tmux(&t, &first);
    let script = [
        "new-window -d cat",
        "select-window -t :1",
        "split-window -d cat",
        "select-pane -t :1.1",
        "rename-session z",
        "display -p done",
    ];
    let mut seen = Vec::new();
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let from = c.lines().len();
        for line in script {
            c.reply(line, 1);
        }
        let notes: Vec<String> = c.lines()[from..]
            .iter()
            .filter(|l| l.starts_with('%'))
            .filter(|l| !l.starts_with("%begin") && !l.starts_with("%end"))
            .map(|l| shape(l))
            .collect();
        seen.push(notes);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(
        seen[0],
        [
            "%window-add @",
            "%session-window-changed $ @",
            "%layout-change @ LAYOUT LAYOUT *",
            "%window-pane-changed @ %",
            "%session-renamed $ z",
        ]
    );
}

/// A command that leaves the client with no session (`tmux -C ls`, or an `attach` that
/// fails) ends it at once after its block, with tmux's exit status.
#[test]
fn a_client_its_command_leaves_without_a_session_ends() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    w.ok(&["new-session", "-d", "-s", "a", "cat"]);
    t.ok(&["new-session", "-d", "-s", "a", "cat"]);
    for (args, status) in [
        (&["attach", "-t", "nosuch"][..], 1),
        (&["ls", "-F", "#S"][..], 0),
    ] {
        let mut f = Ctl::fugue(&w, args);
        let mut r = Ctl::tmux(&t, args);
        for c in [&mut f, &mut r] {
            let s = wait_child(&mut c.child);
            c.wait("%exit", |l| l == "%exit");
            assert_eq!(s.code(), Some(status), "{args:?}: {:?}", c.lines());
        }
        assert_eq!(blocks(&f.lines()), blocks(&r.lines()), "{args:?}");
    }
}

/// A command with no target finds the control client's session, as in tmux, even
/// when another session was made after it.
#[test]
fn commands_without_a_target_find_the_clients_session() {
    let w = World::new();
    let t = TestTmux::new(&w, "");
    w.ok(&["new-session", "-d", "-s", "x", "cat"]);
    t.ok(&["new-session", "-d", "-s", "x", "cat"]);
    w.ok(&["new-session", "-d", "-s", "y", "cat"]);
    t.ok(&["new-session", "-d", "-s", "y", "cat"]);
    let mut f = Ctl::fugue(&w, &["attach", "-t", "x"]);
    let mut r = Ctl::tmux(&t, &["attach", "-t", "x"]);
    for c in [&mut f, &mut r] {
        c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
        let reply = c.reply("display -p '#{session_name}'", 1);
        assert_eq!(reply[1], "x", "{reply:?}");
    }
}

/// `-CC` in a terminal, as iTerm2 runs it: the DCS around the stream, and the
/// commands typed not echoed; the same bytes as tmux's but for times and numbers.
#[test]
fn double_c_in_a_terminal_is_tmuxs() {
    let w = World::new();
    let t = TestTmux::new(&w, "set -g automatic-rename off");
    let mut f = w.tui(
        &[
            "tmux",
            "-CC",
            "new-session",
            "-s",
            "x",
            "-x",
            "80",
            "-y",
            "24",
            "cat",
        ],
        80,
        24,
    );
    let mut r = w.sh(&t.script("-CC new-session -s x -x 80 -y 24 cat"), 80, 24);
    let mut seen = Vec::new();
    for c in [&mut f, &mut r] {
        c.wait_raw("%session-changed", |b| {
            String::from_utf8_lossy(b).contains("%session-changed $")
        });
        c.send(b"display -p hi\n");
        c.wait_raw("hi", |b| String::from_utf8_lossy(b).contains("\r\nhi\r\n"));
        c.send(b"\n");
        c.wait_exit();
        let text = String::from_utf8_lossy(&c.raw()).into_owned();
        // Times and numbers out; tmux's %window-add and %sessions-changed for the
        // session its command made are not fugue's (docs/tmux.md).
        let lines: Vec<String> = text
            .split("\r\n")
            .filter(|l| !l.starts_with("%window-add") && !l.starts_with("%sessions-changed"))
            .map(|l| {
                let words: Vec<&str> = l.split(' ').collect();
                match words.first().copied() {
                    Some(w0 @ ("%begin" | "%end" | "\x1bP1000p%begin")) if words.len() == 4 => {
                        format!("{w0} T N {}", words[3])
                    }
                    Some("%session-changed") => "%session-changed".into(),
                    _ => l.to_string(),
                }
            })
            .collect();
        seen.push(lines);
    }
    assert_eq!(seen[0], seen[1]);
    assert!(
        !seen[0].iter().any(|l| l.contains("display")),
        "echoed: {:?}",
        seen[0]
    );
    assert_eq!(seen[0].last().map(String::as_str), Some("\x1b\\"));
}
