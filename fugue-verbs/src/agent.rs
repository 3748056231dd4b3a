//! `fugue agent ...` and `fugue report`: agents from the command line.

use crate::Caller;
use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use fugue_protocol::cmd;
use fugue_protocol::{
    AgentState, Command, Delivery, Direction, MessageTo, Placement, RESULT_BYTES_MAX, Report,
    SendMessage, SpawnAgent, Target,
};
use fugue_protocol::{AgentWorktree, WorktreeAction, WorktreeSpec};

#[derive(Subcommand, Debug)]
pub enum AgentVerb {
    /// Start an agent from a preset in a new pane, and give it a task.
    Spawn {
        /// Pane to split (with -p right/left/down/up) or session (with -p window).
        #[arg(short = 't')]
        target: Option<String>,
        /// auto (default), right, left, down, up, window or session.
        #[arg(short = 'p', long, default_value = "auto")]
        placement: String,
        /// Size of a split in percent.
        #[arg(short = 'l', long)]
        size: Option<u8>,
        #[arg(short = 'c', value_name = "DIR")]
        cwd: Option<std::path::PathBuf>,
        /// The pane's title.
        #[arg(short = 'n', long)]
        name: Option<String>,
        /// A label to address messages with `--to tag:NAME` (repeatable).
        #[arg(long = "tag")]
        tags: Vec<String>,
        /// A pane whose result the task needs; `{{%N.result}}` in the task is replaced
        /// by it (repeatable).
        #[arg(long = "depends-on", value_name = "PANE")]
        depends_on: Vec<String>,
        /// How long to wait for the agent to be ready, in milliseconds.
        #[arg(long)]
        timeout: Option<u64>,
        /// Start it in a new git worktree of this folder's repository (from its HEAD),
        /// on a new branch, or on `--worktree=BRANCH`.
        #[arg(long, value_name = "BRANCH", num_args = 0..=1, require_equals = true, default_missing_value = "")]
        worktree: Option<String>,
        #[arg(long)]
        json: bool,
        /// The preset (claude, codex, gemini, shell, or one from the config).
        agent: String,
        /// The task (several words are joined with spaces).
        task: Vec<String>,
    },
    /// Type a message into agent panes when they are idle and nobody is typing there.
    #[command(visible_alias = "msg")]
    Message {
        /// %N, tag:NAME, or children (the agents made from this pane).
        #[arg(long)]
        to: String,
        /// Wait until it is typed (or timed out, or failed) and say so per pane.
        #[arg(long)]
        sync: bool,
        /// How long the pane must have printed nothing first, in milliseconds.
        #[arg(long)]
        quiescence: Option<u64>,
        #[arg(long)]
        timeout: Option<u64>,
        #[arg(long)]
        json: bool,
        /// The message (several words are joined with spaces).
        #[arg(required = true)]
        text: Vec<String>,
    },
    /// Print the result an agent reported.
    Result {
        #[arg(short = 't')]
        target: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// List agent panes with their state.
    #[command(visible_alias = "ls")]
    List {
        #[arg(long)]
        json: bool,
    },
    /// Show, keep, merge or remove the git worktree an agent was started in (its pane
    /// may be closed). Removing never deletes uncommitted work.
    Worktree {
        #[arg(short = 't')]
        target: Option<String>,
        /// Leave the worktree and its branch as they are; fugue forgets them.
        #[arg(long, group = "action")]
        keep: bool,
        /// Merge its branch into the repository's checked-out branch, then remove it.
        #[arg(long, group = "action")]
        merge: bool,
        /// Remove the worktree (its branch stays unless merged).
        #[arg(long, group = "action")]
        remove: bool,
        #[arg(long)]
        json: bool,
    },
}

/// `fugue report`: what an agent tells fugue about itself.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The pane (default: $FUGUE_PANE_ID, the pane this runs in).
    #[arg(short = 't')]
    pub target: Option<String>,
    /// idle, busy or awaiting_input.
    #[arg(long)]
    pub state: Option<String>,
    /// The result: a file, or - for standard input.
    #[arg(long, value_name = "FILE|-")]
    pub result: Option<String>,
    /// Read what to report from an agent's hook or notify payload (JSON, as the
    /// argument or on standard input): Claude Code's and Gemini CLI's hooks, Codex's
    /// `notify`. Outside a fugue pane, and for events that say nothing about the
    /// agent's state, it does nothing and succeeds (`fugue setup` wires it).
    #[arg(long, conflicts_with_all = ["state", "result"])]
    pub hook: bool,
    /// The hook payload (with --hook; Codex passes it as the last argument).
    #[arg(requires = "hook", value_name = "JSON")]
    pub payload: Option<String>,
    /// A result given as text rather than a file (from a hook's payload).
    #[arg(skip)]
    pub result_text: Option<String>,
}

