//! The option verbs with tmux's names, aliases and flags: `set-option` (`set`),
//! `show-options` (`show`), and `set-window-option` (`setw`) / `show-window-options`
//! (`showw`), which are the same with `-w`. Output is tmux 3.3a's, line for line.

use clap::{Args, Subcommand};
use fugue_protocol::{Command, OptionScope, SetOption, ShowOptions, Target};

/// `set-option`'s flags (tmux: `[-aFgopqsuUw] [-t target] option [value]`).
#[derive(Args, Debug)]
pub struct SetArgs {
    /// Append to a string option (or add an element to an array).
    #[arg(short = 'a')]
    append: bool,
    /// Expand the value as a format first.
    #[arg(short = 'F')]
    format: bool,
    /// The global value (inherited by objects without their own).
    #[arg(short = 'g')]
    global: bool,
    /// Only if the option has no value here yet.
    #[arg(short = 'o')]
    only_if_unset: bool,
    /// A pane option.
    #[arg(short = 'p')]
    pane: bool,
    /// No error for an unknown or ambiguous option.
    #[arg(short = 'q')]
    quiet: bool,
    /// A server option.
    #[arg(short = 's')]
    server: bool,
    /// Unset: inherit again (a global value returns to its default).
    #[arg(short = 'u')]
    unset: bool,
    /// Unset, and for a window option unset it on the window's panes too.
    #[arg(short = 'U')]
    unset_panes: bool,
    /// A window option.
    #[arg(short = 'w')]
    window: bool,
    /// The session, window or pane.
    #[arg(short = 't', value_name = "TARGET")]
    target: Option<String>,
    /// The option (a unique prefix of its name will do, as in tmux; @name for your own).
    option: String,
    /// The value; none toggles a flag.
    #[arg(allow_hyphen_values = true)]
    value: Option<String>,
}

/// `show-options`' flags (tmux: `[-AgpqsvwH] [-t target] [option]`).
#[derive(Args, Debug)]
pub struct ShowArgs {
    /// Also values inherited from the parent scope, marked with `*`.
    #[arg(short = 'A')]
    inherited: bool,
    /// The global values.
    #[arg(short = 'g')]
    global: bool,
    /// Hooks too, in tmux; accepted for its scripts, and fugue lists hooks with show-hooks.
    #[arg(short = 'H')]
    hooks: bool,
    /// Pane options.
    #[arg(short = 'p')]
    pane: bool,
    /// No error for an unknown option.
    #[arg(short = 'q')]
    quiet: bool,
    /// Server options.
    #[arg(short = 's')]
    server: bool,
    /// Only the value (of one option).
    #[arg(short = 'v')]
    value_only: bool,
    /// Window options.
    #[arg(short = 'w')]
    window: bool,
    #[arg(short = 't', value_name = "TARGET")]
    target: Option<String>,
    option: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum OptionVerb {
    /// Set an option (see docs/options.md for every option and what it does).
    #[command(visible_alias = "set")]
    SetOption(SetArgs),
    /// Set a window option (set-option -w).
    #[command(visible_alias = "setw")]
    SetWindowOption(SetArgs),
    /// Show options and their values.
    #[command(visible_alias = "show")]
    ShowOptions(ShowArgs),
    /// Show window options (show-options -w).
    #[command(visible_alias = "showw")]
    ShowWindowOptions(ShowArgs),
}

/// How the answer is printed.
#[derive(Debug)]
pub enum OptionPrinter {
    Nothing,
    /// `name value` lines, or with `value_only` the values alone.
    Lines {
        value_only: bool,
    },
}

fn scope(server: bool, window: bool, pane: bool) -> anyhow::Result<Option<OptionScope>> {
    Ok(match (server, window, pane) {
        (false, false, false) => None,
        (true, false, false) => Some(OptionScope::Server),
        (false, true, false) => Some(OptionScope::Window),
        (false, false, true) => Some(OptionScope::Pane),
        // tmux takes the last flag's table; fugue says it is ambiguous.
        _ => anyhow::bail!("give at most one of -s, -w and -p"),
    })
}

fn target(t: Option<String>) -> anyhow::Result<Option<Target>> {
    Ok(t.map(|t| t.parse::<Target>()).transpose()?)
}

pub fn command_for(verb: OptionVerb) -> anyhow::Result<(Command, OptionPrinter)> {
    Ok(match verb {
        OptionVerb::SetOption(a) => set(a, false)?,
        OptionVerb::SetWindowOption(a) => set(a, true)?,
        OptionVerb::ShowOptions(a) => show(a, false)?,
        OptionVerb::ShowWindowOptions(a) => show(a, true)?,
    })
}

fn set(a: SetArgs, window: bool) -> anyhow::Result<(Command, OptionPrinter)> {
    Ok((
        Command::SetOption(SetOption {
            target: target(a.target)?,
            scope: scope(a.server, a.window || window, a.pane)?,
            global: a.global,
            unset: a.unset,
            unset_panes: a.unset_panes,
            append: a.append,
            only_if_unset: a.only_if_unset,
            quiet: a.quiet,
            format: a.format,
            name: a.option,
            value: a.value,
        }),
        OptionPrinter::Nothing,
    ))
}

fn show(a: ShowArgs, window: bool) -> anyhow::Result<(Command, OptionPrinter)> {
    let _ = a.hooks;
    Ok((
        Command::ShowOptions(ShowOptions {
            target: target(a.target)?,
            scope: scope(a.server, a.window || window, a.pane)?,
            global: a.global,
            inherited: a.inherited,
            quiet: a.quiet,
            name: a.option,
        }),
        OptionPrinter::Lines {
            value_only: a.value_only,
        },
    ))
}
