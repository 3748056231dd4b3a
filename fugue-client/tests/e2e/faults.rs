//! Fault injection (issue 11): hostile programs, callers and peers against a real
//! server. Each test asserts that the server still answers, that its memory stayed
//! under a stated bound, and that what was refused was refused with a reason.

use super::harness::{World, eventually, write_config};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

/// The server's pid: the `fugue-server` process serving this world's socket.
pub fn server_pid(w: &World) -> i32 {
    let socket = w.socket.to_string_lossy().into_owned();
    eventually("the server's process", || {
        std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
            let is_server = args.first().is_some_and(|a| a.ends_with(b"fugue-server"));
            (is_server && args.contains(&socket.as_bytes())).then_some(pid)
        })
    })
}

/// Resident memory of a process, in MB.
pub fn rss_mb(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A 64 MiB OSC string used to grow the server by its size (and a 3 GiB one aborted
/// it). Now it is dropped past `max_osc_bytes`, its buffer released, and the pane's
/// title is set by the next OSC that fits.
#[test]
fn issue_11_an_osc_flood_is_dropped_and_its_memory_given_back() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "w", "-x", "80", "-y", "24"]);
    let pid = server_pid(&w);
    let before = rss_mb(pid);
    let script = "printf '\\033]0;'; head -c 67108864 /dev/zero | tr '\\0' x; printf '\\007'; \
                  printf '\\033]0;after\\007'; echo flood-done; sleep 600";
    w.ok(&["new-window", "-d", "-t", "w", "--", "sh", "-c", script]);
    let mut peak = before;
    let started = Instant::now();
    eventually("the flood to end", || {
        peak = peak.max(rss_mb(pid));
        // The server keeps answering while it parses.
        let out = w.run(&["capture-pane", "-p", "-t", "w:1"]);
        assert!(out.status.success(), "capture failed: {}", stderr(&out));
        (String::from_utf8_lossy(&out.stdout).contains("flood-done")
            || started.elapsed() > Duration::from_secs(110))
        .then_some(())
    });
    let out = w.ok(&["capture-pane", "-p", "-t", "w:1"]);
    assert!(out.contains("flood-done"), "the flood never ended: {out}");
    let title = w.ok(&["display-message", "-p", "-t", "w:1", "#{pane_title}"]);
    assert_eq!(title.trim(), "after");
    let after = rss_mb(pid);
    assert!(
        peak < before + 40 && after < before + 20,
        "the server grew from {before} MB to {peak} MB (now {after} MB) for a 64 MiB OSC"
    );
    assert!(w.log().contains("OSC string"), "the drop was not logged");
}

/// 300 concurrent 1 MB sends into a program that never reads were all answered as
/// success and the server kept them all. Now queued input is bounded per pane and the
/// excess refused with `limit_exceeded`.
#[test]
fn issue_11_input_to_a_pane_that_does_not_read_is_bounded() {
    let w = World::new();
    write_config(&w, "[server]\nmax_input_bytes = 1048576\n");
    // Raw mode: a terminal in canonical mode discards what overflows its line buffer,
    // so writes never wait; in raw mode they wait for the program, as with a program
    // that is busy or stopped.
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "w",
        "--",
        "sh",
        "-c",
        "stty raw -echo; exec sleep 600",
    ]);
    eventually("the program to start", || {
        let out = w.ok(&[
            "display-message",
            "-p",
            "-t",
            "w",
            "#{pane_current_command}",
        ]);
        (out.trim() == "sleep").then_some(())
    });
    let pid = server_pid(&w);
    let before = rss_mb(pid);
    let chunk = "y".repeat(100_000);
    let mut refused = None;
    for i in 0..40 {
        let out = w.run(&["send-keys", "-t", "w", "-l", &chunk]);
        if !out.status.success() {
            refused = Some((i, stderr(&out)));
            break;
        }
    }
    let (i, msg) = refused.expect("40 x 100 kB into a pane that never reads were all accepted");
    assert!(i >= 8, "refused too early, after {i} sends: {msg}");
    assert!(
        msg.contains("limit") && msg.contains("not reading"),
        "{msg}"
    );
    assert!(rss_mb(pid) < before + 30);
    // The server is fine.
    w.ok(&["list-panes", "-t", "w"]);
}

