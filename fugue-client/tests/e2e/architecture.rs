//! Issue 12's promises seen from outside: commands and clients are not held up by a
//! slow spawn, and what a surface does goes through the dispatcher (audited).

use super::harness::World;
use std::time::{Duration, Instant};

/// A pane's program used to start (openpty, posix_spawn, three threads) with the
/// session tree locked, so one slow spawn stalled every client and command. Now the
/// placeholder pane goes in under the lock and the program starts outside it. The
/// debug server's `FUGUE_TEST_SPAWN_DELAY_MS` makes one spawn take 3 s; another
/// command must be answered while that spawn is still under way.
#[test]
fn issue_12_a_slow_spawn_does_not_hold_other_commands() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "slow", "-x", "80", "-y", "24"]);
    let mut split = w
        .cmd(&[
            "split-window",
            "-d",
            "-t",
            "slow",
            "-e",
            "FUGUE_TEST_SPAWN_DELAY_MS=3000",
        ])
        .spawn()
        .unwrap();
    // Let the split reach the server and start its slow spawn.
    std::thread::sleep(Duration::from_millis(500));
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
            "echo started-after-kill > marker; sleep 600",
        ])
        .current_dir(w.path("home"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
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
}
