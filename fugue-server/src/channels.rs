//! tmux's `wait-for` channels: a named event (`wait-for NAME` waits, `-S` signals)
//! and a named lock (`-L` takes it, waiting its turn; `-U` gives it up), for shell
//! scripts that order their work across panes.

use std::collections::{HashMap, VecDeque};
use tokio::sync::oneshot;

/// Channels live while someone waits on or holds them, or a signal is pending; at
/// most this many at once, so a script cannot grow the server without end.
pub const MAX_CHANNELS: usize = 1024;
/// The longest channel name.
pub const MAX_NAME_BYTES: usize = 256;

#[derive(Default)]
struct Channel {
    /// Signalled with nobody waiting: the next wait returns at once (as in tmux).
    woken: bool,
    waiters: Vec<oneshot::Sender<()>>,
    locked: bool,
    lockers: VecDeque<oneshot::Sender<()>>,
}

impl Channel {
    fn idle(&self) -> bool {
        !self.woken && !self.locked && self.waiters.is_empty() && self.lockers.is_empty()
    }
}

#[derive(Default)]
pub struct Channels {
    map: parking_lot::Mutex<HashMap<String, Channel>>,
}

/// What a caller waits for, if anything.
pub enum Outcome {
    Done,
    Wait(oneshot::Receiver<()>),
}

impl Channels {
    fn with<T>(
        &self,
        name: &str,
        f: impl FnOnce(&mut Channel) -> Result<T, String>,
    ) -> Result<T, String> {
        if name.is_empty() || name.len() > MAX_NAME_BYTES {
            return Err(format!("a channel's name has 1 to {MAX_NAME_BYTES} bytes"));
        }
        let mut map = self.map.lock();
        if !map.contains_key(name) && map.len() >= MAX_CHANNELS {
            return Err(format!("too many channels in use (at most {MAX_CHANNELS})"));
        }
        let ch = map.entry(name.to_string()).or_default();
        // Waiters and lockers whose callers went away no longer count.
        ch.waiters.retain(|w| !w.is_closed());
        ch.lockers.retain(|w| !w.is_closed());
        let out = f(ch);
        if ch.idle() {
            map.remove(name);
        }
        out
    }

    /// `wait-for NAME`: returns at once if the channel was signalled with nobody
    /// waiting, else waits for the next signal.
    pub fn wait(&self, name: &str) -> Result<Outcome, String> {
        self.with(name, |ch| {
            if std::mem::take(&mut ch.woken) {
                return Ok(Outcome::Done);
            }
            let (tx, rx) = oneshot::channel();
            ch.waiters.push(tx);
            Ok(Outcome::Wait(rx))
        })
    }

    /// `wait-for -S NAME`: wakes every waiter, or with none marks the channel woken.
    pub fn signal(&self, name: &str) -> Result<(), String> {
        self.with(name, |ch| {
            if ch.waiters.is_empty() {
                ch.woken = true;
            }
            for w in ch.waiters.drain(..) {
                let _ = w.send(());
            }
            Ok(())
        })
    }

    /// `wait-for -L NAME`: takes the lock, or waits until it is passed on.
    pub fn lock(&self, name: &str) -> Result<Outcome, String> {
        self.with(name, |ch| {
            if !ch.locked {
                ch.locked = true;
                return Ok(Outcome::Done);
            }
            let (tx, rx) = oneshot::channel();
            ch.lockers.push_back(tx);
            Ok(Outcome::Wait(rx))
        })
    }

    /// `wait-for -U NAME`: passes the lock to the next in line, or frees it.
    pub fn unlock(&self, name: &str) -> Result<(), String> {
        self.with(name, |ch| {
            if !ch.locked {
                return Err(format!("channel {name} not locked"));
            }
            while let Some(next) = ch.lockers.pop_front() {
                if next.send(()).is_ok() {
                    return Ok(());
                }
            }
            ch.locked = false;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(o: Result<Outcome, String>) -> bool {
        matches!(o, Ok(Outcome::Done))
    }

    #[test]
    fn a_signal_before_the_wait_is_kept_once() {
        let c = Channels::default();
        c.signal("x").unwrap();
        assert!(done(c.wait("x")));
        let Ok(Outcome::Wait(mut rx)) = c.wait("x") else {
            panic!("waits")
        };
        assert!(rx.try_recv().is_err());
        c.signal("x").unwrap();
        assert!(rx.try_recv().is_ok());
        assert!(c.map.lock().is_empty());
    }

    #[test]
    fn locks_pass_in_turn_and_unlocking_a_free_lock_is_an_error() {
        let c = Channels::default();
        assert!(done(c.lock("l")));
        let Ok(Outcome::Wait(mut second)) = c.lock("l") else {
            panic!("queued")
        };
        c.unlock("l").unwrap();
        assert!(second.try_recv().is_ok());
        c.unlock("l").unwrap();
        assert!(c.unlock("l").is_err_and(|e| e.contains("not locked")));
        assert!(c.wait("").is_err());
    }
}
