//! What `fugue setup` sets for each agent CLI, in the files and shapes each documents:
//! - Claude Code: `mcpServers.fugue` in `~/.claude.json` (a project's `.mcp.json`),
//!   hooks in `~/.claude/settings.json` (`.claude/settings.json`), a skill in
//!   `~/.claude/skills/fugue/SKILL.md`.
//! - Codex: `[mcp_servers.fugue]` and `notify` in `$CODEX_HOME/config.toml`, a block in
//!   `$CODEX_HOME/AGENTS.md`.
//! - Gemini CLI: `mcpServers.fugue` and hooks in `~/.gemini/settings.json` (a
//!   project's `.gemini/settings.json`), a block in `~/.gemini/GEMINI.md` (`GEMINI.md`).

use super::json_doc::Json;
use super::{Edit, Env};
use anyhow::{Context, bail};
use fugue_verbs::{SetupAgent, SetupArgs};
use std::path::{Path, PathBuf};

/// The instructions an agent gets (a skill for Claude Code, a block for the others).
const INSTRUCTIONS: &str = include_str!("instructions.md");

/// The hook events that say an agent's state, per CLI (`fugue report --hook` reads
/// which one fired from its payload).
const CLAUDE_EVENTS: [&str; 3] = ["UserPromptSubmit", "Notification", "Stop"];
const GEMINI_EVENTS: [&str; 3] = ["BeforeAgent", "AfterAgent", "Notification"];

/// Marks the block fugue owns in an instructions file someone else may also write.
const BLOCK_BEGIN: &str =
    "<!-- fugue setup: begin (`fugue setup --remove` takes this block out) -->";
const BLOCK_END: &str = "<!-- fugue setup: end -->";

type Read<'a> = &'a dyn Fn(&Path) -> anyhow::Result<Option<String>>;

/// Every file's change for `args`, and warnings about what was left alone.
pub fn plan(
    args: &SetupArgs,
    env: &Env,
    read: impl Fn(&Path) -> anyhow::Result<Option<String>>,
) -> anyhow::Result<(Vec<Edit>, Vec<String>)> {
    let project = args
        .project
        .as_deref()
        .map(|p| std::path::absolute(p).with_context(|| format!("bad folder {}", p.display())))
        .transpose()?;
    let mut warnings = Vec::new();
    let p = Plan {
        env,
        remove: args.remove,
        read: &read,
    };
    let edits = match (args.agent, project) {
        (SetupAgent::ClaudeCode, project) => p.claude(project.as_deref())?,
        (SetupAgent::Gemini, project) => p.gemini(project.as_deref())?,
        (SetupAgent::Codex, Some(_)) => bail!(
            "Codex reads fugue's settings from $CODEX_HOME/config.toml only: run `fugue setup codex` without --project"
        ),
        (SetupAgent::Codex, None) => p.codex(&mut warnings)?,
    };
    Ok((edits, warnings))
}

struct Plan<'a> {
    env: &'a Env,
    remove: bool,
    read: Read<'a>,
}

