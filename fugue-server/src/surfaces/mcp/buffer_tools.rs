//! The MCP tools for paste buffers: an agent copies text or a region of a pane into a
//! buffer, and pastes it into another pane, as a person does with copy mode and
//! `C-b ]`.

use super::tools::{ToolDef, schema};
use fugue_protocol::{BufferData, CapturePane, Command, LineBound, PasteBuffer, SetBuffer};
use serde_json::json;

const BUFFER: &str = "Default: the newest.";

pub static BUFFER_TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "copy_to_buffer",
        title: "Copy into a paste buffer",
        description: "Store `text`, or lines start_line..end_line of `pane` (0 screen top, negative history), in a paste buffer.",
        command: "set-buffer",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                json!({
                    "text": { "type": "string" },
                    "pane": { "type": "string" },
                    "start_line": { "type": "integer" },
                    "end_line": { "type": "integer" },
                    "buffer": { "type": "string" },
                    "append": { "type": "boolean" }
                }),
                &[],
            )
        },
        build: |a| {
            let line = |name: &str| -> Result<Option<LineBound>, fugue_protocol::CommandError> {
                // Realistic bounds (issue 18): no history is longer than the largest
                // history_limit, no screen taller than the largest window.
                let history = fugue_protocol::limits::MAX_HISTORY_LINES as i64;
                let rows = i64::from(fugue_protocol::limits::MAX_ROWS);
                Ok(a.int(name, -history..=rows)?.map(LineBound::Line))
            };
            let data = match a.string("text")? {
                Some(t) => {
                    for region in ["pane", "start_line", "end_line"] {
                        if a.has(region) {
                            return Err(fugue_protocol::CommandError::invalid_argument(
                                region,
                                "give either `text` or a region of a pane, not both",
                            ));
                        }
                    }
                    BufferData::Text(t)
                }
                None => BufferData::Pane(CapturePane {
                    target: a.target("pane")?,
                    start: line("start_line")?,
                    end: line("end_line")?,
                    escapes: false,
                    join: true,
                    ..Default::default()
                }),
            };
            Ok(Command::SetBuffer(SetBuffer {
                name: a.string("buffer")?,
                append: a.bool("append")?.unwrap_or(false),
                rename: None,
                data: Some(data),
            }))
        },
    },
    ToolDef {
        name: "list_buffers",
        title: "List paste buffers",
        description: "Paste buffers, newest first.",
        command: "list-buffers",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || schema(json!({}), &[]),
        build: |_| Ok(Command::ListBuffers),
    },
    ToolDef {
        name: "show_buffer",
        title: "Read a paste buffer",
        description: "A paste buffer's text.",
        command: "show-buffer",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({ "buffer": { "type": "string", "description": BUFFER } }),
                &[],
            )
        },
        build: |a| {
            Ok(Command::ShowBuffer {
                name: a.string("buffer")?,
            })
        },
    },
    ToolDef {
        name: "paste_buffer",
        title: "Paste a buffer into a pane",
        description: "Type a paste buffer into a pane (line feeds as Enter unless keep_newlines).",
        command: "paste-buffer",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: true,
        input: || {
            schema(
                json!({
                    "buffer": { "type": "string", "description": BUFFER },
                    "pane": { "type": "string" },
                    "keep_newlines": { "type": "boolean" },
                    "delete": { "type": "boolean" }
                }),
                &[],
            )
        },
        build: |a| {
            Ok(Command::PasteBuffer(PasteBuffer {
                name: a.string("buffer")?,
                target: a.target("pane")?,
                bracketed: true,
                delete: a.bool("delete")?.unwrap_or(false),
                separator: a
                    .bool("keep_newlines")?
                    .unwrap_or(false)
                    .then(|| "\n".to_string()),
            }))
        },
    },
    ToolDef {
        name: "delete_buffer",
        title: "Delete a paste buffer",
        description: "Delete a paste buffer.",
        command: "delete-buffer",
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                json!({ "buffer": { "type": "string", "description": BUFFER } }),
                &[],
            )
        },
        build: |a| {
            Ok(Command::DeleteBuffer {
                name: a.string("buffer")?,
            })
        },
    },
];
