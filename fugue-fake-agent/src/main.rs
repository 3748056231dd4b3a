//! A stand-in for a coding agent CLI, for fugue's tests (no model involved).
//!
//! It behaves the way Claude Code, Codex or Gemini CLI look from a terminal: a banner,
//! a prompt (`> `), keys read raw with bracketed paste, a spinner redrawn with `\r`
//! while it "works", an answer derived from the input (`done(INPUT)`, so a pipeline's
//! substitutions can be checked), and a report to fugue (`fugue report --state busy`
//! when it starts, `fugue report --state idle --result -` when done, as an agent's
//! hooks would), then the prompt again.
//!
//! Options (each also as an environment variable, for presets):
//!   --work-ms N      spinner time per task (FAKE_AGENT_WORK_MS, default 300)
//!   --startup-ms N   a loading spinner before the first prompt, after which input typed
//!                    meanwhile is dropped (FAKE_AGENT_STARTUP_MS)
//!   --no-report      never call `fugue report` (FAKE_AGENT_NO_REPORT=1): heuristics only
//!   --exit-asking-ms N  asks a question at start ("Trust this folder? (y/n)", reported
//!                    as awaiting_input, so it counts as ready), reads no answer, and
//!                    exits with status 3 after N ms (FAKE_AGENT_EXIT_ASKING_MS): an
//!                    agent that ends between being ready and being given its task
//!   --fugue PATH     the `fugue` to call (FUGUE_BIN; default: next to this program)
//!   TASK...          a task given on the command line, worked on at once
//!
//! In the answer it prints (not in the result it reports), `$FUGUE_SIDEBAND_KEY` is
//! replaced by the pane's sideband key, as an agent that runs `printf ... "$FUGUE_SIDEBAND_KEY"`
//! prints a keyed tag; its echo of the input keeps the name, so only the answer's tags run.
//!
//! Inputs it understands besides tasks: `ask` (asks "Proceed? (y/n)", reports
//! `awaiting_input`, and waits for a line), `menu` (the same question answered by one
//! key without Enter, as agents' permission menus take "1"), `exit [N]` (exits with
//! status N).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

struct Options {
    work: Duration,
    startup: Duration,
    report: bool,
    exit_asking: Option<Duration>,
    fugue: PathBuf,
    task: Option<String>,
}

fn env_ms(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

fn options() -> Result<Options, String> {
    let sibling = std::env::current_exe()
        .ok()
        .map(|p| p.with_file_name("fugue"))
        .filter(|p| p.is_file());
    let mut o = Options {
        work: Duration::from_millis(env_ms("FAKE_AGENT_WORK_MS").unwrap_or(300)),
        startup: Duration::from_millis(env_ms("FAKE_AGENT_STARTUP_MS").unwrap_or(0)),
        report: std::env::var("FAKE_AGENT_NO_REPORT").map_or(true, |v| v != "1"),
        exit_asking: env_ms("FAKE_AGENT_EXIT_ASKING_MS").map(Duration::from_millis),
        fugue: std::env::var_os("FUGUE_BIN")
            .map(PathBuf::from)
            .or(sibling)
            .unwrap_or_else(|| PathBuf::from("fugue")),
        task: None,
    };
    let mut words = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut ms = |name: &str| -> Result<Duration, String> {
            args.next()
                .and_then(|v| v.parse().ok())
                .map(Duration::from_millis)
                .ok_or(format!("{name} needs a number of milliseconds"))
        };
        match a.as_str() {
            "--work-ms" => o.work = ms("--work-ms")?,
            "--startup-ms" => o.startup = ms("--startup-ms")?,
            "--no-report" => o.report = false,
            "--exit-asking-ms" => o.exit_asking = Some(ms("--exit-asking-ms")?),
            "--fugue" => {
                o.fugue = args
                    .next()
                    .map(PathBuf::from)
                    .ok_or("--fugue needs a path")?
            }
            _ => words.push(a),
        }
    }
    o.task = Some(words.join(" ")).filter(|t| !t.trim().is_empty());
    Ok(o)
}

/// Raw keys, as agents' TUIs read them; restored on drop.
struct Raw(Option<libc::termios>);

impl Raw {
    fn enter() -> Raw {
        // SAFETY: termios calls on our own stdin with a zeroed, then filled, struct.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(0, &mut t) != 0 {
                return Raw(None);
            }
            let saved = t;
            t.c_lflag &= !(libc::ICANON | libc::ECHO);
            t.c_iflag &= !(libc::ICRNL | libc::IXON);
            t.c_cc[libc::VMIN] = 1;
            t.c_cc[libc::VTIME] = 0;
            libc::tcsetattr(0, libc::TCSANOW, &t);
            Raw(Some(saved))
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        if let Some(t) = self.0 {
            // SAFETY: restores the settings read in `enter`.
            unsafe {
                libc::tcsetattr(0, libc::TCSANOW, &t);
            }
        }
    }
}

fn out(s: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(s.as_bytes());
    let _ = o.flush();
}

const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

fn spin(label: &str, for_how_long: Duration) {
    let end = Instant::now() + for_how_long;
    let mut i = 0;
    while Instant::now() < end {
        out(&format!("\r{} {label}", FRAMES[i % FRAMES.len()]));
        i += 1;
        std::thread::sleep(Duration::from_millis(40).min(end - Instant::now()));
    }
    out("\r\x1b[K");
}

