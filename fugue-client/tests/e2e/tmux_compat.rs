//! fugue as `tmux` (issue 16): a program in a fugue pane that calls `tmux` gets fugue
//! (the `tmux` name first on the pane's PATH, TMUX and TMUX_PANE set), and Claude
//! Code's agent-team command sequences run through it unchanged.

use super::harness::{World, eventually};

/// A shell that starts slowly and throws away what was typed before it was ready (as
/// a shell setting up its terminal with TCSAFLUSH does): what a teammate's start
/// command meets in anthropics/claude-code#40168.
const SLOW_FLUSHING_SHELL: &str =
    "sleep 0.5\nperl -MPOSIX -e 'POSIX::tcflush(0, POSIX::TCIFLUSH())'\nexec sh\n";

/// Runs `script` with `sh` in a fugue pane of session `s` and returns its output, once
/// it wrote `done` after it.
fn run_in_pane(w: &World, session: &str, script: &str) -> String {
    let dir = w.path("scripts");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{session}.sh"));
    let out = dir.join(format!("{session}.out"));
    std::fs::write(&file, script).unwrap();
    w.ok(&[
        "send-keys",
        "-t",
        session,
        &format!(
            "sh {} > {} 2>&1; echo done >> {}",
            file.display(),
            out.display(),
            out.display()
        ),
        "Enter",
    ]);
    eventually("the script to finish", || {
        std::fs::read_to_string(&out)
            .ok()
            .filter(|t| t.lines().any(|l| l == "done"))
    })
}

#[test]
fn programs_in_panes_find_fugue_as_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "in", "sh"]);
    let out = run_in_pane(
        &w,
        "in",
        "command -v tmux; tmux -V; echo \"pane=$TMUX_PANE\"; echo \"tmux=$TMUX\"; tmux display -p '#{session_name}:#{pane_id}'\n",
    );
    let shim = out.lines().next().unwrap_or("");
    assert!(shim.ends_with("/tmux") && shim.contains(".bin/"), "{out}");
    assert!(out.lines().any(|l| l == "tmux 3.5a"), "{out}");
    let pane = w.ok(&["display-message", "-p", "-t", "in", "#{pane_id}"]);
    assert!(out.contains(&format!("pane={}", pane.trim())), "{out}");
    // TMUX: socket,pid,session as tmux writes it.
    let tmux_line = out.lines().find(|l| l.starts_with("tmux=")).unwrap_or("");
    assert_eq!(tmux_line.split(',').count(), 3, "{out}");
    assert!(out.contains(&format!("in:{}", pane.trim())), "{out}");
}

/// Claude Code before 2.1.26x: `split-window` for each teammate, then `send-keys` of
/// its start command, four teammates at once, with a custom prefix key, into shells
/// that discard early input. No start command may be lost or mixed with another.
#[test]
fn claude_code_split_and_send_keys_lose_no_start_command() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "lead",
        "-x",
        "200",
        "-y",
        "50",
        "sh",
    ]);
    w.ok(&["set", "-g", "prefix", "C-a"]);
    std::fs::create_dir_all(w.path("scripts")).unwrap();
    std::fs::write(w.path("scripts/slow.sh"), SLOW_FLUSHING_SHELL).unwrap();
    let script = r#"LEAD=$TMUX_PANE
for n in 1 2 3 4; do
  (
    P=$(tmux split-window -t "$LEAD" -h -P -F '#{pane_id}' "sh $(dirname "$0")/slow.sh")
    tmux send-keys -t "$P" "echo started-agent$n-ok" Enter
    echo "$P" > "$(dirname "$0")/teammate$n"
  ) &
