//! What each surface may do. Enforced here, in the dispatcher, at call time, for every
//! surface alike: a tool an MCP client cannot see is also refused if it calls it.

use crate::config::Config;
use crate::mux::TreeOnDemand;
use crate::origin::{Agent, Origin, Surface};
use crate::session::Tree;
use crate::session::resolve::Context;
use crate::session::tree::Creator;
use fugue_protocol::cmd;
use fugue_protocol::{Command, CommandError, ErrorCode, PaneId, Tier};

/// The tiers a surface may use.
pub fn allowed(config: &Config, surface: Surface) -> &[Tier] {
    let p = &config.policy;
    match surface {
        Surface::Cli => &p.cli,
        Surface::Keys => &p.keys,
        Surface::Mcp => &p.mcp,
        Surface::Sideband => &p.sideband,
        // Only a person sets hooks (agents are refused `set-hook`), so a hook's
        // commands have what the person's CLI has.
        Surface::Hook => &p.cli,
        Surface::Server => &[Tier::Read, Tier::Write, Tier::Destroy],
    }
}

fn tier_name(t: Tier) -> &'static str {
    match t {
        Tier::Read => "read",
        Tier::Write => "write",
        Tier::Destroy => "destroy",
    }
}

/// The origin a command is judged as: a client connection from inside an agent's pane
/// (started from a preset, whoever started it) or a pane an agent created acts for that
/// agent. Otherwise `fugue kill-session` or `fugue send-keys -t %0` run by an agent
/// would escape every rule the agent is held to, and its keys would count as a
/// person's.
pub fn effective(tree: &mut TreeOnDemand<'_>, origin: &Origin) -> Option<Origin> {
    let Origin::Client {
        id,
        caller_pane: Some(pane),
        ..
    } = origin
    else {
        return None;
    };
    let p = tree.get().panes.get(pane)?;
    let agent = match &p.creator {
        // Sideband's rules, with its depth and count limits, for what a tag made.
        Creator::Sideband { .. } => Agent::Sideband,
        // An agent in its own pane is itself, whoever started it.
        _ if p.agent.is_some() => Agent::Pane { pane: *pane },
        Creator::Mcp { connection, .. } => Agent::Mcp {
            connection: *connection,
        },
        Creator::Agent { pane: by } => Agent::Pane { pane: *by },
        Creator::Person { .. } | Creator::Server => return None,
    };
    Some(Origin::Delegated {
        client: *id,
        pane: *pane,
        agent,
    })
}

/// Refuses a command the origin's surface may not run, or that reaches outside the
/// origin's scope.
pub fn check(
    config: &Config,
    tree: &mut TreeOnDemand<'_>,
    ctx: &Context,
    origin: &Origin,
    scope: &super::scope::Scope,
    command: &Command,
) -> Result<(), CommandError> {
    // Sent by an MCP connection for its own pane, whatever tiers MCP has: refused, a
    // read-only agent's pane would stay scanned for tags in `auto` mode and could act
    // through them. Nothing else may send it.
    if let Command::SidebandMcp(_) = command {
        return match origin {
            Origin::Mcp {
                caller_pane: Some(_),
                ..
            } => Ok(()),
            _ => Err(CommandError::forbidden(
                "`sideband-mcp` is sent by an MCP connection for the pane it runs in, and by nothing else",
            )),
        };
    }
    if origin.is_agent() && matches!(command, Command::SetHook(_) | Command::ShowHooks(_)) {
        return Err(CommandError::forbidden(
            "hooks run commands with a person's rights whenever their event happens, so only a person sets or reads them",
        )
        .with_suggestion("react to events with wait_for (MCP) or `fugue wait-for` instead"));
    }
    // `pipe-pane 'CMD'` runs CMD in a shell of the server's, in no pane: what an agent
    // runs must be seen, as `run-shell` is refused to it (issue 30, item 12).
    if origin.is_agent()
        && let Command::PipePane(p) = command
        && p.command.is_some()
    {
        return Err(CommandError::forbidden(
            "pipe-pane runs its command in a shell of the server's, in no pane, which agents may not",
        )
        .with_suggestion(
            "run the command in a pane (run_command, or split-window with the command) and read its output with read_pane",
        ));
    }
    let surface = origin.surface();
    let tier = command.tier();
    let mut own = || {
        config.policy.close_own && super::own::closes_only_its_own(tree.get(), ctx, origin, command)
    };
    if !allowed(config, surface).contains(&tier) && !own() {
        if config.policy.close_own && super::own::may_close_own(command.name()) {
            // What does not exist is said so, and the caller's own pane as such,
            // before "not yours" (close_pane %999 used to be `forbidden`).
            if let Some(t) = command.target() {
                tree.get().resolve_pane(Some(t), ctx)?;
            }
            if origin.is_agent() && !config.policy.allow_self_destroy {
                check_self(tree.get(), ctx, origin, command)?;
            }
            return Err(CommandError::forbidden(format!(
                "{origin} may close only panes and windows it created (and their descendants) without the destroy tier; `{}` names something else",
                command.name()
            ))
            .with_suggestion(format!(
                "close panes you created (create_pane, spawn_agent, run_command with keep) or ask a person; a person can allow more with `{} = [..., \"destroy\"]` under [policy]",
                surface.name()
            )));
        }
        return Err(CommandError::forbidden(format!(
            "`{}` needs the {} tier, which the {} surface does not have",
            command.name(),
            tier_name(tier),
            surface.name()
        ))
        .with_suggestion(format!(
            "a person can allow it with `{} = [..., \"{}\"]` under [policy] in the config file",
            surface.name(),
            tier_name(tier)
        )));
    }
    if origin.is_agent() && !config.policy.allow_self_destroy {
        check_self(tree.get(), ctx, origin, command)?;
    }
    if let Some(pane) = origin.sideband_pane() {
        check_spawn_limits(config, tree.get(), pane, command)?;
    }
    // Everything is in an unlimited scope: no need to look.
    if !scope.is_all() {
        super::scope::check(tree.get(), ctx, scope, command)?;
    }
    if origin.is_agent() && config.policy.protect_first_pane {
        super::scope::check_protected(tree.get(), ctx, command)?;
    }
    Ok(())
}

