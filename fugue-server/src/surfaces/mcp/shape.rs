//! Lighter answers for MCP callers (issue 18): the dispatcher answers in full (the CLI
//! and sideband use every field); here an MCP connection's answers are cut to what a
//! model needs, and the connection remembers what it already told.
//!
//! - `list_panes`: a compact row per pane unless `detail: true`, filtered by window,
//!   tag, agent state and parent.
//! - `read_pane`: text and cursor; the screen's metadata (size, cursor position,
//!   alternate screen) only when it changed since this connection's last read of that
//!   pane, or when `meta: true`; counts only when not zero.
//! - `wait_for` with `text` and no `after_cursor` starts at this connection's latest
//!   `send_input` cursor on that pane (or where `create_pane`'s input or `spawn_agent`'s
//!   task was typed into a new one; then at the end of its last such wait), so the
//!   natural "send, then wait" misses no fast output.

use parking_lot::Mutex;
use serde_json::{Map, Value, json};
use std::collections::HashMap;

/// Most panes a connection remembers cursors and metadata for (a bound on what a
/// connection can make the server hold; the oldest is forgotten first).
const REMEMBERED_PANES: usize = 1024;

/// What one MCP connection remembers between its calls.
#[derive(Default)]
pub struct Memory {
    /// The cursor a `wait_for` on a pane starts from when given none, by pane id.
    cursors: Mutex<Remembered>,
    /// The screen metadata last told for a pane.
    meta: Mutex<HashMap<String, Value>>,
}

#[derive(Default)]
struct Remembered {
    by_pane: HashMap<String, String>,
    /// The pane a call that named none went to (the caller's default pane).
    default_pane: Option<String>,
}

/// The screen metadata fields of a `read_pane` answer.
const META: &[&str] = &[
    "cursor_row",
    "cursor_col",
    "alternate_screen",
    "width",
    "height",
];

impl Memory {
    /// Adjusts a call's arguments before it is built: a text wait with no cursor gets
    /// this connection's latest cursor for the pane.
    pub fn before(&self, tool: &str, args: &mut Map<String, Value>) {
        if tool != "wait_for" || !args.contains_key("text") || args.contains_key("after_cursor") {
            return;
        }
        let r = self.cursors.lock();
        let pane = match args.get("pane").and_then(Value::as_str) {
            Some(p) => Some(p.to_string()),
            None => r.default_pane.clone(),
        };
        if let Some(cursor) = pane.and_then(|p| r.by_pane.get(&p)) {
            args.insert("after_cursor".into(), Value::String(cursor.clone()));
        }
    }

    /// Shapes a successful answer, and remembers what later calls need.
    pub fn after(&self, tool: &str, args: &Map<String, Value>, answer: Value) -> Value {
        match tool {
            "send_input" => {
                self.remember_cursor(args, &answer, 0);
                answer
            }
            // A new pane given input (or an agent its task): the next text wait on it
            // starts where that was typed. Only by the new pane's id: the call's `pane`
            // named the pane split, and the caller's default pane is not this one.
            "create_pane" | "spawn_agent" => {
                if let (Some(pane), Some(cursor)) = (
                    answer.get("pane").and_then(Value::as_str),
                    answer.get("cursor").and_then(Value::as_str),
                ) {
                    self.remember_for(pane, cursor);
                }
                answer
            }
            // A delivered message: the next text wait on its pane starts on the line
            // it was typed on, so an answer that came first is still found.
            "send_message" => {
                let delivered = answer
                    .get("messages")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten();
                for m in delivered {
                    if let (Some(pane), Some(cursor)) = (
                        m.get("pane").and_then(Value::as_str),
                        m.get("cursor").and_then(Value::as_str),
                    ) {
                        self.remember_for(pane, cursor);
                    }
                }
                answer
            }
            // The next wait starts after the line this one matched (its answer's
            // cursor is that line, for a read that shows it).
            "wait_for" if args.contains_key("text") => {
                self.remember_cursor(args, &answer, 1);
                answer
            }
            "list_panes" => list_panes(args, answer),
            "read_pane" => self.read_pane(args, answer),
            _ => answer,
        }
    }

    fn remember_cursor(&self, args: &Map<String, Value>, answer: &Value, skip: u64) {
        let (Some(pane), Some(cursor)) = (
            answer.get("pane").and_then(Value::as_str),
            answer.get("cursor").and_then(Value::as_str),
        ) else {
            return;
        };
        let cursor = match crate::pane::lines::LineCursor::decode(cursor) {
            Ok(mut c) if skip > 0 => {
                c.line = c.line.saturating_add(skip);
                c.encode()
            }
            _ => cursor.to_string(),
        };
        self.remember_for(pane, &cursor);
        let mut r = self.cursors.lock();
        if !args.contains_key("pane") {
            r.default_pane = Some(pane.to_string());
        }
        // A pane named another way (session:window.pane) finds it by that name too.
        if let Some(named) = args.get("pane").and_then(Value::as_str)
            && named != pane
        {
            r.by_pane.insert(named.to_string(), cursor.to_string());
        }
    }

