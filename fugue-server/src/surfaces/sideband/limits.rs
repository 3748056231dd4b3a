//! Per-pane limits on tags: each runs once, and not too many per second.
//!
//! Agents' TUIs repaint, printing the same tag again; a tag therefore runs once per
//! pane per `id`, or, without an id, once per identical text within a time window. A
//! token bucket bounds the rate. Both are pure and take the time as an argument.

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::{Duration, Instant};

/// Ids remembered per pane; the oldest are forgotten beyond this.
const IDS_KEPT: usize = 4096;

pub struct PaneLimits {
    ids: HashSet<String>,
    id_order: VecDeque<String>,
    texts: HashMap<String, Instant>,
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
    /// Already ran (a repaint): skip silently.
    Repeat,
    /// Over the rate.
    TooFast,
}

impl PaneLimits {
    pub fn new(rate: f64, burst: u32, window: Duration, now: Instant) -> PaneLimits {
        PaneLimits {
            ids: HashSet::new(),
            id_order: VecDeque::new(),
            texts: HashMap::new(),
            window,
            tokens: f64::from(burst),
            rate,
            burst: f64::from(burst),
            refilled: now,
        }
    }

    /// Decides on a tag with this id (if it has one) and text, at `now`.
    pub fn check(&mut self, id: Option<&str>, text: &str, now: Instant) -> Verdict {
        match id {
            Some(id) if self.ids.contains(id) => return Verdict::Repeat,
            None => {
                self.texts
                    .retain(|_, at| now.duration_since(*at) < self.window);
                if self.texts.contains_key(text) {
                    return Verdict::Repeat;
                }
            }
            Some(_) => {}
        }
        let elapsed = now.duration_since(self.refilled).as_secs_f64();
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        self.refilled = now;
        if self.tokens < 1.0 {
            return Verdict::TooFast;
        }
        self.tokens -= 1.0;
        match id {
            Some(id) => {
                self.ids.insert(id.to_string());
                self.id_order.push_back(id.to_string());
                if self.id_order.len() > IDS_KEPT
                    && let Some(old) = self.id_order.pop_front()
                {
                    self.ids.remove(&old);
                }
            }
            None => {
                self.texts.insert(text.to_string(), now);
            }
        }
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
}
