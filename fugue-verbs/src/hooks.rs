//! The hook verbs with tmux's names and flags: `set-hook` and `show-hooks`.

use anyhow::bail;
use clap::{Args, Subcommand};
use fugue_protocol::tmux_cmd::{self, ProcessEnv};
use fugue_protocol::{Command, OptionScope, SetHook, ShowHooks, Target};

/// `set-hook`'s flags (tmux: `[-agpRuw] [-t target] hook [command]`).
#[derive(Args, Debug)]
pub struct SetHookArgs {
    /// Add the command after the hook's others.
    #[arg(short = 'a')]
    append: bool,
    /// The global hook (used by objects without their own).
    #[arg(short = 'g')]
    global: bool,
    /// A pane's hook.
    #[arg(short = 'p')]
    pane: bool,
    /// Run the hook now instead of setting it.
    #[arg(short = 'R')]
    run: bool,
    /// Remove the hook (or `hook[N]`, one of its commands).
    #[arg(short = 'u')]
    unset: bool,
    /// A window's hook.
    #[arg(short = 'w')]
    window: bool,
    /// The session, window or pane.
    #[arg(short = 't', value_name = "TARGET")]
    target: Option<String>,
    /// The hook's name (`after-new-window`, `pane-exited`, ...), `name[N]` for one
    /// of its commands.
    hook: String,
    /// The command sequence: one argument (`'split-window -h ; select-pane -L'`, a `{ }`
    /// block) or words with `\;` between commands.
    #[arg(allow_hyphen_values = true, trailing_var_arg = true)]
    command: Vec<String>,
}

/// `show-hooks`' flags (tmux: `[-gpw] [-t target] [hook]`).
#[derive(Args, Debug)]
pub struct ShowHooksArgs {
    /// The global hooks.
    #[arg(short = 'g')]
    global: bool,
    /// A pane's hooks.
    #[arg(short = 'p')]
    pane: bool,
    /// A window's hooks.
    #[arg(short = 'w')]
    window: bool,
    #[arg(short = 't', value_name = "TARGET")]
    target: Option<String>,
    /// Only this hook.
    hook: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum HookVerb {
    /// Set, add to, unset or run (-R) the commands an event runs.
    SetHook(SetHookArgs),
    /// Show hooks and their commands.
    ShowHooks(ShowHooksArgs),
}

fn scope(window: bool, pane: bool) -> anyhow::Result<Option<OptionScope>> {
    Ok(match (window, pane) {
        (false, false) => None,
        (true, false) => Some(OptionScope::Window),
        (false, true) => Some(OptionScope::Pane),
        _ => bail!("give at most one of -w and -p"),
    })
}

fn target(t: Option<String>) -> anyhow::Result<Option<Target>> {
    Ok(t.map(|t| t.parse::<Target>()).transpose()?)
}

pub fn command_for(verb: HookVerb) -> anyhow::Result<Command> {
    Ok(match verb {
        HookVerb::SetHook(a) => {
            let commands = if a.command.is_empty() {
                Vec::new()
            } else {
                // Checked (and names made canonical) by the server, after the hook's
                // name, as tmux reports an unknown hook before a bad command.
                tmux_cmd::split_sequence(&a.command, &ProcessEnv).map_err(anyhow::Error::msg)?
            };
            if commands.is_empty() && !a.unset && !a.run {
                bail!(
                    "set-hook: give the command the hook runs (or -u to remove it, -R to run it)"
                );
            }
            Command::SetHook(SetHook {
                target: target(a.target)?,
                scope: scope(a.window, a.pane)?,
                global: a.global,
                unset: a.unset,
                append: a.append,
                run: a.run,
                name: a.hook,
                commands,
            })
        }
        HookVerb::ShowHooks(a) => Command::ShowHooks(ShowHooks {
            target: target(a.target)?,
            scope: scope(a.window, a.pane)?,
            global: a.global,
            name: a.hook,
        }),
    })
}
