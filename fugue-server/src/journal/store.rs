//! The journal's files, in `STATE/journal-LABEL/` (0700; files 0600):
//!
//! - `snapshot`: a header and one `Put` per item: the whole state at one moment.
//! - `log`: a header and the entries since that snapshot, appended in order.
//!
//! Both headers carry a generation. Compaction writes `snapshot.tmp` with the next
//! generation, syncs it and renames it over `snapshot`, then writes and renames a
//! fresh, empty `log` of that generation. A crash between the two renames leaves a
//! log of an older generation than the snapshot: its entries are already in the
//! snapshot, and it is ignored on load, so no moment of the sequence can replay old
//! entries over newer state.

use super::format::{self, HEADER_LEN, Header, MAX_RECORD, VERSION};
use super::migrate;
use super::model::{Entry, Model};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Compact once the log is this long: loading then reads at most this much plus the
/// snapshot.
pub const COMPACT_BYTES: u64 = 4 << 20;

/// What loading found, for the log.
#[derive(Debug, Default)]
pub struct Loaded {
    pub model: Model,
    /// Torn or corrupt tails skipped, migrations done, stale logs ignored.
    pub notes: Vec<String>,
    pub entries: usize,
}

pub struct Store {
    dir: PathBuf,
    log: File,
    log_len: u64,
    generation: u64,
    /// Debug builds only: while this file exists, writes fail as on a full disk
    /// (`FUGUE_TEST_JOURNAL_FULL`), so a test can fill the disk without root.
    full_flag: Option<PathBuf>,
}

fn open_private(path: &Path, truncate: bool) -> io::Result<File> {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(truncate)
        .mode(0o600)
        .open(path)?;
    // An older, looser file is tightened.
    f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    Ok(f)
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Reads a file's entries: `(header, entries, intact length)`.
fn read_file(
    path: &Path,
    notes: &mut Vec<String>,
) -> io::Result<Option<(Header, Vec<Entry>, u64)>> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut bytes)?;
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    }
    let header = match Header::decode(&bytes) {
        Ok(h) => h,
        Err(e) if bytes.len() < HEADER_LEN => {
            // A file created and killed before its header was written holds nothing.
            notes.push(format!("{}: {e}; starting it again", path.display()));
            return Ok(None);
        }
        Err(e) => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: {e}", path.display()),
            ));
        }
    };
    if header.version > VERSION || header.version == 0 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is journal format version {}, which this fugue (version {VERSION}) cannot read",
                path.display(),
                header.version
            ),
        ));
    }
    let body = bytes.get(HEADER_LEN..).unwrap_or_default();
    let (payloads, good, stop) = format::records(body);
    let mut entries = Vec::with_capacity(payloads.len());
    let mut intact = HEADER_LEN + good;
    for (i, p) in payloads.iter().enumerate() {
        match migrate::entry(header.version, p) {
            Ok(e) => entries.push(e),
            Err(e) => {
                // Framed and checksummed but not understood: keep what came before.
                notes.push(format!(
                    "{}: record {} does not parse ({e}); it and all after it were skipped",
                    path.display(),
                    i + 1
                ));
                intact = HEADER_LEN + payloads[..i].iter().map(|p| p.len() + 8).sum::<usize>();
                break;
            }
        }
    }
    if let Some(stop) = stop {
        notes.push(format!("{}: {stop}", path.display()));
    }
    if header.version < VERSION {
        notes.push(format!(
            "{}: read journal format version {}; rewritten as version {VERSION}",
            path.display(),
            header.version
        ));
    }
    Ok(Some((header, entries, intact as u64)))
}

/// Encodes entries as framed records. An entry over [`MAX_RECORD`] cannot happen
/// (the largest item is one paste buffer) and is dropped with a log line rather than
/// written as a record no reader would accept.
pub fn encode(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        match serde_json::to_vec(e) {
            Ok(p) if p.len() <= MAX_RECORD => format::frame(&p, &mut out),
            Ok(p) => tracing::error!(
                "journal: a record of {} bytes is over the limit; not written",
                p.len()
            ),
            Err(e) => tracing::error!("journal: a record does not encode: {e}"),
        }
    }
    out
}

