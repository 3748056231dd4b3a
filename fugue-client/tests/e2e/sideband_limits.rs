//! Sideband under abuse and mistakes: floods of refused tags, unclosed and runaway
//! partial tags, a finished agent followed by a plain program, and what reaches the log.

use super::harness::{World, eventually};
use super::sideband_keys::pane_key;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn sideband_dir(w: &World, pane: &str) -> PathBuf {
    w.socket.with_file_name(format!(
        "test.sideband/pane-{}",
        pane.trim_start_matches('%')
    ))
}

fn capture(w: &World, target: &str) -> String {
    w.ok(&["capture-pane", "-p", "-t", target])
}

fn json_files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .count()
        })
        .unwrap_or(0)
}

fn sideband_session(w: &World, name: &str) {
    w.ok(&[
        "new",
        "-d",
        "-s",
        name,
        "-x",
        "160",
        "-y",
        "40",
        "--sideband",
    ]);
}

/// Runs `script` in the session's shell and waits for `marker` at the start of a line.
fn run_script(w: &World, target: &str, name: &str, script: &str, marker: &str) {
    let path = w.path(name);
    std::fs::write(&path, script).unwrap();
    w.ok(&[
        "send-keys",
        "-t",
        target,
        &format!("sh {}", path.display()),
        "Enter",
    ]);
    eventually(marker, || {
        capture(w, target)
            .contains(&format!("\n{marker}"))
            .then_some(())
    });
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// The server is the parent of every pane's program.
fn server_pid(w: &World) -> u32 {
    let pane_pid = w.panes()[0]["pid"].as_u64().unwrap() as u32;
    let stat = std::fs::read_to_string(format!("/proc/{pane_pid}/stat")).unwrap();
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    after.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn an_unclosed_tag_is_shown_after_a_quiet_moment() {
    let w = World::new();
    sideband_session(&w, "open");
    w.ok(&[
        "send-keys",
        "-t",
        "open",
        "echo 'usage: <fugue:notify>message'; echo visible-after",
        "Enter",
    ]);
    let start = Instant::now();
    eventually("the output after the unclosed tag", || {
        capture(&w, "open")
            .contains("\nvisible-after\n")
            .then_some(())
    });
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let screen = capture(&w, "open");
    assert!(
        screen.contains("\nusage: <fugue:notify>message\n"),
        "the partial tag is shown as printed:\n{screen}"
    );
    // The shell's prompt came back too, and the pane works as before.
    w.ok(&["send-keys", "-t", "open", "echo after-$((2+3))", "Enter"]);
    eventually("the next command", || {
        capture(&w, "open").contains("\nafter-5").then_some(())
    });
}

#[test]
fn a_partial_tag_past_the_bound_is_shown_and_logged() {
    let w = World::new();
    sideband_session(&w, "big");
    // 70,000 bytes of one never-closed tag, with output right behind it: the bound, not
    // the quiet time, releases it.
    run_script(
        &w,
        "big",
        "big.sh",
        "printf '<fugue:notify>'; head -c 70000 /dev/zero | tr '\\0' x; echo; echo big-done\n",
        "big-done",
    );
    let all = w.ok(&["capture-pane", "-p", "-J", "-S", "-", "-t", "big"]);
    // Every byte is shown: the tag's text and all of its x's, on one (joined) line.
    // (Counting x's anywhere would also count them in the random temp path typed above.)
    let line = all
        .lines()
        .find(|l| l.starts_with("<fugue:notify>"))
        .unwrap_or_else(|| panic!("no released tag in:\n{}", &all[..all.len().min(400)]));
    assert_eq!(
        line.trim_end(),
        format!("<fugue:notify>{}", "x".repeat(70_000))
    );
    let log = eventually("the log line", || {
        Some(w.log()).filter(|l| l.contains("grew past 65536 bytes"))
    });
    assert!(log.contains("pane %1"), "{log}");
    assert!(!sideband_dir(&w, "%1").join("tag-1.json").exists());
}

#[test]
fn a_finished_agent_does_not_lend_its_scanning_to_the_next_program() {
    let w = World::new();
    let bin = w.path("bin");
    std::fs::create_dir_all(&bin).unwrap();
    // An "agent" that prints its own tag a moment after starting, and exits soon after
    // (well within the quarter second an earlier foreground cache lasted). Its tag's
    // id is `$ID`, else `good`.
    let agent = bin.join("claude");
    std::fs::write(
        &agent,
        "#!/bin/sh\nsleep 0.4\nprintf '<fugue:notify id=\"%s\" key=\"%s\">from the agent</fugue:notify>\\n' \"${ID:-good}\" \"$FUGUE_SIDEBAND_KEY\"\nsleep 0.15\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&agent, std::fs::Permissions::from_mode(0o755)).unwrap();
    let evil = w.path("evil.txt");
    std::fs::write(
        &evil,
        "<fugue:notify id=\"evil\">from a file</fugue:notify>\n",
    )
    .unwrap();
    w.ok(&["new", "-d", "-s", "plain", "-x", "160", "-y", "40"]);
    w.ok(&[
        "send-keys",
        "-t",
        "plain",
        &format!(
            "{}; cat {}; echo cat-$((6*7)); ID=after {}",
            agent.display(),
            evil.display(),
            agent.display()
        ),
        "Enter",
    ]);
    eventually("cat to finish", || {
        capture(&w, "plain").contains("\ncat-42").then_some(())
    });
    let dir = sideband_dir(&w, "%1");
    eventually("the agent's own tag to run", || {
        dir.join("good.json").exists().then_some(())
    });
    let screen = capture(&w, "plain");
    assert!(
        screen.contains("\n<fugue:notify id=\"evil\">from a file</fugue:notify>\n"),
        "cat's output is shown as text:\n{screen}"
    );
    // The agent again, after cat: once its tag ran, the scanner has handled every byte
    // before it, cat's line too.
    eventually("the agent's tag after cat", || {
        dir.join("after.json").exists().then_some(())
    });
    assert!(!dir.join("evil.json").exists(), "cat's tag ran");
}

#[test]
fn a_flood_of_refused_tags_costs_bounded_files_logs_and_notices() {
    let w = World::new();
    sideband_session(&w, "flood");
    let key = pane_key(&w, "%1");
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "<fugue:notify id=\"n{i}\" key=\"{key}\">flood</fugue:notify>\n"
        ));
    }
    std::fs::write(w.path("flood.txt"), text).unwrap();
    run_script(
        &w,
        "flood",
        "flood.sh",
        &format!("cat {}\necho flood-done\n", w.path("flood.txt").display()),
        "flood-done",
    );
    let dir = sideband_dir(&w, "%1");
    let summary = eventually("the summary of refusals", || {
        let s = std::fs::read_to_string(dir.join("refused.json")).ok()?;
        let v: serde_json::Value = serde_json::from_str(&s).ok()?;
        // Every refusal is counted in some report: the first on its own, then summaries.
        (v["total"].as_u64()? >= 2900).then_some(v)
    });
    assert_eq!(summary["ok"], false, "{summary}");
    assert!(
        summary["error"]["message"]
            .as_str()
            .unwrap()
            .contains("rate limit"),
        "{summary}"
    );
    let files = json_files(&dir);
    assert!(files <= 257, "{files} result files");
    let log = w.log();
    let lines = log.lines().filter(|l| l.contains("refused")).count();
    assert!(lines < 40, "{lines} log lines about refusals");
    // The server is responsive.
    let start = Instant::now();
    w.ok(&["ls"]);
    assert!(start.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_stopped_client_is_not_buried_in_notices() {
    let w = World::new();
    sideband_session(&w, "stop");
    let key = pane_key(&w, "%1");
    let mut text = String::new();
    for i in 0..50_000 {
        text.push_str(&format!(
            "<fugue:notify id=\"n{i}\" key=\"{key}\">x</fugue:notify>\n"
        ));
    }
    std::fs::write(w.path("many.txt"), text).unwrap();
    let mut t = w.tui(&["attach", "-t", "stop"], 160, 40);
    t.wait_text("0:sh");
    let server = server_pid(&w);
    let before = rss_kib(server);
    let pid = t.pid().unwrap() as i32;
    // SAFETY: signals to the client process this test started.
    unsafe { libc::kill(pid, libc::SIGSTOP) };
    run_script(
        &w,
        "stop",
        "many.sh",
        &format!("cat {}\necho many-done\n", w.path("many.txt").display()),
        "many-done",
    );
    let after = rss_kib(server);
    println!("server RSS {before} KiB before, {after} KiB after 50,000 refused tags");
    assert!(
        after < before + 20_000,
        "server memory grew from {before} to {after} KiB"
    );
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    t.wait_text("refused");
    let start = Instant::now();
    t.prefix(b"d");
    assert_eq!(t.wait_exit(), 0);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "detach took {:?}",
        start.elapsed()
    );
}

#[test]
fn a_tag_with_a_bad_id_is_refused_where_people_see_it() {
    let w = World::new();
    sideband_session(&w, "bad");
    let t = w.tui(&["attach", "-t", "bad"], 160, 40);
    t.wait_text("0:sh");
    run_script(
        &w,
        "bad",
        "bad.sh",
        "printf '<fugue:notify id=\"no good\" key=\"%s\">x</fugue:notify>\\n' \"$FUGUE_SIDEBAND_KEY\"\necho bad-done\n",
        "bad-done",
    );
    t.wait_text("cannot name a result file");
    let log = eventually("the log line", || {
        Some(w.log()).filter(|l| l.contains("cannot name a result file"))
    });
    assert!(
        log.lines()
            .any(|l| l.contains("WARN") && l.contains("cannot name a result file")),
        "{log}"
    );
    let r = std::fs::read_to_string(sideband_dir(&w, "%1").join("tag-1.json")).unwrap();
    assert!(r.contains("invalid_argument"), "{r}");
}

#[test]
fn typed_content_never_reaches_the_log() {
    let w = World::new();
    let out = w
        .cmd(&[
            "new",
            "-d",
            "-s",
            "quiet",
            "-x",
            "160",
            "-y",
            "40",
            "--sideband",
        ])
        .env("FUGUE_LOG", "debug")
        .output()
        .unwrap();
    assert!(out.status.success());
    // Printed twice (a repaint), once with a bad pane, once refused by policy: none of
    // the text typed may appear in the log.
    run_script(
        &w,
        "quiet",
        "secret.sh",
        concat!(
            "s=hunter; s=${s}2-secret; k=\"$FUGUE_SIDEBAND_KEY\"\n",
            "printf '<fugue:input key=\"%s\" pane=\"%%1\">%s</fugue:input>\\n' $k $s $k $s\n",
            "printf '<fugue:input key=\"%s\" pane=\"nowhere\">%s</fugue:input>\\n' $k $s\n",
            "printf '<fugue:spawn key=\"%s\" command=\"echo %s\" bogus=\"1\"/>\\n' $k $s\n",
            "echo secret-done\n",
        ),
        "secret-done",
    );
    let log = eventually("the refusal in the log", || {
        Some(w.log()).filter(|l| l.contains("nowhere") || l.contains("bogus"))
    });
    assert!(log.contains("input"), "{log}");
    assert!(!log.contains("hunter2-secret"), "{log}");
}
