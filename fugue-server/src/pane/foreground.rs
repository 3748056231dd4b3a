//! What runs in a pane's foreground, and when to look.
//!
//! The kernel announces no change of a terminal's foreground process group, nor of a
//! process's name or working directory, so someone has to look. tmux looks on the
//! pane's output and on a timer over every pane; fugue looks only after the pane's own
//! output, from its reader thread: a program that starts or ends almost always writes
//! something (the shell echoes the command line, the program draws, the shell prints
//! its prompt when it has the terminal back). [`Looks`] says when: a little while after
//! the last output (a command's echo comes before its fork and exec), then twice more
//! later (a slow start on a busy machine), and at most every [`STREAM_MS`] while output
//! keeps coming. A pane that is quiet costs nothing; a look costs a `tcgetpgrp` and two
//! reads of /proc. What a look finds is announced only when it differs.

use std::path::PathBuf;

/// What a look found: the foreground process, its name and its directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foreground {
    pub pid: i32,
    pub name: String,
    pub cwd: Option<PathBuf>,
}

impl Foreground {
    /// Looks at process `pid` (None: it is gone, or has no name yet).
    pub fn of(pid: i32) -> Option<Foreground> {
        let name = super::process::name(pid)?;
        Some(Foreground {
            pid,
            name,
            cwd: super::process::cwd(pid),
        })
    }

    /// Whether what clients show of it differs (a new process of the same name in
    /// the same directory shows the same).
    pub fn shows_differently(&self, other: &Foreground) -> bool {
        self.name != other.name || self.cwd != other.cwd
    }
}

/// Looks after the last output, in milliseconds: its echo comes before a command's
/// fork and exec, and a shell takes the terminal back before it prints its prompt.
const AFTER_OUTPUT_MS: [u64; 3] = [30, 300, 1000];

/// While output keeps coming, a look at most this often (none would otherwise come
/// until it stops).
pub const STREAM_MS: u64 = 250;

/// When a pane's reader looks next, armed by the pane's output (times are the pane's
/// clock, `PaneShared::now_ms`). Per read it costs a few stores and compares.
#[derive(Debug, Default)]
pub struct Looks {
    last_output: u64,
    looked: u64,
    /// The next of [`AFTER_OUTPUT_MS`] to look at (its length: none left).
    after: usize,
    /// Output came after the last look.
    output_since: bool,
}

impl Looks {
    /// Nothing to look at until output comes.
    pub fn new() -> Looks {
        Looks {
            after: AFTER_OUTPUT_MS.len(),
            ..Looks::default()
        }
    }

    /// The pane wrote something at `now`.
    pub fn output(&mut self, now: u64) {
        self.last_output = now;
        self.after = 0;
        self.output_since = true;
    }

    /// When to look next, if at all.
    pub fn due(&self) -> Option<u64> {
        let after = AFTER_OUTPUT_MS
            .get(self.after)
            .map(|ms| self.last_output + ms);
        let stream = self.output_since.then(|| self.looked + STREAM_MS);
        match (after, stream) {
            (Some(a), Some(s)) => Some(a.min(s)),
            (a, s) => a.or(s),
        }
    }

    /// A look was taken at `now`.
    pub fn looked(&mut self, now: u64) {
        self.looked = now;
        self.output_since = false;
        while AFTER_OUTPUT_MS
            .get(self.after)
            .is_some_and(|ms| self.last_output + ms <= now)
        {
            self.after += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `looks` from `from` to `to` ms with output at `output` times; the times
    /// it looked.
    fn run(output: &[u64], to: u64) -> Vec<u64> {
        let mut l = Looks::new();
        let mut seen = Vec::new();
        for now in 0..=to {
            if output.contains(&now) {
                l.output(now);
            }
            if l.due().is_some_and(|d| d <= now) {
                l.looked(now);
                seen.push(now);
            }
        }
        seen
    }

    #[test]
    fn a_quiet_pane_is_never_looked_at() {
        assert!(run(&[], 5000).is_empty());
    }

    #[test]
    fn one_burst_is_looked_at_three_times_after_it() {
        assert_eq!(run(&[100, 105, 110], 5000), vec![140, 410, 1110]);
    }

    #[test]
    fn a_stream_is_looked_at_every_stream_interval_and_after_it_ends() {
        let output: Vec<u64> = (0..=1000).step_by(10).collect();
        let seen = run(&output, 4000);
        let during: Vec<u64> = seen.iter().copied().filter(|t| *t <= 1000).collect();
        assert_eq!(during, vec![250, 500, 750, 1000]);
        assert_eq!(
            seen.iter()
                .copied()
                .filter(|t| *t > 1000)
                .collect::<Vec<_>>(),
            vec![1030, 1300, 2000]
        );
    }
}