impl Plan<'_> {
    fn claude(&self, project: Option<&Path>) -> anyhow::Result<Vec<Edit>> {
        let (state, settings, skill) = match project {
            Some(dir) => (
                dir.join(".mcp.json"),
                dir.join(".claude/settings.json"),
                dir.join(".claude/skills/fugue/SKILL.md"),
            ),
            None => (
                self.env.claude_state.clone(),
                self.env.claude_dir.join("settings.json"),
                self.env.claude_dir.join("skills/fugue/SKILL.md"),
            ),
        };
        let mut server = Json::obj();
        server.set("type", Json::str("stdio"));
        self.server_fields(&mut server);
        let skill_text = format!(
            "---\nname: fugue\ndescription: Drive terminals through fugue (panes, commands, waits, sub-agents) when FUGUE_PANE_ID is set.\n---\n\n{INSTRUCTIONS}"
        );
        Ok(vec![
            self.json(state, |doc| self.mcp_server(doc, server))?,
            self.json(settings, |doc| self.hooks(doc, &CLAUDE_EVENTS))?,
            self.whole_file(skill, skill_text)?,
        ])
    }

    fn gemini(&self, project: Option<&Path>) -> anyhow::Result<Vec<Edit>> {
        let (settings, notes) = match project {
            Some(dir) => (dir.join(".gemini/settings.json"), dir.join("GEMINI.md")),
            None => (
                self.env.gemini_dir.join("settings.json"),
                self.env.gemini_dir.join("GEMINI.md"),
            ),
        };
        let mut server = Json::obj();
        self.server_fields(&mut server);
        Ok(vec![
            self.json(settings, |doc| {
                self.mcp_server(doc, server)?;
                self.hooks(doc, &GEMINI_EVENTS)
            })?,
            self.block(notes)?,
        ])
    }

    fn codex(&self, warnings: &mut Vec<String>) -> anyhow::Result<Vec<Edit>> {
        let config = self.env.codex_home.join("config.toml");
        let before = (self.read)(&config)?;
        let mut doc: toml_edit::DocumentMut = before
            .as_deref()
            .unwrap_or("")
            .parse()
            .with_context(|| format!("{} is not TOML that fugue can read", config.display()))?;
        self.codex_config(&mut doc, warnings)
            .with_context(|| format!("in {}", config.display()))?;
        let after = doc.to_string();
        let after = match &before {
            None if after.trim().is_empty() => None,
            _ => Some(after),
        };
        Ok(vec![
            Edit {
                path: config,
                before,
                after,
            },
            self.block(self.env.codex_home.join("AGENTS.md"))?,
        ])
    }

    fn codex_config(
        &self,
        doc: &mut toml_edit::DocumentMut,
        warnings: &mut Vec<String>,
    ) -> anyhow::Result<()> {
        use toml_edit::{Item, Table, value};
        let fugue = self.env.fugue.to_string_lossy().into_owned();
        let servers = doc
            .entry("mcp_servers")
            .or_insert_with(|| {
                let mut t = Table::new();
                t.set_implicit(true);
                Item::Table(t)
            })
            .as_table_mut()
            .context("`mcp_servers` is not a table")?;
        if self.remove {
            servers.remove("fugue");
        } else {
            let mut t = Table::new();
            t["command"] = value(fugue.as_str());
            t["args"] = value(toml_edit::Array::from_iter(["mcp"]));
            servers.insert("fugue", Item::Table(t));
        }
        if servers.is_empty() {
            doc.remove("mcp_servers");
        }
        let notify = doc.get("notify").and_then(Item::as_array);
        let ours = notify.is_some_and(|a| {
            let words: Vec<&str> = a.iter().filter_map(|v| v.as_str()).collect();
            words.len() == 3 && is_fugue(words[0]) && words[1..] == ["report", "--hook"]
        });
        match (notify.is_some(), ours, self.remove) {
            (_, true, true) => {
                doc.remove("notify");
            }
            (false, _, false) | (true, true, false) => {
                doc["notify"] = value(toml_edit::Array::from_iter([
                    fugue.as_str(),
                    "report",
                    "--hook",
                ]));
            }
            (true, false, false) => warnings.push(
                "Codex's `notify` already runs another program, which fugue leaves: \
                 to report results, have it also run `fugue report --hook \"$1\"` \
                 (docs/agents.md)"
                    .to_string(),
            ),
            _ => {}
        }
        Ok(())
    }

    /// `command` and `args` of fugue's MCP server entry.
    fn server_fields(&self, server: &mut Json) {
        server.set("command", Json::str(&self.env.fugue.to_string_lossy()));
        server.set("args", Json::Arr(vec![Json::str("mcp")]));
    }

    fn mcp_server(&self, doc: &mut Json, server: Json) -> Result<(), String> {
        let servers = doc.obj_at("mcpServers")?;
        if self.remove {
            servers.remove("fugue");
            doc.remove_if_empty("mcpServers");
        } else {
            servers.set("fugue", server);
        }
        Ok(())
    }

    /// Each event's hook group running `fugue report --hook`: fugue's groups are
    /// taken out, then (unless removing) one put back at the end of each event's list.
    fn hooks(&self, doc: &mut Json, events: &[&str]) -> Result<(), String> {
        let command = format!("{} report --hook", shell_word(&self.env.fugue));
        let hooks = doc.obj_at("hooks")?;
        for event in events {
            let groups = hooks.arr_at(event)?;
            groups.retain(|g| !is_our_hook_group(g));
            if !self.remove {
                let mut hook = Json::obj();
                hook.set("type", Json::str("command"));
                hook.set("command", Json::str(&command));
                let mut group = Json::obj();
                group.set("hooks", Json::Arr(vec![hook]));
                groups.push(group);
            }
            hooks.remove_if_empty(event);
        }
        doc.remove_if_empty("hooks");
        Ok(())
    }

    /// A JSON settings file edited by `f`; left byte for byte as it was when `f`
    /// changes nothing.
    fn json(
        &self,
        path: PathBuf,
        f: impl FnOnce(&mut Json) -> Result<(), String>,
    ) -> anyhow::Result<Edit> {
        let before = (self.read)(&path)?;
        let text = before.as_deref().unwrap_or("");
        let original = Json::parse(text)
            .with_context(|| format!("{} is not JSON that fugue can read", path.display()))?;
        let mut doc = original.clone();
        f(&mut doc).map_err(|e| anyhow::anyhow!("in {}: {e}", path.display()))?;
        let after = if doc == original {
            before.clone()
        } else {
            Some(doc.render())
        };
        Ok(Edit {
            path,
            before,
            after,
        })
    }

    /// A file fugue owns whole: written, or deleted on removal.
    fn whole_file(&self, path: PathBuf, text: String) -> anyhow::Result<Edit> {
        let before = (self.read)(&path)?;
        let after = (!self.remove).then_some(text);
        Ok(Edit {
            path,
            before,
            after,
        })
    }

    /// The instructions as a marked block in a file others write too: replaced in
    /// place, appended, or cut out (the file deleted only if nothing else is left).
    fn block(&self, path: PathBuf) -> anyhow::Result<Edit> {
        let before = (self.read)(&path)?;
        let text = before.as_deref().unwrap_or("");
        let found = block_range(text)
            .with_context(|| format!("{}: fugue's block has no end marker", path.display()))?;
        let block = format!("{BLOCK_BEGIN}\n{INSTRUCTIONS}{BLOCK_END}\n");
        let after = match (found, self.remove) {
            (None, true) => before.clone(),
            (None, false) if text.trim().is_empty() => Some(block),
            (None, false) => Some(format!("{}\n\n{block}", text.trim_end())),
            // In place: the rest of the file keeps its order.
            (Some((start, end)), false) => {
                Some(format!("{}{block}{}", &text[..start], &text[end..]))
            }
            (Some((start, end)), true) => {
                let (mut head, tail) = (&text[..start], &text[end..]);
                // The blank line setup put before a block it appended goes with it.
                if tail.is_empty() && head.ends_with("\n\n") {
                    head = &head[..head.len() - 1];
                }
                let rest = format!("{head}{tail}");
                // A file that held only fugue's block goes, and `apply` says so.
                (!rest.trim().is_empty()).then_some(rest)
            }
        };
        Ok(Edit {
            path,
            before,
            after,
        })
    }
}

