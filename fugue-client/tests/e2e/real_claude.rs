//! Issue 27: the real Claude Code CLI (the pinned npm release `.ci/run` installs) in a
//! fugue pane, talking to a scripted stand-in for the Anthropic Messages API on
//! 127.0.0.1 ([`super::standin_model`]). Nothing here reaches the internet.
//!
//! The CLIs are looked for in `$FUGUE_TEST_AGENTS` (a `node_modules/.bin` folder,
//! exported by `.ci/run`), else `~/.cache/fugue-ci/agents/node_modules/.bin`; a test
//! without them says so and passes.

use super::harness::{World, fugue_bin, write_config};
use super::sideband_keys::sideband_dir;
use super::standin_model::{Reply, StandIn, Turn, answers, last_result};
use super::tui_terminal::end_of;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a real CLI may take for one step (it starts in about 3 s on an idle
/// machine; beside two CPU hogs, much longer).
const AGENT_TIMEOUT: Duration = Duration::from_secs(60);

/// The folder holding the real agent CLIs' commands, if they are installed.
pub fn agents_bin() -> Option<PathBuf> {
    let dir = match std::env::var_os("FUGUE_TEST_AGENTS") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME")?)
            .join(".cache/fugue-ci/agents/node_modules/.bin"),
    };
    dir.is_dir().then_some(dir)
}

/// The path of one installed agent CLI that runs here (`--version` answers: the
/// node scripts need a recent enough node), or a message saying why the test is
/// skipped.
pub fn agent(name: &str) -> Option<PathBuf> {
    let Some(path) = agents_bin().map(|d| d.join(name)).filter(|p| p.exists()) else {
        eprintln!(
            "skipped: the real `{name}` CLI is not installed (.ci/run installs it into \
             ~/.cache/fugue-ci/agents; or set FUGUE_TEST_AGENTS to a node_modules/.bin folder)"
        );
        return None;
    };
    let home = tempfile::tempdir().expect("temp dir");
    let out = std::process::Command::new(&path)
        .arg("--version")
        .env("HOME", home.path())
        .stdin(std::process::Stdio::null())
        .output();
    match out {
        Ok(o) if o.status.success() => Some(path),
        other => {
            eprintln!(
                "skipped: `{} --version` fails here: {other:?}",
                path.display()
            );
            None
        }
    }
}

/// A real agent CLI running in pane %1 of session `a` of a fresh fugue server (its
/// pane made with `--sideband`), with its own home in the world's (seeded so that no
/// onboarding, trust or login dialog shows), talking to the stand-in model.
pub struct Rig {
    pub w: World,
    pub model: StandIn,
}

/// The project folder the agent runs in (made, and canonical as the CLIs record it).
pub fn project(w: &World) -> PathBuf {
    let proj = w.path("proj");
    std::fs::create_dir_all(&proj).unwrap();
    proj.canonicalize().unwrap()
}

