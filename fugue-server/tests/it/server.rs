//! The `fugue-server` binary on its own: startup, refusal of a second server, bad
//! config. (Cargo builds the binary for these tests, which the client's end-to-end
//! tests also rely on.)

use std::io::{BufRead, BufReader};
use std::os::unix::fs::MetadataExt;
use std::process::{Command, Stdio};

fn server(dir: &std::path::Path, socket: &std::path::Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fugue-server"));
    c.arg("--socket").arg(socket);
    c.env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_CONFIG_HOME", dir.join("config"));
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

#[test]
fn starts_listens_privately_and_refuses_a_second_server() {
    let dir = tempfile::tempdir().unwrap();
    let socket = dir.path().join("run/sock");
    let mut first = server(dir.path(), &socket).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(first.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready");
    assert_eq!(std::fs::metadata(&socket).unwrap().mode() & 0o777, 0o600);
    assert_eq!(
        std::fs::metadata(socket.parent().unwrap()).unwrap().mode() & 0o777,
        0o700
    );
    let mcp = fugue_protocol::paths::mcp_socket_path(&socket);
    assert_eq!(std::fs::metadata(&mcp).unwrap().mode() & 0o777, 0o600);

    let second = server(dir.path(), &socket).output().unwrap();
    assert_eq!(second.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&second.stderr).contains("already running"));

    // SAFETY: signalling our own child.
    unsafe { libc::kill(first.id() as i32, libc::SIGTERM) };
    assert!(first.wait().unwrap().success());
    assert!(
        !socket.exists(),
        "the socket is removed when the server stops"
    );
}

#[test]
fn a_bad_config_stops_startup_with_its_location() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(&cfg, "[status]\nenabled = \"yes\"\n").unwrap();
    let out = server(dir.path(), &dir.path().join("run/s"))
        .arg("--config")
        .arg(&cfg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("c.toml") && err.contains("line 2"), "{err}");
}
