//! Issue 12's promises seen from outside: commands and clients are not held up by a
//! slow spawn, and what a surface does goes through the dispatcher (audited).

use super::harness::{World, eventually};
use std::time::Instant;

/// A pane's program used to start (openpty, posix_spawn, three threads) with the
/// session tree locked, so one slow spawn stalled every client and command. Now the
/// placeholder pane goes in under the lock and the program starts outside it. The
/// debug server's `FUGUE_TEST_SPAWN_DELAY_MS` makes one spawn take 3 s; another
/// command must be answered while that spawn is still under way.
#[test]
fn issue_12_a_slow_spawn_does_not_hold_other_commands() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "slow", "-x", "80", "-y", "24"]);
    let started = w.path("home/started");
    let mut split = w
        .cmd(&[
            "split-window",
            "-d",
            "-t",
            "slow",
            "-e",
            "FUGUE_TEST_SPAWN_DELAY_MS=3000",
            "--",
            "sh",
            "-c",
            &format!("touch {}; exec cat", started.display()),
        ])
        .spawn()
        .unwrap();
    // The program runs before the delay starts: then the slow spawn is under way.
    eventually("the slow spawn under way", || {
        started.exists().then_some(())
    });
    let asked = Instant::now();
    let panes = w.ok(&["list-panes", "-t", "slow", "-F", "#{pane_id}"]);
    let answered = asked.elapsed();
    let still_spawning = split.try_wait().unwrap().is_none();
    assert!(
        still_spawning,
        "the split finished before list-panes was answered ({answered:?}): the test proves nothing"
    );
    assert_eq!(
        panes.lines().count(),
        1,
        "a pane still starting is in no layout yet: {panes}"
    );
    let status = split.wait().unwrap();
    assert!(status.success(), "the slow split failed");
    let panes = w.ok(&["list-panes", "-t", "slow", "-F", "#{pane_id}"]);
    assert_eq!(
        panes.lines().count(),
        2,
        "the split's pane is placed: {panes}"
    );
}

/// A pane closed while its program starts (here: its whole session) ends that program,
/// and the command that made it says so instead of placing a pane nowhere.
#[test]
fn issue_12_a_pane_closed_while_starting_is_refused_and_ended() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "gone", "-x", "80", "-y", "24"]);
    w.ok(&["new-session", "-d", "-s", "keep", "-x", "80", "-y", "24"]);
    let pidfile = w.path("home/started.pid");
    let split = w
        .cmd(&[
            "split-window",
            "-d",
            "-t",
            "gone",
            "-e",
            "FUGUE_TEST_SPAWN_DELAY_MS=2000",
            "--",
            "sh",
            "-c",
            &format!("echo $$ > {}; exec sleep 600", pidfile.display()),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid: i32 = eventually("the program to start", || {
        std::fs::read_to_string(&pidfile).ok()?.trim().parse().ok()
    });
    w.ok(&["kill-session", "-t", "gone"]);
    let out = split.wait_with_output().unwrap();
    assert!(
        !out.status.success(),
        "the split of a killed session succeeded"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("closed while"), "unclear refusal: {err}");
    let panes = w.ok(&["list-panes", "-a", "-F", "#{session_name}"]);
    assert_eq!(panes.trim(), "keep", "a pane was left behind: {panes}");
    eventually("the started program to be ended", || {
        (!std::path::Path::new(&format!("/proc/{pid}")).exists()).then_some(())
    });
}

/// Issue 12 review: while a pane is a placeholder its program has no pid in the tree,
/// so its first `fugue` call could not be placed by the kernel and the pane it claimed
/// was believed: a program could pass for another pane's (a person's). Now a process
/// descended from the server waits for starting panes and is found in its own.
#[test]
fn issue_12_a_starting_panes_program_is_judged_as_its_own_pane() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "own", "-x", "80", "-y", "24"]);
    let out = w.path("home/who.txt");
    let fugue = super::harness::fugue_bin();
    let created = w.ok(&[
        "split-window",
        "-d",
        "-P",
        "-F",
        "#{pane_id}",
        "-t",
        "own",
        "-e",
        "FUGUE_TEST_SPAWN_DELAY_MS=1500",
        "--",
        "sh",
        "-c",
        &format!(
            "FUGUE_PANE_ID=%1 {} display-message -p '#{{pane_id}}' > {}; exec sleep 600",
            fugue.display(),
            out.display()
        ),
    ]);
    let who = eventually("the program's answer", || {
        std::fs::read_to_string(&out).ok().filter(|s| !s.is_empty())
    });
    assert_eq!(
        who.trim(),
        created.trim(),
        "the starting pane's program was taken for the pane it claimed"
    );
    assert_ne!(who.trim(), "%1");
}

/// Issue 12 review: a pane still starting takes no command (it is in no layout yet).
#[test]
fn issue_12_a_starting_pane_is_not_a_target() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "tgt", "-x", "80", "-y", "24"]);
    let started = w.path("home/started");
    let mut split = w
        .cmd(&[
            "split-window",
            "-d",
            "-t",
            "tgt",
            "-e",
            "FUGUE_TEST_SPAWN_DELAY_MS=3000",
            "--",
            "sh",
            "-c",
            &format!("touch {}; exec cat", started.display()),
        ])
        .spawn()
        .unwrap();
    // The program runs before the delay starts: then %2 is a starting pane.
    eventually("the slow spawn under way", || {
        started.exists().then_some(())
    });
    let out = w.run(&["select-pane", "-t", "%2"]);
    let still_spawning = split.try_wait().unwrap().is_none();
    assert!(still_spawning, "the split ended before the test could look");
    assert!(!out.status.success(), "a starting pane was selected");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("still starting"), "unclear refusal: {err}");
    assert!(split.wait().unwrap().success());
    w.ok(&["select-pane", "-t", "%2"]);
}
