//! Reading older journal versions. Each version's payloads are brought up to the
//! current `Entry` here, as JSON values, before they are parsed; a journal read from an
//! older version is compacted at once into the current one (`store.rs`), so a file
//! never mixes versions.
//!
//! - Version 1 (the journal's first draft, fixture `tests/fixtures/journal-v1/`):
//!   a pane kept its command as one shell line `command` and its directory as `dir`,
//!   and had no `env`, `sideband`, `depth` or `agent`; a window kept its layout as
//!   `layout_json`, a string holding the layout's JSON.
//! - Version 2: the current one (`model.rs`).

use super::model::Entry;
use serde_json::Value;

/// Parses one payload written by `version`.
pub fn entry(version: u16, payload: &[u8]) -> Result<Entry, String> {
    let mut value: Value = serde_json::from_slice(payload).map_err(|e| e.to_string())?;
    if version == 1 {
        v1_to_v2(&mut value)?;
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

fn v1_to_v2(entry: &mut Value) -> Result<(), String> {
    let Some(item) = entry.get_mut("item").and_then(Value::as_object_mut) else {
        return Ok(());
    };
    match item.get("kind").and_then(Value::as_str) {
        Some("pane") => {
            let command = item.remove("command");
            let argv = match command {
                Some(Value::String(line)) if line.is_empty() => Vec::new(),
                Some(Value::String(line)) => {
                    vec![Value::from("/bin/sh"), Value::from("-c"), Value::from(line)]
                }
                _ => Vec::new(),
            };
            item.insert("argv".into(), Value::Array(argv));
            let dir = item.remove("dir").unwrap_or(Value::Null);
            item.insert("cwd".into(), dir);
            item.entry("env").or_insert(Value::Array(Vec::new()));
            item.entry("sideband").or_insert(Value::Bool(false));
            item.entry("depth").or_insert(Value::from(0));
            item.entry("agent").or_insert(Value::Null);
            item.entry("program_title").or_insert(Value::Null);
        }
        Some("window") => {
            let text = item.remove("layout_json");
            let layout = match text {
                Some(Value::String(s)) => serde_json::from_str(&s).map_err(|e| e.to_string())?,
                _ => return Err("a version 1 window without `layout_json`".into()),
            };
            item.insert("layout".into(), layout);
        }
        _ => {}
    }
    Ok(())
}
