//! Every flag letter of every command the real tmux lists (`tmux list-commands`) is a
//! flag of fugue's verb of that name, taking a value exactly when tmux's does, and a
//! command line with it parses (issue 28: plugins and session managers pass tmux's
//! flags, and an unknown flag fails their whole command). A letter fugue refuses on
//! purpose is listed in [`REFUSED`] with the reason. Without tmux installed the test
//! says so and checks nothing.

use clap::{CommandFactory, Parser};
use fugue_verbs::Cli;
use std::process::Command;

/// Flags fugue deliberately does not take, as (command, letter, why).
const REFUSED: &[(&str, char, &str)] = &[
    (
        "split-window",
        'I',
        "an empty pane fed from the client's standard input: every fugue pane runs a program",
    ),
    (
        "display-message",
        'I',
        "writes standard input into an empty pane (split-window -I), which fugue has not",
    ),
];

/// One flag in a tmux usage line: its letter and whether it takes a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Flag {
    letter: char,
    valued: bool,
}

/// The flags of a usage line such as `[-dErx] [-c working-directory] [-t target]`:
/// a bracket that opens with `-` holds a run of boolean letters, one letter and its
/// value's name, or alternatives (`[-L|-S|-U]`). tmux 3.3a lists `split-window -e`
/// both ways (`[-bdefhIPvZ]` and `[-e environment]`): a letter valued anywhere is
/// valued.
fn flags_of(usage: &str) -> Vec<Flag> {
    let mut out: Vec<Flag> = Vec::new();
    let mut rest = usage;
    while let Some(at) = rest.find("[-") {
        rest = &rest[at + 2..];
        let end = rest.find(']').unwrap_or(rest.len());
        let inside = &rest[..end];
        let (letters, valued) = match inside.split_once(' ') {
            Some((letter, _)) => (letter.to_string(), true),
            None => (inside.replace(['|', '-'], ""), false),
        };
        for letter in letters.chars() {
            match out.iter_mut().find(|f| f.letter == letter) {
                Some(f) => f.valued |= valued,
                None => out.push(Flag { letter, valued }),
            }
        }
        rest = &rest[end..];
    }
    out
}

/// tmux's `list-commands` as (name, usage). `list-commands` starts no server; the
/// socket is a fresh path all the same, so nothing of anyone else's is touched.
fn tmux_commands() -> Option<Vec<(String, String)>> {
    let dir = std::env::temp_dir().join(format!("fugue-flag-letters-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let out = Command::new("tmux")
        .arg("-S")
        .arg(dir.join("s"))
        .args(["-f", "/dev/null", "list-commands"])
        .output()
        .ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let list = text
        .lines()
        .filter_map(|l| {
            let (name, usage) = l.split_once(' ').unwrap_or((l, ""));
            Some((name.to_string(), usage.to_string())).filter(|_| !name.is_empty())
        })
        .collect();
    Some(list)
}

/// What is wrong with one tmux flag on fugue's verb, if anything.
fn check(verb: &clap::Command, name: &str, f: Flag) -> Option<String> {
    let Some(arg) = verb
        .get_arguments()
        .find(|a| a.get_short() == Some(f.letter))
    else {
        return Some(format!("{name} -{}: no such flag", f.letter));
    };
    if arg.get_action().takes_values() != f.valued {
        return Some(format!(
            "{name} -{}: tmux's {} a value, fugue's {}",
            f.letter,
            if f.valued { "takes" } else { "takes no" },
            if f.valued { "takes none" } else { "takes one" },
        ));
    }
    let mut words = vec![
        "fugue".to_string(),
        name.to_string(),
        format!("-{}", f.letter),
    ];
    if f.valued {
        words.push("1".into());
    }
    match Cli::try_parse_from(&words) {
        Err(e) if e.kind() == clap::error::ErrorKind::UnknownArgument => Some(format!(
            "{words:?}: {}",
            e.to_string().lines().next().unwrap_or("")
        )),
        _ => None,
    }
}

#[test]
fn every_tmux_flag_letter_parses_in_fugue() {
    let Some(commands) = tmux_commands() else {
        eprintln!("tmux is not installed: the flag letters are not checked");
        return;
    };
    assert!(
        commands.len() > 50,
        "tmux listed {} commands",
        commands.len()
    );
    // clap's derived verb table is deep: build and parse it on a thread with room.
    let problems = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let cli = Cli::command();
            let mut problems = Vec::new();
            let mut checked = 0;
            for (name, usage) in &commands {
                let Some(verb) = cli.get_subcommands().find(|c| c.get_name() == name) else {
                    problems.push(format!("{name}: no such verb"));
                    continue;
                };
                for f in flags_of(usage) {
                    if REFUSED.iter().any(|(c, l, _)| c == name && *l == f.letter) {
                        continue;
                    }
                    checked += 1;
                    problems.extend(check(verb, name, f));
                }
            }
            assert!(
                checked > 300,
                "only {checked} flags seen: is the usage read?"
            );
            problems
        })
        .expect("a thread for the verb table")
        .join()
        .expect("the check ran");
    assert!(
        problems.is_empty(),
        "{} tmux flags fugue does not take:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn usage_lines_are_read_as_tmux_writes_them() {
    let f = flags_of("[-dErx] [-c working-directory] [-t target-pane][shell-command]");
    let letters: String = f.iter().map(|f| f.letter).collect();
    assert_eq!(letters, "dErxct");
    assert_eq!(f.iter().filter(|f| f.valued).count(), 2);
    assert!(flags_of("key [command [arguments]]").is_empty());
    let e = flags_of("[-bdefhIPvZ] [-e environment]");
    assert!(e.iter().any(|f| f.letter == 'e' && f.valued));
    let w: String = flags_of("[-L|-S|-U] channel")
        .iter()
        .map(|f| f.letter)
        .collect();
    assert_eq!(w, "LSU");
}