/// Where fugue's block is in `text` (with the newline after it): Some(None) when there
/// is none, None when it is not closed.
fn block_range(text: &str) -> Option<Option<(usize, usize)>> {
    let Some(start) = text.find(BLOCK_BEGIN) else {
        return Some(None);
    };
    let end = start + text[start..].find(BLOCK_END)? + BLOCK_END.len();
    let end = if text[end..].starts_with('\n') {
        end + 1
    } else {
        end
    };
    Some(Some((start, end)))
}

/// Whether a hook group is fugue's: one of its commands is `.../fugue report --hook`.
fn is_our_hook_group(group: &Json) -> bool {
    let Some(Json::Arr(hooks)) = group.get("hooks") else {
        return false;
    };
    hooks.iter().any(|h| {
        h.get("command").and_then(Json::as_str).is_some_and(|c| {
            c.trim()
                .strip_suffix(" report --hook")
                .is_some_and(|prog| is_fugue(prog.trim_matches('\'')))
        })
    })
}

fn is_fugue(program: &str) -> bool {
    Path::new(program).file_name().is_some_and(|n| n == "fugue")
}

/// `path` as one shell word: as it is when it has only safe characters, else in
/// single quotes.
fn shell_word(path: &Path) -> String {
    let s = path.to_string_lossy();
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._-+".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests;
