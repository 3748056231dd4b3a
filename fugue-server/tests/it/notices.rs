//! Notices to an attached client that stopped reading: the server keeps only the latest
//! (not one per notice), and a detach is not queued behind them.

use bytes::Bytes;
use fugue_protocol::codec::{self, RawCodec};
use fugue_protocol::message::{ClientKind, HandshakeReply, Hello, PROTOCOL_VERSION, ServerMessage};
use fugue_server::attached::Control;
use fugue_server::audit::Audit;
use fugue_server::config::Config;
use fugue_server::server::Server;
use futures::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio_util::codec::{FramedRead, FramedWrite};

// One thread: while the test posts notices, the client's frame task cannot send any,
// as if the client were stopped.
#[tokio::test(flavor = "current_thread")]
async fn a_client_that_stopped_reading_gets_the_latest_notice_and_its_detach() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(&dir.path().join("audit.jsonl")).unwrap();
    let socket = dir.path().join("sock");
    let (server, _events) = Server::new(Config::default(), socket.clone(), audit);
    let listener = tokio::net::UnixListener::bind(&socket).unwrap();
    tokio::spawn(fugue_server::surfaces::clients::accept_loop(
        Arc::clone(&server),
        listener,
        fugue_server::surfaces::admission::Admission::new(512, 1024),
    ));

    let stream = tokio::net::UnixStream::connect(&socket).await.unwrap();
    let (rd, wr) = stream.into_split();
    let mut rd = FramedRead::new(rd, RawCodec::default());
    let mut wr = FramedWrite::new(wr, RawCodec::default());
    let hello = Hello {
        protocol: PROTOCOL_VERSION,
        client_version: "test".into(),
        kind: ClientKind::Tui,
        caller_pane: None,
    };
    wr.send(Bytes::from(codec::encode(&hello).unwrap()))
        .await
        .unwrap();
    let welcome: HandshakeReply = codec::decode(&rd.next().await.unwrap().unwrap()).unwrap();
    assert!(matches!(welcome, HandshakeReply::Welcome { .. }));
    // Wait for the server to register the client.
    while server.mux.attached.lock().is_empty() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    for round in 0..3 {
        for i in 0..100_000 {
            server
                .mux
                .attached
                .tell(None, Control::Notice(format!("round {round} notice {i}")));
        }
        // Part of the scenario: rounds apart in time, so the client's writer takes
        // some of each before the next (not a wait for an event).
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server
        .mux
        .attached
        .tell(None, Control::Notice("before the detach".into()));
    server
        .mux
        .attached
        .tell(None, Control::Detached("bye".into(), Default::default()));

    let mut notices = Vec::new();
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), rd.next())
            .await
            .expect("the detach arrives")
            .unwrap()
            .unwrap();
        match codec::decode::<ServerMessage>(&frame).unwrap() {
            ServerMessage::Notice(text) => notices.push(text),
            ServerMessage::Detached { reason, .. } => {
                assert_eq!(reason, "bye");
                break;
            }
            _ => {}
        }
    }
    // One per round: the latest posted before the frame task ran. (The notice posted
    // just before the detach is about the session the client left.)
    assert!(
        notices.len() <= 3,
        "{} notices reached the client, the first {:?}",
        notices.len(),
        notices.first()
    );
    assert_eq!(
        notices.last().map(String::as_str),
        Some("round 2 notice 99999")
    );
}
