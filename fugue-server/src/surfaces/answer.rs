//! A command's answer as JSON: what an MCP tool returns and what a sideband tag's result
//! file holds. One rendering for both, so a tag and a tool answer alike (and neither
//! surface reaches into the other's code).

use fugue_protocol::Response;
use serde_json::{Value, json};

/// The answer as JSON; a response that cannot be serialized becomes `{"error": ...}`.
pub fn to_json(resp: Response) -> Value {
    let v = match resp {
        Response::Done => Ok(json!({ "ok": true })),
        Response::Created(c) => serde_json::to_value(c),
        Response::Sessions(s) => Ok(json!({ "sessions": s })),
        Response::Panes(p) => Ok(json!({ "panes": p })),
        Response::Clients(c) => Ok(json!({ "clients": c })),
        Response::Captured(t) => Ok(json!({ "text": t })),
        Response::Rows(r) => serde_json::to_value(r),
        Response::Attached(a) => serde_json::to_value(a),
        Response::Read(t) => serde_json::to_value(t),
        Response::Waited(w) => serde_json::to_value(w),
        Response::Ran(r) => serde_json::to_value(r),
        Response::Found(f) => serde_json::to_value(f),
        Response::Sent(s) => serde_json::to_value(s),
        Response::AgentSpawned(a) => serde_json::to_value(a),
        Response::Messages(m) => Ok(json!({ "messages": m })),
        Response::Result(r) => serde_json::to_value(r),
        Response::Worktree(w) => serde_json::to_value(w),
        Response::Buffer(b) => serde_json::to_value(b),
        Response::Restore(r) => serde_json::to_value(r),
        Response::PromptHistory(h) => Ok(json!({ "history": h.iter().map(|(kind, lines)| json!({
            "type": kind.name(), "lines": lines,
        })).collect::<Vec<_>>() })),
        // Each line as tmux prints it, and the parts for a program to read.
        Response::Options(lines) => Ok(json!({ "options": lines.iter().map(|l| json!({
            "name": l.name, "value": l.value, "inherited": l.inherited, "line": l.line(),
        })).collect::<Vec<_>>() })),
        // The sample says what a buffer holds; the longer head (for the client's
        // preview) would only fill an agent's context.
        Response::Buffers(list) => Ok(json!({ "buffers": list.iter().map(|b| json!({
            "name": b.name, "size": b.size, "created": b.created,
            "automatic": b.automatic, "sample": b.sample,
        })).collect::<Vec<_>>() })),
    };
    v.unwrap_or_else(|e| json!({ "error": e.to_string() }))
}
