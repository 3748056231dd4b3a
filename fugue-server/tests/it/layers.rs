//! The layer rule of docs/architecture.md, checked on the source (issue 12): surfaces
//! → dispatcher → sessions/panes, never back up. A new upward import fails this test;
//! the few that remain are listed with why, so the list can only shrink.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Upward imports that remain, each with why: (file, the module it reaches, why).
/// Empty since issue 12; kept so an exception has to be written down.
const KNOWN: &[(&str, &str, &str)] = &[];

/// (files under this folder, may not name these modules)
const RULES: &[(&str, &[&str])] = &[
    (
        "pane/",
        &[
            "crate::dispatch",
            "crate::server",
            "crate::surfaces",
            "crate::agents",
        ],
    ),
    (
        "session/",
        &[
            "crate::dispatch",
            "crate::server",
            "crate::surfaces",
            "crate::agents",
        ],
    ),
    (
        "agents/",
        &["crate::dispatch", "crate::server", "crate::surfaces"],
    ),
    ("dispatch/", &["crate::surfaces"]),
    // The journal's files and format know nothing of the server; `persist.rs` ties them.
    (
        "journal/",
        &[
            "crate::dispatch",
            "crate::server",
            "crate::surfaces",
            "crate::agents",
            "crate::persist",
            "crate::mux",
        ],
    ),
    ("persist.rs", &["crate::surfaces", "crate::dispatch"]),
    ("server.rs", &["crate::surfaces", "crate::dispatch"]),
    ("passthrough.rs", &["crate::surfaces", "crate::dispatch"]),
    (
        "hub.rs",
        &[
            "crate::surfaces",
            "crate::dispatch",
            "crate::server",
            "crate::agents",
        ],
    ),
    (
        "mux.rs",
        &[
            "crate::surfaces",
            "crate::dispatch",
            "crate::server",
            "crate::agents",
        ],
    ),
    (
        "attached.rs",
        &[
            "crate::surfaces",
            "crate::dispatch",
            "crate::server",
            "crate::agents",
            "crate::session",
        ],
    ),
    // Surfaces ask the mux short questions; they never hold the tree's lock.
    ("surfaces/", &["mux.tree()", ".tree()", "Mux::tree"]),
    (
        "audit.rs",
        &["crate::dispatch", "crate::server", "crate::surfaces"],
    ),
    (
        "buffers.rs",
        &[
            "crate::dispatch",
            "crate::server",
            "crate::surfaces",
            "crate::agents",
            "crate::session",
            "crate::pane",
        ],
    ),
    (
        "origin.rs",
        &["crate::dispatch", "crate::server", "crate::surfaces"],
    ),
    (
        "config/",
        &[
            "crate::dispatch",
            "crate::server",
            "crate::surfaces",
            "crate::agents",
        ],
    ),
    // The option store is below the dispatcher, beside config/: the dispatcher and
    // the server use it; it knows nothing of them, nor of the tree.
    (
        "options/",
        &[
            "crate::dispatch",
            "crate::server",
            "crate::surfaces",
            "crate::agents",
            "crate::session",
            "crate::pane",
            "crate::mux",
        ],
    ),
];

/// `use crate::{server, pane}` names `crate::server` too.
fn names_in_group(line: &str, banned: &str) -> bool {
    let Some(module) = banned.strip_prefix("crate::") else {
        return false;
    };
    let Some(group) = line.split("crate::{").nth(1) else {
        return false;
    };
    group
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == module)
}

#[test]
fn a_grouped_import_is_seen() {
    assert!(names_in_group(
        "use crate::{server::Server, pane};",
        "crate::server"
    ));
    assert!(!names_in_group(
        "use crate::{pane, session};",
        "crate::server"
    ));
}

#[test]
fn nothing_below_a_layer_imports_one_above_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let mut broken = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(f).unwrap();
        for (prefix, banned) in RULES {
            if !rel.starts_with(prefix) {
                continue;
            }
            for b in *banned {
                let uses = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .any(|l| l.contains(b) || names_in_group(l, b));
                let known = KNOWN.iter().any(|(kf, km, _)| *kf == rel && km == b);
                if uses && !known {
                    broken.push(format!("{rel} uses {b}"));
                }
                if !uses && known {
                    broken.push(format!(
                        "{rel} no longer uses {b}: take it off KNOWN in tests/it/layers.rs"
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "layer rule broken:\n{}",
        broken.join("\n")
    );
}
