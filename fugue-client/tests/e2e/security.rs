//! The socket's permissions, the peer check, and the version handshake.

use super::harness::World;
use bytes::Bytes;
use fugue_protocol::codec::{self, RawCodec};
use fugue_protocol::message::{ClientKind, ClientMessage, HandshakeReply, Hello, ServerMessage};
use futures::{SinkExt, StreamExt};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use tokio_util::codec::Framed;

#[test]
fn socket_is_0600_in_a_0700_folder() {
    let w = World::new();
    w.ok(&["new", "-d"]);
    let dir = w.socket.parent().expect("parent");
    assert_eq!(std::fs::metadata(dir).expect("dir").mode() & 0o777, 0o700);
    assert_eq!(
        std::fs::metadata(&w.socket).expect("socket").mode() & 0o777,
        0o600
    );
}

#[test]
fn a_folder_others_can_read_is_refused() {
    let w = World::new();
    let dir = w.socket.parent().expect("parent").to_path_buf();
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = w.run(&["new", "-d"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("others can access it") && err.contains("chmod 700"),
        "{err}"
    );
}

/// A raw connection that has said hello with `protocol`, and the server's reply.
async fn hello(
    socket: &std::path::Path,
    protocol: u32,
) -> (Framed<tokio::net::UnixStream, RawCodec>, HandshakeReply) {
    let stream = tokio::net::UnixStream::connect(socket)
        .await
        .expect("connect");
    let mut framed = Framed::new(stream, RawCodec::default());
    let hello = Hello {
        protocol,
        client_version: "test".into(),
        kind: ClientKind::Cli,
        caller_pane: None,
    };
    framed
        .send(Bytes::from(codec::encode(&hello).expect("encode")))
        .await
        .expect("send");
    let frame = framed.next().await.expect("a reply").expect("a frame");
    let reply = codec::decode(&frame).expect("a handshake reply");
    (framed, reply)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("rt")
}

fn handshake(socket: &std::path::Path, protocol: u32) -> HandshakeReply {
    runtime().block_on(hello(socket, protocol)).1
}

#[test]
fn a_protocol_mismatch_is_refused_with_a_clear_message() {
    let w = World::new();
    w.ok(&["new", "-d"]);
    let old = fugue_protocol::MIN_PROTOCOL - 1;
    match handshake(&w.socket, old) {
        HandshakeReply::Refused { reason } => {
            assert!(
                reason.contains("protocol version mismatch") && reason.contains(&old.to_string()),
                "{reason}"
            );
            assert!(reason.contains("-L"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(matches!(
        handshake(&w.socket, fugue_protocol::PROTOCOL_VERSION),
        HandshakeReply::Welcome { .. }
    ));
}

/// A command from the future, as a newer client would send it: the same shape as a
/// `ClientMessage::Request`, with a command this server has never heard of.
#[derive(serde::Serialize)]
enum FutureMessage {
    Request { id: u64, command: FutureCommand },
}

#[derive(serde::Serialize)]
enum FutureCommand {
    TeleportPane { to: String },
}

/// Stable wire tags (issue 26): a newer client is welcomed, and a command this server
/// does not know is answered by its id, naming both versions, while the connection
/// goes on to serve what both know.
#[test]
fn a_newer_clients_unknown_command_is_answered_and_the_connection_goes_on() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "w"]);
    runtime().block_on(async {
        let newer = fugue_protocol::PROTOCOL_VERSION + 5;
        let (mut framed, welcome) = hello(&w.socket, newer).await;
        assert!(
            matches!(welcome, HandshakeReply::Welcome { .. }),
            "{welcome:?}"
        );
        let future = FutureMessage::Request {
            id: 7,
            command: FutureCommand::TeleportPane { to: "mars".into() },
        };
        framed
            .send(Bytes::from(codec::encode(&future).expect("encode")))
            .await
            .expect("send");
        let frame = framed.next().await.expect("an answer").expect("a frame");
        match codec::decode::<ServerMessage>(&frame).expect("a server message") {
            ServerMessage::Response {
                id: 7,
                result: Err(e),
            } => {
                assert_eq!(e.code, fugue_protocol::ErrorCode::InvalidArgument);
                assert!(
                    e.message.contains("does not know the command")
                        && e.message.contains(&newer.to_string()),
                    "{e:?}"
                );
            }
            other => panic!("expected an error answer to request 7, got {other:?}"),
        }
        // The connection still serves what both sides know.
        let known = ClientMessage::Request {
            id: 8,
            command: fugue_protocol::Command::ListSessions,
        };
        framed
            .send(Bytes::from(codec::encode(&known).expect("encode")))
            .await
            .expect("send");
        let frame = framed.next().await.expect("an answer").expect("a frame");
        match codec::decode::<ServerMessage>(&frame).expect("a server message") {
            ServerMessage::Response {
                id: 8,
                result: Ok(_),
            } => {}
            other => panic!("expected list-sessions' answer, got {other:?}"),
        }
    });
}

#[test]
fn other_users_are_refused_even_when_the_file_would_let_them_in() {
    // SAFETY: getuid has no side effects.
    if unsafe { libc::getuid() } != 0 {
        eprintln!("skipped: needs root to connect as another user");
        return;
    }
    let w = World::new();
    w.ok(&["new", "-d"]);
    // Open the file permissions so only the server's own uid check stands in the way.
    let dir = w.socket.parent().expect("parent");
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o711)).expect("chmod dir");
    std::fs::set_permissions(&w.socket, std::fs::Permissions::from_mode(0o666))
        .expect("chmod socket");
    for p in [w.dir.path(), &w.path("run")] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o711)).expect("chmod");
    }
    let mut cmd = w.cmd(&["ls"]);
    // SAFETY: setuid in the child before exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            if libc::setgid(65534) != 0 || libc::setuid(65534) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().expect("run as nobody");
    assert!(
        !out.status.success(),
        "another user got in: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The log is written by a background thread: wait for the line.
    super::harness::eventually("the refusal in the server log", || {
        let log = std::fs::read_to_string(w.state_dir().join("server-test.log")).ok()?;
        log.contains("refused a connection from uid 65534")
            .then_some(())
    });
}
