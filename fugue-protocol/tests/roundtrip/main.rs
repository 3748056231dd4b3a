//! Every protocol message survives encoding and decoding unchanged.

use bytes::BytesMut;
use fugue_protocol::codec::{self, MessageCodec};
use fugue_protocol::keys::{Key, KeyCode, Mods};
use fugue_protocol::message::{ClientKind, ClientMessage, HandshakeReply, Hello, ServerMessage};
use fugue_protocol::passthrough::{CursorLook, OuterEvents};
use fugue_protocol::screen::{Cursor, Frame, PaneInput, PaneUpdate, WindowTab};
use fugue_protocol::*;
use std::sync::Arc;
use tokio_util::codec::{Decoder, Encoder};

mod frame_sample;
mod response_samples;
mod samples;
use frame_sample::frame;
use response_samples::*;
use samples::*;

/// A frame from a server before panes reported their input modes decodes, with no
/// modes asked.
#[test]
fn a_pane_update_without_input_modes_decodes() {
    #[derive(serde::Serialize)]
    struct OldPaneUpdate {
        pane: PaneId,
        seq: u64,
        cols: u16,
        rows: u16,
        full: bool,
        changed: Vec<(u16, Arc<Row>)>,
        cursor: Cursor,
        alternate_screen: bool,
        mouse: bool,
    }
    let old = OldPaneUpdate {
        pane: PaneId(1),
        seq: 2,
        cols: 3,
        rows: 4,
        full: false,
        changed: Vec::new(),
        cursor: Cursor::default(),
        alternate_screen: false,
        mouse: true,
    };
    let new: PaneUpdate = codec::decode(&codec::encode(&old).unwrap()).unwrap();
    assert_eq!(new.input, PaneInput::default());
    assert!(new.mouse);
}

#[test]
fn ids_travel_as_their_printed_form() {
    assert_eq!(
        codec::decode::<PaneId>(&codec::encode(&PaneId(7)).unwrap()).unwrap(),
        PaneId(7)
    );
    let info = Created {
        session: SessionId(1),
        session_name: "s".into(),
        window: WindowId(2),
        window_index: 0,
        pane: PaneId(3),
        cursor: None,
    };
    let bytes = codec::encode(&info).unwrap();
    assert!(bytes.windows(2).any(|w| w == b"%3"));
    assert!(codec::decode::<PaneId>(&codec::encode(&"3").unwrap()).is_err());
}

fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
    v: &T,
) {
    let bytes = codec::encode(v).expect("encode");
    let back: T = codec::decode(&bytes).expect("decode");
    assert_eq!(&back, v);
}

#[test]
fn every_command_round_trips_and_the_samples_cover_the_table() {
    let cmds = commands();
    let mut names: Vec<&str> = cmds.iter().map(|c| c.name()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names.len(),
        COMMANDS.len(),
        "add a sample for every Command variant"
    );
    for c in &cmds {
        round_trip(c);
        round_trip(&ClientMessage::Request {
            id: 5,
            command: c.clone(),
        });
    }
    round_trip(&ClientMessage::Resize { cols: 1, rows: 2 });
}

#[test]
fn every_response_and_server_message_round_trips() {
    for (i, r) in responses().into_iter().enumerate() {
        round_trip(&ServerMessage::Response {
            id: i as u64,
            result: r,
        });
    }
    round_trip(&ServerMessage::Frame(frame()));
    round_trip(&ServerMessage::Notice("n".into()));
    round_trip(&ServerMessage::NoticeFor {
        text: "n".into(),
        ms: 0,
    });
    round_trip(&ServerMessage::Run(vec!["display-menu".into()]));
    round_trip(&ServerMessage::Detached {
        reason: "r".into(),
        leave: Default::default(),
    });
    round_trip(&ServerMessage::Detached {
        reason: "r".into(),
        leave: fugue_protocol::Leave {
            hangup_parent: true,
            exec: Some("exec sh".into()),
        },
    });
    round_trip(&ServerMessage::Redraw);
    round_trip(&ServerMessage::Lock);
    round_trip(&ServerMessage::Suspend);
    round_trip(&ServerMessage::TypeKeys(vec!["C-b".into(), "Enter".into()]));
}

#[test]
fn handshake_round_trips() {
    round_trip(&Hello {
        protocol: PROTOCOL_VERSION,
        client_version: "1".into(),
        kind: ClientKind::Tui,
        caller_pane: Some(PaneId(1)),
    });
    round_trip(&HandshakeReply::Welcome {
        protocol: 1,
        server_version: "1".into(),
        server_pid: 2,
        client_id: 3,
    });
    round_trip(&HandshakeReply::Refused { reason: "r".into() });
}

