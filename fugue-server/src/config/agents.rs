//! Agent presets (`[agents.NAME]`) and the options of messages between agents.
//!
//! fugue ships presets for `claude`, `codex`, `gemini` and `shell`. A `[agents.NAME]`
//! table in the config file changes the fields it names of the shipped preset of that
//! name (so `[agents.claude] args = ["--model", "opus"]` keeps the rest), or adds a new
//! preset, which must then name its `command`.

use serde::Deserialize;
use std::collections::BTreeMap;

/// How a preset's agent gets its task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskDelivery {
    /// Typed as a bracketed paste once the agent is ready, then Enter as its own key.
    Paste,
    /// Put on the agent's command line (`task_args`, with `{task}` replaced).
    Argument,
}

/// How an agent gets the results of the sideband tags it prints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SidebandResults {
    /// Only as files in `$FUGUE_SIDEBAND_DIR` (the agent reads them).
    #[default]
    File,
    /// As files, and typed into the agent as input once it is idle (a line
    /// `fugue result ID: {json}`, then Enter), so it gets its answer without polling.
    Input,
}

/// One agent preset, every field resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The program; empty runs the default shell (`[server] default_command`).
    pub command: String,
    pub args: Vec<String>,
    pub env: BTreeMap<String, String>,
    /// Working directory; empty: the directory of the pane it is split from.
    pub cwd: String,
    /// Scan the agent's output for sideband tags.
    pub sideband: bool,
    pub deliver: TaskDelivery,
    /// With `deliver = "argument"`: the arguments that carry the task.
    pub task_args: Vec<String>,
    /// A regex for the agent's empty prompt, matched against the line the cursor is
    /// on (or the last non-empty line above an empty one): when it matches and the
    /// agent is quiet, it is idle. Empty: quiet is idle.
    pub prompt: String,
    /// A regex for a question to a person, matched against the last lines of the
    /// screen: when it matches and the agent is quiet, it is awaiting input.
    pub awaiting_input: String,
    /// No output for this long counts as quiet.
    pub quiet_ms: u64,
    /// How long `spawn-agent` waits for the agent to be ready for its task.
    pub ready_timeout_ms: u64,
    /// Where the results of its sideband tags go (`sideband_results`).
    pub sideband_results: SidebandResults,
    /// Arguments that make the agent pick up where it left off, used instead of the
    /// task arguments when a restart restores its pane (`--continue` for claude).
    pub resume_args: Vec<String>,
}

/// A `[agents.NAME]` table as written: only the fields it names.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetPatch {
    command: Option<String>,
    args: Option<Vec<String>>,
    env: Option<BTreeMap<String, String>>,
    cwd: Option<String>,
    sideband: Option<bool>,
    deliver: Option<TaskDelivery>,
    task_args: Option<Vec<String>>,
    prompt: Option<String>,
    awaiting_input: Option<String>,
    quiet_ms: Option<u64>,
    ready_timeout_ms: Option<u64>,
    sideband_results: Option<SidebandResults>,
    resume_args: Option<Vec<String>>,
}

impl PresetPatch {
    fn apply(self, p: &mut Preset) {
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = self.$f { p.$f = v; } )* };
        }
        set!(
            command,
            args,
            env,
            cwd,
            sideband,
            deliver,
            task_args,
            prompt,
            awaiting_input,
            quiet_ms,
            ready_timeout_ms,
            sideband_results,
            resume_args
        );
    }
}

fn agent(command: &str, awaiting_input: &str, task_args: &[&str], resume_args: &[&str]) -> Preset {
    Preset {
        command: command.into(),
        args: Vec::new(),
        env: BTreeMap::new(),
        cwd: String::new(),
        sideband: true,
        deliver: TaskDelivery::Argument,
        task_args: task_args.iter().map(|s| s.to_string()).collect(),
        // Their input boxes are drawn all the time, so a prompt says little; their
        // spinners animate while they work, so quiet says more.
        prompt: String::new(),
        awaiting_input: awaiting_input.into(),
        quiet_ms: 1500,
        ready_timeout_ms: 60_000,
        sideband_results: SidebandResults::File,
        resume_args: resume_args.iter().map(|s| s.to_string()).collect(),
    }
}

