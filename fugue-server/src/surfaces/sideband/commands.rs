//! What each tag does: the same Commands the MCP tools and CLI verbs build.

use crate::pane::tags::Tag;
use fugue_protocol::WorktreeSpec;
use fugue_protocol::cmd;
use fugue_protocol::limits::{MAX_COLS, MAX_ROWS};
use fugue_protocol::observe::{ReadPane, ReadSource};
use fugue_protocol::{
    AgentState, BufferData, Command, CommandError, Delivery, Direction, InputPart, Key,
    LayoutChoice, LayoutPreset, MessageTo, PaneId, PaneScope, PaneSelect, PasteBuffer, Placement,
    Report, Resize, SendInput, SendMessage, SetBuffer, Spawn, SpawnAgent, SplitPane, SplitSize,
    Target,
};

/// What running a tag takes.
pub enum Plan {
    One(Command),
}

/// Attributes each tag takes (every tag also takes `id`).
fn allowed(name: &str) -> &'static [&'static str] {
    match name {
        "spawn" => &[
            "command",
            "agent",
            "direction",
            "size",
            "cwd",
            "name",
            "sideband",
            "tags",
            "depends_on",
            "worktree",
        ],
        "message" => &["to", "delivery", "quiescence", "timeout"],
        "report" => &["state"],
        "result" => &["pane"],
        "input" => &["pane", "submit"],
        "read" => &["pane", "lines"],
        "list" => &[],
        "focus" => &["pane"],
        "control" => &[
            "action",
            "pane",
            "amount",
            "direction",
            "layout",
            "width",
            "height",
        ],
        "notify" => &[],
        "buffer" => &["name", "append", "action"],
        "paste" => &["name", "pane", "delete"],
        _ => &[],
    }
}

fn flag(tag: &Tag, name: &str) -> Result<Option<bool>, CommandError> {
    match tag.attr(name) {
        None => Ok(None),
        Some("true" | "yes" | "1") => Ok(Some(true)),
        Some("false" | "no" | "0") => Ok(Some(false)),
        Some(v) => Err(CommandError::invalid_argument(
            name,
            format!("`{v}`: expected true or false"),
        )),
    }
}

fn pane(tag: &Tag, me: PaneId) -> Result<Target, CommandError> {
    match tag.attr("pane") {
        None => Ok(Target::Pane(me)),
        Some(p) => p
            .parse()
            .map_err(|e| CommandError::invalid_argument("pane", e)),
    }
}

fn number(tag: &Tag, name: &str, max: u32) -> Result<Option<u32>, CommandError> {
    tag.attr(name)
        .map(|v| {
            v.trim_end_matches('%')
                .parse::<u32>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| {
                    CommandError::invalid_argument(
                        name,
                        format!("`{v}`: expected a number up to {max}"),
                    )
                })
        })
        .transpose()
}

fn direction(tag: &Tag) -> Result<Option<Direction>, CommandError> {
    tag.attr("direction")
        .map(|d| {
            Direction::parse(d).ok_or_else(|| {
                CommandError::invalid_argument(
                    "direction",
                    format!("`{d}`: expected left, right, up or down"),
                )
            })
        })
        .transpose()
}

