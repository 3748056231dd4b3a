//! Clients that lose their server, meet a stuck or exiting one, or are refused: they
//! say so and exit non-zero, or start a new server and carry on.

use super::harness::{World, eventually};
use bytes::Bytes;
use fugue_protocol::codec::{self, RawCodec};
use fugue_protocol::message::{HandshakeReply, PROTOCOL_VERSION};
use futures::{SinkExt, StreamExt};
use std::time::{Duration, Instant};
use tokio_util::codec::Framed;

/// Sends `hello` (anything serializable) as the first frame and returns the reply.
fn raw_handshake(socket: &std::path::Path, hello: &impl serde::Serialize) -> HandshakeReply {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("rt");
    rt.block_on(async {
        let stream = tokio::net::UnixStream::connect(socket)
            .await
            .expect("connect");
        let mut framed = Framed::new(stream, RawCodec::default());
        framed
            .send(Bytes::from(codec::encode(hello).expect("encode")))
            .await
            .expect("send");
        let frame = framed.next().await.expect("a reply").expect("a frame");
        codec::decode(&frame).expect("a handshake reply")
    })
}

#[derive(serde::Serialize)]
struct ForeignHello {
    protocol: u32,
    client_version: String,
    kind: String,
    caller_pane: Option<String>,
}

fn server_pid(w: &World) -> i32 {
    let hello = ForeignHello {
        protocol: PROTOCOL_VERSION,
        client_version: "test".into(),
        kind: "cli".into(),
        caller_pane: None,
    };
    match raw_handshake(&w.socket, &hello) {
        HandshakeReply::Welcome { server_pid, .. } => server_pid as i32,
        other => panic!("expected a welcome, got {other:?}"),
    }
}

#[test]
fn a_client_whose_server_is_killed_says_so_and_exits_non_zero() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x"]);
    let mut t = w.tui(&["attach", "-t", "x"], 80, 24);
    t.wait("the status bar", |s| {
        s.contents().contains("x") && s.contents().contains("0:")
    });
    let pid = server_pid(&w);
    // SAFETY: kill on the pid of the server this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    let code = t.wait_exit();
    t.wait_text("[lost server]");
    assert_eq!(code, 1, "screen:\n{}", t.contents());
}

#[test]
fn a_hello_of_an_unknown_kind_is_told_what_is_wrong() {
    let w = World::new();
    w.ok(&["new-session", "-d"]);
    let hello = ForeignHello {
        protocol: PROTOCOL_VERSION,
        client_version: "test".into(),
        kind: "x".into(),
        caller_pane: None,
    };
    match raw_handshake(&w.socket, &hello) {
        HandshakeReply::Refused { reason } => {
            assert!(!reason.contains("mismatch"), "{reason}");
            assert!(
                reason.contains("`x`") && reason.contains("cli") && reason.contains("tui"),
                "{reason}"
            );
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn a_server_that_never_answers_is_reported_within_the_handshake_timeout() {
    let w = World::new();
    let dir = w.socket.parent().expect("parent");
    std::fs::create_dir_all(dir).expect("mkdir");
    // A listener that never accepts: connecting works, the hello is never answered.
    let _listener = std::os::unix::net::UnixListener::bind(&w.socket).expect("bind");
    let started = Instant::now();
    let out = w.run(&["list-sessions"]);
    let took = started.elapsed();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("did not answer within 10 s")
            && err.contains(&*w.socket.to_string_lossy())
            && err.contains("server-test.log"),
        "{err}"
    );
    assert!(took < Duration::from_secs(60), "took {took:?}");
}

/// Each `new-session … -- true` ends the server's only session at once, so the next
/// command meets a server that is exiting: it must be served or go to a new server.
#[test]
fn back_to_back_sessions_that_end_at_once_never_fail() {
    let w = World::new();
    let started = Instant::now();
    for i in 0..100 {
        let out = w.run(&["new-session", "-d", "--", "true"]);
        assert!(
            out.status.success(),
            "cycle {i}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    eprintln!("100 cycles in {:?}", started.elapsed());
}

/// The request that ends the last session gets its answer, every time.
#[test]
fn killing_the_last_session_always_gets_its_answer() {
    let w = World::new();
    for i in 0..40 {
        w.ok(&["new-session", "-d", "-s", "last", "--", "sleep", "30"]);
        let out = w.run(&["kill-session", "-t", "last"]);
        assert!(
            out.status.success(),
            "cycle {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `fugue mcp` launched as the server exits still gets through `initialize`.
#[test]
fn fugue_mcp_right_after_the_last_session_ended_initializes() {
    let w = World::new();
    let cfg = w.path("config/mcp.toml");
    std::fs::write(&cfg, "").expect("config");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("rt");
    for _ in 0..20 {
        w.ok(&["new-session", "-d", "--", "true"]);
        rt.block_on(async {
            let c = super::mcp::launch(&w, &cfg).await;
            let tools = c.list_tools(None).await.expect("tools").tools;
            assert!(!tools.is_empty());
            let _ = c.cancel().await;
        });
    }
}

/// Opens the socket folder and the sockets so that only the server's uid check stands
/// between another user and the server.
fn open_to_everyone(w: &World) {
    use std::os::unix::fs::PermissionsExt;
    let set = |p: &std::path::Path, mode| {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).expect("chmod")
    };
    for p in [
        w.dir.path(),
        &w.path("run"),
        w.socket.parent().expect("dir"),
    ] {
        set(p, 0o711);
    }
    set(&w.socket, 0o666);
    set(&fugue_protocol::paths::mcp_socket_path(&w.socket), 0o666);
}

fn as_nobody(cmd: &mut std::process::Command) {
    // SAFETY: setgid/setuid in the child before exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            if libc::setgroups(0, std::ptr::null()) != 0
                || libc::setgid(65534) != 0
                || libc::setuid(65534) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[test]
fn another_user_is_told_permission_denied_by_the_cli_and_by_fugue_mcp() {
    // SAFETY: getuid has no side effects.
    if unsafe { libc::getuid() } != 0 {
        eprintln!("skipped: needs root to connect as another user");
        return;
    }
    let w = World::new();
    w.ok(&["new-session", "-d"]);
    open_to_everyone(&w);
    for verb in ["ls", "mcp"] {
        let mut cmd = w.cmd(&[verb]);
        as_nobody(&mut cmd);
        cmd.stdin(std::process::Stdio::null());
        let out = cmd.output().expect("run as nobody");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "{verb}: exited 0; stderr: {err}; stdout: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(
            err.contains("permission denied: this server belongs to uid 0"),
            "{verb}: {err}"
        );
    }
    eventually("the server still serving its own user", || {
        w.run(&["ls"]).status.success().then_some(())
    });
}
