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
    assert!(out.lines().any(|l| l == "tmux 3.5a-fugue"), "{out}");
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
    // Nothing typed: a later line through the pane would change what is compared.
    super::harness::settle_for_negative_check();
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
    assert_eq!(String::from_utf8_lossy(&out.stdout), "tmux 3.5a-fugue\n");
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

/// A stand-in for `claude` as a teammate: says it runs, then exits with the status
/// typed into it (as an agent that ends well or fails).
const FAKE_CLAUDE: &str = "#!/bin/sh\necho \"ready $*\"\nread code\nexit \"$code\"\n";

/// Claude Code 2.1.26x and later, for four teammates at once: `split-window -- cat`,
/// then the title, `remain-on-exit failed` and `respawn-pane -k` with the teammate's
/// command; then `main-vertical` and the lead at 30%.
const TEAM_SCRIPT: &str = r#"LEAD=$TMUX_PANE
D=$(cd "$(dirname "$0")" && pwd)
for n in 1 2 3 4; do
  (
    P=$(tmux split-window -d -t "$LEAD" -h -l 70% -P -F '#{pane_id}' -- cat)
    tmux select-pane -t "$P" -T "agent$n"
    tmux set-option -p -t "$P" remain-on-exit failed
    tmux respawn-pane -k -t "$P" -- "cd '$D' && env CLAUDECODE=1 '$D/bin/claude' --agent-id agent$n@team --agent-name agent$n --team-name team --agent-color blue"
    echo "$P" > "$D/teammate$n"
  ) &
done
wait
tmux select-layout -t "$LEAD" main-vertical
tmux resize-pane -t "$LEAD" -x 30%
"#;

/// Writes the team script and the stand-in `claude` into `dir`, and the command line
/// that runs the script in a pane, appending its output and then `done` to `out`.
fn team_files(dir: &std::path::Path, script: &str) -> (String, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    let claude = dir.join("bin/claude");
    std::fs::write(&claude, FAKE_CLAUDE).unwrap();
    std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(dir.join("team.sh"), script).unwrap();
    let out = dir.join("team.out");
    let line = format!(
        "sh {}/team.sh > {} 2>&1; echo done >> {}",
        dir.display(),
        out.display(),
        out.display()
    );
    (line, out)
}

fn finished(out: &std::path::Path) -> String {
    eventually("the team script to finish", || {
        std::fs::read_to_string(out)
            .ok()
            .filter(|t| t.lines().any(|l| l == "done"))
    })
}

/// What a multiplexer shows after the team script, in terms both share (tmux's
/// panes share one-cell dividers, fugue's draw their own borders, so cells beside the
/// lead's width differ): the titles, the lead's place and width, and whether the
/// teammates are one column of stacked panes to its right.
fn team_shape(list: &str, lead: &str) -> String {
    let mut titles = Vec::new();
    let mut lead_at = String::new();
    let mut column = std::collections::BTreeSet::new();
    let mut tops = std::collections::BTreeSet::new();
    for l in list.lines() {
        let f: Vec<&str> = l.split('|').collect();
        let [id, title, left, top, width] = f[..] else {
            panic!("{l}");
        };
        if id == lead {
            lead_at = format!("lead at {left},{top} {width} wide");
        } else {
            titles.push(title.to_string());
            column.insert(left.to_string());
            tops.insert(top.to_string());
        }
    }
    titles.sort();
    format!(
        "{} | {lead_at} | {} column(s), {} rows",
        titles.join(","),
        column.len(),
        tops.len()
    )
}

const SHAPE: &str = "#{pane_id}|#{pane_title}|#{pane_left}|#{pane_top}|#{pane_width}";