/// The commands a tag from pane `me` stands for.
pub fn plan(tag: &Tag, me: PaneId) -> Result<Plan, CommandError> {
    let allowed = allowed(&tag.name);
    if let Some((k, _)) = tag
        .attrs
        .iter()
        .find(|(k, _)| k != "id" && !allowed.contains(&k.as_str()))
    {
        return Err(CommandError::invalid_argument(
            k,
            format!("<fugue:{}> has no such attribute", tag.name),
        )
        .with_suggestion(format!("its attributes are: id, {}", allowed.join(", "))));
    }
    let content = tag.content.clone().unwrap_or_default();
    Ok(match tag.name.as_str() {
        "spawn" if tag.attr("agent").is_some() => Plan::One(spawn_agent(tag, me, content)?),
        "spawn" => {
            for only in ["tags", "depends_on", "worktree"] {
                if tag.attr(only).is_some() {
                    return Err(CommandError::invalid_argument(
                        only,
                        "it goes with agent=\"PRESET\", not with command",
                    ));
                }
            }
            let split = SplitPane {
                target: Some(Target::Pane(me)),
                direction: direction(tag)?.unwrap_or(Direction::Right),
                size: number(tag, "size", 99)?
                    .filter(|n| *n > 0)
                    .map(|n| SplitSize::Percent(n as u8)),
                select: false,
                zoom: false,
                full: false,
                spawn: Spawn {
                    command: tag
                        .attr("command")
                        .map(|c| vec![c.to_string()])
                        .unwrap_or_default(),
                    cwd: tag.attr("cwd").map(String::from),
                    env: Vec::new(),
                    title: tag.attr("name").map(String::from),
                    sideband: flag(tag, "sideband")?,
                    remain: None,
                },
                // The content is the new pane's task: one command, one audit record.
                task: (!content.trim().is_empty()).then_some(content),
            };
            Plan::One(Command::SplitPane(split))
        }
        "input" => {
            let Some(target) = tag.attr("pane") else {
                return Err(CommandError::invalid_argument(
                    "pane",
                    "it is required: the pane to type into",
                ));
            };
            let mut parts = vec![InputPart::Paste(content)];
            if flag(tag, "submit")?.unwrap_or(false) {
                parts.push(InputPart::Key(Key::new(
                    fugue_protocol::keys::KeyCode::Enter,
                    fugue_protocol::keys::Mods::NONE,
                )));
            }
            Plan::One(Command::SendInput(SendInput {
                target: Some(
                    target
                        .parse()
                        .map_err(|e| CommandError::invalid_argument("pane", e))?,
                ),
                parts,
            }))
        }
        "read" => Plan::One(Command::ReadPane(ReadPane {
            target: Some(pane(tag, me)?),
            source: ReadSource::Scrollback,
            lines: number(tag, "lines", 2000)?,
            ansi: false,
        })),
        "list" => Plan::One(Command::ListPanes(cmd::ListPanes {
            target: None,
            scope: PaneScope::All,
            values: Vec::new(),
        })),
        "focus" => Plan::One(Command::SelectPane(cmd::SelectPane {
            target: Some(pane(tag, me)?),
            select: PaneSelect::Target,
            keep_zoom: false,
        })),
        "control" => {
            let target = Some(pane(tag, me)?);
            match tag.attr("action") {
                Some("close") => Plan::One(Command::KillPane(cmd::KillPane { target })),
                Some("zoom") => Plan::One(Command::ResizePane(cmd::ResizePane {
                    target,
                    resize: Resize::ZoomToggle,
                })),
                Some("resize") => {
                    // An absolute size (tmux's resize-pane -x/-y), else a border move.
                    let width = number(tag, "width", u32::from(MAX_COLS))?.map(|w| w.max(1) as u16);
                    let height =
                        number(tag, "height", u32::from(MAX_ROWS))?.map(|h| h.max(1) as u16);
                    let resize = if width.is_some() || height.is_some() {
                        Resize::To { width, height }
                    } else {
                        let dir = direction(tag)?.ok_or_else(|| {
                            CommandError::invalid_argument(
                                "direction",
                                "resize needs direction=left|right|up|down, or width/height",
                            )
                        })?;
                        let amount = number(tag, "amount", 1000)?.unwrap_or(5).max(1) as u16;
                        Resize::By(dir, amount)
                    };
                    Plan::One(Command::ResizePane(cmd::ResizePane { target, resize }))
                }
                Some("layout") => {
                    let layout = match tag.attr("layout") {
                        None => LayoutChoice::Next,
                        Some(name) => {
                            LayoutChoice::Preset(LayoutPreset::parse(name).ok_or_else(|| {
                                CommandError::invalid_argument(
                                    "layout",
                                    format!("`{name}` is not a layout"),
                                )
                            })?)
                        }
                    };
                    Plan::One(Command::SelectLayout(cmd::SelectLayout { target, layout }))
                }
                other => {
                    return Err(CommandError::invalid_argument(
                        "action",
                        format!(
                            "`{}`: expected close, resize, zoom or layout",
                            other.unwrap_or("")
                        ),
                    ));
                }
            }
        }
        "buffer" => Plan::One(buffer(tag, content)?),
        "paste" => Plan::One(Command::PasteBuffer(PasteBuffer {
            name: tag.attr("name").map(String::from),
            target: Some(pane(tag, me)?),
            bracketed: true,
            delete: flag(tag, "delete")?.unwrap_or(false),
            separator: None,
        })),
        "notify" => Plan::One(Command::DisplayMessage(cmd::DisplayMessage {
            target: Some(Target::Pane(me)),
            text: content,
            delay_ms: None,
        })),
        "message" => {
            let to = tag.attr("to").ok_or_else(|| {
                CommandError::invalid_argument("to", "it is required: %N, tag:NAME or children")
            })?;
            let delivery = match tag.attr("delivery") {
                None | Some("async") => Delivery::Async,
                Some("sync") => Delivery::Sync,
                Some(d) => {
                    return Err(CommandError::invalid_argument(
                        "delivery",
                        format!("`{d}`: expected async or sync"),
                    ));
                }
            };
            Plan::One(Command::SendMessage(SendMessage {
                to: MessageTo::parse(to).map_err(|e| CommandError::invalid_argument("to", e))?,
                text: content,
                delivery,
                quiescence_ms: number(tag, "quiescence", 600_000)?.map(u64::from),
                timeout_ms: number(tag, "timeout", u32::MAX)?.map(u64::from),
                plain: false,
            }))
        }
        "report" => {
            let state = tag
                .attr("state")
                .map(|s| {
                    AgentState::parse(s).ok_or_else(|| {
                        CommandError::invalid_argument(
                            "state",
                            format!("`{s}`: expected idle, busy or awaiting_input"),
                        )
                    })
                })
                .transpose()?;
            let result = tag.content.as_ref().map(|c| c.trim().to_string());
            Plan::One(Command::Report(Report {
                target: None,
                state,
                result: result.filter(|r| !r.is_empty()),
            }))
        }
        "result" => Plan::One(Command::GetResult(cmd::GetResult {
            target: Some(pane(tag, me)?),
        })),
        other => {
            return Err(CommandError::invalid_argument(
                "tag",
                format!("unknown tag `{other}`"),
            ));
        }
    })
}

