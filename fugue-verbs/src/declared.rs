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

#[cfg(test)]
mod tests {
    use crate::args::Verb;
    use fugue_protocol::{Command, Target, cmd};

    /// Through the tmux command-line parser, as keys, the prompt and config files
    /// reach it (clap's derive needs the big stack it gives).
    fn parse(words: &[&str]) -> Result<Command, String> {
        let argv: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        match crate::line::parse_argv(&argv)? {
            (_, Verb::Declared(d)) => Ok(d.0),
            (_, other) => Err(format!("not a declared verb: {other:?}")),
        }
    }

    #[test]
    fn a_declared_verb_parses_its_flags_aliases_and_prefixes() {
        let pane: Target = "%3".parse().unwrap();
        let want = Command::ClearHistory(cmd::ClearHistory {
            target: Some(pane.clone()),
            hyperlinks: false,
        });
        assert_eq!(parse(&["clear-history", "-t", "%3"]), Ok(want.clone()));
        assert_eq!(parse(&["clearhist", "-t", "%3"]), Ok(want));
        assert_eq!(
            parse(&["clear-hist", "-H"]),
            Ok(Command::ClearHistory(cmd::ClearHistory {
                target: None,
                hyperlinks: true,
            }))
        );
        let bad = parse(&["clear-history", "-x"]).unwrap_err();
        assert!(bad.contains("-x"), "{bad}");
    }

    #[test]
    fn declared_verbs_take_tmux_flags_and_positionals() {
        let window: Target = "s:1".parse().unwrap();
        assert_eq!(
            parse(&["renamew", "-t", "s:1", "logs"]),
            Ok(Command::RenameWindow(cmd::RenameWindow {
                target: Some(window.clone()),
                name: "logs".into(),
            }))
        );
        assert_eq!(
            parse(&["unlinkw", "-k", "-t", "s:1"]),
            Ok(Command::UnlinkWindow(cmd::UnlinkWindow {
                target: Some(window),
                kill: true,
            }))
        );
        assert_eq!(
            parse(&["send-prefix", "-2"]),
            Ok(Command::SendPrefix(cmd::SendPrefix {
                target: None,
                secondary: true,
            }))
        );
        // A name is required, as tmux's `rename-session` requires it.
        assert!(parse(&["rename-session"]).is_err());
    }
}
