//! Suggestions worded for the surface that asked (issue 18).
//!
//! Handlers deep in the tree (target resolution) word their advice as CLI commands,
//! which a person at a terminal can run. An MCP caller cannot: it gets the same advice
//! as the tools that do it. The table is small and closed; the MCP tests check every
//! error they provoke for CLI advice, so a new CLI phrase reaching an MCP caller fails
//! a test rather than sending an agent to a command it cannot run.

use super::Exec;
use crate::origin::{Origin, Surface};
use fugue_protocol::{CommandError, Tier};

/// CLI advice and what an MCP caller is told instead.
const MCP_WORDS: &[(&str, &str)] = &[
    (
        "create one with `fugue new-session` or just `fugue`",
        "create one with create_session (run_command and create_pane make one when none exists)",
    ),
    (
        "create one with `fugue new-session`",
        "create one with create_session (run_command and create_pane make one when none exists)",
    ),
    (
        "pick another name, or attach to it with `fugue attach -t NAME`",
        "pick another name, or use it: list_panes {\"session\": NAME} shows its panes",
    ),
    (
        "close it with kill-pane, or start a new pane",
        "start a new pane with create_pane (read_pane still shows its last output)",
    ),
    (" (fugue list-panes -a)", " (list_panes lists them all)"),
    (
        "agents report with `fugue report --result`",
        "agents report their result with the report tool or their hooks",
    ),
    (
        "have it run `fugue report --state idle` when ready",
        "have it call report {\"state\": \"idle\"} when ready",
    ),
    (
        "`fugue show-options -g`, `-s` and `-gw` list every option (docs/options.md)",
        "the tmux tool's `show-options -g` (and `-s`, `-gw`) lists every option and its value",
    ),
];

/// Rewords `e`'s advice for the surface of `origin`.
pub fn for_surface(origin: &Origin, e: &mut CommandError) {
    if origin.surface() != Surface::Mcp {
        return;
    }
    for text in [Some(&mut e.message), e.suggestion.as_mut()]
        .into_iter()
        .flatten()
    {
        for (cli, mcp) in MCP_WORDS {
            if text.contains(cli) {
                *text = text.replace(cli, mcp);
            }
        }
    }
}

/// Whether the caller may run destroy-tier commands (close a pane): advice names
/// `close_pane` only to callers who can call it.
pub fn may_destroy(exec: &Exec<'_>) -> bool {
    let config = exec.server.config();
    super::policy::allowed(&config, exec.origin.surface()).contains(&Tier::Destroy)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcp_callers_get_tool_advice_and_others_keep_the_cli_words() {
        let e = CommandError::unknown_target("no sessions exist")
            .with_suggestion("create one with `fugue new-session` or just `fugue`");
        let mut mcp = e.clone();
        for_surface(
            &Origin::Mcp {
                connection: 1,
                caller_pane: None,
                http: false,
            },
            &mut mcp,
        );
        let s = mcp.suggestion.unwrap_or_default();
        assert!(s.contains("create_session") && !s.contains("`fugue"), "{s}");
        let mut cli = e.clone();
        for_surface(
            &Origin::Client {
                id: 1,
                kind: fugue_protocol::ClientKind::Cli,
                caller_pane: None,
            },
            &mut cli,
        );
        assert_eq!(cli, e);
    }
}
