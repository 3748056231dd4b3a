//! A stand-in model server on 127.0.0.1, for driving the real agent CLIs in tests
//! (issue 27), answering a conversation from a script. It speaks two vendors' streaming
//! APIs as Server-Sent Events:
//!
//! - Anthropic's Messages API (Claude Code): `POST /v1/messages` with `stream: true`
//!   (message_start, content_block_start/delta/stop for text and tool_use with
//!   input_json_delta, message_delta with its stop_reason, message_stop);
//! - OpenAI's Responses API (Codex CLI): `POST /v1/responses` (response.created,
//!   response.output_item.added/done for messages and function calls,
//!   response.output_text.delta, response.completed);
//! - Google's Gemini API (Gemini CLI): `POST /v1beta/models/M:streamGenerateContent`
//!   (`data:` chunks of GenerateContentResponse, text or a functionCall part).
//!
//! Side requests that ask for JSON by a schema (Codex's title, Gemini CLI's model
//! router and next-speaker check) get an object of that shape.
//!
//! Which request is the conversation: one whose tools include the agent's shell tool
//! (`Bash`, `exec_command`, `run_shell_command`) and whose user messages contain the script's prompt.
//! Everything else the CLIs ask on the side (titles, small-model calls, `count_tokens`)
//! gets a short answer without touching the script. Turn `n` of the script answers a
//! conversation that holds `n` answers of the model so far (messages or tool calls), so
//! a retried request gets the same answer again.
//!
//! Every request is recorded, so a failing test can print what Claude Code sent back
//! (its tool results above all).

use parking_lot::Mutex;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the model says in one turn.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Text, streamed as one text block in these deltas.
    Text(Vec<String>),
    /// A tool call (its input streamed as `input_json_delta` in a few pieces).
    Tool { name: String, input: Value },
}

impl Reply {
    pub fn text(s: &str) -> Reply {
        Reply::Text(vec![s.to_string()])
    }

    pub fn bash(command: &str) -> Reply {
        Reply::Tool {
            name: "Bash".into(),
            input: json!({"command": command, "description": "Run a command"}),
        }
    }
}

/// One turn: the answer to a conversation that holds as many assistant messages as
/// the turn's index; it sees the whole request (to read the tool results so far).
pub type Turn = Box<dyn Fn(&Value) -> Reply + Send + Sync>;

/// A received request: its path and its body.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    pub body: Value,
}

struct State {
    prompt: String,
    turns: Vec<Turn>,
    requests: Mutex<Vec<Recorded>>,
    stop: AtomicBool,
}

/// The running stand-in; stops when dropped.
pub struct StandIn {
    pub port: u16,
    state: Arc<State>,
    thread: Option<JoinHandle<()>>,
}

