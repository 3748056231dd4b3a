//! What each tag does: the same Commands the MCP tools and CLI verbs build.
//!
//! Each tag's attributes are one struct (read by `attrs`), so the attributes a tag
//! takes are its fields; [`TAGS`] pairs each tag with its struct, and a tag's plan is
//! its struct made into the command.

use super::attrs::{Dir, List, UpTo, read};
use crate::pane::tags::Tag;
use fugue_protocol::cmd;
use fugue_protocol::limits::{MAX_COLS, MAX_ROWS};
use fugue_protocol::observe::{ReadPane, ReadSource};
use fugue_protocol::{
    AgentState, BufferData, Command, CommandError, Delivery, Direction, InputPart, Key,
    LayoutChoice, LayoutPreset, MessageTo, PaneId, PaneScope, PaneSelect, PasteBuffer, Placement,
    Report, Resize, SendInput, SendMessage, SetBuffer, Spawn, SpawnAgent, SplitPane, SplitSize,
    Target, WorktreeSpec,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;

/// What running a tag takes.
pub enum Plan {
    One(Command),
}

/// A tag's attributes: what the tag from pane `me`, with its content, runs.
trait TagArgs: DeserializeOwned {
    fn command(self, me: PaneId, content: String) -> Result<Command, CommandError>;
}

/// A tag and its attribute struct.
pub struct TagDef {
    pub name: &'static str,
    /// The attributes it takes (besides `id`), its struct's fields. Read by the tests
    /// (docs/sideband.md lists exactly these); `attrs::read` asks the struct itself.
    #[allow(dead_code)]
    pub attributes: fn() -> &'static [&'static str],
    plan: fn(&Tag, PaneId) -> Result<Command, CommandError>,
}

const fn tag<T: TagArgs>(name: &'static str) -> TagDef {
    TagDef {
        name,
        attributes: crate::surfaces::fields::of::<T>,
        plan: run::<T>,
    }
}

fn run<T: TagArgs>(tag: &Tag, me: PaneId) -> Result<Command, CommandError> {
    let content = tag.content.clone().unwrap_or_default();
    read::<T>(tag)?.command(me, content)
}

/// Every tag.
pub static TAGS: &[TagDef] = &[
    tag::<SpawnTag>("spawn"),
    tag::<InputTag>("input"),
    tag::<ReadTag>("read"),
    tag::<ListTag>("list"),
    tag::<FocusTag>("focus"),
    tag::<ControlTag>("control"),
    tag::<NotifyTag>("notify"),
    tag::<MessageTag>("message"),
    tag::<ReportTag>("report"),
    tag::<ResultTag>("result"),
    tag::<BufferTag>("buffer"),
    tag::<PasteTag>("paste"),
];

/// The commands a tag from pane `me` stands for.
pub fn plan(tag: &Tag, me: PaneId) -> Result<Plan, CommandError> {
    let def = TAGS.iter().find(|d| d.name == tag.name).ok_or_else(|| {
        CommandError::invalid_argument("tag", format!("unknown tag `{}`", tag.name))
    })?;
    (def.plan)(tag, me).map(Plan::One)
}

/// A `pane` attribute, this pane when there is none.
fn pane_or(pane: Option<String>, me: PaneId) -> Result<Target, CommandError> {
    match pane {
        None => Ok(Target::Pane(me)),
        Some(p) => p
            .parse()
            .map_err(|e| CommandError::invalid_argument("pane", e)),
    }
}

