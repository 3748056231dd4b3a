//! The rmcp server handler: lists the tools the caller may use and runs calls through
//! the dispatcher.

use super::tools::{ToolDef, all, find};
use crate::dispatch::{dispatch_via, policy};
use crate::origin::{Origin, Surface};
use crate::server::Server;
use fugue_protocol::{COMMANDS, CommandError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, Implementation, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a long call reports progress, so clients with idle timers keep waiting.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

const INSTRUCTIONS: &str = "fugue is a terminal multiplexer. Sessions hold windows, windows hold panes (ids like %3; \
a `pane` argument also takes session:window.pane and defaults to the pane you run in, else the current one), \
each running a program on a terminal the user may be watching. Start with list_panes. Run a command to completion with \
run_command; drive interactive programs with send_input, then wait_for (event-driven, no polling needed) and read_pane \
(pass the returned cursor back to get only new output). Delegate to other coding agents with spawn_agent, then \
wait_for state idle and get_result; send_message talks to them when they are idle. Errors carry a code and a suggestion.";

#[derive(Clone)]
pub struct FugueMcp {
    server: Arc<Server>,
    origin: Origin,
    /// What this connection remembers between calls (see `shape`).
    memory: Arc<super::shape::Memory>,
}

/// A tool as `tools/list` shows it. `presets` are the configured agent presets: the
/// model sees which agents it may start without a round trip.
fn tool_entry(t: &ToolDef, presets: &[&str]) -> Tool {
    // A copy of the generated schema: the presets differ between calls.
    let mut input = match t.input() {
        Value::Object(m) => m.clone(),
        _ => serde_json::Map::new(),
    };
    if t.command == "spawn-agent"
        && let Some(agent) = input
            .get_mut("properties")
            .and_then(|p| p.get_mut("agent"))
            .and_then(Value::as_object_mut)
    {
        agent.insert("enum".into(), json!(presets));
    }
    // What the schema says by default is left out: `tools/list` is read by every
    // model on every session (issue 18: under 12 KB, docs/mcp.md). Unknown arguments
    // are refused by the server with the list of known ones either way.
    input.remove("additionalProperties");
    if input
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.is_empty())
    {
        input.remove("required");
    }
    let output = match super::outputs::output(t.name) {
        Value::Object(m) => m,
        _ => serde_json::Map::new(),
    };
    Tool::new(t.name, t.description, Arc::new(input))
        .with_raw_output_schema(Arc::new(output))
        .with_annotations(annotations(t))
}

/// The tool's hints, leaving out those MCP assumes when absent (not read-only,
/// destructive, not idempotent, open world), and the destructive and idempotent hints
/// of read-only tools, which MCP says are meaningful only for tools that change things.
fn annotations(t: &ToolDef) -> ToolAnnotations {
    let mut a = ToolAnnotations::new();
    if t.read_only {
        a = a.read_only(true);
    } else {
        if !t.destructive {
            a = a.destructive(false);
        }
        if t.idempotent {
            a = a.idempotent(true);
        }
    }
    if !t.open_world {
        a = a.open_world(false);
    }
    a
}

fn error_result(e: &CommandError) -> CallToolResult {
    CallToolResult::structured_error(json!({
        "code": e.code.as_str(),
        "message": e.message,
        "suggestion": e.suggestion,
    }))
}

