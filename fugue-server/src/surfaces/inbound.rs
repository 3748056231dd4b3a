//! Reading a client's frames with bounded memory.
//!
//! A frame is a 4-byte big-endian length and a body. Reading the body of a frame that
//! never finishes would hold its buffer for as long as the peer likes, so: a frame may
//! be at most `max` bytes (a Hello far less than a request); its bytes are taken from a
//! budget shared by every connection before it is read (unless it is small), so that
//! all connections together hold at most the budget in partial frames; and a body must arrive within
//! [`BODY_TIMEOUT`] once its length has. An idle connection holds no buffer at all.

use bytes::Bytes;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::Semaphore;

/// The longest a frame's body may take to arrive once its length has.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest Hello (a client's first frame); a real one is under 1 KiB.
pub const MAX_HELLO: usize = 64 * 1024;
/// The largest request a client may send: room for `send-keys` of the 1 MiB input
/// limit, encoded, and then some; and for `set-buffer` of a whole buffer (a copy mode
/// selection, `load-buffer`) up to its 8 MiB limit.
pub const MAX_REQUEST: usize = fugue_protocol::buffers::MAX_BUFFER_BYTES + 1024 * 1024;
/// All connections together may hold this much in frames being read.
pub const FRAME_BUDGET: usize = 64 * 1024 * 1024;
/// Frames up to this size (every ordinary request) do not take from the budget, so
/// peers holding it with large partial frames never delay a small request; they are
/// bounded by the connection limit instead.
pub const SMALL_FRAME: usize = 64 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum InboundError {
    #[error("a frame of {len} bytes is over the limit of {max} bytes")]
    TooLarge { len: usize, max: usize },
    #[error("a frame's body did not arrive within {} s", BODY_TIMEOUT.as_secs())]
    Stalled,
    #[error("connection error: {0}")]
    Io(#[from] std::io::Error),
}

/// The budget all connections' frames come out of.
pub fn budget() -> Arc<Semaphore> {
    Arc::new(Semaphore::new(FRAME_BUDGET))
}

pub struct FrameReader<R> {
    rd: R,
    budget: Arc<Semaphore>,
    max: usize,
    body_timeout: Duration,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    pub fn new(rd: R, budget: Arc<Semaphore>, max: usize) -> Self {
        FrameReader {
            rd,
            budget,
            max,
            body_timeout: BODY_TIMEOUT,
        }
    }

    #[cfg(test)]
    fn with_body_timeout(mut self, t: Duration) -> Self {
        self.body_timeout = t;
        self
    }

    pub fn set_max(&mut self, max: usize) {
        self.max = max;
    }

    /// The next frame's body; `None` at a clean end of the connection.
    pub async fn next(&mut self) -> Result<Option<Bytes>, InboundError> {
        let mut len = [0u8; 4];
        match self.rd.read_exact(&mut len).await {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e.into()),
        }
        let len = u32::from_be_bytes(len) as usize;
        if len > self.max {
            return Err(InboundError::TooLarge { len, max: self.max });
        }
        let permits = if len <= SMALL_FRAME {
            0
        } else {
            u32::try_from(len).unwrap_or(u32::MAX)
        };
        let body = tokio::time::timeout(self.body_timeout, async {
            // Waits while other connections hold the budget, within the same timeout.
            let _permit = self
                .budget
                .acquire_many(permits)
                .await
                .map_err(|_| std::io::Error::other("the server is stopping"))?;
            let mut body = vec![0u8; len];
            self.rd.read_exact(&mut body).await?;
            Ok::<_, std::io::Error>(body)
        })
        .await
        .map_err(|_| InboundError::Stalled)??;
        Ok(Some(Bytes::from(body)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn frames_are_read_and_oversized_ones_refused() {
        let (mut a, b) = tokio::io::duplex(1024);
        let mut r = FrameReader::new(b, budget(), 8);
        a.write_all(&[0, 0, 0, 3, b'a', b'b', b'c']).await.unwrap();
        assert_eq!(&r.next().await.unwrap().unwrap()[..], b"abc");
        a.write_all(&[0, 0, 0, 9]).await.unwrap();
        assert!(matches!(
            r.next().await,
            Err(InboundError::TooLarge { len: 9, max: 8 })
        ));
        drop(a);
    }

    #[tokio::test]
    async fn a_body_that_never_comes_times_out_and_gives_its_budget_back() {
        let (mut a, b) = tokio::io::duplex(1024);
        let budget = budget();
        let mut r = FrameReader::new(b, Arc::clone(&budget), MAX_REQUEST)
            .with_body_timeout(Duration::from_millis(200));
        a.write_all(&[0, 0x10, 0, 0, 1, 2, 3]).await.unwrap();
        assert!(matches!(r.next().await, Err(InboundError::Stalled)));
        assert_eq!(budget.available_permits(), FRAME_BUDGET);
    }

    #[tokio::test]
    async fn a_clean_end_is_none() {
        let (a, b) = tokio::io::duplex(64);
        drop(a);
        let mut r = FrameReader::new(b, budget(), 8);
        assert!(r.next().await.unwrap().is_none());
    }
}
