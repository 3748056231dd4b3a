//! `list-commands`: every verb's name, alias and usage line in tmux's shape
//! (`new-session (new) [-AdDEPX] [-c start-directory] ... [shell-command]`), made
//! from the verb table itself so it never disagrees with what the parser takes.

use crate::args::Cli;
use clap::CommandFactory;

/// One verb as `list-commands` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandUsage {
    pub name: String,
    /// tmux shows one alias; of a verb's visible aliases the longest is tmux's
    /// (`attach` of `attach`/`a`, `capturep` of `capture`/`capturep`).
    pub alias: Option<String>,
    pub usage: String,
}

/// The verbs a tmux command line names, sorted by name as tmux lists them; with
/// `only`, the verb whose name or alias it is exactly (none for an unknown name, as
/// tmux prints nothing then).
pub fn list_commands(only: Option<&str>) -> Vec<CommandUsage> {
    crate::line::with_big_stack(move || {
        let mut out: Vec<CommandUsage> = Cli::command()
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .filter(|c| {
                only.is_none_or(|o| c.get_name() == o || c.get_visible_aliases().any(|a| a == o))
            })
            .map(usage_of)
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    })
    .unwrap_or_default()
}

/// `list-commands [-F format] [command]`'s lines: each verb as `name (alias) usage`,
/// or through `format` with `command_list_name`, `command_list_alias` and
/// `command_list_usage`. For the CLI and the MCP `tmux` tool alike.
pub fn lines(format: Option<&str>, only: Option<&str>) -> Vec<String> {
    let format = format.unwrap_or(fugue_protocol::format::defaults::LIST_COMMANDS);
    list_commands(only)
        .into_iter()
        .map(|c| {
            let vars: std::collections::HashMap<String, String> = [
                ("command_list_name", c.name),
                ("command_list_alias", c.alias.unwrap_or_default()),
                ("command_list_usage", c.usage),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
            fugue_protocol::format::expand(format, &vars)
        })
        .collect()
}

fn usage_of(c: &clap::Command) -> CommandUsage {
    let alias = c
        .get_visible_aliases()
        .max_by_key(|a| a.len())
        .map(str::to_string);
    let mut bools: Vec<char> = Vec::new();
    let mut valued: Vec<(char, String)> = Vec::new();
    let mut positional: Vec<String> = Vec::new();
    for a in c.get_arguments().filter(|a| !a.is_hide_set()) {
        let name = a
            .get_value_names()
            .and_then(|v| v.first())
            .map(|v| v.to_string())
            .unwrap_or_else(|| a.get_id().as_str().to_string())
            .to_lowercase()
            .replace('_', "-");
        if a.is_positional() {
            let many = a.get_num_args().is_some_and(|n| n.max_values() > 1);
            let word = if many { format!("{name} ...") } else { name };
            positional.push(if a.is_required_set() {
                word
            } else {
                format!("[{word}]")
            });
            continue;
        }
        // Long-only flags are fugue's own (`--json`); tmux's usage shows its letters.
        let Some(short) = a.get_short() else {
            continue;
        };
        if a.get_action().takes_values() {
            valued.push((short, name));
        } else {
            bools.push(short);
        }
    }
    // tmux's order: letters alphabetically whatever their case (`-AdDEPX`, `[-F
    // format] [-f flags]`).
    bools.sort_by_key(|c| (c.to_ascii_lowercase(), c.is_ascii_uppercase()));
    valued.sort_by_key(|(c, _)| (c.to_ascii_lowercase(), c.is_ascii_lowercase()));
    let mut parts: Vec<String> = Vec::new();
    if !bools.is_empty() {
        parts.push(format!("[-{}]", bools.iter().collect::<String>()));
    }
    parts.extend(valued.into_iter().map(|(c, v)| format!("[-{c} {v}]")));
    parts.extend(positional);
    CommandUsage {
        name: c.get_name().to_string(),
        alias,
        usage: parts.join(" "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verb_is_listed_with_its_flags_in_tmuxs_shape() {
        let all = list_commands(None);
        let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        let new = all.iter().find(|c| c.name == "new-session").unwrap();
        assert_eq!(new.alias.as_deref(), Some("new"));
        assert!(new.usage.starts_with("[-"), "{}", new.usage);
        assert!(new.usage.contains("[-s "), "{}", new.usage);
        let cap = list_commands(Some("capturep"));
        assert_eq!(cap.len(), 1);
        assert_eq!(cap[0].name, "capture-pane");
        assert_eq!(cap[0].alias.as_deref(), Some("capturep"));
        assert!(cap[0].usage.contains("[-t target]"), "{}", cap[0].usage);
        assert!(list_commands(Some("no-such-command")).is_empty());
    }
}