/// Claude Code's newer teammate sequence through the `tmux` name, side by side with
/// real tmux: titles, the `main-vertical` layout with the lead at 30%, the respawned
/// program running, and `remain-on-exit failed` (a teammate that fails stays, dead
/// with its status; one that ends well goes). In fugue the teammates are also agent
/// panes of the `claude` preset, children of the lead.
#[test]
fn claude_code_teammates_split_respawn_and_layout_as_in_tmux() {
    let w = World::new();
    let lead_of = |new: &dyn Fn(&[&str]) -> String| {
        new(&[
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
        new(&["set", "-g", "prefix", "C-a"]);
        new(&["display-message", "-p", "-t", "lead", "#{pane_id}"])
            .trim()
            .to_string()
    };
    let lead = lead_of(&|a| w.ok(a));
    let dir = w.path("team");
    let (line, out) = team_files(&dir, TEAM_SCRIPT);
    w.ok(&["send-keys", "-t", "lead", &line, "Enter"]);
    let said = finished(&out);
    assert_eq!(said.trim(), "done", "the script complained:\n{said}");

    let teammates: Vec<String> = (1..=4)
        .map(|n| {
            std::fs::read_to_string(dir.join(format!("teammate{n}")))
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .collect();
    for (n, p) in teammates.iter().enumerate() {
        let n = n + 1;
        assert!(p.starts_with('%'), "teammate {n}: {p:?}");
        eventually(&format!("teammate {n}'s program"), || {
            w.ok(&["capture-pane", "-p", "-t", p])
                .contains(&format!("ready --agent-id agent{n}@team"))
                .then_some(())
        });
    }
    let fugue_shape = team_shape(&w.ok(&["list-panes", "-t", "lead", "-F", SHAPE]), &lead);
    assert_eq!(
        fugue_shape,
        "agent1,agent2,agent3,agent4 | lead at 0,0 60 wide | 1 column(s), 4 rows"
    );

    // fugue goes beyond tmux: each teammate is a `claude` agent pane, the lead's child.
    let agents = w.ok(&[
        "list-panes",
        "-t",
        "lead",
        "-F",
        "#{pane_id} #{pane_agent} #{pane_parent} #{pane_agent_tags}",
    ]);
    for p in &teammates {
        assert!(
            agents.contains(&format!("{p} claude {lead} teammate")),
            "{p} is not a teammate agent pane:\n{agents}\nlog:\n{}",
            w.log()
        );
    }
    assert!(agents.contains(&format!("{lead}   \n")), "{agents}");

    // remain-on-exit failed: a failing teammate stays, dead; one that ends well goes.
    w.ok(&["send-keys", "-t", &teammates[0], "3", "Enter"]);
    w.ok(&["send-keys", "-t", &teammates[1], "0", "Enter"]);
    let dead = |run: &dyn Fn(&[&str]) -> String| {
        eventually("the teammates to end", || {
            let list = run(&[
                "list-panes",
                "-t",
                "lead",
                "-F",
                "#{pane_id} #{pane_dead} #{pane_dead_status}",
            ]);
            let gone = !list.contains(&format!("{} ", teammates[1]));
            let failed = list.contains(&format!("{} 1 3", teammates[0]));
            (gone && failed).then(|| list.lines().count())
        })
    };
    assert_eq!(dead(&|a| w.ok(a)), 4);

    // The same in real tmux, when it is installed.
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        eprintln!("tmux is not installed: fugue's side only");
        return;
    }
    let tm = super::harness::TestTmux::new(&w, "");
    let tlead = lead_of(&|a| tm.ok(a));
    let tdir = w.path("tmux-team");
    let (line, tout) = team_files(&tdir, TEAM_SCRIPT);
    tm.ok(&["send-keys", "-t", "lead", &line, "Enter"]);
    let said = finished(&tout);
    assert_eq!(
        said.trim(),
        "done",
        "the script complained in tmux:\n{said}"
    );
    for n in 1..=4 {
        let p = std::fs::read_to_string(tdir.join(format!("teammate{n}"))).unwrap_or_default();
        eventually(&format!("tmux's teammate {n}'s program"), || {
            tm.ok(&["capture-pane", "-p", "-t", p.trim()])
                .contains(&format!("ready --agent-id agent{n}@team"))
                .then_some(())
        });
    }
    let tmux_shape = team_shape(&tm.ok(&["list-panes", "-t", "lead", "-F", SHAPE]), &tlead);
    assert_eq!(
        fugue_shape, tmux_shape,
        "fugue's panes are not arranged as tmux's"
    );
}

/// `teammate-placement window`: Claude Code asks for splits of the lead's window, and
/// fugue moves each team into a window of its own named after it, leaving the lead's
/// window whole; the earlier sequence (a shell, then the command typed with
/// `send-keys`) is recognised too.
#[test]
fn teammate_placement_window_gives_each_team_its_own_window() {
    let w = World::new();
    super::harness::write_config(&w, "[server]\nteammate_placement = \"window\"\n");
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
    let lead = w.ok(&["display-message", "-p", "-t", "lead", "#{pane_id}"]);
    let lead = lead.trim();
    let dir = w.path("team");
    let script = format!(
        "{TEAM_SCRIPT}P=$(tmux split-window -t \"$LEAD\" -h -P -F '#{{pane_id}}' sh)\n\
         tmux send-keys -t \"$P\" \"'$D/bin/claude' --agent-id old@crew --agent-name old --team-name crew\" Enter\n\
         echo \"$P\" > \"$D/teammate5\"\n"
    );
    let (line, out) = team_files(&dir, &script);
    w.ok(&["send-keys", "-t", "lead", &line, "Enter"]);
    let said = finished(&out);
    assert_eq!(said.trim(), "done", "the script complained:\n{said}");
    let old = std::fs::read_to_string(dir.join("teammate5")).unwrap_or_default();
    let old = old.trim();
    eventually("the typed teammate's program", || {
        w.ok(&["capture-pane", "-p", "-t", old])
            .contains("ready --agent-id old@crew")
            .then_some(())
    });
    let windows = w.ok(&[
        "list-windows",
        "-t",
        "lead",
        "-F",
        "#{window_name} #{window_panes}",
    ]);
    let mut windows: Vec<&str> = windows.lines().skip(1).collect();
    windows.sort();
    assert_eq!(windows, ["crew 1", "team 4"], "{windows:?}");
    assert_eq!(
        w.ok(&["list-panes", "-t", lead, "-F", "#{pane_id} #{pane_width}"]),
        format!("{lead} 198\n"),
        "the lead's window is whole again"
    );
    let agents = w.ok(&[
        "list-panes",
        "-s",
        "-t",
        "lead",
        "-F",
        "#{pane_agent} #{pane_parent}",
    ]);
    assert_eq!(
        agents
            .lines()
            .filter(|l| *l == format!("claude {lead}"))
            .count(),
        5,
        "{agents}"
    );
}

/// `display-message -p` sees what tmux's sees: the whole window (`#{window_panes}`,
/// `#{P:...}`) and options by name (`#{@user}`, a pane's `@option`, `history-limit`),
/// side by side with real tmux. (It used to see one pane and no options.)
#[test]
fn display_p_sees_the_window_and_the_options_as_tmux() {
    let w = World::new();
    let fugue = |a: &[&str]| w.ok(a);
    let format = "#{window_panes} [#{@plain}] [#{@po}] #{history-limit} [#{P:#{pane_index} }] #{E:@plain} [#{@nosuch}]";
    let script = |run: &dyn Fn(&[&str]) -> String| {
        run(&["new-session", "-d", "-s", "a", "-x", "100", "-y", "30"]);
        run(&["split-window", "-t", "a"]);
        run(&["split-window", "-t", "a"]);
        run(&["set", "-g", "@plain", "val"]);
        run(&["set", "-g", "history-limit", "5000"]);
        run(&["set", "-p", "-t", "a:0.1", "@po", "pv"]);
        run(&["display-message", "-p", "-t", "a:0.1", format])
    };
    let mine = script(&fugue);
    assert_eq!(mine, "3 [val] [pv] 5000 [0 1 2 ] val []\n");
    // The server's own variables (libtmux builds `$TMUX` from `#{socket_path}`).
    let facts = w.ok(&["display-message", "-p", "#{socket_path} #{pid}"]);
    let (socket, pid) = facts.trim().split_once(' ').unwrap_or_default();
    assert_eq!(socket, w.socket.display().to_string(), "{facts}");
    assert!(pid.parse::<u32>().is_ok_and(|p| p > 1), "{facts}");
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        return;
    }
    let tm = super::harness::TestTmux::new(&w, "");
    assert_eq!(script(&|a| tm.ok(a)), mine, "tmux");
}

/// `pipe-pane` as tmux's: `-o 'cat >> FILE'` copies what the pane shows from then on,
/// the same `-o` again closes it, and `-I` types a command's output into the pane;
/// side by side with real tmux.
#[test]
fn pipe_pane_copies_output_toggles_and_types_input_as_tmux() {
    let w = World::new();
    let run =
        |tmux: Option<&super::harness::TestTmux>, dir: &std::path::Path| -> (String, String) {
            let call = |a: &[&str]| match tmux {
                Some(t) => t.ok(a),
                None => w.ok(a),
            };
            let capture = || call(&["capture-pane", "-p", "-t", "p"]);
            call(&["new-session", "-d", "-s", "p", "-x", "80", "-y", "24", "sh"]);
            let log = dir.join("pipe.log");
            let log = log.display().to_string();
            call(&["pipe-pane", "-t", "p", "-o", &format!("cat >> {log}")]);
            call(&["send-keys", "-t", "p", "echo piped-$((6*7))", "Enter"]);
            eventually("the piped output", || {
                std::fs::read_to_string(&log)
                    .ok()
                    .filter(|t| t.contains("piped-42"))
            });
            // -o again: closed.
            call(&["pipe-pane", "-t", "p", "-o", &format!("cat >> {log}")]);
            call(&["send-keys", "-t", "p", "echo after-$((2+2))", "Enter"]);
            eventually("the echo after", || {
                capture().contains("after-4").then_some(())
            });
            // -I: what the command prints is typed into the pane.
            call(&["pipe-pane", "-t", "p", "-I", "echo echo typed-$((3*3))"]);
            eventually("the typed line's output", || {
                capture().lines().any(|l| l == "typed-9").then_some(())
            });
            // The closed pipe's `cat` ends on its own time, and a pipe left open
            // would write `after-4` on its own time: nothing to wait for either way.
            super::harness::settle_for_negative_check();
            let logged = std::fs::read_to_string(&log).unwrap_or_default();
            (
                logged.contains("piped-42").to_string(),
                logged.contains("after-4").to_string(),
            )
        };
    let dir = w.path("fugue-pipe");
    std::fs::create_dir_all(&dir).unwrap();
    let mine = run(None, &dir);
    assert_eq!(mine, ("true".to_string(), "false".to_string()));
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        return;
    }
    let tm = super::harness::TestTmux::new(&w, "");
    let dir = w.path("tmux-pipe");
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(run(Some(&tm), &dir), mine, "tmux");
}

/// `switch-client` from the command line moves the attached client of the current
/// session: to a named session (`-t`), then the next one (`-n`) and the last (`-l`).
#[test]
fn switch_client_from_the_cli_moves_the_attached_client() {
    let w = World::new();
    for s in ["a", "b", "c"] {
        w.ok(&["new-session", "-d", "-s", s]);
    }
    let t = w.tui(&["attach", "-t", "a"], 80, 24);
    t.wait("attached to a", |s| s.contents().contains("[a]"));
    w.ok(&["switch-client", "-t", "b"]);
    t.wait("moved to b", |s| s.contents().contains("[b]"));
    w.ok(&["switch-client", "-n"]);
    t.wait("the next session, c", |s| s.contents().contains("[c]"));
    w.ok(&["switch-client", "-l"]);
    t.wait("the last session, b", |s| s.contents().contains("[b]"));
    // No client is attached to a session of its own: tmux's "no current client".
    w.ok(&["detach-client", "-s", "b"]);
    let out = w.run(&["switch-client", "-t", "a"]);
    assert!(!out.status.success());
}
