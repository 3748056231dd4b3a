//! The MCP tools for options: read them, and (when the policy gives MCP the write
//! tier, as by default) set one, as `show-options` and `set-option` do.

use super::tools::{ToolDef, schema};
use fugue_protocol::{Command, CommandError, OptionScope, SetOption, ShowOptions};
use serde_json::json;

const SCOPE: &str = "Default: session.";
const TARGET: &str = "$N, @N or %N; default: yours.";

fn scope(a: &super::args::Args<'_>) -> Result<Option<OptionScope>, CommandError> {
    Ok(match a.string("scope")?.as_deref() {
        None => None,
        Some("server") => Some(OptionScope::Server),
        Some("session") => Some(OptionScope::Session),
        Some("window") => Some(OptionScope::Window),
        Some("pane") => Some(OptionScope::Pane),
        Some(other) => {
            return Err(CommandError::invalid_argument(
                "scope",
                format!("`{other}`: expected server, session, window or pane"),
            ));
        }
    })
}

pub static OPTION_TOOLS: &[ToolDef] = &[
    ToolDef {
        name: "show_options",
        title: "Show options",
        description: "Options as tmux's show-options: one `name`, or a `scope`'s table.",
        command: "show-options",
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        input: || {
            schema(
                json!({
                    "name": { "type": "string" },
                    "scope": { "type": "string", "enum": ["server", "session", "window", "pane"], "description": SCOPE },
                    "global": { "type": "boolean" },
                    "inherited": { "type": "boolean" },
                    "target": { "type": "string", "description": TARGET }
                }),
                &[],
            )
        },
        build: |a| {
            Ok(Command::ShowOptions(ShowOptions {
                target: a.target("target")?,
                scope: scope(a)?,
                global: a.bool("global")?.unwrap_or(false),
                inherited: a.bool("inherited")?.unwrap_or(false),
                quiet: false,
                name: a.string("name")?,
            }))
        },
    },
    ToolDef {
        name: "set_option",
        title: "Set an option",
        description: "Set an option as tmux's set-option.",
        command: "set-option",
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: false,
        input: || {
            schema(
                json!({
                    "name": { "type": "string" },
                    "value": { "type": "string" },
                    "scope": { "type": "string", "enum": ["server", "session", "window", "pane"], "description": SCOPE },
                    "global": { "type": "boolean" },
                    "unset": { "type": "boolean" },
                    "append": { "type": "boolean" },
                    "target": { "type": "string", "description": TARGET }
                }),
                &["name"],
            )
        },
        build: |a| {
            Ok(Command::SetOption(SetOption {
                target: a.target("target")?,
                scope: scope(a)?,
                global: a.bool("global")?.unwrap_or(false),
                unset: a.bool("unset")?.unwrap_or(false),
                append: a.bool("append")?.unwrap_or(false),
                name: a.required_string("name")?,
                value: a.string("value")?,
                ..SetOption::default()
            }))
        },
    },
];
