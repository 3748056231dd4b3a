//! Issue 14, paste buffers: the verbs through the real CLI against a real server, with
//! real tmux 3.3a beside them where the output is tmux's; pasting into programs; the
//! client's `C-b ]`, `C-b #` and `C-b =`; MCP; limits; and the audit log never holding
//! a buffer's text.

use super::harness::{World, write_config};
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A detached tmux server of its own (no config), as the reference.
struct Tmux {
    dir: tempfile::TempDir,
}

impl Tmux {
    fn start() -> Tmux {
        let t = Tmux {
            dir: tempfile::tempdir().expect("temp dir"),
        };
        t.ok(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "x",
            "-x",
            "80",
            "-y",
            "24",
        ]);
        t
    }

    fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new("tmux");
        c.args(args)
            .env("TMUX_TMPDIR", self.dir.path())
            .env("SHELL", "/bin/sh")
            .env("ENV", "")
            .env_remove("TMUX");
        c
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.cmd(args).output().expect("run tmux");
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]).output();
        super::harness::stop_servers(self.dir.path());
    }
}

fn with_stdin(mut c: Command, input: &[u8]) -> Output {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().expect("wait")
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The verbs, run the same way on fugue and on tmux, print the same.
#[test]
fn buffer_verbs_print_what_tmux_prints() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x"]);
    let t = Tmux::start();
    let both = |args: &[&str]| -> (String, String) {
        let f = w.run(args);
        let m = t.cmd(args).output().unwrap();
        assert_eq!(
            f.status.success(),
            m.status.success(),
            "{args:?}: fugue {f:?}, tmux {m:?}"
        );
        (text(&f), text(&m))
    };
    let same = |args: &[&str]| {
        let (f, m) = both(args);
        assert_eq!(f, m, "{args:?}");
        f
    };
    same(&["set-buffer", "hello"]);
    let f = with_stdin(w.cmd(&["load-buffer", "-"]), b"a\nb\tc\x01");
    let m = with_stdin(t.cmd(&["load-buffer", "-"]), b"a\nb\tc\x01");
    assert!(f.status.success() && m.status.success(), "{f:?} {m:?}");
    same(&["setb", "-b", "named", &"x".repeat(250)]);
    let list = same(&["list-buffers"]);
    assert!(list.contains("buffer0: 5 bytes: \"hello\""), "{list}");
    assert!(
        list.contains("buffer1: 6 bytes: \"a\\nb\\tc\\001\""),
        "{list}"
    );
    same(&[
        "lsb",
        "-F",
        "#{buffer_name}|#{buffer_size}|#{buffer_sample}",
    ]);
    assert_eq!(same(&["show-buffer"]).len(), 250);
    assert_eq!(same(&["showb", "-b", "buffer1"]), "a\nb\tc\u{1}");
    same(&["set-buffer", "-a", "-b", "buffer0", " world"]);
    same(&["set-buffer", "-b", "buffer1", "-n", "renamed"]);
    same(&["set-buffer", ""]);
    same(&["list-buffers"]);
    same(&["delete-buffer"]);
    same(&["deleteb", "-b", "renamed"]);
    same(&["list-buffers"]);
    // Unknown buffers fail on both, with tmux's words.
    for args in [
        &["show-buffer", "-b", "nope"][..],
        &["paste-buffer", "-b", "nope"],
        &["delete-buffer", "-b", "nope"],
    ] {
        let f = w.run(args);
        assert!(!f.status.success(), "{args:?}");
        let m = t.cmd(args).output().unwrap();
        assert!(!m.status.success(), "tmux {args:?}");
        let (fe, me) = (
            String::from_utf8_lossy(&f.stderr),
            String::from_utf8_lossy(&m.stderr),
        );
        assert!(fe.contains(me.trim()), "fugue: {fe} tmux: {me}");
    }
    // save-buffer writes the file (private), appends with -a.
    let path = w.path("saved.txt");
    let p = path.to_string_lossy();
    w.ok(&["set-buffer", "-b", "s", "hello world"]);
    w.ok(&["saveb", "-b", "s", &p]);
    w.ok(&["save-buffer", "-a", "-b", "s", &p]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "hello worldhello world"
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "save-buffer's file is private");
    w.ok(&["load-buffer", "-b", "fromfile", &p]);
    assert_eq!(
        w.ok(&["show-buffer", "-b", "fromfile"]),
        "hello worldhello world"
    );
}