done
wait
tmux has-session -t lead && echo has-session-ok
tmux list-panes -t lead -F '#{pane_id}' | wc -l
"#;
    let out = run_in_pane(&w, "lead", script);
    assert!(out.contains("has-session-ok"), "{out}");
    for n in 1..=4 {
        let pane = std::fs::read_to_string(w.path(&format!("scripts/teammate{n}")))
            .unwrap_or_default()
            .trim()
            .to_string();
        assert!(pane.starts_with('%'), "teammate {n}: {out}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        loop {
            let screen = w.ok(&["capture-pane", "-p", "-J", "-t", &pane]);
            if screen
                .lines()
                .any(|l| l.trim() == format!("started-agent{n}-ok"))
            {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "teammate {n}'s start command never ran; its pane shows:\n{screen}\nserver log:\n{}",
                w.log()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        // Typed whole, into its own pane only.
        let screen = w.ok(&["capture-pane", "-p", "-J", "-t", &pane]);
        for other in (1..=4).filter(|o| *o != n) {
            assert!(!screen.contains(&format!("agent{other}-ok")), "{screen}");
        }
    }
}

/// `send-keys` takes tmux's flags (-R -N -H -F -l, `--`), and an unknown flag is an
/// error that types nothing (it used to type `-R-t%2echo hi` into the default pane).
#[test]
fn send_keys_flags_behave_as_tmux() {
    use super::twins::{Tmux, fugue_pane, settled};
    let w = World::new();
    fugue_pane(&w, "sk", 40, 24, "exec cat");
    let tmux = Tmux::start(w.dir.path(), 40, 24, "exec cat");
    let steps: &[&[&str]] = &[
        &["send-keys", "-t", "sk", "garbage", "Enter"],
        &["send-keys", "-R", "-t", "sk", "after-reset", "Enter"],
        &["send-keys", "-t", "sk", "-N", "3", "ab"],
        &["send-keys", "-t", "sk", "Enter"],
        &["send-keys", "-t", "sk", "-H", "68", "69", "0a"],
        &["send-keys", "-t", "sk", "--", "-R", "Enter"],
    ];
    for s in steps {
        w.ok(s);
        // One at a time: `cat` answers each line, and the next must not race it.
        settled("fugue's pane", || w.ok(&["capture-pane", "-p", "-t", "sk"]));
    }
    let ours = settled("fugue's pane", || w.ok(&["capture-pane", "-p", "-t", "sk"]));
    assert!(
        ours.contains("after-reset") && !ours.contains("garbage"),
        "{ours}"
    );
    assert!(ours.contains("ababab") && ours.contains("\n-R\n"), "{ours}");
    // -F, as tmux 3.5 documents it (3.3a types the format as it is).
    fugue_pane(&w, "skf", 40, 24, "exec cat");
    w.ok(&["send-keys", "-F", "-t", "skf", "w=#{pane_width}", "Enter"]);
    settled("-F", || w.ok(&["capture-pane", "-p", "-t", "skf"]))
        .contains("w=40")
        .then_some(())
        .expect("-F expands formats");
    // An unknown flag: an error, and nothing typed anywhere.
    let out = w.run(&["send-keys", "-Q", "-t", "sk", "echo hi", "Enter"]);
    assert!(!out.status.success());
    let out = w.run(&["tmux", "send-keys", "-Q", "-t", "sk", "x"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "command send-keys: unknown flag -Q"
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(w.ok(&["capture-pane", "-p", "-t", "sk"]), ours);
    let Some(t) = tmux else { return };
    let session = t.ok(&["display-message", "-p", "#{session_name}"]);
    for s in steps {
        let s: Vec<&str> = s
            .iter()
            .map(|a| if *a == "sk" { session.trim() } else { a })
            .collect();
        t.ok(&s);
        settled("tmux's pane", || t.capture());
    }
    let theirs = settled("tmux's pane", || t.capture());
    assert_eq!(ours, theirs);
    let out = t.run(&["send-keys", "-Q", "-t", session.trim(), "x"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "command send-keys: unknown flag -Q"
    );
}

/// The lists' default lines are tmux's (tools read `tmux ls` and `list-windows`):
/// the same words and layout for the same session, ids and sizes aside.
#[test]
fn list_defaults_are_tmuxs_lines() {
    use super::twins::Tmux;
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "ld", "-x", "80", "-y", "24"]);
    w.ok(&["split-window", "-t", "ld"]);
    w.ok(&["new-window", "-t", "ld"]);
    // Numbers and ids vary (fugue's panes have borders; ids start elsewhere), and
    // each window is named for the shell it runs.
    let checksum = regex::Regex::new(r"\[layout [0-9a-f]{4},").unwrap();
    let number = regex::Regex::new(r"[%@$]?[0-9]+").unwrap();
    // A window's name is its program's, which tmux may catch mid-start.
    let name = regex::Regex::new(r": [^ ]+?([*-]?) \(").unwrap();
    let shape = |text: String| -> String {
        let t = checksum.replace_all(&text, "[layout C,");
        let t = number.replace_all(&t, "N");
        name.replace_all(&t, ": NAME$1 (").into_owned()
    };
    let ours: Vec<String> = [
        &["ls"][..],
        &["list-windows", "-t", "ld"],
        &["list-windows", "-a"],
        &["list-panes", "-t", "ld:0"],
        &["list-panes", "-s", "-t", "ld"],
        &["list-panes", "-a"],
    ]
    .iter()
    .map(|a| shape(w.ok(a)))
    .collect();
    assert!(
        ours[0].starts_with("ld: N windows (created "),
        "{}",
        ours[0]
    );
    let Some(t) = Tmux::start(w.dir.path(), 80, 24, "exec sh") else {
        return;
    };
    t.ok(&["rename-session", "ld"]);
    t.ok(&["split-window", "-t", "ld"]);
    t.ok(&["new-window", "-t", "ld"]);
    let theirs: Vec<String> = [
        &["ls"][..],
        &["list-windows", "-t", "ld"],
        &["list-windows", "-a"],
        &["list-panes", "-t", "ld:0"],
        &["list-panes", "-s", "-t", "ld"],
        &["list-panes", "-a"],
    ]
    .iter()
    .map(|a| shape(t.ok(a)))
    .collect();
    for (o, t) in ours.iter().zip(&theirs) {
        assert_eq!(o, t);
    }
}

/// `fugue install-tmux-shim DIR` puts the `tmux` name in DIR, which then is fugue (and
/// leaves a `tmux` already there alone without --force).
#[test]
fn install_tmux_shim_makes_tmux_fugue() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "shim"]);
    let dir = w.path("bin");
    w.ok(&["install-tmux-shim", dir.to_str().unwrap()]);
    let tmux = dir.join("tmux");
    let out = std::process::Command::new(&tmux)
        .arg("-V")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "tmux 3.5a\n");
    let mut ls = w.cmd(&["ls"]);
    // The harness's command is `fugue -S SOCKET ls`; the same words through the link.
    let args: Vec<String> = ls
        .get_args()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let out = ls.output().unwrap();
    let via_shim = std::process::Command::new(&tmux)
        .args(&args)
        .envs(ls.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .output()
        .unwrap();
    assert!(via_shim.status.success(), "{via_shim:?}");
    assert_eq!(via_shim.stdout, out.stdout);
    assert!(String::from_utf8_lossy(&via_shim.stdout).starts_with("shim: 1 windows"));
    let again = w.run(&["install-tmux-shim", dir.to_str().unwrap()]);
    assert!(!again.status.success());
    w.ok(&["install-tmux-shim", "--force", dir.to_str().unwrap()]);
}
