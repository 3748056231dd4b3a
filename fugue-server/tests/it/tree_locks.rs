//! The lock discipline (docs/architecture.md, "Locks and events"): how many times a
//! command takes the session tree's lock, counted by the server itself
//! (`Mux::tree_locks`). A typed key takes it once; the most used commands have a
//! ceiling each, so a change that adds a lock to one of them fails here and has to
//! say why.

use crate::agent_rig::*;
use fugue_verbs::Caller;

/// An attached terminal client's keys.
const KEYS: Origin = Origin::Client {
    id: 901,
    kind: ClientKind::Tui,
    caller_pane: None,
};

/// The tree locks `command` takes from `origin`, run to completion.
async fn locks_of(rig: &Rig, origin: &Origin, command: Command) -> u64 {
    let before = rig.server.mux.tree_locks();
    let name = command.name();
    if let Err(e) = dispatch(&rig.server, origin, command).await {
        panic!("{name}: {e:?}");
    }
    rig.server.mux.tree_locks() - before
}

/// The Command a tmux command line makes, as the CLI and `C-b :` make it.
fn line(words: &str) -> Command {
    let argv: Vec<String> = words.split_whitespace().map(String::from).collect();
    fugue_verbs::line::command_for_argv(&argv, &Caller::server())
        .unwrap_or_else(|e| panic!("{words}: {e}"))
}

/// The fewest tree locks `command` took over `ROUNDS` runs: the server's own tasks
/// (alert monitors, the journal) may take the lock while a command runs, and are not
/// the command's. A command that takes more every time still shows.
const ROUNDS: usize = 3;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_typed_key_takes_the_tree_lock_once() {
    let rig = Rig::new(|_| {});
    let pane = rig.person_session("k").await;
    for key in [
        InputPart::Text("x".into()),
        InputPart::Key(Key::new(
            fugue_protocol::keys::KeyCode::Backspace,
            fugue_protocol::keys::Mods::NONE,
        )),
    ] {
        let mut fewest = u64::MAX;
        for _ in 0..ROUNDS {
            let typed = Command::SendInput(SendInput {
                target: Some(Target::Pane(pane)),
                parts: vec![key.clone()],
            });
            fewest = fewest.min(locks_of(&rig, &KEYS, typed).await);
        }
        assert_eq!(
            fewest, 1,
            "a typed {key:?} took the tree lock {fewest} times"
        );
    }
}

/// The twenty commands scripts, tmux tools and agents run most, with the most tree
/// locks each may take. Lower is better: when a change lowers one, lower its ceiling
/// with it. Two locks for a command that starts a program: the new pane's
/// placeholder, then the program attached after it started with the lock released
/// (docs/architecture.md). `kill-window` also closes the panes and looks at the tree
/// again for the alerts and whether the server should exit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_most_used_commands_stay_under_their_lock_ceilings() {
    let rig = Rig::new(|_| {});
    rig.person_session("s").await;
    let _ = dispatch(&rig.server, &PERSON, line("set-buffer hello")).await;
    let cases: &[(&str, u64)] = &[
        ("send-keys -t s:0.0 -l x", 1),
        ("display-message -p -t s:0.0 #{pane_id}", 1),
        ("capture-pane -p -t s:0.0", 1),
        ("list-panes -t s", 1),
        ("list-windows -t s", 1),
        ("list-sessions", 1),
        ("has-session -t s", 1),
        ("show-options -g", 1),
        ("set-option -g @x 1", 1),
        ("rename-window -t s:0 w", 1),
        ("new-window -d -t s:1", 2),
        ("split-window -d -t s:1.0", 2),
        ("select-pane -t s:0.0", 1),
        ("select-window -t s:0", 1),
        ("resize-pane -t s:0.0 -Z", 1),
        ("select-layout -t s:0 tiled", 1),
        ("list-keys -T prefix", 1),
        ("show-buffer", 1),
        // 4 of its own, and one for each of the window's two panes when its program's
        // exit is handled (the waiter thread) before the command returns: on a busy
        // machine it always is (seen beside two CPU hogs), on a quiet one not always.
        ("kill-window -t s:1", 6),
        ("list-clients", 1),
    ];
    let mut fewest = vec![u64::MAX; cases.len()];
    for _ in 0..ROUNDS {
        for (i, (words, _)) in cases.iter().enumerate() {
            let n = locks_of(&rig, &PERSON, line(words)).await;
            fewest[i] = fewest[i].min(n);
        }
    }
    let mut over = Vec::new();
    for ((words, ceiling), n) in cases.iter().zip(&fewest) {
        println!("{words}: {n} tree locks (ceiling {ceiling})");
        if n > ceiling {
            over.push(format!("{words}: {n} > {ceiling}"));
        }
    }
    assert!(over.is_empty(), "over their ceilings: {over:#?}");
}

/// A pane's reflow runs with the tree released: while something holds the pane's
/// screen (a long reflow, a busy reader), a resize waits for it alone, and every other
/// command, which needs the tree, goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_waits_for_its_pane_with_the_tree_released() {
    let rig = Rig::new(|_| {});
    let pane = rig.person_session("r").await;
    let shared = rig.server.mux.tree().panes[&pane].shared.clone();
    // The pane's screen, held from another thread until the test lets it go.
    let (held_tx, held_rx) = std::sync::mpsc::channel::<()>();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn({
        let shared = shared.clone();
        move || {
            let _screen = shared.state.lock();
            let _ = held_tx.send(());
            let _ = release_rx.recv();
        }
    });
    held_rx.recv().unwrap();
    let server = rig.server.clone();
    let resize = tokio::spawn(async move {
        dispatch(&server, &PERSON, line("resize-window -t r -x 100 -y 30")).await
    });
    // The layout's new size shows in the tree while the screen is still held: the
    // resize took the tree, gave it back, and waits for the pane alone. Asked from a
    // blocking thread, so a tree held by the resize fails this by the timeout
    // instead of blocking the test.
    let server = rig.server.clone();
    let seen = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        tokio::task::spawn_blocking(move || {
            loop {
                let width = server.mux.tree().panes.get(&pane).map(|p| p.size.0);
                if width == Some(98) {
                    return;
                }
                std::thread::yield_now();
            }
        }),
    )
    .await;
    let waited = !resize.is_finished();
    // Let go before judging, so a failure ends the test instead of leaving threads
    // blocked on the tree.
    release_tx.send(()).unwrap();
    holder.join().unwrap();
    resize.await.unwrap().unwrap();
    assert!(
        seen.is_ok(),
        "the tree stayed locked while the pane was held"
    );
    assert!(waited, "the resize did not wait for the pane");
    assert_eq!(shared.state.lock().size(), (98, 28));
}