/// The most of a hook's payload `report --hook` reads: a result is at most
/// [`RESULT_BYTES_MAX`], and the payload holds it plus the event's other fields.
pub const HOOK_PAYLOAD_MAX: usize = 4 * RESULT_BYTES_MAX;

/// What an agent's hook or notify payload says about it, by the fields each CLI
/// documents: `hook_event_name` (Claude Code, Gemini CLI) or `type` (Codex's notify).
/// None: an event that says nothing about the agent's state.
pub fn hook_state(payload: &serde_json::Value) -> Option<(AgentState, Option<String>)> {
    let text = |k: &str| {
        payload[k]
            .as_str()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
    };
    let event = payload["hook_event_name"]
        .as_str()
        .or(payload["type"].as_str())?;
    match event {
        "UserPromptSubmit" | "BeforeAgent" => Some((AgentState::Busy, None)),
        // Claude Code also notifies after 60 s waiting for a prompt (`idle_prompt`):
        // that is idle, not a question (docs/agents.md).
        "Notification" => match payload["notification_type"].as_str()? {
            "permission_prompt" | "elicitation_dialog" | "ToolPermission" => {
                Some((AgentState::AwaitingInput, None))
            }
            "idle_prompt" => Some((AgentState::Idle, None)),
            _ => None,
        },
        "Stop" => Some((AgentState::Idle, text("last_assistant_message"))),
        "AfterAgent" => Some((AgentState::Idle, text("prompt_response"))),
        "agent-turn-complete" => Some((AgentState::Idle, text("last-assistant-message"))),
        _ => None,
    }
}

/// `report --hook`: the plain report its payload asks for, or None when there is
/// nothing to report (not in a fugue pane, or an event without a state). A result
/// over [`RESULT_BYTES_MAX`] is cut there, saying so in the result, because a hook
/// that fails would lose the state too.
pub fn hook_report(r: ReportArgs, caller: &Caller) -> anyhow::Result<Option<ReportArgs>> {
    if r.target.is_none() && std::env::var_os("FUGUE_PANE_ID").is_none() {
        return Ok(None);
    }
    let bytes = match &r.payload {
        Some(p) => p.clone().into_bytes(),
        None => caller.read("-".as_ref(), HOOK_PAYLOAD_MAX as u64 + 1)?,
    };
    if bytes.len() > HOOK_PAYLOAD_MAX {
        bail!("the hook's payload is over {HOOK_PAYLOAD_MAX} bytes");
    }
    let payload: serde_json::Value =
        serde_json::from_slice(&bytes).context("the hook's payload is not JSON")?;
    let Some((state, result)) = hook_state(&payload) else {
        return Ok(None);
    };
    Ok(Some(ReportArgs {
        state: Some(state.name().to_string()),
        result_text: result.map(cut_result),
        hook: false,
        payload: None,
        ..r
    }))
}