#[test]
fn frames_reassemble_across_partial_reads() {
    let mut enc: MessageCodec<ServerMessage, ServerMessage> = MessageCodec::new();
    let mut buf = BytesMut::new();
    let msgs = vec![
        ServerMessage::Frame(frame()),
        ServerMessage::Notice("second".into()),
    ];
    for m in msgs.clone() {
        enc.encode(m, &mut buf).expect("encode");
    }
    let all = buf.split();
    let mut dec: MessageCodec<ServerMessage, ServerMessage> = MessageCodec::new();
    let mut got = Vec::new();
    let mut input = BytesMut::new();
    for byte in all.iter() {
        input.extend_from_slice(&[*byte]);
        while let Some(m) = dec.decode(&mut input).expect("decode") {
            got.push(m);
        }
    }
    assert_eq!(got, msgs);
}

#[test]
fn oversized_and_garbage_frames_are_errors_not_panics() {
    let mut dec: MessageCodec<ServerMessage, ServerMessage> = MessageCodec::new();
    let mut huge = BytesMut::from(&u32::MAX.to_be_bytes()[..]);
    assert!(dec.decode(&mut huge).is_err());
    let mut dec: MessageCodec<ServerMessage, ServerMessage> = MessageCodec::new();
    let mut junk = BytesMut::from(&[0, 0, 0, 3, 0xc1, 0xff, 0x00][..]);
    assert!(dec.decode(&mut junk).is_err());
}

/// A `search-panes` from a peer that predates `from_line` and `backward` still decodes,
/// searching every line forward as it did.
#[test]
fn search_panes_without_the_newer_fields_decodes_with_their_defaults() {
    #[derive(serde::Serialize)]
    struct OldSearchPanes {
        pattern: String,
        targets: Vec<Target>,
        history: bool,
        offset: u32,
        limit: u32,
    }
    let old = OldSearchPanes {
        pattern: "x".into(),
        targets: vec![Target::Pane(PaneId(2))],
        history: true,
        offset: 1,
        limit: 2,
    };
    let wire = rmp_serde::to_vec_named(&old).unwrap();
    let got: SearchPanes = rmp_serde::from_slice(&wire).unwrap();
    assert_eq!(
        got,
        SearchPanes {
            pattern: "x".into(),
            targets: vec![Target::Pane(PaneId(2))],
            history: true,
            offset: 1,
            limit: 2,
            from_line: None,
            backward: false,
            absolute: false,
        }
    );
}

/// Issue 13: the passthrough fields are optional on the wire. A frame without them (a
/// peer that predates them) decodes with their defaults, and a frame that carries
/// none is encoded without them, as it was before.
#[test]
fn passthrough_fields_are_optional_on_the_wire() {
    let mut plain = frame();
    plain.outer = OuterEvents::default();
    plain.panes[0].cursor_look = CursorLook::default();
    let wire = codec::encode(&plain).unwrap();
    for name in [&b"outer"[..], b"cursor_look"] {
        assert!(!wire.windows(name.len()).any(|w| w == name));
    }
    assert_eq!(codec::decode::<Frame>(&wire).unwrap(), plain);

    #[derive(serde::Serialize)]
    struct OldTab {
        index: u32,
        name: String,
        active: bool,
        last: bool,
        zoomed: bool,
        activity: bool,
    }
    let old = OldTab {
        index: 1,
        name: "w".into(),
        active: false,
        last: false,
        zoomed: false,
        activity: false,
    };
    let tab: WindowTab = codec::decode(&codec::encode(&old).unwrap()).unwrap();
    assert!(!tab.bell);

    #[derive(serde::Serialize)]
    struct OldAttach {
        session: SessionId,
        session_name: String,
        client_id: u64,
        keys: KeyTable,
        status: bool,
    }
    let old = OldAttach {
        session: SessionId(1),
        session_name: "s".into(),
        client_id: 2,
        keys: KeyTable {
            prefix: Key::new(KeyCode::Char('b'), Mods::CTRL),
            bindings: Vec::new(),
            repeat_time_ms: 500,
        },
        status: true,
    };
    let info: AttachInfo = codec::decode(&codec::encode(&old).unwrap()).unwrap();
    assert_eq!(info.titles, None);
}