impl Store {
    /// Opens (creating) the journal in `dir` and reads what it holds.
    pub fn open(dir: &Path) -> io::Result<(Store, Loaded)> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        let mut loaded = Loaded::default();
        let snap = read_file(&dir.join("snapshot"), &mut loaded.notes)?;
        let log = read_file(&dir.join("log"), &mut loaded.notes)?;
        let mut generation = 0;
        let mut rewrite = false;
        if let Some((h, entries, _)) = snap {
            generation = h.generation;
            rewrite |= h.version != VERSION;
            loaded.entries += entries.len();
            entries.into_iter().for_each(|e| loaded.model.apply(e));
        }
        let mut log_len = None;
        if let Some((h, entries, intact)) = log {
            if h.generation < generation {
                loaded.notes.push(format!(
                    "the log (generation {}) is older than the snapshot (generation {generation}): a compaction was cut short; its entries are in the snapshot",
                    h.generation
                ));
                rewrite = true;
            } else {
                generation = h.generation;
                rewrite |= h.version != VERSION;
                loaded.entries += entries.len();
                entries.into_iter().for_each(|e| loaded.model.apply(e));
                log_len = Some(intact);
            }
        }
        let full_flag = cfg!(debug_assertions)
            .then(|| std::env::var_os("FUGUE_TEST_JOURNAL_FULL").map(PathBuf::from))
            .flatten();
        let log_path = dir.join("log");
        let (log, log_len) = match log_len {
            Some(len) if !rewrite => {
                let f = open_private(&log_path, false)?;
                // A torn tail is cut off, so new records follow intact ones.
                f.set_len(len)?;
                (f, len)
            }
            _ => {
                let mut f = open_private(&log_path, true)?;
                f.write_all(
                    &Header {
                        version: VERSION,
                        generation,
                    }
                    .encode(),
                )?;
                f.sync_all()?;
                (f, HEADER_LEN as u64)
            }
        };
        let mut store = Store {
            dir: dir.to_path_buf(),
            log,
            log_len,
            generation,
            full_flag,
        };
        if rewrite {
            store.compact(&loaded.model)?;
        }
        Ok((store, loaded))
    }

    /// Makes writes fail as on a full disk while `flag` exists (tests).
    pub fn fail_while(&mut self, flag: PathBuf) {
        self.full_flag = Some(flag);
    }

    fn check_full(&self) -> io::Result<()> {
        match &self.full_flag {
            Some(flag) if flag.exists() => Err(io::Error::from_raw_os_error(libc::ENOSPC)),
            _ => Ok(()),
        }
    }

    /// Appends entries, whole or not at all: a write a full disk cut short is
    /// truncated away, so the log never holds a partial record it could recover from.
    pub fn append(&mut self, entries: &[Entry]) -> io::Result<()> {
        if entries.is_empty() {
            return Ok(());
        }
        let bytes = encode(entries);
        self.check_full()?;
        use std::os::unix::fs::FileExt;
        if let Err(e) = self.log.write_all_at(&bytes, self.log_len) {
            let _ = self.log.set_len(self.log_len);
            return Err(e);
        }
        self.log_len += bytes.len() as u64;
        Ok(())
    }

    /// fdatasync of the log.
    pub fn sync(&mut self) -> io::Result<()> {
        self.log.sync_data()
    }

    pub fn log_len(&self) -> u64 {
        self.log_len
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes `model` as the next snapshot and starts an empty log after it.
    pub fn compact(&mut self, model: &Model) -> io::Result<()> {
        self.check_full()?;
        let next = self.generation.saturating_add(1);
        let header = Header {
            version: VERSION,
            generation: next,
        }
        .encode();
        let tmp = self.dir.join("snapshot.tmp");
        {
            let mut f = open_private(&tmp, true)?;
            f.write_all(&header)?;
            let entries: Vec<Entry> = model.entries().collect();
            f.write_all(&encode(&entries))?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, self.dir.join("snapshot"))?;
        sync_dir(&self.dir)?;
        let tmp = self.dir.join("log.tmp");
        let mut f = open_private(&tmp, true)?;
        f.write_all(&header)?;
        f.sync_all()?;
        std::fs::rename(&tmp, self.dir.join("log"))?;
        sync_dir(&self.dir)?;
        self.log = f;
        self.log_len = HEADER_LEN as u64;
        self.generation = next;
        Ok(())
    }
}
