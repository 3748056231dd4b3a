//! The server's log file: private, bounded, and rotated.
//!
//! The log says which connections came and went and what failed, which is nobody
//! else's business: the file is created 0600 (and an older, looser file is tightened).
//! It is rotated at [`MAX_LOG_BYTES`], keeping one older file (`.1`), so a server that
//! runs for months, or a caller provoking errors in a loop, cannot fill the disk. One
//! record is cut at [`MAX_RECORD`] bytes: messages quote caller values as excerpts,
//! and this catches whatever a library logs whole.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The size at which the log is rotated.
pub const MAX_LOG_BYTES: u64 = 10 * 1024 * 1024;

/// The longest record (one event, one line) written whole.
pub const MAX_RECORD: usize = 16 * 1024;

pub struct LogFile {
    path: PathBuf,
    file: File,
    written: u64,
    max: u64,
}

fn open(path: &Path) -> std::io::Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)?;
    // `mode` applies only to a new file; one left by an older server may be 0644.
    file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    Ok(file)
}

impl LogFile {
    pub fn open(path: &Path) -> std::io::Result<LogFile> {
        LogFile::with_limit(path, MAX_LOG_BYTES)
    }

    /// A log rotated at `max` bytes.
    pub fn with_limit(path: &Path, max: u64) -> std::io::Result<LogFile> {
        let file = open(path)?;
        let written = file.metadata()?.len();
        Ok(LogFile {
            path: path.to_path_buf(),
            file,
            written,
            max,
        })
    }

    /// The older file kept after a rotation.
    pub fn rotated_path(path: &Path) -> PathBuf {
        let mut p = path.as_os_str().to_owned();
        p.push(".1");
        PathBuf::from(p)
    }

    fn rotate(&mut self) -> std::io::Result<()> {
        std::fs::rename(&self.path, LogFile::rotated_path(&self.path))?;
        self.file = open(&self.path)?;
        self.written = 0;
        Ok(())
    }
}

impl Write for LogFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let cut;
        let record = if buf.len() > MAX_RECORD {
            // Not inside a UTF-8 character: readers of the log expect text.
            let mut end = MAX_RECORD;
            while end > MAX_RECORD - 4 && buf[end] & 0xC0 == 0x80 {
                end -= 1;
            }
            let mut r = buf[..end].to_vec();
            r.extend_from_slice(format!("… (record of {} bytes cut)\n", buf.len()).as_bytes());
            cut = r;
            &cut[..]
        } else {
            buf
        };
        let len = record.len() as u64;
        if self.written > 0 && self.written.saturating_add(len) > self.max {
            // If the rename fails the log goes on in the same file; the next attempt
            // comes after another `max` bytes rather than at every record.
            if self.rotate().is_err() {
                self.written = 0;
            }
        }
        self.file.write_all(record)?;
        self.written = self.written.saturating_add(len);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_log_is_private_even_when_an_older_one_was_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.log");
        std::fs::write(&path, "old\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let mut log = LogFile::open(&path).unwrap();
        writeln!(log, "new").unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old\nnew\n");
    }

    #[test]
    fn the_log_rotates_keeping_one_older_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.log");
        let mut log = LogFile::with_limit(&path, 1000).unwrap();
        for i in 0..100 {
            log.write_all(format!("record {i:04} {}\n", "x".repeat(80)).as_bytes())
                .unwrap();
        }
        let old = LogFile::rotated_path(&path);
        let (now, before) = (
            std::fs::read_to_string(&path).unwrap(),
            std::fs::read_to_string(&old).unwrap(),
        );
        assert!(now.len() <= 1000 && before.len() <= 1000);
        assert!(now.ends_with(&format!("record 0099 {}\n", "x".repeat(80))));
        assert!(before.lines().all(|l| l.starts_with("record 00")));
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&old), 0o600);
    }

    #[test]
    fn a_huge_record_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("server.log");
        let mut log = LogFile::open(&path).unwrap();
        let huge = vec![b'y'; 1 << 20];
        assert_eq!(log.write(&huge).unwrap(), huge.len());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.len() < MAX_RECORD + 100);
        assert!(text.ends_with("… (record of 1048576 bytes cut)\n"));
    }
}
