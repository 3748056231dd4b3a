//! The journal's files and writer, without a server (the server-level tests are in
//! `tests/it/journal.rs` and `fugue-client/tests/e2e/restore.rs`).

use super::model::{BufferRec, Entry, Item, Key, Model, SessionRec};
use super::store::Store;
use super::{Journal, format};
use parking_lot::Mutex;
use std::sync::Arc;
use std::time::Duration;

fn session(id: u32, name: &str) -> Item {
    Item::Session(SessionRec {
        id,
        name: name.into(),
        created_ms: 1,
        size: (80, 24),
        active_window: 1,
        links: Vec::new(),
        group: None,
    })
}

fn model(names: &[&str]) -> Model {
    let mut m = Model::default();
    for (i, n) in names.iter().enumerate() {
        let item = session(i as u32, n);
        m.items.insert(item.key(), item);
    }
    m
}

type Shared<T> = Arc<Mutex<T>>;

/// A journal whose capture returns what the test puts in `state`.
fn journal(dir: &std::path::Path) -> (Journal, Shared<Model>, Shared<Vec<String>>) {
    let (store, loaded) = Store::open(dir).unwrap();
    let state = Arc::new(Mutex::new(loaded.model.clone()));
    let troubles = Arc::new(Mutex::new(Vec::new()));
    let s = Arc::clone(&state);
    let t = Arc::clone(&troubles);
    let j = Journal::start(
        store,
        loaded.model,
        Box::new(move || s.lock().clone()),
        Box::new(move |m: &str| t.lock().push(m.to_string())),
    );
    (j, state, troubles)
}

#[test]
fn changes_are_written_and_read_back_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (j, state, _) = journal(dir.path());
    for n in 0..50 {
        *state.lock() = model(&[&format!("s{n}"), "other"]);
        j.changed();
        if n % 7 == 0 {
            j.flush(Duration::from_secs(5));
        }
    }
    *state.lock() = model(&["last"]);
    j.changed();
    j.stop(super::Stop::Capture);
    let (_, loaded) = Store::open(dir.path()).unwrap();
    assert_eq!(loaded.model.items, model(&["last"]).items);
    assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(dir.path()), 0o700);
    assert_eq!(mode(&dir.path().join("log")), 0o600);
}

#[test]
fn a_torn_last_record_is_skipped_and_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (mut store, _) = Store::open(dir.path()).unwrap();
        let a = session(0, "kept");
        let b = session(1, "torn");
        store.append(&[Entry::Put { item: a }]).unwrap();
        store.append(&[Entry::Put { item: b }]).unwrap();
    }
    let log = dir.path().join("log");
    let len = std::fs::metadata(&log).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&log).unwrap();
    f.set_len(len - 5).unwrap();
    drop(f);
    let (mut store, loaded) = Store::open(dir.path()).unwrap();
    let names: Vec<_> = loaded.model.sessions().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["kept"]);
    assert!(
        loaded.notes.iter().any(|n| n.contains("torn record")),
        "{:?}",
        loaded.notes
    );
    // What is appended next follows the intact records.
    store
        .append(&[Entry::Put {
            item: session(2, "after"),
        }])
        .unwrap();
    drop(store);
    let (_, loaded) = Store::open(dir.path()).unwrap();
    let names: Vec<_> = loaded.model.sessions().map(|s| s.name.clone()).collect();
    assert_eq!(names, ["kept", "after"]);
    assert!(loaded.notes.is_empty(), "{:?}", loaded.notes);
}

#[test]
fn compaction_keeps_the_state_and_a_cut_short_one_replays_nothing_old() {
    let dir = tempfile::tempdir().unwrap();
    let (mut store, _) = Store::open(dir.path()).unwrap();
    store
        .append(&[Entry::Put {
            item: session(0, "a"),
        }])
        .unwrap();
    store
        .append(&[Entry::Put {
            item: session(1, "b"),
        }])
        .unwrap();
    // An old log, as a crash between the snapshot's rename and the log's leaves it.
    let old_log = std::fs::read(dir.path().join("log")).unwrap();
    store
        .append(&[Entry::Gone {
            key: Key::Session(0),
        }])
        .unwrap();
    let now = {
        let (_, l) = Store::open(dir.path()).unwrap();
        l.model
    };
    store.compact(&now).unwrap();
    drop(store);
    let (_, loaded) = Store::open(dir.path()).unwrap();
    assert_eq!(loaded.model.items, now.items);
    std::fs::write(dir.path().join("log"), old_log).unwrap();
    let (_, loaded) = Store::open(dir.path()).unwrap();
    assert_eq!(loaded.model.items, now.items, "the old log replayed `a`");
    assert!(
        loaded
            .notes
            .iter()
            .any(|n| n.contains("older than the snapshot"))
    );
}