/// What a program reads when a buffer is pasted: captured from the pane of a program
/// that prints the bytes it gets, on fugue and on tmux.
fn pasted_bytes(run: &dyn Fn(&[&str]) -> String, target: &str, paste: &[&str]) -> String {
    run(&["send-keys", "-t", target, "-l", READER]);
    run(&["send-keys", "-t", target, "Enter"]);
    // Pasted before the terminal is raw and in bracketed paste mode, the bytes would
    // be the line discipline's, not the paste's. (A screen with END on it is the last
    // run's, or the command line typed before `clear` ran.)
    super::harness::eventually("the reader ready", || {
        let screen = run(&["capture-pane", "-p", "-t", target]);
        (screen.contains("READY") && !screen.contains("END")).then_some(())
    });
    let mut args = vec!["paste-buffer", "-t", target];
    args.extend_from_slice(paste);
    run(&args);
    super::harness::eventually("the reader's od output", || {
        let screen = run(&["capture-pane", "-p", "-t", target]);
        screen.contains("END").then_some(screen)
    })
    .lines()
    .skip_while(|l| !l.starts_with("0000000"))
    .take_while(|l| !l.contains("END"))
    .collect::<Vec<_>>()
    .join("\n")
}

/// Reads 14 raw bytes (bracketed paste asked for), shows them with od, then `END`.
/// Prints READY (typed as `RE''ADY`, so the echoed command line does not match) once
/// the terminal is raw and in bracketed paste mode.
const READER: &str = "clear; stty raw -echo; printf '\\033[?2004hRE''ADY\\r\\n'; dd bs=1 count=14 2>/dev/null | od -c | head -2 | tr -s ' '; printf '\\033[?2004l'; stty sane; echo END";

#[test]
fn paste_buffer_types_what_tmux_types() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x", "-x", "80", "-y", "24"]);
    let t = Tmux::start();
    let fugue = |a: &[&str]| w.ok(a);
    let tmux = |a: &[&str]| t.ok(a);
    for (buffer, flags) in [
        // 14 bytes each, as the reader reads (6 of them the -p markers).
        ("ab\ncd\nefghijkl", &[][..]),
        ("ab\ncd\nefghijkl", &["-r"][..]),
        ("ab\ncd\nefghijkl", &["-s", "X"][..]),
        ("a\n", &["-p"][..]),
    ] {
        fugue(&["set-buffer", buffer]);
        tmux(&["set-buffer", buffer]);
        let f = pasted_bytes(&fugue, "x", flags);
        let m = pasted_bytes(&tmux, "x", flags);
        assert_eq!(f, m, "paste-buffer {flags:?}");
        assert!(!f.is_empty());
        if flags == ["-p"] {
            assert!(f.contains("033 [ 2 0 0 ~"), "{f}");
        }
    }
    // -d deletes the buffer after pasting.
    w.ok(&["set-buffer", "-b", "gone", "x"]);
    w.ok(&["paste-buffer", "-d", "-b", "gone", "-t", "x"]);
    assert!(!w.run(&["show-buffer", "-b", "gone"]).status.success());
}

/// `buffer_limit` evicts the oldest automatic buffer; named ones stay; one buffer past
/// 8 MiB is refused with the limit named.
#[test]
fn buffer_limit_evicts_and_the_byte_limit_refuses() {
    let w = World::new();
    write_config(&w, "[server]\nbuffer_limit = 2\n");
    w.ok(&["new-session", "-d", "-s", "x"]);
    w.ok(&["set-buffer", "-b", "keep", "k"]);
    for d in ["one", "two", "three"] {
        w.ok(&["set-buffer", d]);
    }
    let names: Vec<String> = w
        .ok(&["list-buffers", "-F", "#{buffer_name}"])
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(names, ["buffer2", "buffer1", "keep"]);
    let big = vec![b'x'; fugue_protocol::buffers::MAX_BUFFER_BYTES + 1];
    let out = with_stdin(w.cmd(&["load-buffer", "-"]), &big);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("over the limit"),
        "{out:?}"
    );
    // Appending past the limit is refused by the server.
    let most = vec![b'y'; fugue_protocol::buffers::MAX_BUFFER_BYTES];
    let out = with_stdin(w.cmd(&["load-buffer", "-b", "big", "-"]), &most);
    assert!(out.status.success(), "{out:?}");
    let out = w.run(&["set-buffer", "-a", "-b", "big", "z"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over the limit of 8388608 bytes"), "{err}");
}

/// Issue 14: "never written to the audit log": the buffers' text is not in it, their
/// names and sizes are.
#[test]
fn the_audit_log_never_holds_a_buffers_text() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x", "--", "cat"]);
    let secret = "hunter2-very-secret-buffer-text";
    w.ok(&["set-buffer", "-b", "pw", secret]);
    w.ok(&["set-buffer", secret]);
    w.ok(&["set-buffer", "-a", "-b", "pw", secret]);
    with_stdin(
        w.cmd(&["load-buffer", "-b", "loaded", "-"]),
        secret.as_bytes(),
    );
    w.ok(&["show-buffer", "-b", "pw"]);
    w.ok(&["paste-buffer", "-b", "pw", "-t", "x"]);
    w.ok(&["list-buffers"]);
    w.ok(&["delete-buffer", "-b", "loaded"]);
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap();
    assert!(!audit.contains("hunter2"), "{audit}");
    assert!(
        audit.contains("\"buffer\":\"pw\"") && audit.contains("\"buffer_bytes\":62"),
        "{audit}"
    );
    assert!(!w.log().contains("hunter2"));
}
