//! Saved pane contents (`[server] persist_scrollback`): one file per pane in the
//! journal's `scrollback/` folder (0700; files 0600), written whole to a temporary
//! file and renamed, so a kill leaves the old file or the new one, never half of one.
//!
//! ```text
//! FUGUESB1            magic and version
//! u64 LE              when it was saved (ms since the Unix epoch)
//! u32 LE              CRC-32 of the compressed bytes
//! deflate             the text (lines with their SGR escapes), raw deflate
//! ```
//!
//! Not synced: a power loss may lose the last seconds of saved content, never the
//! journal's own records.

use super::format::crc32;
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"FUGUESB1";
/// The most text kept for one pane, before compression; older lines are dropped
/// first. Also the most one file may inflate to when read.
pub const MAX_TEXT: usize = 8 << 20;

pub fn dir(journal: &Path) -> PathBuf {
    journal.join("scrollback")
}

fn file(journal: &Path, pane: u32) -> PathBuf {
    dir(journal).join(format!("pane-{pane}"))
}

/// Keeps at most [`MAX_TEXT`] bytes of `text`, dropping whole lines from its start.
pub fn bound(text: &str) -> &str {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let mut cut = text.len() - MAX_TEXT;
    // A cut inside a character moves to its end (then to the next line's start).
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    let start = text[cut..].find('\n').map_or(text.len(), |i| cut + i + 1);
    &text[start.min(text.len())..]
}

pub fn save(journal: &Path, pane: u32, at_ms: u64, text: &str) -> io::Result<()> {
    let d = dir(journal);
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(&d)?;
    let packed = miniz_oxide::deflate::compress_to_vec(bound(text).as_bytes(), 6);
    let mut bytes = Vec::with_capacity(packed.len() + 20);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&at_ms.to_le_bytes());
    bytes.extend_from_slice(&crc32(&packed).to_le_bytes());
    bytes.extend_from_slice(&packed);
    let tmp = d.join(format!("pane-{pane}.tmp"));
    {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(&bytes)?;
    }
    std::fs::rename(&tmp, file(journal, pane))
}

/// The saved text of a pane and when it was saved; None when there is none or it does
/// not read back (checksum, size, encoding: logged).
pub fn load(journal: &Path, pane: u32) -> Option<(u64, String)> {
    let bytes = std::fs::read(file(journal, pane)).ok()?;
    let bad = |why: &str| {
        tracing::warn!("journal: saved content of pane {pane} not used: {why}");
        None
    };
    if bytes.len() < 20 || &bytes[..8] != MAGIC {
        return bad("not a scrollback file");
    }
    let mut at = [0u8; 8];
    at.copy_from_slice(&bytes[8..16]);
    let sum = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
    let packed = &bytes[20..];
    if crc32(packed) != sum {
        return bad("its checksum does not match");
    }
    let Ok(text) = miniz_oxide::inflate::decompress_to_vec_with_limit(packed, MAX_TEXT) else {
        return bad("it does not inflate within the limit");
    };
    match String::from_utf8(text) {
        Ok(t) => Some((u64::from_le_bytes(at), t)),
        Err(_) => bad("it is not UTF-8"),
    }
}

/// Removes the files of panes not in `keep`.
pub fn prune(journal: &Path, keep: &std::collections::HashSet<u32>) {
    let Ok(entries) = std::fs::read_dir(dir(journal)) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        let id = name
            .strip_prefix("pane-")
            .map(|n| n.trim_end_matches(".tmp"))
            .and_then(|n| n.parse::<u32>().ok());
        if id.is_none_or(|id| !keep.contains(&id)) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_text_reads_back_and_a_damaged_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let text = "\x1b[1mbold\x1b[0m line\nsecond ünïcode\n".repeat(1000);
        save(dir.path(), 3, 42, &text).unwrap();
        let raw = std::fs::metadata(file(dir.path(), 3)).unwrap().len() as usize;
        assert!(raw < text.len() / 10, "compressed: {raw} of {}", text.len());
        assert_eq!(load(dir.path(), 3), Some((42, text)));
        let mut bytes = std::fs::read(file(dir.path(), 3)).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(file(dir.path(), 3), bytes).unwrap();
        assert_eq!(load(dir.path(), 3), None);
        prune(dir.path(), &Default::default());
        assert!(!file(dir.path(), 3).exists());
    }

    #[test]
    fn text_is_bounded_by_whole_lines() {
        let line = "x".repeat(99) + "\n";
        let text = line.repeat(MAX_TEXT / 100 + 50);
        let kept = bound(&text);
        assert!(kept.len() <= MAX_TEXT);
        assert!(kept.starts_with('x') && kept.ends_with('\n'));
        assert_eq!(bound("short\n"), "short\n");
        // A cut that falls inside a character does not split it.
        let wide = "é".repeat(MAX_TEXT / 2 + 7) + "\nlas\n";
        assert!(!wide.is_char_boundary(wide.len() - MAX_TEXT));
        assert_eq!(bound(&wide), "las\n");
    }
}