    /// The cursor a text wait on `pane` starts from, within [`REMEMBERED_PANES`].
    fn remember_for(&self, pane: &str, cursor: &str) {
        let mut r = self.cursors.lock();
        if r.by_pane.len() >= REMEMBERED_PANES && !r.by_pane.contains_key(pane) {
            r.by_pane.clear();
        }
        r.by_pane.insert(pane.to_string(), cursor.to_string());
    }

    fn read_pane(&self, args: &Map<String, Value>, answer: Value) -> Value {
        let Value::Object(mut a) = answer else {
            return answer;
        };
        let pane = a
            .get("pane")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let meta: Map<String, Value> = META
            .iter()
            .filter_map(|k| a.remove(*k).map(|v| (k.to_string(), v)))
            .collect();
        let meta = Value::Object(meta);
        let asked = args.get("meta").and_then(Value::as_bool).unwrap_or(false);
        let changed = {
            let mut told = self.meta.lock();
            if told.len() >= REMEMBERED_PANES && !told.contains_key(&pane) {
                told.clear();
            }
            told.insert(pane, meta.clone()).as_ref() != Some(&meta)
        };
        if asked || changed {
            a.insert("screen".into(), meta);
        }
        // Counts that say nothing happened are left out.
        a.remove("lines");
        for k in ["lines_missed", "lines_skipped"] {
            if a.get(k).and_then(Value::as_u64) == Some(0) {
                a.remove(k);
            }
        }
        if a.get("truncated") == Some(&Value::Bool(false)) {
            a.remove("truncated");
        }
        if a.get("next_cursor").is_some_and(Value::is_null) {
            a.remove("next_cursor");
        }
        Value::Object(a)
    }
}

/// Whether a pane (a full `list_panes` row) passes the call's filters.
fn wanted(args: &Map<String, Value>, p: &Value) -> bool {
    let s = |k: &str| args.get(k).and_then(Value::as_str);
    if let Some(w) = s("window") {
        let name = format!(
            "{}:{}",
            p["session"].as_str().unwrap_or_default(),
            p["window_index"]
        );
        if p["window_id"] != w && name != w && p["window_name"] != w {
            return false;
        }
    }
    if let Some(tag) = s("tag")
        && !p["agent"]["tags"]
            .as_array()
            .is_some_and(|t| t.iter().any(|x| x == tag))
    {
        return false;
    }
    if let Some(state) = s("state")
        && p["agent"]["state"] != state
    {
        return false;
    }
    if let Some(parent) = s("parent")
        && p["parent"] != parent
    {
        return false;
    }
    true
}

/// A pane's compact row: what a model needs to pick a pane and act on it.
fn compact(p: &Value) -> Value {
    let mut row = json!({
        "id": p["id"],
        "window": format!("{}:{}", p["session"].as_str().unwrap_or_default(), p["window_index"]),
        "title": p["title"],
        "command": p["command"],
        "size": format!("{}x{}", p["width"], p["height"]),
    });
    if p["active"] == true && p["window_active"] == true {
        row["active"] = json!(true);
    }
    if p["alive"] == false {
        row["exit_status"] = p["exit_status"].clone();
    }
    if let Some(agent) = p.get("agent").filter(|a| !a.is_null()) {
        row["agent"] = agent["state"].clone();
        // An agent in a worktree: its branch, and whether it has work to finish.
        if let Some(w) = agent.get("worktree").filter(|w| !w.is_null()) {
            row["branch"] = w["branch"].clone();
            let dirty = w["dirty_files"].as_u64().unwrap_or(0);
            let commits = w["commits"].as_u64().unwrap_or(0);
            row["changes"] = json!(dirty + commits > 0);
        }
    }
    row
}

fn list_panes(args: &Map<String, Value>, answer: Value) -> Value {
    let detail = args.get("detail").and_then(Value::as_bool).unwrap_or(false);
    let Some(panes) = answer.get("panes").and_then(Value::as_array) else {
        return answer;
    };
    let rows: Vec<Value> = panes
        .iter()
        .filter(|p| wanted(args, p))
        .map(|p| if detail { p.clone() } else { compact(p) })
        .collect();
    json!({ "panes": rows })
}