/// What a preset of a new name starts from: any interactive program takes a typed task,
/// few take one as an argument, and its output is not scanned unless it asks.
fn custom() -> Preset {
    Preset {
        command: String::new(),
        args: Vec::new(),
        env: BTreeMap::new(),
        cwd: String::new(),
        sideband: false,
        deliver: TaskDelivery::Paste,
        task_args: vec!["{task}".into()],
        prompt: String::new(),
        awaiting_input: String::new(),
        quiet_ms: 1000,
        ready_timeout_ms: 60_000,
        sideband_results: SidebandResults::File,
        resume_args: Vec::new(),
    }
}

/// The presets fugue ships (documented in config/fugue.toml and docs/agents.md).
pub fn builtin() -> BTreeMap<String, Preset> {
    let mut m = BTreeMap::new();
    m.insert(
        "claude".to_string(),
        agent(
            "claude",
            r"Do you want to|Would you like to|\(y/n\)",
            &["{task}"],
            &["--continue"],
        ),
    );
    m.insert(
        "codex".to_string(),
        agent(
            "codex",
            r"(?i)allow command|approve|\(y/n\)|\[y/N\]",
            &["{task}"],
            &["resume", "--last"],
        ),
    );
    m.insert(
        "gemini".to_string(),
        agent(
            "gemini",
            r"(?i)allow execution|apply this change|waiting for user confirmation",
            &["--prompt-interactive", "{task}"],
            &["--resume", "latest"],
        ),
    );
    m.insert(
        "shell".to_string(),
        Preset {
            command: String::new(),
            args: Vec::new(),
            env: BTreeMap::new(),
            cwd: String::new(),
            sideband: false,
            deliver: TaskDelivery::Paste,
            task_args: Vec::new(),
            prompt: r"[$#%>] ?$".into(),
            awaiting_input: String::new(),
            quiet_ms: 300,
            ready_timeout_ms: 10_000,
            sideband_results: SidebandResults::File,
            resume_args: Vec::new(),
        },
    );
    m
}

/// `[agents]`: the presets by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentsSection(pub BTreeMap<String, Preset>);

impl Default for AgentsSection {
    fn default() -> Self {
        AgentsSection(builtin())
    }
}

impl<'de> Deserialize<'de> for AgentsSection {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let patches = BTreeMap::<String, PresetPatch>::deserialize(d)?;
        let mut presets = builtin();
        for (name, patch) in patches {
            match presets.get_mut(&name) {
                Some(p) => patch.apply(p),
                None => {
                    if patch.command.is_none() {
                        return Err(D::Error::custom(format!(
                            "agents.{name} is not a shipped preset, so it needs `command` (the program to run; \"\" for the default shell)"
                        )));
                    }
                    let mut p = custom();
                    patch.apply(&mut p);
                    presets.insert(name, p);
                }
            }
        }
        Ok(AgentsSection(presets))
    }
}

impl AgentsSection {
    pub fn get(&self, name: &str) -> Option<&Preset> {
        self.0.get(name)
    }

    pub fn names(&self) -> Vec<&str> {
        self.0.keys().map(String::as_str).collect()
    }

    pub fn validate(&self) -> Result<(), String> {
        for (name, p) in &self.0 {
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            {
                return Err(format!(
                    "agents.{name}: a preset name may hold only letters, digits, `-` and `_`"
                ));
            }
            for (what, re) in [("prompt", &p.prompt), ("awaiting_input", &p.awaiting_input)] {
                if !re.is_empty()
                    && let Err(e) = regex::RegexBuilder::new(re).size_limit(1 << 20).build()
                {
                    return Err(format!("agents.{name}.{what} is not a valid regex: {e}"));
                }
            }
            if !(10..=60_000).contains(&p.quiet_ms) {
                return Err(format!(
                    "agents.{name}.quiet_ms = {} is out of range: expected 10 to 60000",
                    p.quiet_ms
                ));
            }
            if !(100..=3_600_000).contains(&p.ready_timeout_ms) {
                return Err(format!(
                    "agents.{name}.ready_timeout_ms = {} is out of range: expected 100 to 3600000",
                    p.ready_timeout_ms
                ));
            }
            if p.deliver == TaskDelivery::Argument
                && !p.task_args.iter().any(|a| a.contains("{task}"))
            {
                return Err(format!(
                    "agents.{name}: deliver = \"argument\" needs `{{task}}` in task_args"
                ));
            }
            if !p.cwd.is_empty() && !std::path::Path::new(&p.cwd).is_absolute() {
                return Err(format!("agents.{name}.cwd must be an absolute path"));
            }
            if p.env
                .keys()
                .any(|k| k.is_empty() || k.contains(['=', '\0']))
            {
                return Err(format!("agents.{name}.env holds an invalid variable name"));
            }
        }
        Ok(())
    }
}

