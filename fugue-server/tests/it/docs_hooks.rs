//! docs/agents.md's Claude Code hook recipe, as written: valid JSON that Claude Code can
//! load, whose `Notification` hook reports `awaiting_input` only for a real question.
//! Claude Code's 60 s `idle_prompt` notification once marked idle panes as asking, and
//! messages to them waited for good (issue 27).

#[test]
fn the_hook_recipe_reports_questions_and_not_idle_prompts() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/agents.md"))
        .expect("docs/agents.md");
    let section = doc
        .split("### Wiring Claude Code's hooks")
        .nth(1)
        .expect("the hooks section");
    let json = section
        .split("```json\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .expect("a json block");
    let settings: serde_json::Value = serde_json::from_str(json).expect("the recipe is JSON");
    let notification = &settings["hooks"]["Notification"][0];
    let matcher = notification["matcher"].as_str().expect("a matcher");
    // Claude Code matches a hook's `matcher` as a regex against the notification type.
    let re = regex::Regex::new(&format!("^(?:{matcher})$")).expect("a regex");
    for asks in ["permission_prompt", "elicitation_dialog"] {
        assert!(re.is_match(asks), "{asks} must report awaiting_input");
    }
    for not in ["idle_prompt", "auth_success"] {
        assert!(!re.is_match(not), "{not} is not a question");
    }
    let command = notification["hooks"][0]["command"]
        .as_str()
        .expect("a command");
    assert!(
        command.contains("fugue report --state awaiting_input"),
        "{command}"
    );
}
