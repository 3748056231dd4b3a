//! Issue 18: every error an MCP caller can provoke must leave it a way forward. The
//! `err` helpers of the in-process MCP tests pass every error they see through
//! [`check`]: it has a suggestion, the suggestion names only tools this caller can call
//! (what its `tools/list` shows), and neither it nor the message gives CLI advice
//! (`fugue new-session`) to an MCP caller.

use rmcp::RoleClient;
use rmcp::service::{RunningService, Service};
use serde_json::Value;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many errors were checked (the suite's tests print it).
pub static CHECKED: AtomicUsize = AtomicUsize::new(0);

/// Whether `word` appears in `text` as a whole tool name (tool names are snake_case:
/// `close_pane` does not match inside `close_panes`).
fn names(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// Fails the test unless the error `v` (`{code, message, suggestion}`) of a call of
/// `tool` leaves the caller `c` a way forward.
pub async fn check<S: Service<RoleClient>>(
    c: &RunningService<RoleClient, S>,
    tool: &str,
    v: &Value,
) {
    let message = v["message"].as_str().unwrap_or_default();
    let suggestion = v["suggestion"].as_str().unwrap_or_default();
    soft_assert(
        !suggestion.trim().is_empty(),
        format!("{tool}: an error without a suggestion: {v}"),
    );
    let visible: Vec<String> = c
        .list_tools(None)
        .await
        .expect("tools/list")
        .tools
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    for t in fugue_server::surfaces::mcp::tools::all() {
        if names(suggestion, t.name) {
            soft_assert(
                visible.iter().any(|v| v == t.name),
                format!(
                    "{tool}: the suggestion names {}, which this caller cannot call: {v}",
                    t.name
                ),
            );
        }
    }
    for text in [message, suggestion] {
        soft_assert(
            !text.contains("`fugue ") && !text.contains("(fugue "),
            format!("{tool}: CLI advice given to an MCP caller: {v}"),
        );
    }
    CHECKED.fetch_add(1, Ordering::Relaxed);
}

/// With `FUGUE_ADVICE_SOFT=FILE`, the failures are written to FILE and the test goes on (to see
/// them all in one run while fixing them).
fn soft_assert(ok: bool, what: String) {
    if ok {
        return;
    }
    if let Some(path) = std::env::var_os("FUGUE_ADVICE_SOFT") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
        {
            let _ = writeln!(f, "{what}");
        }
    } else {
        panic!("{what}");
    }
}

#[test]
fn tool_names_match_whole_words() {
    assert!(names("or close_pane it", "close_pane"));
    assert!(names("close_pane", "close_pane"));
    assert!(!names("close_panes", "close_pane"));
    assert!(!names("my_close_pane", "close_pane"));
}