impl StandIn {
    /// Starts a stand-in whose conversation is the one containing `prompt`.
    pub fn start(prompt: &str, turns: Vec<Turn>) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the stand-in model");
        let port = listener.local_addr().expect("its address").port();
        let state = Arc::new(State {
            prompt: prompt.to_string(),
            turns,
            requests: Mutex::new(Vec::new()),
            stop: AtomicBool::new(false),
        });
        let st = state.clone();
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if st.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let st = st.clone();
                std::thread::spawn(move || {
                    let _ = serve(&st, conn);
                });
            }
        });
        StandIn {
            port,
            state,
            thread: Some(thread),
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().clone()
    }

    /// The conversation's requests (the ones the script answers), oldest first.
    pub fn conversation(&self) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| is_conversation(&self.state.prompt, r))
            .map(|r| r.body)
            .collect()
    }

    /// The tool results Claude Code sent back so far, oldest first (the latest
    /// conversation request holds them all).
    pub fn tool_results(&self) -> Vec<Value> {
        self.conversation()
            .last()
            .map(tool_results)
            .unwrap_or_default()
    }

    /// What a failing test prints: every request's path, model and kind, and the tool
    /// calls and results of the conversation so far.
    pub fn dump(&self) -> String {
        let mut out = String::from("requests the stand-in model received:\n");
        for r in self.requests() {
            let kind = if is_conversation(&self.state.prompt, &r) {
                format!("conversation turn {}", answers(&r.body))
            } else {
                "side request".into()
            };
            out += &format!("  {} model={} ({kind})\n", r.path, r.body["model"]);
        }
        if let Some(last) = self.conversation().last() {
            out += "the conversation's messages (system reminders left out):\n";
            for m in messages(last) {
                let role = m["role"].as_str().or(m["type"].as_str()).unwrap_or("?");
                let content = match m.get("content") {
                    Some(c) => brief(c),
                    None => brief(&json!([m])),
                };
                if !["system", "developer"].contains(&role) {
                    out += &format!("  {role}: {content}\n");
                }
            }
        }
        out
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The content blocks of a message, text without the `<system-reminder>`s Claude Code
/// adds, each cut to a readable length.
fn brief(content: &Value) -> String {
    let blocks: Vec<Value> = match content {
        Value::String(s) => vec![json!({"type": "text", "text": s})],
        Value::Array(a) => a.clone(),
        _ => vec![],
    };
    let parts: Vec<String> = blocks
        .iter()
        .filter(|b| {
            !b["text"]
                .as_str()
                .is_some_and(|t| t.starts_with("<system-reminder>"))
        })
        .map(|b| {
            let mut b = b.clone();
            if let Some(o) = b.as_object_mut() {
                o.remove("cache_control");
            }
            let s = b.to_string();
            if s.chars().count() > 1500 {
                format!("{}...", s.chars().take(1500).collect::<String>())
            } else {
                s
            }
        })
        .collect();
    parts.join(" ")
}

/// The messages (Anthropic) or input items (OpenAI) of a request.
fn messages(body: &Value) -> Vec<Value> {
    let list = body
        .get("messages")
        .or(body.get("input"))
        .or(body.get("contents"));
    list.and_then(Value::as_array).cloned().unwrap_or_default()
}

/// A message's content (Anthropic, OpenAI) or parts (Gemini).
fn content(m: &Value) -> &Value {
    m.get("content").or(m.get("parts")).unwrap_or(&Value::Null)
}

/// The tool results in a request, each with its text as `content`.
fn tool_results(body: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    for m in messages(body) {
        if m["type"] == "function_call_output" {
            out.push(json!({"content": m["output"], "call_id": m["call_id"]}));
        }
        let blocks = content(&m).as_array().cloned().unwrap_or_default();
        for b in blocks {
            if b["type"] == "tool_result" {
                out.push(b);
            } else if let Some(r) = b.get("functionResponse") {
                let output = r["response"].get("output").cloned();
                out.push(json!({"content": output.unwrap_or_else(|| r["response"].clone())}));
            }
        }
    }
    out
}

/// The text of a tool result (a string, or text blocks).
pub fn result_text(result: &Value) -> String {
    match &result["content"] {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The texts of every tool result of the conversation in `body`, oldest first.
pub fn tool_results_of(body: &Value) -> Vec<String> {
    tool_results(body).iter().map(result_text).collect()
}

/// The latest tool result of the conversation in `body`.
pub fn last_result(body: &Value) -> String {
    tool_results(body)
        .last()
        .map(result_text)
        .unwrap_or_default()
}

/// How many answers of the model the conversation in `body` holds.
pub fn answers(body: &Value) -> usize {
    messages(body)
        .iter()
        .filter(|m| {
            ["assistant", "model"].contains(&m["role"].as_str().unwrap_or(""))
                || m["type"] == "function_call"
        })
        .count()
}

fn is_conversation(prompt: &str, r: &Recorded) -> bool {
    let tools = r.body["tools"].as_array().cloned().unwrap_or_default();
    let declared = tools.iter().flat_map(|t| {
        t["functionDeclarations"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    });
    let has_shell = tools.iter().cloned().chain(declared).any(|t| {
        ["Bash", "exec_command", "run_shell_command"].contains(&t["name"].as_str().unwrap_or(""))
    });
    let has_prompt = messages(&r.body)
        .iter()
        .filter(|m| m["role"] == "user")
        .any(|m| content(m).to_string().contains(prompt));
    let api = ["/v1/messages", "/v1/responses", "/v1beta/models/"]
        .iter()
        .any(|p| r.path.starts_with(p));
    api && !r.path.contains("count_tokens") && has_shell && has_prompt
}

/// Reads one request: its path and body (Content-Length framed).
fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<(String, Vec<u8>)> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            len = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; len];
    reader.read_exact(&mut body)?;
    Ok((path, body))
}

/// Answers one request on a connection, then closes it (every answer says
/// `Connection: close`, so the client opens a new one for the next).
fn serve(st: &State, conn: TcpStream) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let (path, body) = read_request(&mut reader)?;
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let rec = Recorded { path, body };
    st.requests.lock().push(rec.clone());
    let mut out = conn;
    if rec.path.contains("count_tokens") {
        return respond_json(&mut out, &json!({"input_tokens": 100}));
    }
    if rec.path.contains(":countTokens") {
        return respond_json(&mut out, &json!({"totalTokens": 100}));
    }
    let openai = rec.path.starts_with("/v1/responses");
    let gemini = rec.path.starts_with("/v1beta/models/");
    if !rec.path.starts_with("/v1/messages") && !openai && !gemini {
        return out.write_all(
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
        );
    }
    let reply = if is_conversation(&st.prompt, &rec) {
        let n = answers(&rec.body);
        match st.turns.get(n) {
            Some(turn) => turn(&rec.body),
            None => Reply::text("(the script has no more turns)"),
        }
    } else if let Some(schema) = asked_schema(&rec.body) {
        Reply::text(&example(schema).to_string())
    } else {
        Reply::text("OK")
    };
    let model = rec.body["model"].as_str().unwrap_or("claude").to_string();
    if gemini && rec.path.contains(":streamGenerateContent") {
        respond_data(&mut out, &gemini_chunks(&reply))
    } else if gemini {
        respond_json(&mut out, &gemini_whole(&reply))
    } else if openai {
        respond_sse(&mut out, &openai_events(&reply))
    } else if rec.body["stream"] == true {
        respond_sse(&mut out, &events(&model, &reply))
    } else {
        respond_json(&mut out, &whole_message(&model, &reply))
    }
}

fn respond_json(out: &mut TcpStream, v: &Value) -> std::io::Result<()> {
    let body = v.to_string();
    write!(
        out,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )?;
    out.flush()
}

fn usage() -> Value {
    json!({"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0})
}

fn whole_message(model: &str, reply: &Reply) -> Value {
    let (block, stop) = match reply {
        Reply::Text(parts) => (json!({"type": "text", "text": parts.concat()}), "end_turn"),
        Reply::Tool { name, input } => (
            json!({"type": "tool_use", "id": "toolu_standin", "name": name, "input": input}),
            "tool_use",
        ),
    };
    json!({"id": "msg_standin", "type": "message", "role": "assistant", "model": model,
           "content": [block], "stop_reason": stop, "stop_sequence": null, "usage": usage()})
}

/// The SSE events of one streamed answer.
fn events(model: &str, reply: &Reply) -> Vec<Value> {
    let id = format!("msg_{}", rand_id());
    let mut ev = vec![json!({"type": "message_start", "message": {
        "id": id, "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": null, "stop_sequence": null, "usage": usage()}})];
    let stop = match reply {
        Reply::Text(parts) => {
            ev.push(json!({"type": "content_block_start", "index": 0,
                           "content_block": {"type": "text", "text": ""}}));
            for p in parts {
                ev.push(json!({"type": "content_block_delta", "index": 0,
                               "delta": {"type": "text_delta", "text": p}}));
            }
            "end_turn"
        }
        Reply::Tool { name, input } => {
            ev.push(json!({"type": "content_block_start", "index": 0, "content_block":
                {"type": "tool_use", "id": format!("toolu_{}", rand_id()), "name": name, "input": {}}}));
            let s = input.to_string();
            let cut = (0..=s.len() / 2)
                .rev()
                .find(|&i| s.is_char_boundary(i))
                .unwrap_or(0);
            for piece in [&s[..cut], &s[cut..]] {
                ev.push(json!({"type": "content_block_delta", "index": 0,
                               "delta": {"type": "input_json_delta", "partial_json": piece}}));
            }
            "tool_use"
        }
    };
    ev.push(json!({"type": "content_block_stop", "index": 0}));
    ev.push(
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                   "usage": {"output_tokens": 10}}),
    );
    ev.push(json!({"type": "message_stop"}));
    ev
}

/// The SSE events of one streamed answer in OpenAI's Responses API.
fn openai_events(reply: &Reply) -> Vec<Value> {
    let id = format!("resp_{}", rand_id());
    let item = match reply {
        Reply::Text(_) => json!({"type": "message", "id": format!("msg_{}", rand_id()),
                                 "role": "assistant", "status": "completed", "content": []}),
        Reply::Tool { name, .. } => json!({"type": "function_call",
            "id": format!("fc_{}", rand_id()), "call_id": format!("call_{}", rand_id()),
            "name": name, "arguments": "", "status": "in_progress"}),
    };
    let mut ev = vec![
        json!({"type": "response.created", "response": {"id": id}}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
    ];
    let mut done = item.clone();
    match reply {
        Reply::Text(parts) => {
            for p in parts {
                ev.push(
                    json!({"type": "response.output_text.delta", "output_index": 0,
                               "content_index": 0, "item_id": item["id"], "delta": p}),
                );
            }
            done["content"] =
                json!([{"type": "output_text", "text": parts.concat(), "annotations": []}]);
        }
        Reply::Tool { input, .. } => {
            done["arguments"] = json!(input.to_string());
            done["status"] = json!("completed");
        }
    }
    ev.push(json!({"type": "response.output_item.done", "output_index": 0, "item": done}));
    ev.push(
        json!({"type": "response.completed", "response": {"id": id, "usage": {
        "input_tokens": 100, "input_tokens_details": null, "output_tokens": 10,
        "output_tokens_details": null, "total_tokens": 110}}}),
    );
    ev
}

/// The JSON schema a side request asks its answer to follow, if any.
fn asked_schema(body: &Value) -> Option<&Value> {
    let config = &body["generationConfig"];
    [
        &body["text"]["format"]["schema"],
        &config["responseJsonSchema"],
        &config["responseSchema"],
    ]
    .into_iter()
    .find(|s| s.is_object())
}

/// A value of the schema's shape (an enum's `user` where it has one: Gemini CLI asks
/// who speaks next, and the user ends the turn).
fn example(schema: &Value) -> Value {
    let kind = schema["type"].as_str().unwrap_or("").to_ascii_lowercase();
    if let Some(options) = schema["enum"].as_array() {
        let user = options.iter().find(|o| *o == "user");
        return user.or(options.first()).cloned().unwrap_or(Value::Null);
    }
    match kind.as_str() {
        "object" => {
            let props = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            Value::Object(props.iter().map(|(k, v)| (k.clone(), example(v))).collect())
        }
        "array" => json!([]),
        "integer" | "number" => json!(10),
        "boolean" => json!(false),
        _ => json!("Stand-in"),
    }
}

/// One GenerateContentResponse of Gemini's API with these parts.
fn gemini_response(parts: Value, last: bool) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    if last {
        candidate["finishReason"] = json!("STOP");
    }
    json!({"candidates": [candidate], "usageMetadata":
        {"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}})
}

/// The chunks of one streamed answer in Gemini's API: a chunk per text delta, or one
/// with the function call.
fn gemini_chunks(reply: &Reply) -> Vec<Value> {
    match reply {
        Reply::Text(parts) => parts
            .iter()
            .enumerate()
            .map(|(i, p)| gemini_response(json!([{"text": p}]), i + 1 == parts.len()))
            .collect(),
        Reply::Tool { name, input } => {
            let call = json!({"functionCall": {"name": name, "args": input}});
            vec![gemini_response(json!([call]), true)]
        }
    }
}

/// A whole answer in Gemini's API (`generateContent`).
fn gemini_whole(reply: &Reply) -> Value {
    match reply {
        Reply::Text(parts) => gemini_response(json!([{"text": parts.concat()}]), true),
        Reply::Tool { .. } => gemini_chunks(reply).remove(0),
    }
}

/// Streams `data:` lines without event names (Gemini's `alt=sse`).
fn respond_data(out: &mut TcpStream, chunks: &[Value]) -> std::io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n",
    )?;
    for c in chunks {
        write!(out, "data: {c}\r\n\r\n")?;
        out.flush()?;
    }
    Ok(())
}

/// Streams the events, each written and flushed on its own (the body ends when the
/// connection closes).
fn respond_sse(out: &mut TcpStream, events: &[Value]) -> std::io::Result<()> {
    out.write_all(
        b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n",
    )?;
    for e in events {
        let name = e["type"].as_str().unwrap_or("message");
        write!(out, "event: {name}\ndata: {e}\n\n")?;
        out.flush()?;
    }
    Ok(())
}

fn rand_id() -> String {
    use std::sync::atomic::AtomicU64;
    static N: AtomicU64 = AtomicU64::new(1);
    format!("standin{:06}", N.fetch_add(1, Ordering::SeqCst))
}
