use super::*;
use crate::setup::read;

fn env(dir: &Path) -> Env {
    Env {
        claude_dir: dir.join(".claude"),
        claude_state: dir.join(".claude.json"),
        codex_home: dir.join(".codex"),
        gemini_dir: dir.join(".gemini"),
        fugue: PathBuf::from("/opt/my tools/fugue"),
    }
}

fn args(agent: SetupAgent, remove: bool) -> SetupArgs {
    SetupArgs {
        agent,
        project: None,
        remove,
        dry_run: false,
    }
}

/// Runs a plan and writes it as `fugue setup` would; returns the changed paths.
fn apply(dir: &Path, agent: SetupAgent, remove: bool) -> (Vec<PathBuf>, Vec<String>) {
    let (edits, warnings) = plan(&args(agent, remove), &env(dir), read).unwrap();
    let mut changed = Vec::new();
    for e in edits.into_iter().filter(|e| e.before != e.after) {
        match &e.after {
            Some(text) => {
                std::fs::create_dir_all(e.path.parent().unwrap()).unwrap();
                std::fs::write(&e.path, text).unwrap();
            }
            None => std::fs::remove_file(&e.path).unwrap(),
        }
        changed.push(e.path);
    }
    (changed, warnings)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Someone's own settings before fugue's setup: they must come back byte for byte.
fn seed(dir: &Path) -> Vec<(PathBuf, String)> {
    let files = [
        (
            ".claude.json",
            "{\n  \"zz\": 1,\n  \"mcpServers\": {\"other\": {\"command\": \"x\"}},\n  \"aa\": [1, 2]\n}\n",
        ),
        (
            ".claude/settings.json",
            "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]}, \"model\": \"m\"}",
        ),
        (
            ".gemini/settings.json",
            "{\"ui\": {\"theme\": \"Default\"}}\n",
        ),
        (".gemini/GEMINI.md", "# My notes\n\nBe brief.\n"),
        (
            ".codex/config.toml",
            "# mine\nmodel = \"o\"\n\n[mcp_servers.other]\ncommand = \"x\"\n",
        ),
    ];
    files
        .into_iter()
        .map(|(rel, text)| {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            (path, text.to_string())
        })
        .collect()
}

#[test]
fn each_setup_is_idempotent_and_its_removal_gives_every_file_back() {
    let dir = tempfile::tempdir().unwrap();
    let seeded = seed(dir.path());
    for agent in [
        SetupAgent::ClaudeCode,
        SetupAgent::Codex,
        SetupAgent::Gemini,
    ] {
        let (changed, _) = apply(dir.path(), agent, false);
        assert!(!changed.is_empty(), "{agent:?}");
        let (again, _) = apply(dir.path(), agent, false);
        assert!(
            again.is_empty(),
            "{agent:?} changed {again:?} the second time"
        );
    }
    for agent in [
        SetupAgent::ClaudeCode,
        SetupAgent::Codex,
        SetupAgent::Gemini,
    ] {
        apply(dir.path(), agent, true);
        let (again, _) = apply(dir.path(), agent, true);
        assert!(again.is_empty(), "{agent:?}");
    }
    for (path, text) in seeded {
        let now = std::fs::read_to_string(&path).unwrap();
        // JSON comes back with its keys in their order (reformatted, same values).
        if path.extension().is_some_and(|e| e == "json") {
            assert_eq!(
                json(&path),
                serde_json::from_str::<serde_json::Value>(&text).unwrap()
            );
        } else {
            assert_eq!(now, text, "{}", path.display());
        }
    }
    // Files fugue made whole, or that held only its block, are gone.
    for made in [".claude/skills/fugue/SKILL.md", ".codex/AGENTS.md"] {
        assert!(!dir.path().join(made).exists(), "{made}");
    }
}

#[test]
fn claude_code_gets_the_mcp_server_hooks_and_skill_beside_its_own() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    apply(dir.path(), SetupAgent::ClaudeCode, false);
    let state = json(&dir.path().join(".claude.json"));
    assert_eq!(
        state["mcpServers"]["fugue"],
        serde_json::json!({"type": "stdio", "command": "/opt/my tools/fugue", "args": ["mcp"]})
    );
    assert_eq!(state["mcpServers"]["other"]["command"], "x");
    let text = std::fs::read_to_string(dir.path().join(".claude.json")).unwrap();
    assert!(
        text.find("\"zz\"") < text.find("\"aa\""),
        "key order kept: {text}"
    );
    let settings = json(&dir.path().join(".claude/settings.json"));
    for event in CLAUDE_EVENTS {
        let groups = settings["hooks"][event].as_array().unwrap();
        let last = &groups[groups.len() - 1]["hooks"][0]["command"];
        assert_eq!(last, "'/opt/my tools/fugue' report --hook", "{event}");
    }
    assert_eq!(
        settings["hooks"]["Stop"][0]["hooks"][0]["command"],
        "say done"
    );
    let skill = std::fs::read_to_string(dir.path().join(".claude/skills/fugue/SKILL.md")).unwrap();
    assert!(skill.starts_with("---\nname: fugue\n"), "{skill}");
    assert!(skill.contains("fugue sideband"));
}