/// A list attribute: values separated by commas or spaces.
fn list(tag: &Tag, name: &str) -> Vec<String> {
    tag.attr(name)
        .map(|v| {
            v.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        })
        .unwrap_or_default()
}

/// `<fugue:spawn agent="claude" ...>task</fugue:spawn>`: an agent split off this pane.
fn spawn_agent(tag: &Tag, me: PaneId, task: String) -> Result<Command, CommandError> {
    for not in ["command", "sideband"] {
        if tag.attr(not).is_some() {
            return Err(CommandError::invalid_argument(
                not,
                "with agent=\"PRESET\" the preset decides it",
            ));
        }
    }
    let depends_on = list(tag, "depends_on")
        .iter()
        .map(|t| {
            t.parse::<Target>()
                .map_err(|e| CommandError::invalid_argument("depends_on", e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::SpawnAgent(SpawnAgent {
        agent: tag.attr("agent").unwrap_or_default().to_string(),
        task: Some(task).filter(|t| !t.trim().is_empty()),
        placement: Placement::Split {
            target: Some(Target::Pane(me)),
            direction: direction(tag)?.unwrap_or(Direction::Right),
            size: number(tag, "size", 99)?.filter(|n| *n > 0).map(|n| n as u8),
        },
        cwd: tag.attr("cwd").map(String::from),
        name: tag.attr("name").map(String::from),
        tags: list(tag, "tags"),
        depends_on,
        timeout_ms: None,
        // worktree="true": a new branch; worktree="NAME": that branch.
        worktree: match tag.attr("worktree") {
            None | Some("false") => None,
            Some("true") => Some(WorktreeSpec::Auto),
            Some(b) => Some(WorktreeSpec::Branch(b.to_string())),
        },
    }))
}

/// `<fugue:buffer name="N" append="true">text</fugue:buffer>` stores text;
/// `<fugue:buffer name="N" action="delete"/>` deletes.
fn buffer(tag: &Tag, content: String) -> Result<Command, CommandError> {
    let name = tag.attr("name").map(String::from);
    match tag.attr("action") {
        None | Some("set") => Ok(Command::SetBuffer(SetBuffer {
            name,
            append: flag(tag, "append")?.unwrap_or(false),
            rename: None,
            data: Some(BufferData::Text(content)),
            clipboard: false,
            client: None,
        })),
        Some("delete") => Ok(Command::DeleteBuffer(cmd::DeleteBuffer { name })),
        Some(other) => Err(CommandError::invalid_argument(
            "action",
            format!("`{other}`: expected set or delete"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{Plan, plan};
    use crate::pane::tags::{TAG_NAMES, Tag};
    use fugue_protocol::{COMMANDS, Command, Direction, Exposure, PaneId, Resize, cmd};

    /// Issue 12: the tags the scanner knows are exactly the ones the command
    /// declaration puts on the sideband surface, and each declared tag has its
    /// attributes here.
    #[test]
    fn the_tags_are_what_the_command_declaration_says() {
        let declared: Vec<&str> = COMMANDS
            .iter()
            .filter_map(|c| c.surfaces.sideband.name())
            .filter_map(|t| t.split_whitespace().next())
            .collect();
        for tag in &declared {
            assert!(
                TAG_NAMES.contains(tag),
                "declared tag {tag} is not scanned for"
            );
        }
        for tag in TAG_NAMES {
            assert!(declared.contains(tag), "tag {tag} runs no declared command");
        }
        for c in COMMANDS {
            if let Exposure::Absent(why) = c.surfaces.sideband {
                assert!(!why.is_empty(), "{}", c.name);
            }
        }
    }

    fn tag(name: &str, attrs: &[(&str, &str)]) -> Tag {
        Tag {
            name: name.into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            content: None,
            text: String::new(),
        }
    }

    /// Issue 18: a spawned agent may get a git worktree, as over MCP and the CLI;
    /// a plain command may not.
    #[test]
    fn spawn_takes_a_worktree_for_agents() {
        use fugue_protocol::WorktreeSpec;
        let me = PaneId(3);
        let spec = |attrs: &[(&str, &str)]| match plan(&tag("spawn", attrs), me) {
            Ok(Plan::One(Command::SpawnAgent(s))) => s.worktree,
            other => panic!("{:?}", other.err()),
        };
        assert_eq!(spec(&[("agent", "claude")]), None);
        assert_eq!(
            spec(&[("agent", "claude"), ("worktree", "true")]),
            Some(WorktreeSpec::Auto)
        );
        assert_eq!(
            spec(&[("agent", "claude"), ("worktree", "agent/x")]),
            Some(WorktreeSpec::Branch("agent/x".into()))
        );
        let e = plan(
            &tag("spawn", &[("command", "ls"), ("worktree", "true")]),
            me,
        );
        assert!(e.is_err());
    }

    fn control(attrs: &[(&str, &str)]) -> Tag {
        Tag {
            name: "control".into(),
            attrs: attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            content: None,
            text: String::new(),
        }
    }

    /// Issue 14: the absolute size a border drag sends (`resize-pane -x/-y`) is on the
    /// sideband too; a direction still moves a border.
    #[test]
    fn control_resize_takes_a_width_and_height_or_a_direction() {
        let me = PaneId(3);
        let Ok(Plan::One(cmd)) = plan(
            &control(&[("action", "resize"), ("width", "40"), ("height", "12")]),
            me,
        ) else {
            panic!("refused");
        };
        assert!(matches!(
            cmd,
            Command::ResizePane(cmd::ResizePane {
                resize: Resize::To {
                    width: Some(40),
                    height: Some(12)
                },
                ..
            })
        ));
        let Ok(Plan::One(cmd)) = plan(&control(&[("action", "resize"), ("direction", "up")]), me)
        else {
            panic!("refused");
        };
        assert!(matches!(
            cmd,
            Command::ResizePane(cmd::ResizePane {
                resize: Resize::By(Direction::Up, 5),
                ..
            })
        ));
        assert!(plan(&control(&[("action", "resize"), ("width", "100000")]), me).is_err());
    }
}
