//! Which pane a connecting process runs in.
//!
//! A client says which pane it runs in (`FUGUE_PANE_ID`), but any program can unset or
//! fake an environment variable, and the answer decides whose policy applies: a CLI
//! call from an agent's pane acts for that agent, a person's never does. So the server
//! asks the kernel instead: the peer's pid (`SO_PEERCRED`), then its ancestors, until
//! one is a pane's program. A process that left its pane's process tree (a daemon that
//! double-forked) is matched by its session id, which pane programs lead. Only where
//! neither names a pane (or there is no `/proc` to ask) does the client's word count.

use crate::server::Server;
use fugue_protocol::PaneId;
use std::collections::HashMap;

/// How far up the process tree to look; pane programs are rarely more than a few levels
/// above a client (shell → agent → `fugue mcp`).
const MAX_DEPTH: usize = 64;

/// The pane the peer `pid` runs in. `claimed` is what the client said; it counts only
/// where the process tree names no pane.
///
/// A pane whose program is starting has no pid in the tree yet, so its program may
/// connect before it can be found. A process found in no pane but descended from this
/// server (or in a session led by such a process) can only be the program of a pane
/// still starting: it waits for the starting panes (at most [`START_WAIT`]) and is
/// looked for again. Believing its claim would let a new pane's program pass for
/// another pane's (issue 12 review). Processes outside the server's tree never wait.
pub async fn caller_pane(
    server: &Server,
    pid: Option<i32>,
    claimed: Option<PaneId>,
) -> Option<PaneId> {
    let Some(pid) = pid.filter(|p| *p > 0) else {
        return claimed;
    };
    if stat(std::process::id() as i32).is_none() {
        return claimed;
    }
    let mut starting = server.mux.watch_starting();
    let deadline = tokio::time::Instant::now() + START_WAIT;
    loop {
        // Read before the panes: a pane attached after this read was starting in it.
        let were_starting = *starting.borrow_and_update();
        let programs: HashMap<i32, PaneId> = server.mux.pane_programs();
        if let Some(found) = find(pid, &programs, stat) {
            if claimed != Some(found) {
                tracing::info!(
                    "pid {pid} runs in pane {found} but said {}: using {found}",
                    claimed.map_or_else(|| "no pane".into(), |p| p.to_string())
                );
            }
            return Some(found);
        }
        if were_starting == 0 || !from_server(pid, stat) {
            break;
        }
        if tokio::time::timeout_at(deadline, starting.changed())
            .await
            .map_or(true, |r| r.is_err())
        {
            tracing::warn!("pid {pid}: panes were still starting after {START_WAIT:?}");
            break;
        }
    }
    // Outside every pane's processes: a process that acts for a pane from elsewhere
    // (an MCP client's launcher) may say which. Believing it gives nothing away: a
    // process outside the panes already has a person's rights.
    claimed
}

/// The longest a connecting process waits for starting panes before its claim counts.
const START_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// True when `pid`, or the leader of its session, descends from this server: every
/// pane program does, and nothing else the server did not start.
fn from_server(pid: i32, stat: impl Fn(i32) -> Option<Stat>) -> bool {
    let me = std::process::id() as i32;
    let descends = |mut at: i32| {
        for _ in 0..MAX_DEPTH {
            let Some(s) = stat(at) else { return false };
            if s.ppid == me {
                return true;
            }
            if s.ppid <= 1 {
                return false;
            }
            at = s.ppid;
        }
        false
    };
    descends(pid) || stat(pid).is_some_and(|s| s.session > 1 && descends(s.session))
}

/// A process's parent and session, as `/proc/PID/stat` gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub ppid: i32,
    pub session: i32,
}

fn stat(pid: i32) -> Option<Stat> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_stat(&text)
}

/// The command name (field 2) is in parentheses and may itself hold spaces and
/// parentheses, so the fields are counted from the last `)`.
fn parse_stat(text: &str) -> Option<Stat> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace();
    let _state = fields.next()?;
    let ppid = fields.next()?.parse().ok()?;
    let _pgrp = fields.next()?;
    let session = fields.next()?.parse().ok()?;
    Some(Stat { ppid, session })
}

/// The pane whose program is `pid` or one of its ancestors; failing that, the pane
/// whose program leads the session of one of them.
fn find(
    pid: i32,
    programs: &HashMap<i32, PaneId>,
    stat: impl Fn(i32) -> Option<Stat>,
) -> Option<PaneId> {
    let mut by_session = None;
    let mut at = pid;
    for _ in 0..MAX_DEPTH {
        if let Some(pane) = programs.get(&at) {
            return Some(*pane);
        }
        let Some(s) = stat(at) else { break };
        if by_session.is_none() {
            by_session = programs.get(&s.session).copied();
        }
        if s.ppid <= 1 {
            break;
        }
        at = s.ppid;
    }
    by_session
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pane(n: u32) -> PaneId {
        PaneId(n)
    }

    #[test]
    fn stat_fields_are_counted_from_the_last_parenthesis() {
        let s = parse_stat("4242 (a (b) c) S 17 4242 99 34816 0 ...").unwrap();
        assert_eq!(
            s,
            Stat {
                ppid: 17,
                session: 99
            }
        );
        assert_eq!(parse_stat("garbage"), None);
        assert_eq!(parse_stat("1 (x) S notanumber 1 1"), None);
    }

    #[test]
    fn an_ancestor_that_is_a_pane_program_names_the_pane() {
        // 300 (fugue mcp) → 200 (agent) → 100 (pane %3's shell) → 10 (server)
        let tree = HashMap::from([
            (300, (200, 100)),
            (200, (100, 100)),
            (100, (10, 100)),
            (10, (1, 10)),
        ]);
        let stat = |p: i32| {
            tree.get(&p).map(|(ppid, session)| Stat {
                ppid: *ppid,
                session: *session,
            })
        };
        let programs = HashMap::from([(100, pane(3)), (150, pane(4))]);
        assert_eq!(find(300, &programs, stat), Some(pane(3)));
        assert_eq!(find(100, &programs, stat), Some(pane(3)));
        assert_eq!(find(10, &programs, stat), None);
    }

    #[test]
    fn a_daemon_reparented_away_is_found_by_its_session() {
        let tree = HashMap::from([(500, (1, 150))]);
        let stat = |p: i32| {
            tree.get(&p).map(|(ppid, session)| Stat {
                ppid: *ppid,
                session: *session,
            })
        };
        let programs = HashMap::from([(100, pane(3)), (150, pane(4))]);
        assert_eq!(find(500, &programs, stat), Some(pane(4)));
        assert_eq!(find(999, &programs, stat), None);
    }

    #[test]
    fn this_test_process_is_in_no_pane() {
        let programs = HashMap::from([(i32::MAX, pane(1))]);
        assert_eq!(find(std::process::id() as i32, &programs, stat), None);
    }
}
