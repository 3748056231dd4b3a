//! Results of tags, written where the agent can read them.
//!
//! Each executed (or refused) tag writes `ID.json` into the pane's folder, whose path
//! the program finds in `$FUGUE_SIDEBAND_DIR`. The folder is private (0700); files are
//! written to a temporary name and renamed, so a reader never sees half a result. Only
//! the newest [`RESULTS_KEPT`] results are kept: a pane printing tags without end
//! cannot fill the disk. Refusals folded into a summary go into `refused.json`, and the
//! count of tags shown as text for want of the pane's key into `untrusted.json`.

use super::report::Summary;
use fugue_protocol::CommandError;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Result files kept per pane; the oldest are removed beyond this.
pub const RESULTS_KEPT: usize = 256;

/// The summary of refusals reported together, named like a result.
pub const SUMMARY_STEM: &str = "refused";

/// The count of tags without the pane's key, named like a result.
pub const UNTRUSTED_STEM: &str = "untrusted";

/// A file name from a tag id: letters, digits, `.`, `_` and `-`, at most 64 of them
/// (and not the name of the summary or of the untrusted count).
pub fn file_stem(id: &str) -> Option<String> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id != "."
        && id != ".."
        && id != SUMMARY_STEM
        && id != UNTRUSTED_STEM
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

/// The summary of refusals reported together.
pub fn summary_body(s: &Summary, suggestion: &str) -> Value {
    json!({
        "id": SUMMARY_STEM,
        "command": SUMMARY_STEM,
        "ok": false,
        "count": s.count,
        "total": s.total,
        "ids": s.ids,
        "error": { "code": s.code(), "message": s.describe(), "suggestion": suggestion },
    })
}

/// How many complete tags the pane printed without its key, since it started.
pub fn untrusted_body(no_key: u64, wrong_key: u64) -> Value {
    json!({
        "id": UNTRUSTED_STEM,
        "command": UNTRUSTED_STEM,
        "ok": false,
        "no_key": no_key,
        "wrong_key": wrong_key,
        "error": {
            "code": "forbidden",
            "message": format!(
                "{} tags without this pane's key were shown as text and not run",
                no_key.saturating_add(wrong_key)
            ),
            "suggestion": "a tag runs only with key=\"$FUGUE_SIDEBAND_KEY\" (see docs/sideband.md); text you only display never runs",
        },
    })
}

/// A pane's result folder, keeping the newest results.
pub struct Results {
    dir: PathBuf,
    /// Stems written, oldest first.
    kept: VecDeque<String>,
}

impl Results {
    pub fn new(dir: PathBuf) -> Results {
        Results {
            dir,
            kept: VecDeque::new(),
        }
    }

    /// Writes `dir/STEM.json`, removing the oldest result beyond [`RESULTS_KEPT`].
    pub fn write(&mut self, stem: &str, body: &Value) -> std::io::Result<()> {
        write(&self.dir, stem, body)?;
        if stem == SUMMARY_STEM || stem == UNTRUSTED_STEM {
            return Ok(());
        }
        if let Some(at) = self.kept.iter().position(|k| k == stem) {
            self.kept.remove(at);
        }
        self.kept.push_back(stem.to_string());
        while self.kept.len() > RESULTS_KEPT {
            if let Some(old) = self.kept.pop_front() {
                let _ = std::fs::remove_file(self.dir.join(format!("{old}.json")));
            }
        }
        Ok(())
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
        for bad in [
            "",
            "..",
            "a/b",
            "x y",
            "refused",
            "untrusted",
            &"x".repeat(65),
        ] {
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

    #[test]
    fn only_the_newest_results_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("pane-1");
        let mut r = Results::new(d.clone());
        for i in 0..RESULTS_KEPT + 10 {
            r.write(&format!("t{i}"), &json!({})).unwrap();
        }
        r.write(SUMMARY_STEM, &json!({})).unwrap();
        let names: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), RESULTS_KEPT + 1, "{names:?}");
        assert!(!d.join("t9.json").exists());
        assert!(d.join("t10.json").exists());
        assert!(d.join("refused.json").exists());
    }
}
