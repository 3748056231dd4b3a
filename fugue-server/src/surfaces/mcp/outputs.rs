//! Each tool's output schema (issue 18): the fields its answer has, with their JSON
//! types, so clients can validate and models know the shape. Kept terse (field names
//! and types, no descriptions): `tools/list` is read by every model on every session,
//! and its size is measured in docs/mcp.md.

use serde_json::{Map, Value, json};

/// `{"type": "object", "properties": {...}}` from `name:type` pairs: i integer, b
/// boolean, a array, o object. A field with no type (most are strings, some may be
/// null) is `{}`: its name is the shape a model needs, and spelling out "string" for
/// every one would cost a kilobyte of every model's context.
fn object(fields: &[&str]) -> Value {
    let mut props = Map::new();
    for f in fields {
        let (name, kind) = f.split_once(':').unwrap_or((f, ""));
        let schema = match kind {
            "i" => json!({ "type": "integer" }),
            "b" => json!({ "type": "boolean" }),
            "a" => json!({ "type": "array" }),
            "o" => json!({ "type": "object" }),
            _ => json!({}),
        };
        props.insert(name.to_string(), schema);
    }
    json!({ "type": "object", "properties": props })
}

const CREATED: &[&str] = &[
    "pane",
    "session",
    "session_name",
    "window",
    "window_index:i",
];

/// The output schema of `tool`'s answers (errors are `{code, message, suggestion}`
/// with isError set, as MCP has them outside the output schema).
pub fn output(tool: &str) -> Value {
    match tool {
        "list_panes" => object(&["panes:a"]),
        "read_pane" => object(&[
            "pane",
            "text",
            "cursor",
            "next_cursor",
            "lines_skipped:i",
            "lines_missed:i",
            "truncated:b",
            "screen:o",
        ]),
        "send_input" => object(&["pane", "cursor", "waited_ms:i"]),
        "wait_for" => object(&[
            "pane",
            "line",
            "matched",
            "exit_status",
            "state",
            "cursor",
            "waited_ms:i",
            "timeout_ms:i",
        ]),
        "run_command" => object(&[
            "pane",
            "exit_status:i",
            "output",
            "truncated:b",
            "duration_ms:i",
        ]),
        "create_pane" => {
            let mut fields = CREATED.to_vec();
            fields.push("cursor");
            object(&fields)
        }
        "create_window" | "create_session" => object(CREATED),
        "search_panes" => object(&["matches:a", "total:i", "next_offset"]),
        "spawn_agent" => {
            let mut fields = CREATED.to_vec();
            fields.extend(["agent", "state", "task", "waiting_for:a", "cursor"]);
            object(&fields)
        }
        "send_message" => object(&["messages:a"]),
        "get_result" => object(&["pane", "agent", "result", "reported_at_ms:i", "state"]),
        "tmux" => object(&["output"]),
        _ => object(&["ok:b"]),
    }
}
