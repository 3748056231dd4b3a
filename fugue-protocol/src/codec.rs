//! Framing and encoding.
//!
//! Frames are a 4-byte big-endian length followed by a MessagePack body with named
//! fields (self-describing, so a decoder can skip fields it does not know and a
//! mismatch produces a readable error rather than garbage).

use bytes::{Bytes, BytesMut};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::marker::PhantomData;
use tokio_util::codec::{Decoder, Encoder, LengthDelimitedCodec};

/// Frames larger than this are refused (a full screen update is a few hundred KiB).
pub const MAX_FRAME: usize = 32 * 1024 * 1024;

/// Why a frame could not be encoded or decoded.
#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("connection error: {0}")]
    Io(#[from] std::io::Error),
    #[error("could not encode a message: {0}")]
    Encode(#[from] rmp_serde::encode::Error),
    #[error("could not decode a message (is the other side a different fugue version?): {0}")]
    Decode(#[from] rmp_serde::decode::Error),
}

/// Encodes a message body (without the length prefix).
pub fn encode<T: Serialize>(msg: &T) -> Result<Vec<u8>, CodecError> {
    Ok(rmp_serde::to_vec_named(msg)?)
}

/// Decodes a message body (without the length prefix).
pub fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, CodecError> {
    Ok(rmp_serde::from_slice(body)?)
}

fn framing() -> LengthDelimitedCodec {
    LengthDelimitedCodec::builder()
        .length_field_length(4)
        .max_frame_length(MAX_FRAME)
        .new_codec()
}

/// A tokio codec that reads frames of `In` and writes frames of `Out`.
pub struct MessageCodec<In, Out> {
    frames: LengthDelimitedCodec,
    _types: PhantomData<fn(Out) -> In>,
}

impl<In, Out> Default for MessageCodec<In, Out> {
    fn default() -> Self {
        MessageCodec {
            frames: framing(),
            _types: PhantomData,
        }
    }
}

impl<In, Out> MessageCodec<In, Out> {
    pub fn new() -> Self {
        Self::default()
    }
}

impl<In: DeserializeOwned, Out> Decoder for MessageCodec<In, Out> {
    type Item = In;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<In>, CodecError> {
        match self.frames.decode(src)? {
            Some(frame) => Ok(Some(decode(&frame)?)),
            None => Ok(None),
        }
    }
}

impl<In, Out: Serialize> Encoder<Out> for MessageCodec<In, Out> {
    type Error = CodecError;

    fn encode(&mut self, item: Out, dst: &mut BytesMut) -> Result<(), CodecError> {
        let body = encode(&item)?;
        self.frames.encode(Bytes::from(body), dst)?;
        Ok(())
    }
}

/// A codec for frames whose bodies are already encoded (the server encodes a frame
/// once and writes the same bytes to every client that needs them).
pub struct RawCodec(LengthDelimitedCodec);

impl Default for RawCodec {
    fn default() -> Self {
        RawCodec(framing())
    }
}

impl Decoder for RawCodec {
    type Item = BytesMut;
    type Error = CodecError;
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, CodecError> {
        Ok(self.0.decode(src)?)
    }
}

impl Encoder<Bytes> for RawCodec {
    type Error = CodecError;
    fn encode(&mut self, item: Bytes, dst: &mut BytesMut) -> Result<(), CodecError> {
        Ok(self.0.encode(item, dst)?)
    }
}
