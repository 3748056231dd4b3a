//! Results of tags, written where the agent can read them.
//!
//! Each executed (or refused) tag writes `ID.json` into the pane's folder, whose path
//! the program finds in `$FUGUE_SIDEBAND_DIR`. The folder is private (0700); files are
//! written to a temporary name and renamed, so a reader never sees half a result.

use fugue_protocol::CommandError;
use serde_json::{Value, json};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::Path;

/// A file name from a tag id: letters, digits, `.`, `_` and `-`, at most 64 of them.
pub fn file_stem(id: &str) -> Option<String> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id != "."
        && id != ".."
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    ok.then(|| id.to_string())
}

pub fn body(id: &str, command: &str, outcome: &Result<Value, CommandError>) -> Value {
    match outcome {
        Ok(result) => json!({ "id": id, "command": command, "ok": true, "result": result }),
        Err(e) => json!({
            "id": id,
            "command": command,
            "ok": false,
            "error": { "code": e.code.as_str(), "message": e.message, "suggestion": e.suggestion },
        }),
    }
}

/// Writes `body` as `dir/STEM.json`.
pub fn write(dir: &Path, stem: &str, body: &Value) -> std::io::Result<()> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let tmp = dir.join(format!(".{stem}.json.tmp"));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .mode(0o600)
        .open(&tmp)?;
    f.write_all(
        serde_json::to_string_pretty(body)
            .unwrap_or_default()
            .as_bytes(),
    )?;
    f.write_all(b"\n")?;
    drop(f);
    std::fs::rename(&tmp, dir.join(format!("{stem}.json")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_make_safe_file_names() {
        assert_eq!(file_stem("build-1"), Some("build-1".into()));
        for bad in ["", "..", "a/b", "x y", &"x".repeat(65)] {
            assert_eq!(file_stem(bad), None, "{bad}");
        }
    }

    #[test]
    fn results_are_private_and_whole() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("pane-3");
        write(&d, "a", &json!({"id": "a"})).unwrap();
        assert_eq!(std::fs::metadata(&d).unwrap().mode() & 0o777, 0o700);
        let text = std::fs::read_to_string(d.join("a.json")).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap()["id"], "a");
    }
}
