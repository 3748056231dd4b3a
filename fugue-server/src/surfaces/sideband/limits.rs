//! Per-pane limits on tags: each runs once, and not too many per second.
//!
//! Agents' TUIs repaint, printing the same tag again; a tag therefore counts once per
//! pane per `id`, or, without an id, once per identical text within a time window. That
//! holds for tags that were refused too: a refused tag repainted is not refused again.
//! A token bucket bounds the rate. Both are pure and take the time as an argument.
//!
//! Tags are remembered by a keyed 64-bit hash, a fixed few bytes however long the tag,
//! and only so many of them: a pane printing endless distinct tags costs bounded memory.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::time::{Duration, Instant};

/// Tags remembered per pane; the oldest are forgotten beyond this.
const SEEN_KEPT: usize = 4096;

pub struct PaneLimits {
    /// Random keys: a program cannot make two different tags look the same.
    hasher: RandomState,
    /// Tags seen: by id (remembered until pushed out), or by text (with when).
    seen: HashMap<u64, Option<Instant>>,
    /// Keys in the order they were seen, to forget the oldest.
    order: VecDeque<(u64, Option<Instant>)>,
    window: Duration,
    tokens: f64,
    rate: f64,
    burst: f64,
    refilled: Instant,
}

/// Whether a tag may run.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Run,
    /// Already seen (a repaint): skip silently.
    Repeat,
    /// Over the rate.
    TooFast,
}

impl PaneLimits {
    pub fn new(rate: f64, burst: u32, window: Duration, now: Instant) -> PaneLimits {
        PaneLimits {
            hasher: RandomState::new(),
            seen: HashMap::new(),
            order: VecDeque::new(),
            window,
            tokens: f64::from(burst),
            rate,
            burst: f64::from(burst),
            refilled: now,
        }
    }

    /// Decides on a tag with this id (if it has one) and text, at `now`.
    pub fn check(&mut self, id: Option<&str>, text: &str, now: Instant) -> Verdict {
        let key = self.hasher.hash_one((id.is_some(), id.unwrap_or(text)));
        match self.seen.get(&key) {
            Some(None) => return Verdict::Repeat,
            Some(Some(at)) if now.saturating_duration_since(*at) < self.window => {
                return Verdict::Repeat;
            }
            _ => {}
        }
        let stamp = id.is_none().then_some(now);
        self.seen.insert(key, stamp);
        self.order.push_back((key, stamp));
        while self.order.len() > SEEN_KEPT {
            if let Some((old, at)) = self.order.pop_front()
                // A text seen again later has a newer entry; this one is stale.
                && self.seen.get(&old) == Some(&at)
            {
                self.seen.remove(&old);
            }
        }
        let elapsed = now.saturating_duration_since(self.refilled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.refilled = now;
        if self.tokens < 1.0 {
            return Verdict::TooFast;
        }
        self.tokens -= 1.0;
        Verdict::Run
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repaints_run_once_by_id_or_by_text() {
        let t0 = Instant::now();
        let mut l = PaneLimits::new(5.0, 20, Duration::from_secs(60), t0);
        for i in 0..5 {
            let v = l.check(Some("a"), "<x/>", t0 + Duration::from_millis(i));
            assert_eq!(
                v,
                if i == 0 {
                    Verdict::Run
                } else {
                    Verdict::Repeat
                }
            );
        }
        assert_eq!(l.check(None, "<y/>", t0), Verdict::Run);
        assert_eq!(
            l.check(None, "<y/>", t0 + Duration::from_secs(59)),
            Verdict::Repeat
        );
        assert_eq!(
            l.check(None, "<y/>", t0 + Duration::from_secs(61)),
            Verdict::Run
        );
        // An id and a text that happen to be the same string are different tags.
        assert_eq!(l.check(Some("<z/>"), "", t0), Verdict::Run);
        assert_eq!(l.check(None, "<z/>", t0), Verdict::Run);
    }

    #[test]
    fn the_bucket_empties_and_refills() {
        let t0 = Instant::now();
        let mut l = PaneLimits::new(5.0, 20, Duration::from_secs(60), t0);
        let ran = (0..30)
            .filter(|i| l.check(Some(&i.to_string()), "", t0) == Verdict::Run)
            .count();
        assert_eq!(ran, 20);
        assert_eq!(
            l.check(Some("late"), "", t0 + Duration::from_millis(100)),
            Verdict::TooFast
        );
        assert_eq!(
            l.check(Some("later"), "", t0 + Duration::from_millis(250)),
            Verdict::Run
        );
    }

    #[test]
    fn a_refused_tag_repainted_is_not_refused_again() {
        let t0 = Instant::now();
        let mut l = PaneLimits::new(1.0, 1, Duration::from_secs(60), t0);
        assert_eq!(l.check(None, "<a/>", t0), Verdict::Run);
        assert_eq!(l.check(None, "<b/>", t0), Verdict::TooFast);
        assert_eq!(l.check(Some("c"), "<c/>", t0), Verdict::TooFast);
        for ms in 1..50 {
            let t = t0 + Duration::from_millis(ms);
            assert_eq!(l.check(None, "<b/>", t), Verdict::Repeat);
            assert_eq!(l.check(Some("c"), "<c/>", t), Verdict::Repeat);
        }
    }

    #[test]
    fn memory_is_bounded_however_many_tags() {
        let t0 = Instant::now();
        let mut l = PaneLimits::new(5.0, 20, Duration::from_secs(60), t0);
        for i in 0..20_000 {
            let text = format!("<fugue:notify>{i}</fugue:notify>");
            l.check(None, &text, t0);
            l.check(Some(&i.to_string()), "", t0);
        }
        assert!(l.seen.len() <= SEEN_KEPT);
        assert!(l.order.len() <= SEEN_KEPT);
        // The oldest are forgotten, the newest still known.
        assert_eq!(l.check(Some("19999"), "", t0), Verdict::Repeat);
    }
}
