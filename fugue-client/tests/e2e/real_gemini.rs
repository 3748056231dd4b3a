//! Issue 27: the real Gemini CLI (the pinned npm release `.ci/run` installs) in a fugue
//! pane, talking to the scripted stand-in model ([`super::standin_model`], Google's
//! Gemini API) on 127.0.0.1 through `GOOGLE_GEMINI_BASE_URL`.

use super::harness::World;
use super::real_claude::{Rig, agent, setup, wait_for_reported_result};
use super::standin_model::{Reply, StandIn, Turn, last_result};
use serde_json::json;
use std::path::PathBuf;

/// `~/.gemini/settings.json`: the API key as the way in (no login dialog), no folder
/// trust question, a theme, no update checks or usage statistics. `--yolo` runs its
/// tools without asking.
fn start_gemini(gemini: PathBuf, prompt: &str, turns: Vec<Turn>) -> Rig {
    let w = World::new();
    let model = StandIn::start(prompt, turns);
    let envs = prepare(&w, &model);
    let yolo = std::path::Path::new("--yolo");
    Rig::launch(w, model, &[&gemini, yolo], &envs, READY)
}

/// What Gemini CLI shows when its input box is ready.
pub const READY: &str = "Type your message";

/// Writes the world's Gemini CLI settings (and runs `fugue setup gemini`); returns
/// the environment it needs to talk to `model`.
pub fn prepare(w: &World, model: &StandIn) -> Vec<String> {
    let dir = w.path("home/.gemini");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
        "ui": {"theme": "Default"},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true},
        "privacy": {"usageStatisticsEnabled": false},
    });
    std::fs::write(dir.join("settings.json"), settings.to_string()).unwrap();
    // fugue's MCP server, the hooks reporting state and result, the instructions.
    setup(w, "gemini");
    vec![
        format!("GOOGLE_GEMINI_BASE_URL={}", model.base_url()),
        "GEMINI_API_KEY=test".into(),
    ]
}

#[test]
fn gemini_clis_shell_tool_spawns_a_pane_through_fugue_sideband() {
    let Some(gemini) = agent("gemini") else {
        return;
    };
    // Its shell tool refuses command substitution: the tag goes through a pipe.
    let command = r#"printf '<fugue:spawn key="%s" id="sub" command="echo hello-from-gemini; sleep 100"/>' "$FUGUE_SIDEBAND_KEY" | fugue sideband -"#;
    let turns: Vec<Turn> = vec![
        Box::new(move |_| Reply::Tool {
            name: "run_shell_command".into(),
            input: json!({"command": command}),
        }),
        Box::new(|_| Reply::text("The sub-agent is running.")),
    ];
    let c = start_gemini(gemini, "start the sub agent", turns);
    c.prompt("start the sub agent");
    let after = c.wait_turn(1);
    c.pane_showing("hello-from-gemini");
    let result = last_result(&after);
    assert!(
        !result.contains("Blocked") && !result.contains("rror"),
        "fugue sideband failed in Gemini CLI's shell tool: {result}\n{}",
        c.report()
    );
    wait_for_reported_result(&c, "The sub-agent is running.");
}