/// `fugue report ...`, with `input` on its standard input.
fn report(o: &Options, args: &[&str], input: Option<&str>) {
    if !o.report {
        return;
    }
    let child = Command::new(&o.fugue)
        .arg("report")
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            out(&format!("report failed: {e}\r\n"));
            return;
        }
    };
    if let (Some(text), Some(mut stdin)) = (input, child.stdin.take()) {
        let _ = stdin.write_all(text.as_bytes());
    }
    match child.wait_with_output() {
        Ok(r) if r.status.success() => {}
        Ok(r) => out(&format!(
            "report failed: {}\r\n",
            String::from_utf8_lossy(&r.stderr).trim()
        )),
        Err(e) => out(&format!("report failed: {e}\r\n")),
    }
}

/// Reads one submitted input: typed keys until Enter, pastes whole.
fn read_input(stdin: &mut impl Read) -> Option<String> {
    let mut line: Vec<u8> = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut pasting = false;
    let mut byte = [0u8; 1];
    loop {
        if stdin.read(&mut byte).ok()? == 0 {
            return None;
        }
        pending.push(byte[0]);
        // Escape sequences: the paste markers matter, other keys are ignored.
        if pending[0] == 0x1b {
            if pending.ends_with(b"\x1b[200~") {
                pasting = true;
                pending.clear();
            } else if pending.ends_with(b"\x1b[201~") {
                pasting = false;
                pending.clear();
            } else if pending.len() > 1 && (0x40..=0x7e).contains(&byte[0]) && byte[0] != b'[' {
                pending.clear();
            }
            continue;
        }
        let b = pending.pop().unwrap_or(0);
        pending.clear();
        match b {
            b'\r' | b'\n' if !pasting => {
                out("\r\n");
                return Some(String::from_utf8_lossy(&line).into_owned());
            }
            0x7f | 0x08 => {
                if line.pop().is_some() {
                    out("\x08 \x08");
                }
            }
            b'\r' | b'\n' => {
                line.push(b'\n');
                out("\r\n  ");
            }
            b => {
                line.push(b);
                let _ = std::io::stdout().lock().write_all(&[b]);
                let _ = std::io::stdout().lock().flush();
            }
        }
    }
}

/// Works on one input; false to stop.
fn work(o: &Options, stdin: &mut impl Read, input: &str) -> bool {
    let input = input.trim();
    if input.is_empty() {
        return true;
    }
    if input == "exit" || input.starts_with("exit ") {
        out("bye\r\n");
        let code = input[4..].trim().parse().unwrap_or(0);
        std::process::exit(code);
    }
    report(o, &["--state", "busy"], None);
    let answer = if input == "ask" {
        out("Proceed? (y/n) ");
        // As Claude Code's Notification hook would.
        report(o, &["--state", "awaiting_input"], None);
        let reply = read_input(stdin).unwrap_or_default();
        report(o, &["--state", "busy"], None);
        format!("done(ask: {})", reply.trim())
    } else if input == "menu" {
        out("Proceed? 1) yes 2) no (y/n) ");
        report(o, &["--state", "awaiting_input"], None);
        // One key is the answer, as in agents' permission menus: no Enter follows.
        let mut key = [0u8; 1];
        let answer = match stdin.read(&mut key) {
            Ok(1) => char::from(key[0]),
            _ => return false,
        };
        out(&format!("{answer}\r\n"));
        report(o, &["--state", "busy"], None);
        format!("done(menu: {answer})")
    } else {
        format!("done({input})")
    };
    spin("working on it", o.work);
    let key = std::env::var("FUGUE_SIDEBAND_KEY").unwrap_or_default();
    let shown = answer.replace("$FUGUE_SIDEBAND_KEY", &key);
    out(&format!("answer: {}\r\n", shown.replace('\n', "\r\n")));
    report(o, &["--state", "idle", "--result", "-"], Some(&answer));
    true
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fugue-fake-agent: {e}");
            std::process::exit(2);
        }
    };
    let _raw = Raw::enter();
    // Bracketed paste on, as agents' TUIs have it.
    out("\x1b[?2004hfake agent 1.0\r\n");
    if !o.startup.is_zero() {
        spin("loading", o.startup);
        // Like TUIs that set up the terminal when they are ready, it drops what was
        // typed while it loaded: a task must wait for the prompt.
        // SAFETY: discards queued input of our own terminal; no memory is involved.
        unsafe {
            libc::tcflush(0, libc::TCIFLUSH);
        }
    }
    if let Some(after) = o.exit_asking {
        out("Trust this folder? (y/n) ");
        report(&o, &["--state", "awaiting_input"], None);
        std::thread::sleep(after);
        out("\r\nno answer, bye\r\n");
        std::process::exit(3);
    }
    let mut stdin = std::io::stdin().lock();
    if let Some(task) = o.task.clone() {
        out(&format!("> {task}\r\n"));
        work(&o, &mut stdin, &task);
    }
    loop {
        out("> ");
        let Some(input) = read_input(&mut stdin) else {
            break;
        };
        if !work(&o, &mut stdin, &input) {
            break;
        }
    }
    out("\x1b[?2004l");
}
