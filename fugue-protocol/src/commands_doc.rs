//! docs/commands.md, generated from the command declaration ([`crate::COMMANDS`]).

use crate::command::{COMMANDS, Exposure};

/// docs/commands.md: the command table as Markdown, generated from [`COMMANDS`] (a
/// test fails when the file differs; `FUGUE_BLESS=1 cargo test -p fugue-protocol`
/// writes it).
pub fn commands_markdown() -> String {
    fn cell(e: Exposure) -> String {
        match e {
            Exposure::As(n) => format!("`{n}`"),
            Exposure::Absent(_) => "—".into(),
            Exposure::Tmux => "`tmux`".into(),
        }
    }
    let mut out = String::from(
        "# Commands\n\n\
         Generated from the one command declaration (`fugue-protocol/src/command.rs`, \
         `commands!`); do not edit by hand. Every command goes through the same dispatcher, \
         policy and audit log whichever surface it comes from. A dash means the surface does \
         not offer the command; the reasons follow the table. `tmux` in the MCP column: the \
         MCP `tmux` tool runs it as a tmux command line, by its CLI name.\n\n\
         | command | tier | what | CLI | MCP tool | sideband tag | key action |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for c in COMMANDS {
        let s = c.surfaces;
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            c.name,
            format!("{:?}", c.tier).to_lowercase(),
            c.summary,
            cell(s.cli),
            cell(s.mcp),
            cell(s.sideband),
            cell(s.keys)
        ));
    }
    out.push_str("\n## Why a surface does not offer a command\n\n");
    for c in COMMANDS {
        let s = c.surfaces;
        for (surface, e) in [
            ("CLI", s.cli),
            ("MCP", s.mcp),
            ("sideband", s.sideband),
            ("keys", s.keys),
        ] {
            if let Exposure::Absent(why) = e {
                out.push_str(&format!("- `{}`, {surface}: {why}.\n", c.name));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_commands_md_is_what_the_declaration_generates() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/commands.md");
        let want = commands_markdown();
        if std::env::var_os("FUGUE_BLESS").is_some() {
            std::fs::write(path, &want).unwrap();
        }
        let have = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            have == want,
            "docs/commands.md is out of date: run `FUGUE_BLESS=1 cargo test -p fugue-protocol`"
        );
    }
}