/// Who an agent may see and control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Every pane on the server (subject to the tiers).
    All,
    /// Its own pane, the panes it created, and their descendants.
    Own,
}

/// `[messages]`: how `send-message` waits for its moment.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MessagesSection {
    /// A message is typed only when no person has typed in the pane for this long.
    pub human_pause_ms: u64,
    /// Default quiet time before a message is typed (a call may give its own).
    pub quiescence_ms: u64,
    /// Messages that may wait for one pane at a time; more are refused.
    pub max_queued: u32,
}

impl Default for MessagesSection {
    fn default() -> Self {
        MessagesSection {
            human_pause_ms: 2000,
            quiescence_ms: 500,
            max_queued: 16,
        }
    }
}

impl MessagesSection {
    pub fn validate(&self) -> Result<(), String> {
        if self.human_pause_ms > 600_000 || self.quiescence_ms > 600_000 {
            return Err(
                "messages.human_pause_ms and messages.quiescence_ms must be at most 600000".into(),
            );
        }
        if self.max_queued == 0 || self.max_queued > 1024 {
            return Err("messages.max_queued must be from 1 to 1024".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<AgentsSection, String> {
        #[derive(Deserialize)]
        struct Wrap {
            agents: AgentsSection,
        }
        toml::from_str::<Wrap>(text)
            .map(|w| w.agents)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_table_changes_only_the_fields_it_names() {
        let a = parse("[agents.claude]\nargs = [\"--model\", \"opus\"]\n").unwrap();
        let c = a.get("claude").unwrap();
        assert_eq!(c.args, ["--model", "opus"]);
        assert_eq!(c.command, "claude");
        assert_eq!(c.awaiting_input, builtin()["claude"].awaiting_input);
        assert_eq!(a.names(), ["claude", "codex", "gemini", "shell"]);
    }

    #[test]
    fn a_new_preset_needs_a_command() {
        let err = parse("[agents.mine]\nargs = []\n").unwrap_err();
        assert!(err.contains("needs `command`"), "{err}");
        let a = parse("[agents.mine]\ncommand = \"/bin/cat\"\n").unwrap();
        let mine = a.get("mine").unwrap();
        assert_eq!((mine.deliver, mine.sideband), (TaskDelivery::Paste, false));
        let err = parse("[agents.mine]\ncommand = \"x\"\nprompts = \"y\"\n").unwrap_err();
        assert!(err.contains("prompts"), "{err}");
    }

    #[test]
    fn the_documented_file_spells_out_every_shipped_preset() {
        // With every field written out, the file's equality with the defaults (checked
        // in config::tests) means the documented values are the shipped ones.
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../config/fugue.toml");
        let text = std::fs::read_to_string(path).expect("config/fugue.toml exists");
        let table: toml::Table = text.parse().expect("it parses");
        let agents = table["agents"].as_table().expect("[agents]");
        for name in builtin().keys() {
            let preset = agents[name].as_table().expect("a table per preset");
            assert_eq!(preset.len(), 12, "agents.{name} leaves out fields");
        }
    }

    #[test]
    fn shipped_presets_validate() {
        AgentsSection::default().validate().unwrap();
        let bad = parse("[agents.shell]\nprompt = \"(\"\n").unwrap();
        assert!(bad.validate().unwrap_err().contains("agents.shell.prompt"));
    }
}