/// An error that names an argument but says nothing of what it takes gets what the
/// tool's schema says of it: its choices, its bounds, or its type and description.
/// (Issue 18: every error leaves the caller a way forward.)
fn with_choices(tool: Option<&ToolDef>, mut e: CommandError) -> CommandError {
    if e.suggestion.is_some() {
        return e;
    }
    let argument = e
        .message
        .strip_prefix("invalid argument `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name.to_string());
    let schema = tool.map(ToolDef::input);
    let prop = argument.as_deref().and_then(|a| {
        schema
            .and_then(|s| s.get("properties"))
            .and_then(|p| p.get(a))
    });
    e.suggestion = Some(match (argument, prop) {
        (Some(a), Some(p)) => describe_argument(&a, p),
        (Some(a), None) => format!("check `{a}` against the tool's input schema (tools/list)"),
        (None, _) => match e.code {
            fugue_protocol::ErrorCode::Forbidden => {
                "the server's policy refuses this to agents: ask the person (notify), or work with panes you created".into()
            }
            fugue_protocol::ErrorCode::UnknownTarget => "list_panes lists what exists".into(),
            fugue_protocol::ErrorCode::Timeout => {
                "read_pane shows what the pane has now; call again, with a longer timeout_ms if needed".into()
            }
            fugue_protocol::ErrorCode::LimitExceeded => "ask for less, in smaller pieces".into(),
            _ => "list_panes shows the panes and their state; read_pane shows what one shows".into(),
        },
    });
    e
}

/// What an argument takes, from its schema: "`layout` takes one of: a, b".
fn describe_argument(name: &str, p: &Value) -> String {
    if let Some(choices) = p.get("enum").and_then(Value::as_array) {
        let list: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
        return format!("`{name}` takes one of: {}", list.join(", "));
    }
    let kind = p.get("type").and_then(Value::as_str).unwrap_or("value");
    let mut out = match (p.get("minimum"), p.get("maximum")) {
        (Some(lo), Some(hi)) => format!("`{name}` is a whole number from {lo} to {hi}"),
        (Some(lo), None) => format!("`{name}` is a whole number of at least {lo}"),
        _ => format!("`{name}` is a {kind}"),
    };
    if let Some(d) = p.get("description").and_then(Value::as_str) {
        out.push_str(": ");
        out.push_str(d);
    }
    out
}

impl FugueMcp {
    pub fn new(server: Arc<Server>, origin: Origin) -> FugueMcp {
        FugueMcp {
            server,
            origin,
            memory: Arc::default(),
        }
    }

    /// Tools whose command this caller's surface may run.
    pub fn visible(&self) -> Vec<&'static ToolDef> {
        let config = self.server.config();
        let tiers = policy::allowed(&config, Surface::Mcp);
        // With `close_own`, close_pane is callable for what the caller
        // made, so it is listed.
        let own = config.policy.close_own;
        all()
            .filter(|t| {
                // The `tmux` tool checks each command of its line on its own.
                t.command.is_empty()
                    || COMMANDS.iter().any(|c| {
                        c.name == t.command
                            && (tiers.contains(&c.tier)
                                || (own && crate::dispatch::own::may_close_own(c.name)))
                    })
            })
            .collect()
    }

    pub fn tool_list(&self) -> Vec<Tool> {
        let config = self.server.config();
        let presets = config.agents.names();
        self.visible()
            .into_iter()
            .map(|t| tool_entry(t, &presets))
            .collect()
    }

    /// Runs one tool call through the dispatcher.
    pub async fn call(
        &self,
        name: &str,
        args: &serde_json::Map<String, Value>,
    ) -> Result<Value, CommandError> {
        if name == super::tmux_tool::NAME {
            let tool = find(name);
            let line = tool
                .ok_or_else(|| CommandError::invalid_argument("name", "no `tmux` tool"))
                .and_then(|t| super::args::decode::<super::tmux_tool::TmuxArgs>(args, t.input()))
                .map_err(|e| with_choices(tool, e))?
                .command;
            return super::tmux_tool::run(&self.server, &self.origin, &line)
                .await
                .map_err(CommandError::bounded)
                .map_err(|e| with_choices(tool, e));
        }
        let mut args = args.clone();
        self.memory.before(name, &mut args);
        let args = &args;
        // Argument errors quote the caller's values: bounded like the dispatcher's.
        let built = (|| {
            let tool = find(name).ok_or_else(|| {
                CommandError::invalid_argument("name", format!("there is no tool `{name}`"))
            })?;
            let command = super::build_command(tool, args)?;
            Ok::<_, CommandError>((tool, command))
        })();
        let (tool, command) = built
            .map_err(CommandError::bounded)
            .map_err(|e| with_choices(find(name), e))?;
        let answer = dispatch_via(&self.server, &self.origin, command, Some(tool.name))
            .await
            .map(crate::surfaces::answer::to_json)
            .map(|v| self.memory.after(tool.name, args, v))
            .map_err(|e| with_choices(Some(tool), e))?;
        // An agent looking at what exists, or making a session, learns what a person
        // could bring back after a crash (issue 17).
        Ok(match tool.name {
            "list_panes" | "create_session" => self.server.persist.with_restorable(answer),
            _ => answer,
        })
    }
}

impl ServerHandler for FugueMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new("fugue", env!("CARGO_PKG_VERSION")).with_title("fugue"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        if find(&name).is_none() {
            let names: Vec<&str> = self.visible().iter().map(|t| t.name).collect();
            return Err(McpError::invalid_params(
                format!(
                    "unknown tool `{}`; the tools are: {}",
                    fugue_protocol::excerpt::excerpt(&name),
                    names.join(", ")
                ),
                Some(json!({ "code": "invalid_argument", "suggestion": "call tools/list" })),
            ));
        }
        let args = request.arguments.unwrap_or_default();
        let token = context.meta.get_progress_token();
        let started = Instant::now();
        let call = self.call(&name, &args);
        tokio::pin!(call);
        let mut ticks = tokio::time::interval_at((started + PROGRESS_EVERY).into(), PROGRESS_EVERY);
        let result = loop {
            tokio::select! {
                r = &mut call => break r,
                _ = context.ct.cancelled() => {
                    return Ok(error_result(&CommandError::new(fugue_protocol::ErrorCode::Timeout, "the call was cancelled")).into());
                }
                _ = ticks.tick() => {
                    if let Some(t) = &token {
                        let secs = started.elapsed().as_secs_f64();
                        let _ = context
                            .peer
                            .notify_progress(
                                ProgressNotificationParam::new(t.clone(), secs)
                                    .with_message(format!("{name}: still running after {secs:.0} s")),
                            )
                            .await;
                    }
                }
            }
        };
        Ok(match result {
            Ok(v) => CallToolResult::structured(v),
            Err(e) => error_result(&e),
        }
        .into())
    }
}
