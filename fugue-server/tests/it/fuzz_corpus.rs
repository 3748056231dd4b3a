//! The fuzz targets' harnesses (`fuzz/fuzz_targets/`) over their committed corpora, as
//! ordinary tests: the harness bodies live in the crates (`fuzzing` modules), so they
//! are compiled and run by `cargo test` whether or not cargo-fuzz is installed. Crash
//! reproducers are committed to the corpus, so each is a regression test here.

use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("corpus {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "corpus {} is empty", dir.display());
    files
        .into_iter()
        .map(|p| {
            let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, data)
        })
        .collect()
}

/// Runs `harness` on every file of `target`'s corpus, naming the file that fails.
fn run(target: &str, harness: fn(&[u8])) {
    for (path, data) in corpus(target) {
        if std::panic::catch_unwind(|| harness(&data)).is_err() {
            panic!(
                "fuzz target {target} fails on {} (reproduce: cargo fuzz run {target} {0})",
                path.display()
            );
        }
    }
}

#[test]
fn frames() {
    run("frames", fugue_protocol::fuzzing::frames);
}

#[test]
fn keys() {
    run("keys", fugue_protocol::fuzzing::keys);
}

#[test]
fn target() {
    run("target", fugue_protocol::fuzzing::target);
}

#[test]
fn scanner() {
    run("scanner", fugue_server::fuzzing::scanner);
}

#[test]
fn pane() {
    run("pane", fugue_server::fuzzing::pane);
}

#[test]
fn config() {
    run("config", fugue_server::fuzzing::config);
}

#[test]
fn mcp_args() {
    run("mcp_args", fugue_server::fuzzing::mcp_args);
}