/// A result cut to [`RESULT_BYTES_MAX`] at a character boundary, with a note.
fn cut_result(mut text: String) -> String {
    if text.len() <= RESULT_BYTES_MAX {
        return text;
    }
    let total = text.len();
    let note = format!("\n[fugue kept the first part of this {total}-byte result]");
    let mut end = RESULT_BYTES_MAX.saturating_sub(note.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text + &note
}

/// `fugue setup`: wire fugue into an agent CLI's own settings.
#[derive(Args, Debug, Clone)]
pub struct SetupArgs {
    /// The agent CLI: claude-code, codex or gemini.
    pub agent: SetupAgent,
    /// Set up this project folder (its `.mcp.json` and `.claude/`, or `.gemini/` and
    /// `GEMINI.md`) instead of your user settings. Not for Codex.
    #[arg(long, value_name = "DIR")]
    pub project: Option<std::path::PathBuf>,
    /// Take out what `fugue setup` put in.
    #[arg(long)]
    pub remove: bool,
    /// Show the changes as a diff without writing them.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupAgent {
    #[value(alias = "claude")]
    ClaudeCode,
    Codex,
    Gemini,
}

/// How to show an agent command's answer.
#[derive(Debug)]
pub enum AgentPrinter {
    Spawned { json: bool },
    Messages { json: bool },
    Result { json: bool },
    List { json: bool },
    Worktree { json: bool },
    Nothing,
}

fn target(t: Option<String>) -> anyhow::Result<Option<Target>> {
    t.map(|s| s.parse::<Target>().map_err(anyhow::Error::from))
        .transpose()
}

fn placement(kind: &str, target: Option<Target>, size: Option<u8>) -> anyhow::Result<Placement> {
    Ok(match kind {
        "auto" if target.is_none() && size.is_none() => Placement::Auto,
        "auto" => Placement::Split {
            target,
            direction: Direction::Right,
            size,
        },
        "window" => Placement::Window { session: target },
        "session" => Placement::Session {
            name: target.map(|t| t.to_string()),
        },
        d => Placement::Split {
            target,
            direction: Direction::parse(d).with_context(|| {
                format!("unknown placement `{d}`: expected auto, right, left, down, up, window or session")
            })?,
            size,
        },
    })
}

/// Reads a result from a file or standard input, refusing more than fugue keeps.
fn read_result(source: &str, caller: &Caller) -> anyhow::Result<String> {
    let bytes = caller.read(source.as_ref(), RESULT_BYTES_MAX as u64 + 1)?;
    if bytes.len() > RESULT_BYTES_MAX {
        bail!(
            "the result is over {RESULT_BYTES_MAX} bytes: report a summary, and put the rest in a file named in it"
        );
    }
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

pub fn report_command(r: ReportArgs, caller: &Caller) -> anyhow::Result<(Command, AgentPrinter)> {
    let state = r
        .state
        .map(|s| {
            AgentState::parse(&s).with_context(|| {
                format!("unknown state `{s}`: expected idle, busy or awaiting_input")
            })
        })
        .transpose()?;
    let result = match r.result_text {
        Some(text) => Some(text),
        None => r
            .result
            .as_deref()
            .map(|s| read_result(s, caller))
            .transpose()?,
    };
    if state.is_none() && result.is_none() {
        bail!("give --state idle|busy|awaiting_input, --result FILE|-, or both");
    }
    Ok((
        Command::Report(Report {
            target: target(r.target)?,
            state,
            result,
        }),
        AgentPrinter::Nothing,
    ))
}

pub fn command_for(verb: AgentVerb) -> anyhow::Result<(Command, AgentPrinter)> {
    Ok(match verb {
        AgentVerb::Spawn {
            target: t,
            placement: p,
            size,
            cwd,
            name,
            tags,
            depends_on,
            timeout,
            worktree,
            json,
            agent,
            task,
        } => {
            let cwd = cwd
                .map(|c| std::path::absolute(&c).map(|c| c.to_string_lossy().into_owned()))
                .transpose()?;
            let depends_on = depends_on
                .iter()
                .map(|d| d.parse::<Target>())
                .collect::<Result<_, _>>()?;
            (
                Command::SpawnAgent(SpawnAgent {
                    agent,
                    task: Some(task.join(" ")).filter(|t| !t.is_empty()),
                    placement: placement(&p, target(t)?, size)?,
                    cwd,
                    name,
                    tags,
                    depends_on,
                    timeout_ms: timeout,
                    worktree: worktree.map(|b| match b.as_str() {
                        "" => WorktreeSpec::Auto,
                        _ => WorktreeSpec::Branch(b),
                    }),
                }),
                AgentPrinter::Spawned { json },
            )
        }
        AgentVerb::Message {
            to,
            sync,
            quiescence,
            timeout,
            json,
            text,
        } => (
            Command::SendMessage(SendMessage {
                to: MessageTo::parse(&to).map_err(|e| anyhow::anyhow!("invalid --to: {e}"))?,
                text: text.join(" "),
                delivery: if sync {
                    Delivery::Sync
                } else {
                    Delivery::Async
                },
                quiescence_ms: quiescence,
                timeout_ms: timeout,
                // A person at the CLI names the pane they mean.
                plain: true,
            }),
            AgentPrinter::Messages { json },
        ),
        AgentVerb::Result { target: t, json } => (
            Command::GetResult(cmd::GetResult { target: target(t)? }),
            AgentPrinter::Result { json },
        ),
        AgentVerb::Worktree {
            target: t,
            keep,
            merge,
            remove,
            json,
        } => (
            Command::AgentWorktree(AgentWorktree {
                target: target(t)?,
                action: match (keep, merge, remove) {
                    (true, _, _) => WorktreeAction::Keep,
                    (_, true, _) => WorktreeAction::Merge,
                    (_, _, true) => WorktreeAction::Remove,
                    _ => WorktreeAction::Show,
                },
            }),
            AgentPrinter::Worktree { json },
        ),
        AgentVerb::List { json } => (
            Command::ListPanes(cmd::ListPanes {
                target: None,
                scope: fugue_protocol::PaneScope::All,
                values: Vec::new(),
            }),
            AgentPrinter::List { json },
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Payloads as each CLI sends them (fields from Claude Code 2.1's hook schemas,
    /// Gemini CLI 0.61's docs/hooks/reference.md and Codex's notify).
    #[test]
    fn hook_payloads_give_the_agents_state_and_result() {
        let cases = [
            (
                json!({"hook_event_name": "UserPromptSubmit", "prompt": "hi"}),
                Some((AgentState::Busy, None)),
            ),
            (
                json!({"hook_event_name": "BeforeAgent", "prompt": "hi"}),
                Some((AgentState::Busy, None)),
            ),
            (
                json!({"hook_event_name": "Notification", "notification_type": "permission_prompt", "message": "m"}),
                Some((AgentState::AwaitingInput, None)),
            ),
            (
                json!({"hook_event_name": "Notification", "notification_type": "ToolPermission"}),
                Some((AgentState::AwaitingInput, None)),
            ),
            (
                json!({"hook_event_name": "Notification", "notification_type": "idle_prompt"}),
                Some((AgentState::Idle, None)),
            ),
            (
                json!({"hook_event_name": "Notification", "notification_type": "auth_success"}),
                None,
            ),
            (
                json!({"hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "done\n"}),
                Some((AgentState::Idle, Some("done".to_string()))),
            ),
            (
                json!({"hook_event_name": "Stop", "last_assistant_message": " "}),
                Some((AgentState::Idle, None)),
            ),
            (
                json!({"hook_event_name": "AfterAgent", "prompt_response": "ok"}),
                Some((AgentState::Idle, Some("ok".to_string()))),
            ),
            (
                json!({"type": "agent-turn-complete", "last-assistant-message": "r"}),
                Some((AgentState::Idle, Some("r".to_string()))),
            ),
            (json!({"hook_event_name": "PreToolUse"}), None),
            (json!({"something": 1}), None),
            (json!([1, 2]), None),
        ];
        for (payload, want) in cases {
            assert_eq!(hook_state(&payload), want, "{payload}");
        }
    }

    #[test]
    fn an_over_long_hook_result_is_cut_saying_so() {
        let long = "é".repeat(RESULT_BYTES_MAX);
        let cut = cut_result(long);
        assert!(cut.len() <= RESULT_BYTES_MAX);
        assert!(cut.ends_with("-byte result]"), "{}", &cut[cut.len() - 60..]);
        assert_eq!(cut_result("short".into()), "short");
    }
}