/// A pane's tags may not spawn deeper than `max_depth` generations, nor keep more than
/// `max_children` live panes of its own: the bounds on a runaway chain.
fn check_spawn_limits(
    config: &Config,
    tree: &Tree,
    pane: PaneId,
    command: &Command,
) -> Result<(), CommandError> {
    let creates = match command {
        Command::SplitPane(_)
        | Command::NewWindow(_)
        | Command::NewSession(_)
        | Command::SpawnAgent(_) => true,
        Command::RunCommand(r) => r.pane.is_none(),
        _ => false,
    };
    if !creates {
        return Ok(());
    }
    let sb = &config.sideband;
    let depth = tree.panes.get(&pane).map(|p| p.depth).unwrap_or(0) + 1;
    if depth > sb.max_depth {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "pane {pane} may not spawn: its pane would be {depth} generations deep and the limit is {}",
                sb.max_depth
            ),
        )
        .with_suggestion("do the work in this pane, or ask a person to raise [sideband] max_depth"));
    }
    let children = tree
        .panes
        .values()
        .filter(|p| p.creator == Creator::Sideband { pane })
        .count() as u32;
    if children >= sb.max_children {
        return Err(CommandError::new(
            ErrorCode::LimitExceeded,
            format!(
                "pane {pane} already has {children} live panes it spawned (the limit is {})",
                sb.max_children
            ),
        )
        .with_suggestion(
            "close some of them (<fugue:control action=\"close\" pane=\"%N\"/>) first",
        ));
    }
    Ok(())
}

/// An agent may not end the pane, window or session it runs in, or the server.
fn check_self(
    tree: &Tree,
    ctx: &Context,
    origin: &Origin,
    command: &Command,
) -> Result<(), CommandError> {
    let refuse = |what: &str| {
        Err(
            CommandError::forbidden(format!("{origin} may not {what}")).with_suggestion(
                "a person can allow it with `allow_self_destroy = true` under [policy]",
            ),
        )
    };
    let Some(me) = origin.caller_pane().filter(|p| tree.panes.contains_key(p)) else {
        return match command {
            Command::KillServer => refuse("kill the server"),
            _ => Ok(()),
        };
    };
    let Some((my_session, my_window)) = tree.locate(me) else {
        return Ok(());
    };
    match command {
        Command::KillServer => refuse("kill the server"),
        Command::KillPane(cmd::KillPane { target })
            if tree.resolve_pane(target.as_ref(), ctx).ok() == Some(me) =>
        {
            refuse(&format!("close its own pane {me}"))
        }
        Command::Respawn(c) if tree.resolve_pane(c.target.as_ref(), ctx).ok() == Some(me) => {
            refuse(&format!("respawn its own pane {me}"))
        }
        Command::KillOtherPanes(cmd::KillOtherPanes { target })
            if tree.resolve_window(target.as_ref(), ctx).ok().map(|w| w.1) == Some(my_window)
                && tree.resolve_pane(target.as_ref(), ctx).ok() != Some(me) =>
        {
            refuse("close its own pane")
        }
        Command::KillWindow(cmd::KillWindow { target })
            if tree.resolve_window(target.as_ref(), ctx).ok().map(|w| w.1) == Some(my_window) =>
        {
            refuse("close the window it runs in")
        }
        Command::KillSession(cmd::KillSession { target })
            if tree.resolve_session(target.as_ref(), ctx).ok() == Some(my_session) =>
        {
            refuse("kill the session it runs in")
        }
        Command::NewWindow(c)
            if c.kill
                && super::scope::replaced_window(tree, ctx, c.target.as_ref())
                    == Some(my_window) =>
        {
            refuse("replace the window it runs in")
        }
        Command::KillOtherWindows(cmd::KillOtherWindows { target })
            if tree
                .resolve_window(target.as_ref(), ctx)
                .ok()
                .is_some_and(|(s, w)| s == my_session && w != my_window) =>
        {
            refuse("close the window it runs in")
        }
        Command::KillOtherSessions(cmd::KillOtherSessions { target })
            if tree
                .resolve_session(target.as_ref(), ctx)
                .ok()
                .is_some_and(|s| s != my_session) =>
        {
            refuse("kill the session it runs in")
        }
        _ => Ok(()),
    }
}
