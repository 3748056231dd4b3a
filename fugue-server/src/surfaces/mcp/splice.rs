//! The two tasks between an MCP socket and rmcp: one reads the caller's lines, passes
//! good ones to rmcp through a pipe and queues refusals; the other writes rmcp's
//! answers and the refusals to the socket, whole lines only, so a refusal never lands
//! inside one of rmcp's messages.

use super::framing::{Line, LineReader, Refusal, Verdict, check};
use crate::origin::Origin;
use tokio::io::{AsyncBufRead, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// Refusals waiting for the writer. Bounded: a caller flooding garbage while not
/// reading its answers is slowed down, not buffered for.
pub const QUEUED_REFUSALS: usize = 16;

/// Reads lines until the caller closes (or rmcp stops listening). `first` is a line
/// already read (the first, when it was not the bridge's preamble).
pub async fn feed<R, W>(
    mut lines: LineReader<R>,
    first: Option<Line>,
    mut to_rmcp: W,
    refusals: mpsc::Sender<Vec<u8>>,
    origin: Origin,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut refused = 0u64;
    let mut pending = first;
    loop {
        let line = match pending.take() {
            Some(l) => l,
            None => match lines.next().await {
                Ok(l) => l,
                Err(e) => {
                    tracing::warn!("{origin}: reading the connection failed: {e}");
                    break;
                }
            },
        };
        let refusal = match line {
            Line::Eof => break,
            Line::TooLong(n) => Refusal::too_long(n),
            Line::Whole(mut l) => match check(&l) {
                Verdict::Skip => continue,
                Verdict::Forward => {
                    l.push(b'\n');
                    if to_rmcp.write_all(&l).await.is_err() {
                        break;
                    }
                    continue;
                }
                Verdict::Refuse(r) => r,
            },
        };
        refused += 1;
        // The first refusal is worth a line in the log; a flood of them is summed up
        // when the connection ends.
        if refused == 1 {
            tracing::warn!("{origin}: refused a message: {}", refusal.message);
        }
        if refusals.send(refusal.response()).await.is_err() {
            break;
        }
    }
    if refused > 1 {
        tracing::warn!("{origin}: refused {refused} malformed or oversized messages in all");
    }
    // Dropping the pipe tells rmcp the caller is done.
}

/// Writes rmcp's output and the refusals to the caller until both have ended.
pub async fn write_out<R, W>(mut from_rmcp: R, mut refusals: mpsc::Receiver<Vec<u8>>, mut out: W)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut chunk = vec![0u8; 64 * 1024];
    // rmcp's bytes after its last complete line: a refusal waits until they are out.
    let mut partial: Vec<u8> = Vec::new();
    let (mut rmcp_open, mut refusals_open) = (true, true);
    loop {
        let wrote = tokio::select! {
            n = from_rmcp.read(&mut chunk), if rmcp_open => match n {
                Ok(0) | Err(_) => {
                    rmcp_open = false;
                    let rest = std::mem::take(&mut partial);
                    out.write_all(&rest).await
                }
                Ok(n) => {
                    let data = &chunk[..n];
                    match data.iter().rposition(|b| *b == b'\n') {
                        Some(end) => {
                            partial.extend_from_slice(&data[..=end]);
                            let r = out.write_all(&partial).await;
                            partial.clear();
                            partial.extend_from_slice(&data[end + 1..]);
                            r
                        }
                        None => {
                            partial.extend_from_slice(data);
                            Ok(())
                        }
                    }
                }
            },
            r = refusals.recv(), if refusals_open && partial.is_empty() => match r {
                Some(line) => out.write_all(&line).await,
                None => {
                    refusals_open = false;
                    Ok(())
                }
            },
            else => break,
        };
        if wrote.and(out.flush().await).is_err() {
            // The caller is gone; dropping our ends stops rmcp and the reader.
            return;
        }
    }
    let _ = out.shutdown().await;
}
