//! Issue 27: the real Codex CLI (the pinned npm release `.ci/run` installs) in a fugue
//! pane, talking to the scripted stand-in model ([`super::standin_model`], OpenAI's
//! Responses API) on 127.0.0.1 through a custom model provider in its config.

use super::harness::World;
use super::real_claude::{Rig, agent, project, setup, wait_for_reported_result};
use super::standin_model::{Reply, StandIn, Turn, last_result};
use serde_json::json;
use std::path::PathBuf;

/// `$CODEX_HOME/config.toml`: the stand-in as the model provider (its key from the
/// environment), no approvals and no sandbox (Codex's sandbox would keep its commands
/// from fugue's socket), and the project trusted, so no dialog shows.
fn start_codex(codex: PathBuf, prompt: &str, turns: Vec<Turn>) -> Rig {
    let w = World::new();
    let model = StandIn::start(prompt, turns);
    let envs = prepare(&w, &model);
    Rig::launch(w, model, &[&codex], &envs, READY)
}

/// What Codex shows when its input box is ready.
pub const READY: &str = "? for shortcuts";

/// Writes the world's Codex config for `model` (and runs `fugue setup codex`);
/// returns the environment Codex needs.
pub fn prepare(w: &World, model: &StandIn) -> Vec<String> {
    let home = w.path("home/.codex");
    std::fs::create_dir_all(&home).unwrap();
    let config = format!(
        r#"model = "gpt-standin"
model_provider = "standin"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.standin]
name = "stand-in"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "STANDIN_API_KEY"

[projects."{proj}"]
trust_level = "trusted"
"#,
        url = model.base_url(),
        proj = project(w).display()
    );
    std::fs::write(home.join("config.toml"), config).unwrap();
    // fugue's MCP server, `notify` reporting each turn's answer, the instructions.
    setup(w, "codex");
    vec![
        format!("CODEX_HOME={}", home.display()),
        "STANDIN_API_KEY=test".into(),
    ]
}

#[test]
fn codexs_shell_tool_spawns_a_pane_through_fugue_sideband() {
    let Some(codex) = agent("codex") else { return };
    let command = r#"fugue sideband "$(printf '<fugue:spawn key="%s" id="sub" command="echo hello-from-codex; sleep 100"/>' "$FUGUE_SIDEBAND_KEY")""#;
    let turns: Vec<Turn> = vec![
        Box::new(move |_| Reply::Tool {
            name: "exec_command".into(),
            input: json!({"cmd": command, "login": false}),
        }),
        Box::new(|_| Reply::text("The sub-agent is running.")),
    ];
    let c = start_codex(codex, "start the sub agent", turns);
    c.prompt("start the sub agent");
    let after = c.wait_turn(1);
    c.pane_showing("hello-from-codex");
    let result = last_result(&after);
    assert!(
        !result.contains("rror"),
        "fugue sideband failed in Codex's shell tool: {result}\n{}",
        c.report()
    );
    wait_for_reported_result(&c, "The sub-agent is running.");
}