/// `new-session -x 10000 -y 10000` cost 3 GB for one pane.
#[test]
fn issue_11_window_sizes_are_bounded_on_the_cli() {
    let w = World::new();
    let out = w.run(&[
        "new-session",
        "-d",
        "-s",
        "big",
        "-x",
        "10000",
        "-y",
        "10000",
    ]);
    assert!(!out.status.success());
    let msg = stderr(&out);
    assert!(msg.contains("1000x1000"), "{msg}");
    w.ok(&["new-session", "-d", "-s", "max", "-x", "1000", "-y", "1000"]);
    let pid = server_pid(&w);
    assert!(
        rss_mb(pid) < 150,
        "a 1000x1000 session costs {} MB",
        rss_mb(pid)
    );
}

/// `default_width = 65535` aborted the server on its first session; now the config is
/// refused with its line.
#[test]
fn issue_11_an_oversized_config_value_is_refused_with_its_line() {
    let w = World::new();
    write_config(&w, "[server]\n\ndefault_width = 65535\n");
    let out = w.run(&["new-session", "-d"]);
    assert!(!out.status.success());
    let msg = stderr(&out);
    assert!(
        msg.contains("line 3") && msg.contains("out of range"),
        "{msg}"
    );
}

fn connect(w: &World) -> UnixStream {
    let s = UnixStream::connect(&w.socket).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    s
}

/// A Hello as the CLI sends it, taken from the protocol crate so the test speaks the
/// real handshake.
fn hello_frame() -> Vec<u8> {
    let hello = fugue_protocol::Hello {
        protocol: fugue_protocol::PROTOCOL_VERSION,
        kind: fugue_protocol::ClientKind::Cli,
        client_version: "faults".into(),
        caller_pane: None,
    };
    let body = fugue_protocol::codec::encode(&hello).unwrap();
    let mut frame = (body.len() as u32).to_be_bytes().to_vec();
    frame.extend(body);
    frame
}

fn read_frame(s: &mut UnixStream) -> Option<Vec<u8>> {
    let mut len = [0u8; 4];
    s.read_exact(&mut len).ok()?;
    let mut body = vec![0u8; u32::from_be_bytes(len) as usize];
    s.read_exact(&mut body).ok()?;
    Some(body)
}

/// 20 connections each holding a 30 MiB partial frame after the handshake held 659 MB.
/// Now a request may be at most 4 MiB, partial frames share a 64 MiB budget, a body
/// must arrive within 10 s, and small requests never wait for the budget.
#[test]
fn issue_11_held_partial_frames_are_bounded_and_time_out() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "w"]);
    let pid = server_pid(&w);
    let before = rss_mb(pid);
    let mut held = Vec::new();
    for i in 0..20 {
        let mut s = connect(&w);
        s.write_all(&hello_frame()).unwrap();
        read_frame(&mut s).expect("welcome");
        // A 30 MiB frame is refused at once: the connection is closed.
        let len: u32 = if i == 0 { 30 << 20 } else { 4 << 20 };
        s.write_all(&len.to_be_bytes()).unwrap();
        if i > 0 {
            let _ = s.write_all(&vec![7u8; 1 << 20]);
        }
        held.push(s);
    }
    let mut probe = [0u8; 1];
    assert_eq!(
        held[0].read(&mut probe).unwrap_or(0),
        0,
        "a 30 MiB frame was not refused"
    );
    // Small requests are served meanwhile.
    let start = Instant::now();
    w.ok(&["list-panes", "-a"]);
    assert!(start.elapsed() < Duration::from_secs(8));
    let peak = rss_mb(pid);
    assert!(peak < before + 80, "{before} MB -> {peak} MB");
    // The stalled ones are closed by the server within the body timeout.
    for s in held.iter_mut().skip(1) {
        assert_eq!(s.read(&mut probe).unwrap_or(0), 0);
    }
    assert!(w.log().contains("did not arrive within"));
}

/// Past `max_connections`, a connection is told why instead of hanging, and the
/// refusals are logged without flooding the log.
#[test]
fn issue_11_connections_past_the_limit_are_refused_with_a_reason() {
    let w = World::new();
    write_config(&w, "[server]\nmax_connections = 16\n");
    w.ok(&["new-session", "-d", "-s", "w"]);
    let mut idle = Vec::new();
    for _ in 0..16 {
        let mut s = connect(&w);
        s.write_all(&hello_frame()).unwrap();
        read_frame(&mut s).expect("welcome");
        idle.push(s);
    }
    let out = w.run(&["list-sessions"]);
    assert!(!out.status.success());
    let msg = stderr(&out);
    assert!(msg.contains("connections"), "{msg}");
    idle.truncate(4);
    eventually("a slot to free", || {
        w.run(&["list-sessions"]).status.success().then_some(())
    });
    let warnings = w.log().matches("refused a connection").count();
    assert!((1..=3).contains(&warnings), "{warnings} warnings");
}

