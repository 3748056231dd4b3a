//! The audit log on a full disk: records that cannot be written are counted, the
//! first loss is reported, and a gap record says what is missing once space is free.
//! On a real 1 MiB tmpfs (the tests run as root; without mount rights they say so
//! and skip).

use fugue_server::audit::{self, Audit, AuditRecord};
use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path) -> Option<Tmpfs> {
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(dir)
            .output()
            .ok()?;
        if !out.status.success() {
            eprintln!(
                "SKIPPED: cannot mount a 1 MiB tmpfs to fill ({}); the full-disk audit test needs root",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            return None;
        }
        Some(Tmpfs(dir.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

fn record(audit: &Audit, i: usize) {
    let target = format!("%{i}");
    audit.record(&AuditRecord {
        time: audit::now(),
        origin: "test".into(),
        command: "send-keys",
        target: Some(target),
        result: "ok",
        duration_us: 1,
        via: None,
        detail: Some(serde_json::json!({ "padding": "p".repeat(3000) })),
    });
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a torn line ({e}): {l}")))
        .collect()
}

/// The lines, or None while the writer is between a torn write and its repair (the
/// file is read from another thread while the writer works).
fn settled_lines(path: &Path) -> Option<Vec<Value>> {
    std::fs::read_to_string(path)
        .ok()?
        .lines()
        .map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn records_lost_on_a_full_disk_are_counted_and_a_gap_record_follows() {
    let dir = tempfile::tempdir().unwrap();
    let Some(_fs) = Tmpfs::mount(dir.path()) else {
        return;
    };
    let log = dir.path().join("audit.jsonl");
    let audit = Audit::open(&log).unwrap();
    let told = Arc::new(AtomicUsize::new(0));
    let t = Arc::clone(&told);
    audit.on_trouble(move |msg| {
        assert!(msg.contains("cannot write"), "{msg}");
        t.fetch_add(1, Ordering::SeqCst);
    });
    record(&audit, 0);
    eventually("the first record is written", || {
        settled_lines(&log).is_some_and(|l| l.len() == 1)
    });

    // Fill the disk.
    let filler = dir.path().join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    while f.write_all(&[0u8; 4096]).is_ok() {}
    drop(f);

    const N: usize = 313;
    for i in 1..=N {
        record(&audit, i);
    }
    eventually("every record is written or counted", || {
        settled_lines(&log).is_some_and(|l| l.len() - 1 + audit.lost() as usize == N)
    });
    let lost = audit.lost();
    eprintln!("{lost} of {N} records lost on the full disk");
    assert!(lost > 0, "the disk was full, yet nothing was lost");
    assert_eq!(told.load(Ordering::SeqCst), 1, "told once");
    assert!(lines(&log).iter().all(|l| l.get("gap").is_none()));

    // Space again: the next write starts with the gap record.
    std::fs::remove_file(&filler).unwrap();
    record(&audit, N + 1);
    eventually("the gap record and the new record are written", || {
        settled_lines(&log).is_some_and(|all| {
            all.last()
                .and_then(|l| l["target"].as_str().map(String::from))
                == Some(format!("%{}", N + 1))
        })
    });
    let all = lines(&log);
    let gaps: Vec<&Value> = all.iter().filter(|l| l.get("gap").is_some()).collect();
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert_eq!(gaps[0]["gap"].as_u64(), Some(lost));
    assert!(gaps[0]["since"].is_string() && gaps[0]["until"].is_string());
    assert!(
        gaps[0]["error"].as_str().unwrap().contains("No space left"),
        "{}",
        gaps[0]
    );
    // Nothing was lost silently: every record is either in the file or in the gap.
    assert_eq!(all.len() - 1 - 1, N + 1 - lost as usize);
    assert_eq!(told.load(Ordering::SeqCst), 1);
}