impl Rig {
    /// Runs `argv` with `envs` (and `fugue` first on PATH) in the project folder, and
    /// waits until its input box is ready (its screen shows `ready`).
    pub fn launch(w: World, model: StandIn, argv: &[&Path], envs: &[String], ready: &str) -> Rig {
        let fugue_dir = fugue_bin().parent().unwrap().to_path_buf();
        let path = format!(
            "{}:{}",
            fugue_dir.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut args: Vec<String> = ["new-session", "-d", "-s", "a", "-x", "120", "-y", "40"]
            .map(String::from)
            .to_vec();
        let proj = project(&w).display().to_string();
        args.extend(["-c".into(), proj, "--sideband".into()]);
        args.extend(["-e".into(), format!("PATH={path}")]);
        args.extend(["-e".into(), "SHELL=/bin/bash".into()]);
        for e in envs {
            args.extend(["-e".into(), e.clone()]);
        }
        args.push("--".into());
        args.extend(argv.iter().map(|a| a.display().to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // A CLI that dies at start leaves its last screen (its error) for the report.
        write_config(&w, "[server]\nremain_on_exit = true\n");
        w.ok(&args);
        let c = Rig { w, model };
        c.wait("the agent's input box", || {
            if c.pane_dead("%1") {
                panic!(
                    "the agent exited before its input box showed\n{}",
                    c.report()
                );
            }
            c.screen("%1").contains(ready).then_some(())
        });
        c
    }

    fn pane_dead(&self, pane: &str) -> bool {
        let out = self.w.run(&["display", "-p", "-t", pane, "#{pane_dead}"]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    pub fn screen(&self, pane: &str) -> String {
        let out = self.w.run(&["capture-pane", "-p", "-t", pane]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Waits for `f`; on timeout fails with the screens of every pane and what the
    /// stand-in model received (the tool results the agent sent back above all).
    pub fn wait<T>(&self, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
        let start = Instant::now();
        loop {
            if let Some(v) = f() {
                return v;
            }
            if start.elapsed() > AGENT_TIMEOUT {
                panic!("timed out waiting for {what}\n{}", self.report());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn report(&self) -> String {
        let mut out = String::new();
        let list = self.w.run(&["list-panes", "-a", "-F", "#{pane_id}"]);
        for pane in String::from_utf8_lossy(&list.stdout).lines() {
            out += &format!("--- screen of {pane} ---\n{}\n", self.screen(pane));
        }
        out + &self.model.dump()
    }

    /// Types the prompt into the agent's input box and submits it.
    pub fn prompt(&self, text: &str) {
        self.w.ok(&["send-keys", "-t", "%1", "-l", text]);
        self.wait("the prompt in the input box", || {
            self.screen("%1").contains(text).then_some(())
        });
        self.w.ok(&["send-keys", "-t", "%1", "Enter"]);
    }

    /// Waits until the conversation has had `n` answers and the agent asked for the
    /// next; returns that request.
    pub fn wait_turn(&self, n: usize) -> Value {
        self.wait(&format!("the agent's request for turn {n}"), || {
            self.model
                .conversation()
                .into_iter()
                .find(|r| answers(r) == n)
        })
    }

    /// The pane (other than the agent's own) whose screen shows `text`.
    pub fn pane_showing(&self, text: &str) -> String {
        self.wait(&format!("a pane showing {text}"), || {
            let list = self.w.run(&["list-panes", "-a", "-F", "#{pane_id}"]);
            String::from_utf8_lossy(&list.stdout)
                .lines()
                .filter(|p| *p != "%1")
                .find(|p| self.screen(p).contains(text))
                .map(String::from)
        })
    }
}

impl Drop for Rig {
    /// Stops what the agent left running outside fugue's panes (kill-server, in the
    /// World's Drop, ends the panes): Codex starts a detached app-server daemon from a
    /// copy of itself in its home, which would outlive the test.
    fn drop(&mut self) {
        stop_programs_under(self.w.dir.path());
    }
}

/// Signals every process whose program lies under `dir` (a test's own folder): TERM,
/// then KILL for any still there a few seconds later. Best effort: never panics.
pub fn stop_programs_under(dir: &Path) {
    let under = |pid: &str| {
        let argv0 = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        let argv0 = argv0.split(|b| *b == 0).next().unwrap_or_default().to_vec();
        Path::new(&*String::from_utf8_lossy(&argv0)).starts_with(dir)
    };
    let pids = || -> Vec<libc::pid_t> {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(String::from))
            .filter(|p| p.bytes().all(|b| b.is_ascii_digit()) && under(p))
            .filter_map(|p| p.parse().ok())
            .collect()
    };
    for pid in pids() {
        // SAFETY: kill(2) on a process this test's programs started; no memory shared.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    let deadline = Instant::now() + Duration::from_secs(3);
    while !pids().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    for pid in pids() {
        // SAFETY: as above.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

/// Starts Claude Code. `mcp`: fugue is configured as its MCP server (`fugue mcp`, as
/// docs/mcp.md says).
fn start_claude(claude: PathBuf, prompt: &str, turns: Vec<Turn>, mcp: bool) -> Rig {
    start_claude_with(claude, prompt, turns, mcp, |_| ())
}

/// [`start_claude`], with `tweak` changing the world's seeded settings before it starts.
fn start_claude_with(
    claude: PathBuf,
    prompt: &str,
    turns: Vec<Turn>,
    mcp: bool,
    tweak: impl FnOnce(&World),
) -> Rig {
    let w = World::new();
    let model = StandIn::start(prompt, turns);
    seed_config(&w, &project(&w), mcp);
    tweak(&w);
    let envs = claude_env(&model);
    Rig::launch(w, model, &[&claude], &envs, "? for shortcuts")
}

/// What Claude Code needs to talk to `model` and nothing else (no updates, telemetry
/// or error reports).
pub fn claude_env(model: &StandIn) -> Vec<String> {
    vec![
        format!("ANTHROPIC_BASE_URL={}", model.base_url()),
        "ANTHROPIC_API_KEY=test".into(),
        "DISABLE_AUTOUPDATER=1".into(),
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1".into(),
        "DISABLE_TELEMETRY=1".into(),
        "DISABLE_ERROR_REPORTING=1".into(),
    ]
}

/// `~/.claude.json` (onboarding done, the API key approved, the project trusted,
/// optionally fugue as an MCP server) and `~/.claude/settings.json` (Bash and fugue's
/// tools allowed without a question) in the world's home, which the server and so the
/// pane have as `HOME`.
pub fn seed_config(w: &World, proj: &std::path::Path, mcp: bool) {
    let home = w.path("home");
    let state = json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        // The key's last 20 characters, approved: else it asks whether to use it.
        "customApiKeyResponses": {"approved": ["test"], "rejected": []},
        // No "auto mode is the default" notice, nor the offer to make it the default.
        "hasSeenAutoDefaultNotice": true,
        "hasSeenAutoDefaultNudge": true,
        "lastReleaseNotesSeen": "2.1.332",
        "projects": { proj.display().to_string(): {
            "hasTrustDialogAccepted": true,
            "hasCompletedProjectOnboarding": true,
        }},
    });
    std::fs::write(home.join(".claude.json"), state.to_string()).unwrap();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    let settings = json!({"permissions": {
        "allow": ["Bash", "mcp__fugue"],
        "defaultMode": "default",
    }});
    std::fs::write(home.join(".claude/settings.json"), settings.to_string()).unwrap();
    if mcp {
        // The recipe docs/agents.md gives: fugue's MCP server, its hooks, its skill.
        setup(w, "claude-code");
    }
}

/// Runs `fugue setup AGENT` in the world's home, as a person would before starting it.
pub fn setup(w: &World, agent: &str) {
    let out = w.cmd_unaddressed(&["setup", agent]).output().unwrap();
    assert!(
        out.status.success(),
        "fugue setup {agent}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Waits until the agent in %1 has reported `result` through the hooks `fugue setup`
/// wrote (`fugue report --hook` from its Stop/AfterAgent hook or Codex's notify).
pub fn wait_for_reported_result(c: &Rig, result: &str) {
    c.wait(&format!("the reported result {result:?}"), || {
        let out = c.w.run(&["agent", "result", "-t", "%1"]);
        String::from_utf8_lossy(&out.stdout)
            .contains(result)
            .then_some(())
    });
}

#[test]
fn claude_codes_bash_tool_spawns_a_pane_through_fugue_sideband() {
    let Some(claude) = agent("claude") else {
        return;
    };
    let command = r#"fugue sideband "$(printf '<fugue:spawn key="%s" id="sub" command="echo hello-from-sub; sleep 100"/>' "$FUGUE_SIDEBAND_KEY")""#;
    let turns: Vec<Turn> = vec![
        Box::new(move |_| Reply::bash(command)),
        Box::new(|_| Reply::text("The sub-agent is running.")),
    ];
    let c = start_claude(claude, "start the sub agent", turns, false);
    c.prompt("start the sub agent");
    let after = c.wait_turn(1);
    let result = last_result(&after);
    let sub = c.pane_showing("hello-from-sub");
    assert_ne!(sub, "%1");
    // Claude Code reads `tmux show -gv focus-events` (fugue is its tmux) and, reading
    // `off`, told people to turn it on under its answer.
    let screen = c.wait("the answer on screen", || {
        let s = c.screen("%1");
        s.contains("The sub-agent is running.").then_some(s)
    });
    assert!(!screen.contains("focus-events"), "{screen}");
    let results = c.model.tool_results();
    assert!(
        results.last().is_some_and(|r| r["is_error"] != true),
        "fugue sideband failed in Claude Code's Bash tool: {result}\n{}",
        c.report()
    );
}

#[test]
fn a_tag_in_claude_codes_streamed_answer_spawns_a_pane_and_hides_its_key() {
    let Some(claude) = agent("claude") else {
        return;
    };
    let turns: Vec<Turn> = vec![
        Box::new(|_| Reply::bash("echo $FUGUE_SIDEBAND_KEY")),
        Box::new(|req| {
            let key = last_result(req).trim().to_string();
            let (a, b) = key.split_at(key.len() / 2);
            Reply::Text(
                [
                    "I will start it now.\n\n<fugue:spawn key=\"",
                    a,
                    b,
                    "\" id=\"ans\" command=\"echo hello-from-answer; sleep 100\"/>",
                    "\n\nIt is running.",
                ]
                .map(String::from)
                .to_vec(),
            )
        }),
    ];
    let c = start_claude(claude, "spawn from your answer", turns, false);
    c.prompt("spawn from your answer");
    let after = c.wait_turn(1);
    let key = last_result(&after).trim().to_string();
    assert_eq!(
        key.len(),
        32,
        "the Bash tool's result is not the key\n{}",
        c.report()
    );
    c.pane_showing("hello-from-answer");
    c.wait("the end of the answer on screen", || {
        c.screen("%1").contains("It is running.").then_some(())
    });
    let all = c.w.ok(&["capture-pane", "-p", "-J", "-S", "-", "-t", "%1"]);
    assert!(
        !all.contains(&key),
        "the key is on fugue's screen of Claude Code's pane:\n{all}"
    );
    let untrusted = std::fs::read_to_string(sideband_dir(&c.w, "%1").join("untrusted.json"))
        .unwrap_or_default();
    assert!(
        !untrusted.contains("wrong_key"),
        "a right key was counted as wrong: {untrusted}"
    );
}

#[test]
fn claude_code_creates_waits_for_and_reads_a_pane_over_mcp() {
    let Some(claude) = agent("claude") else {
        return;
    };
    fn pane_of(req: &Value) -> String {
        let v: Value = serde_json::from_str(&last_result(req)).unwrap_or(Value::Null);
        v["pane"].as_str().unwrap_or("%?").to_string()
    }
    let tool = |name: &str, input: Value| Reply::Tool {
        name: format!("mcp__fugue__{name}"),
        input,
    };
    let turns: Vec<Turn> = vec![
        Box::new(move |_| {
            tool(
                "create_pane",
                json!({"command": "sh", "input": "echo hello-from-mcp"}),
            )
        }),
        Box::new(move |req| {
            tool(
                "wait_for",
                json!({"pane": pane_of(req), "text": "^hello-from-mcp$"}),
            )
        }),
        Box::new(move |req| tool("read_pane", json!({"pane": pane_of(req)}))),
        Box::new(|_| Reply::text("The pane said hello.")),
    ];
    let c = start_claude(claude, "make a pane over mcp", turns, true);
    c.prompt("make a pane over mcp");
    let done = c.wait_turn(3);
    let results: Vec<String> = super::standin_model::tool_results_of(&done);
    let report = || format!("tool results: {results:#?}\n{}", c.report());
    assert_eq!(results.len(), 3, "{}", report());
    let created: Value = serde_json::from_str(&results[0]).unwrap_or(Value::Null);
    let pane = created["pane"]
        .as_str()
        .unwrap_or_else(|| panic!("create_pane: {}", report()));
    let waited: Value = serde_json::from_str(&results[1]).unwrap_or(Value::Null);
    assert_eq!(
        waited["matched"],
        "hello-from-mcp",
        "wait_for: {}",
        report()
    );
    assert!(
        results[2].contains("hello-from-mcp"),
        "read_pane: {}",
        report()
    );
    let panes = c.w.ok(&["list-panes", "-a", "-F", "#{pane_id}"]);
    assert!(panes.lines().any(|p| p == pane), "{panes}");
    assert!(c.screen(pane).contains("hello-from-mcp"));
    // `fugue setup`'s Stop hook reported the answer as the pane's result.
    wait_for_reported_result(&c, "The pane said hello.");
}

/// Claude Code hides its cursor and parks it at its input caret; as tmux does, the
/// terminal's cursor goes there (IME windows and screen magnifiers follow it), hidden.
#[test]
fn the_terminals_cursor_sits_at_claude_codes_caret() {
    let Some(claude) = agent("claude") else {
        return;
    };
    let c = start_claude(claude, "never sent", Vec::new(), false);
    let tui = c.w.tui(&["attach", "-t", "a"], 100, 30);
    tui.wait("Claude Code's input box on the terminal", |s| {
        s.contents().contains("for shortcuts")
    });
    c.w.ok(&["send-keys", "-t", "%1", "-l", "hello caret"]);
    tui.wait("the typed prompt on the terminal", |s| {
        s.contents().contains("hello caret")
    });
    // The caret is just after the typed text, wherever fugue draws the pane.
    let at = c.wait("the terminal's cursor at Claude Code's caret", || {
        tui.screen(|s| {
            let caret = end_of(s, "hello caret")?;
            (s.cursor_position() == caret).then_some(caret)
        })
    });
    assert!(
        tui.screen(|s| s.hide_cursor()),
        "the cursor is shown at {at:?}"
    );
}

/// Edits a JSON file of the world's home in place.
fn edit_json(w: &World, rel: &str, f: impl FnOnce(&mut Value)) {
    let path = w.path(rel);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(&path, v.to_string()).unwrap();
}

/// Claude Code notifies `idle_prompt` when it has waited for a prompt (60 s by
/// default; its `messageIdleNotifThresholdMs` setting makes that 1.5 s here). With
/// `fugue setup`'s hooks the pane stays idle, so a `--sync` message is delivered; the
/// earlier recipe reported it `awaiting_input`, and the message waited forever. A second
/// Notification hook of the test's own records that the notification did fire.
#[test]
fn an_idle_claude_code_still_takes_a_sync_message() {
    let Some(claude) = agent("claude") else {
        return;
    };
    let turns: Vec<Turn> = vec![
        Box::new(|_| Reply::text("Hello there.")),
        Box::new(|_| Reply::text("Got the follow-up.")),
    ];
    let c = start_claude_with(claude, "say hello", turns, true, |w| {
        edit_json(w, "home/.claude.json", |v| {
            v["messageIdleNotifThresholdMs"] = json!(1500);
        });
        let marker = w.path("home/notified.jsonl");
        edit_json(w, "home/.claude/settings.json", |v| {
            let record = json!({"hooks": [{"type": "command",
                "command": format!("cat >> '{}'; echo >> '{}'", marker.display(), marker.display())}]});
            v["hooks"]["Notification"]
                .as_array_mut()
                .unwrap()
                .push(record);
        });
    });
    c.prompt("say hello");
    wait_for_reported_result(&c, "Hello there.");
    c.wait("Claude Code's idle_prompt notification", || {
        let seen = std::fs::read_to_string(c.w.path("home/notified.jsonl")).unwrap_or_default();
        seen.contains("idle_prompt").then_some(())
    });
    let state = c.w.ok(&["display", "-p", "-t", "%1", "#{agent_state}"]);
    assert_eq!(state.trim(), "idle", "{}", c.report());
    let out = c.w.run(&[
        "agent",
        "message",
        "--to",
        "%1",
        "--sync",
        "--timeout",
        "60000",
        "the follow-up",
    ]);
    assert!(
        out.status.success(),
        "send_message --sync: {}{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
        c.report()
    );
    let asked = c.wait_turn(1);
    assert!(
        asked.to_string().contains("the follow-up"),
        "{}",
        c.report()
    );
    wait_for_reported_result(&c, "Got the follow-up.");
}