/// A size in percent; 0 is none.
fn percent(size: Option<UpTo<99>>) -> Option<u8> {
    size.and_then(|UpTo(n)| u8::try_from(n).ok())
        .filter(|n| *n > 0)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpawnTag {
    command: Option<String>,
    agent: Option<String>,
    direction: Option<Dir>,
    size: Option<UpTo<99>>,
    cwd: Option<String>,
    name: Option<String>,
    sideband: Option<bool>,
    tags: Option<List>,
    depends_on: Option<List>,
    worktree: Option<String>,
}

impl TagArgs for SpawnTag {
    fn command(self, me: PaneId, content: String) -> Result<Command, CommandError> {
        if self.agent.is_some() {
            return self.agent(me, content);
        }
        let only = [
            ("tags", self.tags.is_some()),
            ("depends_on", self.depends_on.is_some()),
            ("worktree", self.worktree.is_some()),
        ];
        if let Some((only, _)) = only.iter().find(|(_, given)| *given) {
            return Err(CommandError::invalid_argument(
                only,
                "it goes with agent=\"PRESET\", not with command",
            ));
        }
        Ok(Command::SplitPane(SplitPane {
            target: Some(Target::Pane(me)),
            direction: self.direction.map_or(Direction::Right, |Dir(d)| d),
            size: percent(self.size).map(SplitSize::Percent),
            select: false,
            zoom: false,
            full: false,
            spawn: Spawn {
                command: self.command.map(|c| vec![c]).unwrap_or_default(),
                cwd: self.cwd,
                env: Vec::new(),
                title: self.name,
                sideband: self.sideband,
                remain: None,
            },
            // The content is the new pane's task: one command, one audit record.
            task: (!content.trim().is_empty()).then_some(content),
        }))
    }
}

impl SpawnTag {
    /// `<fugue:spawn agent="claude" ...>task</fugue:spawn>`: an agent split off this pane.
    fn agent(self, me: PaneId, task: String) -> Result<Command, CommandError> {
        let not = [
            ("command", self.command.is_some()),
            ("sideband", self.sideband.is_some()),
        ];
        if let Some((not, _)) = not.iter().find(|(_, given)| *given) {
            return Err(CommandError::invalid_argument(
                not,
                "with agent=\"PRESET\" the preset decides it",
            ));
        }
        let depends_on = self
            .depends_on
            .unwrap_or_default()
            .0
            .iter()
            .map(|t| {
                t.parse::<Target>()
                    .map_err(|e| CommandError::invalid_argument("depends_on", e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Command::SpawnAgent(SpawnAgent {
            agent: self.agent.unwrap_or_default(),
            task: Some(task).filter(|t| !t.trim().is_empty()),
            placement: Placement::Split {
                target: Some(Target::Pane(me)),
                direction: self.direction.map_or(Direction::Right, |Dir(d)| d),
                size: percent(self.size),
            },
            cwd: self.cwd,
            name: self.name,
            tags: self.tags.unwrap_or_default().0,
            depends_on,
            timeout_ms: None,
            // worktree="true": a new branch; worktree="NAME": that branch.
            worktree: match self.worktree.as_deref() {
                None | Some("false") => None,
                Some("true") => Some(WorktreeSpec::Auto),
                Some(b) => Some(WorktreeSpec::Branch(b.to_string())),
            },
        }))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InputTag {
    pane: Option<String>,
    submit: Option<bool>,
}

impl TagArgs for InputTag {
    fn command(self, _me: PaneId, content: String) -> Result<Command, CommandError> {
        // Required, with what it is for (rather than serde's bare "required").
        let Some(target) = self.pane else {
            return Err(CommandError::invalid_argument(
                "pane",
                "it is required: the pane to type into",
            ));
        };
        let mut parts = vec![InputPart::Paste(content)];
        if self.submit.unwrap_or(false) {
            parts.push(InputPart::Key(Key::new(
                fugue_protocol::keys::KeyCode::Enter,
                fugue_protocol::keys::Mods::NONE,
            )));
        }
        Ok(Command::SendInput(SendInput {
            target: Some(
                target
                    .parse()
                    .map_err(|e| CommandError::invalid_argument("pane", e))?,
            ),
            parts,
        }))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadTag {
    pane: Option<String>,
    lines: Option<UpTo<2000>>,
}

impl TagArgs for ReadTag {
    fn command(self, me: PaneId, _: String) -> Result<Command, CommandError> {
        Ok(Command::ReadPane(ReadPane {
            target: Some(pane_or(self.pane, me)?),
            source: ReadSource::Scrollback,
            lines: self.lines.map(|UpTo(n)| n),
            ansi: false,
        }))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListTag {}

impl TagArgs for ListTag {
    fn command(self, _: PaneId, _: String) -> Result<Command, CommandError> {
        Ok(Command::ListPanes(cmd::ListPanes {
            target: None,
            scope: PaneScope::All,
            values: Vec::new(),
        }))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FocusTag {
    pane: Option<String>,
}

impl TagArgs for FocusTag {
    fn command(self, me: PaneId, _: String) -> Result<Command, CommandError> {
        Ok(Command::SelectPane(cmd::SelectPane {
            target: Some(pane_or(self.pane, me)?),
            select: PaneSelect::Target,
            keep_zoom: false,
        }))
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ControlAction {
    Close,
    Resize,
    Zoom,
    Layout,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ControlTag {
    action: Option<ControlAction>,
    pane: Option<String>,
    amount: Option<UpTo<1000>>,
    direction: Option<Dir>,
    layout: Option<String>,
    width: Option<UpTo<{ MAX_COLS as u32 }>>,
    height: Option<UpTo<{ MAX_ROWS as u32 }>>,
}

impl TagArgs for ControlTag {
    fn command(self, me: PaneId, _: String) -> Result<Command, CommandError> {
        let target = Some(pane_or(self.pane.clone(), me)?);
        let Some(action) = self.action else {
            return Err(CommandError::invalid_argument(
                "action",
                "``: expected close, resize, zoom or layout",
            ));
        };
        Ok(match action {
            ControlAction::Close => Command::KillPane(cmd::KillPane { target }),
            ControlAction::Zoom => Command::ResizePane(cmd::ResizePane {
                target,
                resize: Resize::ZoomToggle,
            }),
            ControlAction::Resize => Command::ResizePane(cmd::ResizePane {
                target,
                resize: self.resize()?,
            }),
            ControlAction::Layout => {
                let layout = match self.layout {
                    None => LayoutChoice::Next,
                    Some(name) => {
                        LayoutChoice::Preset(LayoutPreset::parse(&name).ok_or_else(|| {
                            CommandError::invalid_argument(
                                "layout",
                                format!("`{name}` is not a layout"),
                            )
                        })?)
                    }
                };
                Command::SelectLayout(cmd::SelectLayout { target, layout })
            }
        })
    }
}

impl ControlTag {
    /// An absolute size (tmux's resize-pane -x/-y), else a border move.
    fn resize(&self) -> Result<Resize, CommandError> {
        // At most MAX_COLS or MAX_ROWS, so within a u16.
        let cells = |n: u32| u16::try_from(n.max(1)).unwrap_or(u16::MAX);
        let width = self.width.map(|UpTo(n)| cells(n));
        let height = self.height.map(|UpTo(n)| cells(n));
        if width.is_some() || height.is_some() {
            return Ok(Resize::To { width, height });
        }
        let Some(Dir(dir)) = self.direction else {
            return Err(CommandError::invalid_argument(
                "direction",
                "resize needs direction=left|right|up|down, or width/height",
            ));
        };
        let amount = self.amount.map_or(5, |UpTo(n)| n).max(1);
        Ok(Resize::By(dir, u16::try_from(amount).unwrap_or(1000)))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NotifyTag {}

impl TagArgs for NotifyTag {
    fn command(self, me: PaneId, content: String) -> Result<Command, CommandError> {
        Ok(Command::DisplayMessage(cmd::DisplayMessage {
            target: Some(Target::Pane(me)),
            text: content,
            delay_ms: None,
        }))
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum DeliveryAttr {
    Async,
    Sync,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MessageTag {
    to: Option<String>,
    delivery: Option<DeliveryAttr>,
    quiescence: Option<UpTo<600_000>>,
    timeout: Option<UpTo<{ u32::MAX }>>,
}

impl TagArgs for MessageTag {
    fn command(self, _: PaneId, content: String) -> Result<Command, CommandError> {
        let to = self.to.ok_or_else(|| {
            CommandError::invalid_argument("to", "it is required: %N, tag:NAME or children")
        })?;
        Ok(Command::SendMessage(SendMessage {
            to: MessageTo::parse(&to).map_err(|e| CommandError::invalid_argument("to", e))?,
            text: content,
            delivery: match self.delivery {
                None | Some(DeliveryAttr::Async) => Delivery::Async,
                Some(DeliveryAttr::Sync) => Delivery::Sync,
            },
            quiescence_ms: self.quiescence.map(|UpTo(n)| u64::from(n)),
            timeout_ms: self.timeout.map(|UpTo(n)| u64::from(n)),
            plain: false,
        }))
    }
}

// The states an agent reports of itself (the server sees starting and exited).
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "snake_case")]
enum ReportState {
    Idle,
    Busy,
    AwaitingInput,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReportTag {
    state: Option<ReportState>,
}

impl TagArgs for ReportTag {
    fn command(self, _: PaneId, content: String) -> Result<Command, CommandError> {
        let result = content.trim().to_string();
        Ok(Command::Report(Report {
            target: None,
            state: self.state.map(|s| match s {
                ReportState::Idle => AgentState::Idle,
                ReportState::Busy => AgentState::Busy,
                ReportState::AwaitingInput => AgentState::AwaitingInput,
            }),
            result: Some(result).filter(|r| !r.is_empty()),
        }))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultTag {
    pane: Option<String>,
}

impl TagArgs for ResultTag {
    fn command(self, me: PaneId, _: String) -> Result<Command, CommandError> {
        Ok(Command::GetResult(cmd::GetResult {
            target: Some(pane_or(self.pane, me)?),
        }))
    }
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum BufferAction {
    Set,
    Delete,
}

/// `<fugue:buffer name="N" append="true">text</fugue:buffer>` stores text;
/// `<fugue:buffer name="N" action="delete"/>` deletes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BufferTag {
    name: Option<String>,
    append: Option<bool>,
    action: Option<BufferAction>,
}

impl TagArgs for BufferTag {
    fn command(self, _: PaneId, content: String) -> Result<Command, CommandError> {
        Ok(match self.action {
            None | Some(BufferAction::Set) => Command::SetBuffer(SetBuffer {
                name: self.name,
                append: self.append.unwrap_or(false),
                rename: None,
                data: Some(BufferData::Text(content)),
                clipboard: false,
                client: None,
            }),
            Some(BufferAction::Delete) => {
                Command::DeleteBuffer(cmd::DeleteBuffer { name: self.name })
            }
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasteTag {
    name: Option<String>,
    pane: Option<String>,
    delete: Option<bool>,
}

impl TagArgs for PasteTag {
    fn command(self, me: PaneId, _: String) -> Result<Command, CommandError> {
        Ok(Command::PasteBuffer(PasteBuffer {
            name: self.name,
            target: Some(pane_or(self.pane, me)?),
            bracketed: true,
            delete: self.delete.unwrap_or(false),
            separator: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::{Plan, TAGS, plan};
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

    /// Issue 26: a tag's attributes are its struct's fields; an attribute it has none
    /// for is refused with the list, and a bad value names its attribute.
    #[test]
    fn attributes_are_read_off_the_tags_struct() {
        let me = PaneId(3);
        let err = |t: Tag| plan(&t, me).err().expect("refused");
        let e = err(tag("read", &[("pane", "%1"), ("colour", "red")]));
        assert!(e.message.contains("`colour`"), "{}", e.message);
        assert_eq!(
            e.suggestion.as_deref(),
            Some("its attributes are: id, pane, lines")
        );
        let e = err(tag("paste", &[("delete", "maybe")]));
        assert!(
            e.message.contains("`delete`") && e.message.contains("`maybe`: expected true or false"),
            "{}",
            e.message
        );
        let e = err(tag("message", &[("to", "%1"), ("delivery", "later")]));
        assert!(
            e.message.contains("`delivery`")
                && e.message.contains("`later`: expected async or sync"),
            "{}",
            e.message
        );
        let e = err(tag("read", &[("lines", "2001")]));
        assert!(
            e.message.contains("`lines`") && e.message.contains("up to 2000"),
            "{}",
            e.message
        );
        let e = err(tag("report", &[("state", "exited")]));
        assert!(e.message.contains("`state`"), "{}", e.message);
        // `id` is every tag's; a repeated attribute counts as first given.
        let read = |attrs: &[(&str, &str)]| match plan(&tag("read", attrs), me) {
            Ok(Plan::One(Command::ReadPane(r))) => (r.target, r.lines),
            other => panic!("{:?}", other.err()),
        };
        let (target, lines) = read(&[("id", "x"), ("lines", "30%"), ("lines", "7")]);
        assert_eq!(
            (target.map(|t| t.to_string()), lines),
            (Some("%3".into()), Some(30))
        );
        assert!(plan(&tag("list", &[("id", "x")]), me).is_ok());
    }

    /// docs/sideband.md's table of tags lists exactly each tag's attributes: the
    /// attribute column's `code` words, over the tag's rows, are its struct's fields.
    #[test]
    fn the_docs_list_each_tags_attributes() {
        let doc = include_str!("../../../../docs/sideband.md");
        let table = doc
            .split("## Tags")
            .nth(1)
            .and_then(|t| t.split("\n## ").next())
            .expect("a Tags section");
        let code = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(String::from)
                .collect()
        };
        let mut listed: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
            Default::default();
        for row in table.lines().filter(|l| l.starts_with("| `")) {
            let cells: Vec<&str> = row.split('|').collect();
            let name = code(cells[1]).into_iter().next().expect("a tag name");
            listed.entry(name).or_default().extend(code(cells[2]));
        }
        for def in TAGS {
            let fields: std::collections::BTreeSet<String> =
                (def.attributes)().iter().map(|f| f.to_string()).collect();
            assert_eq!(
                listed.remove(def.name).unwrap_or_default(),
                fields,
                "<fugue:{}>: docs/sideband.md against its struct",
                def.name
            );
        }
        assert!(
            listed.is_empty(),
            "tags the docs list and fugue has not: {listed:?}"
        );
    }
}
