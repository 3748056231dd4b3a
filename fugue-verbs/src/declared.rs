//! The verbs of the commands that the command table declares with their flags
//! (`clap: [aliases]` in an entry, [`fugue_protocol::DECLARED_CLI`]): the CLI, tmux
//! command lines (keys, the prompt, config files, hooks, the `tmux` name) and MCP's tmux
//! tool parse them from the entry's argument struct, so such a command needs no verb,
//! conversion or printer written here.

use clap::error::ErrorKind;
use fugue_protocol::{Command, DECLARED_CLI};

/// A declared command, parsed: the command itself (its arguments are the wire's).
#[derive(Debug)]
pub struct Declared(pub Command);

impl clap::FromArgMatches for Declared {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let Some((name, sub)) = matches.subcommand() else {
            return Err(clap::Error::new(ErrorKind::MissingSubcommand));
        };
        let entry = DECLARED_CLI
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| clap::Error::new(ErrorKind::InvalidSubcommand))?;
        Ok(Declared((entry.parse)(sub)?))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Subcommand for Declared {
    fn augment_subcommands(mut cli: clap::Command) -> clap::Command {
        for entry in DECLARED_CLI {
            let verb = clap::Command::new(entry.name)
                .about(entry.summary)
                .visible_aliases(entry.aliases.iter().copied());
            cli = cli.subcommand((entry.augment)(verb));
        }
        cli
    }

    fn augment_subcommands_for_update(cli: clap::Command) -> clap::Command {
        Self::augment_subcommands(cli)
    }

    fn has_subcommand(name: &str) -> bool {
        DECLARED_CLI
            .iter()
            .any(|e| e.name == name || e.aliases.contains(&name))
    }
}
