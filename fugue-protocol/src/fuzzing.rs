//! Harness bodies for the fuzz targets in `fuzz/` (not part of the API).
//!
//! Each function takes arbitrary bytes, drives one parser the way its real caller does,
//! and panics only when an invariant breaks. The same functions run as ordinary tests
//! over the committed corpus (`fugue-server/tests/it/fuzz_corpus.rs`), so the harnesses
//! cannot rot when cargo-fuzz is not installed.

use crate::codec::{self, MAX_FRAME, MessageCodec, RawCodec};
use crate::keys::{Key, KeyKind, KeyModes, SendKeysArg, classify_send_keys_arg};
use crate::message::{ClientMessage, Hello, ServerMessage};
use crate::target::Target;
use bytes::BytesMut;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;
use tokio_util::codec::Decoder;

/// Every frame body a decoder yields from `stream` fed in reads of `chunk` bytes, up to
/// the first framing error (true if there was one: the server then drops the client).
fn raw_frames(stream: &[u8], chunk: usize) -> (Vec<Vec<u8>>, bool) {
    let mut codec = RawCodec::default();
    let mut buf = BytesMut::new();
    let mut frames = Vec::new();
    for piece in stream.chunks(chunk.max(1)) {
        buf.extend_from_slice(piece);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(frame)) => {
                    assert!(
                        frame.len() <= MAX_FRAME,
                        "a frame over MAX_FRAME was accepted"
                    );
                    frames.push(frame.to_vec());
                }
                Ok(None) => break,
                Err(_) => return (frames, true),
            }
        }
    }
    (frames, false)
}

/// Whatever decodes must encode again, and decode to the same value.
fn round_trips<T>(body: &[u8]) -> bool
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let Ok(msg) = codec::decode::<T>(body) else {
        return false;
    };
    let again = codec::encode(&msg).expect("a decoded message encodes");
    let back: T = codec::decode(&again).expect("an encoded message decodes");
    assert_eq!(back, msg, "a message changed on its way round the codec");
    true
}

/// A client connection's bytes as the server reads them: length-delimited frames, the
/// first a [`Hello`], the rest [`ClientMessage`]s. The first input byte picks the read
/// size, so frames arrive split anywhere; how reads are cut must change nothing.
pub fn frames(data: &[u8]) {
    let Some((&cut, stream)) = data.split_first() else {
        return;
    };
    let (frames, failed) = raw_frames(stream, usize::from(cut) + 1);
    let whole = raw_frames(stream, stream.len());
    assert_eq!(
        (&frames, failed),
        (&whole.0, whole.1),
        "read size changed the frames"
    );

    let mut bodies = frames.iter();
    if let Some(first) = bodies.next() {
        round_trips::<Hello>(first);
    }
    for body in bodies {
        round_trips::<ClientMessage>(body);
    }
    // The client's side of the same bytes (a server speaking nonsense must not crash it).
    for body in &frames {
        round_trips::<ServerMessage>(body);
    }

    // The typed codec agrees with frames + decode, message by message.
    let mut typed = MessageCodec::<ClientMessage, ServerMessage>::new();
    let mut buf = BytesMut::from(stream);
    for body in &frames {
        let expected = codec::decode::<ClientMessage>(body).ok();
        match typed.decode(&mut buf) {
            Ok(Some(msg)) => assert_eq!(Some(msg), expected),
            Ok(None) => panic!("the typed codec lost a frame"),
            Err(_) => {
                assert!(
                    expected.is_none(),
                    "the typed codec refused a valid message"
                );
                return;
            }
        }
    }
}

/// Key names as `send-keys`, bindings and MCP read them: a name that parses prints as a
/// name that parses to the same key, and every key has bytes to send.
pub fn keys(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for s in std::iter::once(text).chain(text.split([' ', '\n'])) {
        let parsed = Key::parse(s);
        match (classify_send_keys_arg(s), parsed) {
            (SendKeysArg::Key(k), Some(p)) => assert_eq!(k, p),
            (SendKeysArg::Text(t), None) => assert_eq!(t, s),
            (arg, p) => panic!("send-keys split {s:?} as {arg:?}, parse said {p:?}"),
        }
        if let Some(key) = parsed {
            let name = key.to_string();
            assert_eq!(Key::parse(&name), Some(key), "{s:?} printed as {name:?}");
            for app_cursor in [false, true] {
                let mut out = Vec::new();
                let modes = KeyModes {
                    app_cursor,
                    app_keypad: false,
                    kitty: 0,
                };
                key.encode(modes, &mut out);
                // Keys xterm has no bytes for send nothing; every other key sends some.
                use crate::keys::KeyCode as K;
                let silent = matches!(
                    key.code,
                    K::F(25..)
                        | K::CapsLock
                        | K::ScrollLock
                        | K::NumLock
                        | K::PrintScreen
                        | K::Pause
                        | K::Menu
                        | K::Media(_)
                        | K::Modifier(_)
                );
                assert_eq!(out.is_empty(), silent, "{s:?} sends {out:?}");
            }
            // The kitty protocol's encodings, every kind: no panic, and text keys type.
            for kitty in [1, 3, 8, 31] {
                for kind in [KeyKind::Press, KeyKind::Repeat, KeyKind::Release] {
                    let mut out = Vec::new();
                    let modes = KeyModes {
                        app_cursor: false,
                        app_keypad: false,
                        kitty,
                    };
                    key.with_kind(kind).encode(modes, &mut out);
                }
            }
            round_trips::<Key>(&codec::encode(&key).expect("a key encodes"));
        }
        // A config binding's value: a name or any command line, never a panic.
        let _ = crate::bindings::config_line(s);
    }
}

/// Target strings (`-t`): one that parses prints as one that parses to the same target.
pub fn target(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for s in std::iter::once(text).chain(text.lines()) {
        match s.parse::<Target>() {
            Ok(t) => {
                let printed = t.to_string();
                assert_eq!(
                    printed.parse::<Target>().ok(),
                    Some(t),
                    "{s:?} printed as {printed:?}"
                );
            }
            Err(e) => {
                // The refusal names the input so a person can see what was wrong.
                assert!(e.to_string().contains("Targets look like"));
            }
        }
    }
}
