//! The journal's bytes: a file header, then records, each framed as
//!
//! ```text
//! u32 LE  payload length (at most MAX_RECORD)
//! u32 LE  CRC-32 (IEEE) of the payload
//! payload JSON of one `Entry`
//! ```
//!
//! The header is `FUGUEJNL`, the format version (u16 LE), 2 bytes of flags (0) and the
//! generation (u64 LE) that ties a log to the snapshot it continues (see `store.rs`).
//! A record whose length runs past the end of the file, or whose checksum does not
//! match, ends the readable part: a kill or a power cut can tear only the last
//! record, so everything before it is kept and what follows it is dropped (and
//! logged).

use std::fmt;

pub const MAGIC: &[u8; 8] = b"FUGUEJNL";
/// The version this build writes. 1 was the first (see `migrate.rs`).
pub const VERSION: u16 = 2;
pub const HEADER_LEN: usize = 20;
/// One record at most: the largest is a paste buffer (8 MiB of text, which JSON's
/// escaping can make up to 6 times larger). A longer length is a torn or corrupt
/// record, never an allocation.
pub const MAX_RECORD: usize = 64 << 20;
const FRAME: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub version: u16,
    pub generation: u64,
}

impl Header {
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[..8].copy_from_slice(MAGIC);
        out[8..10].copy_from_slice(&self.version.to_le_bytes());
        out[12..20].copy_from_slice(&self.generation.to_le_bytes());
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Header, FormatError> {
        let head = bytes.get(..HEADER_LEN).ok_or(FormatError::ShortHeader)?;
        if &head[..8] != MAGIC {
            return Err(FormatError::NotAJournal);
        }
        let version = u16::from_le_bytes([head[8], head[9]]);
        let mut generation = [0u8; 8];
        generation.copy_from_slice(&head[12..20]);
        Ok(Header {
            version,
            generation: u64::from_le_bytes(generation),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatError {
    ShortHeader,
    NotAJournal,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::ShortHeader => write!(f, "the file is shorter than a journal header"),
            FormatError::NotAJournal => write!(f, "the file does not start with FUGUEJNL"),
        }
    }
}

/// Frames one payload.
pub fn frame(payload: &[u8], out: &mut Vec<u8>) {
    // Callers keep payloads under MAX_RECORD (checked in `store::encode`), so this
    // fits a u32.
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&crc32(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// Why reading stopped before the end of the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// A length or payload running past the end: the last write was cut short.
    Torn { offset: usize, missing: usize },
    /// A checksum that does not match, or a length over the limit.
    Corrupt { offset: usize, why: String },
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Torn { offset, missing } => write!(
                f,
                "a torn record at byte {offset} ({missing} bytes missing) was skipped"
            ),
            Stop::Corrupt { offset, why } => {
                write!(
                    f,
                    "a corrupt record at byte {offset} ({why}) and all after it were skipped"
                )
            }
        }
    }
}

/// The records in `bytes` (after the header): each payload, the length of the intact
/// part, and why reading stopped early, if it did.
pub fn records(bytes: &[u8]) -> (Vec<&[u8]>, usize, Option<Stop>) {
    let mut out = Vec::new();
    let mut at = 0usize;
    loop {
        let rest = bytes.get(at..).unwrap_or_default();
        if rest.is_empty() {
            return (out, at, None);
        }
        let Some(frame) = rest.get(..FRAME) else {
            let missing = FRAME - rest.len();
            return (
                out,
                at,
                Some(Stop::Torn {
                    offset: at,
                    missing,
                }),
            );
        };
        let len = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        let sum = u32::from_le_bytes([frame[4], frame[5], frame[6], frame[7]]);
        if len > MAX_RECORD {
            let why = format!("a length of {len} bytes, over the limit of {MAX_RECORD}");
            return (out, at, Some(Stop::Corrupt { offset: at, why }));
        }
        let Some(payload) = rest.get(FRAME..FRAME + len) else {
            let missing = FRAME + len - rest.len();
            return (
                out,
                at,
                Some(Stop::Torn {
                    offset: at,
                    missing,
                }),
            );
        };
        if crc32(payload) != sum {
            let why = "its checksum does not match".to_string();
            return (out, at, Some(Stop::Corrupt { offset: at, why }));
        }
        out.push(payload);
        at += FRAME + len;
    }
}

/// CRC-32 (IEEE 802.3, as zlib and gzip), bytewise with a table built at compile time:
/// the journal writes a few kilobytes a change, so this is nowhere near a hot path.
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    let mut c = !0u32;
    for &b in bytes {
        c = TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_the_standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn records_round_trip_and_a_torn_tail_is_reported() {
        let mut bytes = Vec::new();
        frame(b"one", &mut bytes);
        frame(b"two", &mut bytes);
        let whole = bytes.len();
        frame(b"three", &mut bytes);
        for cut in whole + 1..bytes.len() {
            let (got, good, stop) = records(&bytes[..cut]);
            assert_eq!(got, vec![&b"one"[..], &b"two"[..]]);
            assert_eq!(good, whole);
            assert!(matches!(stop, Some(Stop::Torn { .. })), "{cut}: {stop:?}");
        }
        let (got, good, stop) = records(&bytes);
        assert_eq!(got.len(), 3);
        assert_eq!(good, bytes.len());
        assert_eq!(stop, None);
    }

    #[test]
    fn a_flipped_bit_stops_reading_there() {
        let mut bytes = Vec::new();
        frame(b"one", &mut bytes);
        let first = bytes.len();
        frame(b"two", &mut bytes);
        bytes[first + 9] ^= 1;
        let (got, good, stop) = records(&bytes);
        assert_eq!(got, vec![&b"one"[..]]);
        assert_eq!(good, first);
        assert!(matches!(stop, Some(Stop::Corrupt { .. })));
        // A huge length is refused, not allocated.
        let mut bytes = vec![0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0];
        bytes.extend_from_slice(b"x");
        assert!(matches!(records(&bytes).2, Some(Stop::Corrupt { .. })));
    }

    #[test]
    fn headers_round_trip() {
        let h = Header {
            version: VERSION,
            generation: 7,
        };
        assert_eq!(Header::decode(&h.encode()), Ok(h));
        assert_eq!(
            Header::decode(b"NOTAJRNL............"),
            Err(FormatError::NotAJournal)
        );
        assert_eq!(Header::decode(b"FUG"), Err(FormatError::ShortHeader));
    }
}