#[test]
fn codex_gets_its_server_and_notify_unless_notify_is_someone_elses() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    apply(dir.path(), SetupAgent::Codex, false);
    let config = std::fs::read_to_string(dir.path().join(".codex/config.toml")).unwrap();
    let parsed: toml::Table = config.parse().unwrap();
    assert_eq!(
        parsed["mcp_servers"]["fugue"]["command"].as_str(),
        Some("/opt/my tools/fugue")
    );
    assert_eq!(parsed["notify"].as_array().unwrap().len(), 3);
    assert!(config.starts_with("# mine\n"), "{config}");
    let agents = std::fs::read_to_string(dir.path().join(".codex/AGENTS.md")).unwrap();
    assert!(agents.starts_with(BLOCK_BEGIN));

    let other = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(other.path().join(".codex")).unwrap();
    let theirs = "notify = [\"my-notifier\"]\n";
    std::fs::write(other.path().join(".codex/config.toml"), theirs).unwrap();
    let (_, warnings) = apply(other.path(), SetupAgent::Codex, false);
    let config = std::fs::read_to_string(other.path().join(".codex/config.toml")).unwrap();
    assert!(config.starts_with(theirs), "{config}");
    assert!(
        warnings.iter().any(|w| w.contains("notify")),
        "{warnings:?}"
    );
}

#[test]
fn gemini_block_goes_after_the_persons_notes_and_is_replaced_in_place() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    apply(dir.path(), SetupAgent::Gemini, false);
    let path = dir.path().join(".gemini/GEMINI.md");
    let notes = std::fs::read_to_string(&path).unwrap();
    assert!(notes.starts_with("# My notes\n\nBe brief.\n\n"), "{notes}");
    // A note added after the block stays after it when the block is rewritten.
    std::fs::write(&path, notes.replace("fugue sideband", "OLD") + "\nLater.\n").unwrap();
    apply(dir.path(), SetupAgent::Gemini, false);
    let again = std::fs::read_to_string(&path).unwrap();
    assert_eq!(again, notes + "\nLater.\n");
    let settings = json(&dir.path().join(".gemini/settings.json"));
    assert_eq!(settings["ui"]["theme"], "Default");
    assert_eq!(settings["mcpServers"]["fugue"]["args"][0], "mcp");
    assert!(settings["hooks"]["AfterAgent"].is_array());
}

#[test]
fn a_file_fugue_cannot_read_stops_the_whole_setup() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join(".claude/settings.json"), "{not json").unwrap();
    let err = plan(&args(SetupAgent::ClaudeCode, false), &env(dir.path()), read).unwrap_err();
    assert!(format!("{err:#}").contains("settings.json"), "{err:#}");
    std::fs::write(dir.path().join(".claude/settings.json"), "{\"hooks\": []}").unwrap();
    let err = plan(&args(SetupAgent::ClaudeCode, false), &env(dir.path()), read).unwrap_err();
    assert!(
        format!("{err:#}").contains("`hooks` is not an object"),
        "{err:#}"
    );
}

#[test]
fn codex_has_no_project_settings() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = args(SetupAgent::Codex, false);
    a.project = Some(dir.path().to_path_buf());
    assert!(plan(&a, &env(dir.path()), read).is_err());
}

/// docs/agents.md shows what `fugue setup claude-code` writes into
/// `~/.claude/settings.json`: the block is exactly the plan's hooks.
#[test]
fn the_documented_claude_code_hooks_are_what_setup_writes() {
    let doc = include_str!("../../../../docs/agents.md");
    let section = doc
        .split("### Setting up an agent CLI")
        .nth(1)
        .expect("the setup section");
    let block = section
        .split("```json\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a json block");
    let documented: serde_json::Value = serde_json::from_str(block).expect("the block is JSON");
    let dir = tempfile::tempdir().unwrap();
    let mut e = env(dir.path());
    e.fugue = PathBuf::from("/usr/local/bin/fugue");
    let (edits, _) = plan(&args(SetupAgent::ClaudeCode, false), &e, read).unwrap();
    let settings = edits
        .iter()
        .find(|e| e.path.ends_with(".claude/settings.json"))
        .and_then(|e| e.after.as_deref())
        .expect("settings.json");
    let written: serde_json::Value = serde_json::from_str(settings).unwrap();
    assert_eq!(written, documented);
}