/// With 1024 descriptors, 1001 idle connections made every caller hang for over 20 s.
/// Now the server keeps descriptors for its panes, refuses with a reason, and a new
/// window can still be made.
#[test]
fn issue_11_running_out_of_descriptors_refuses_instead_of_hanging() {
    let w = World::new();
    // The server inherits the descriptor limit of the `fugue` that starts it.
    let mut start = w.cmd(&["new-session", "-d", "-s", "w"]);
    // SAFETY: setrlimit between fork and exec touches only the child's limits.
    unsafe {
        use std::os::unix::process::CommandExt;
        start.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: 200,
                rlim_max: 200,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = start.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    // Connections that finish their handshake and stay: they never time out, so the
    // server runs out of descriptors unless it refuses them. 250 fit in the server's
    // descriptors plus the listen backlog, so no connect here blocks.
    let hello = hello_frame();
    let mut idle = Vec::new();
    for _ in 0..250 {
        let mut s = connect(&w);
        let _ = s.write_all(&hello);
        idle.push(s);
    }
    let t = Instant::now();
    let mut cli = w.cmd(&["list-sessions"]);
    cli.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cli.spawn().unwrap();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if t.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("list-sessions hung for 20 s with the server out of descriptors");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    if !status.success() {
        let mut msg = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut msg)
            .unwrap();
        assert!(
            msg.contains("connections") || msg.contains("descriptors"),
            "{msg}"
        );
    }
    drop(idle);
    eventually("the server to serve again", || {
        w.run(&["new-window", "-d", "-t", "w"])
            .status
            .success()
            .then_some(())
    });
    let warnings = w.log().matches("refused a connection").count();
    assert!(warnings <= 5, "{warnings} warning lines");
}

/// A server killed with -9 is reported by the next start, and its stale sockets are
/// removed and logged.
#[test]
fn issue_11_the_next_start_says_how_the_previous_server_ended() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "w"]);
    let pid = server_pid(&w);
    // SAFETY: kill only sends a signal.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    eventually("the server to die", || {
        (!std::path::Path::new(&format!("/proc/{pid}")).exists()).then_some(())
    });
    let out = w.run(&["new-session", "-d", "-s", "again"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let msg = stderr(&out);
    assert!(
        msg.contains(&format!("the previous server (pid {pid}) ended")) && msg.contains("killed"),
        "{msg}"
    );
    assert!(w.log().contains("removed the stale socket"), "{}", w.log());
    // Said once.
    w.ok(&["kill-server"]);
    let out = w.run(&["new-session", "-d", "-s", "third"]);
    assert!(
        !stderr(&out).contains("previous server"),
        "{}",
        stderr(&out)
    );
}

/// A client stopped (SIGSTOP) while its pane prints 16 MiB (the issue's 100 MiB takes
/// minutes through a debug server; the bound does not depend on the amount) must cost the server
/// nothing that grows with the output: frames are paced by what the client takes, and
/// the pane never waits for it. Once continued, it shows the end of the output.
#[test]
fn issue_11_a_stopped_client_under_a_flood_costs_the_server_nothing() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "w", "-x", "100", "-y", "30"]);
    let pid = server_pid(&w);
    let tui = w.tui(&["attach", "-t", "w"], 100, 30);
    tui.wait_text("w");
    let client = tui.pid().expect("client pid") as i32;
    let before = rss_mb(pid);
    // SAFETY: kill only sends signals.
    unsafe { libc::kill(client, libc::SIGSTOP) };
    w.ok(&[
        "send-keys",
        "-t",
        "w",
        // Quoted so that the typed line itself never reads `flood-ended`.
        "yes flood | head -c 16777216; echo; echo flood-''ended",
        "Enter",
    ]);
    let mut peak = before;
    // A debug server parses 100 MiB in tens of seconds; the bound is generous.
    let started = Instant::now();
    loop {
        peak = peak.max(rss_mb(pid));
        let out = w.ok(&["capture-pane", "-p", "-t", "w"]);
        if out.lines().any(|l| l.trim() == "flood-ended") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the flood did not end: {out}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    eprintln!("16 MiB under a stopped client took {:?}", started.elapsed());
    peak = peak.max(rss_mb(pid));
    assert!(
        peak < before + 60,
        "the server grew from {before} MB to {peak} MB under a stopped client"
    );
    unsafe { libc::kill(client, libc::SIGCONT) };
    tui.wait("the end of the flood", |s| {
        s.contents().contains("flood-ended")
    });
}