#[test]
fn a_version_1_journal_loads_and_is_rewritten_as_the_current_version() {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/journal-v1/log");
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture, dir.path().join("log")).unwrap();
    let (_, loaded) = Store::open(dir.path()).unwrap();
    assert!(
        loaded.notes.iter().any(|n| n.contains("version 1")),
        "{:?}",
        loaded.notes
    );
    let m = &loaded.model;
    assert_eq!(
        m.sessions().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["work"]
    );
    let w = m.windows_of(0);
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].name, "edit");
    let layout: crate::session::layout::Layout =
        serde_json::from_value(w[0].layout.clone()).unwrap();
    assert_eq!(
        layout.panes(),
        [fugue_protocol::PaneId(3), fugue_protocol::PaneId(4)]
    );
    let panes = m.panes_of(2);
    let tail = panes.iter().find(|p| p.id == 4).unwrap();
    assert_eq!(tail.argv, ["/bin/sh", "-c", "tail -f /var/log/syslog"]);
    assert_eq!(tail.cwd.as_deref(), Some("/"));
    let editor = panes.iter().find(|p| p.id == 3).unwrap();
    assert!(editor.argv.is_empty());
    assert_eq!(editor.title.as_deref(), Some("editor"));
    assert_eq!(
        m.buffers().map(|b| b.data.as_str()).collect::<Vec<_>>(),
        ["hello from v1"]
    );
    assert_eq!(m.last_start.as_ref().map(|s| s.pid), Some(4242));
    // Rewritten: both files are now the current version, and read the same.
    for f in ["log", "snapshot"] {
        let bytes = std::fs::read(dir.path().join(f)).unwrap();
        assert_eq!(
            format::Header::decode(&bytes).unwrap().version,
            format::VERSION
        );
    }
    let (_, again) = Store::open(dir.path()).unwrap();
    assert_eq!(again.model.items, loaded.model.items);
    assert!(again.notes.is_empty(), "{:?}", again.notes);
}

#[test]
fn a_newer_version_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = format::Header {
        version: format::VERSION + 1,
        generation: 0,
    }
    .encode()
    .to_vec();
    bytes.extend_from_slice(b"future");
    std::fs::write(dir.path().join("log"), &bytes).unwrap();
    let e = Store::open(dir.path()).err().unwrap();
    assert!(e.to_string().contains("cannot read"), "{e}");
    assert_eq!(std::fs::read(dir.path().join("log")).unwrap(), bytes);
}

#[test]
fn a_full_disk_warns_once_loses_nothing_and_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let flag = dir.path().join("full");
    let (mut store, loaded) = Store::open(&dir.path().join("j")).unwrap();
    store.fail_while(flag.clone());
    let state = Arc::new(Mutex::new(loaded.model.clone()));
    let troubles = Arc::new(Mutex::new(Vec::<String>::new()));
    let (s, t) = (Arc::clone(&state), Arc::clone(&troubles));
    let j = Journal::start(
        store,
        loaded.model,
        Box::new(move || s.lock().clone()),
        Box::new(move |m: &str| t.lock().push(m.to_string())),
    );
    std::fs::write(&flag, "").unwrap();
    for n in 0..20 {
        let mut m = model(&["during"]);
        let b = Item::Buffer(BufferRec {
            name: format!("b{n}"),
            data: "x".repeat(100),
            created: 0,
            automatic: false,
            owner: None,
        });
        m.items.insert(b.key(), b);
        *state.lock() = m;
        j.changed();
        j.flush(Duration::from_secs(5));
    }
    {
        let t = troubles.lock();
        assert_eq!(t.len(), 1, "{t:?}");
        assert!(t[0].contains("No space left"), "{t:?}");
    }
    std::fs::remove_file(&flag).unwrap();
    j.flush(Duration::from_secs(5));
    j.stop(super::Stop::Capture);
    assert!(troubles.lock().iter().any(|t| t.contains("writing again")));
    let (_, loaded) = Store::open(&dir.path().join("j")).unwrap();
    assert_eq!(loaded.model.items, state.lock().items);
}
