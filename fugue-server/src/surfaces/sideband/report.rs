//! Telling people and agents about refused tags, at a bounded cost.
//!
//! Every refusal is reported: in the server log, in a result file and as a notice to
//! people attached to the session. A pane printing tags in a flood would otherwise cost a
//! file, a log line and a notice per tag (100,000 tags once left 406 MB of result files
//! and a stopped client with 60,000 queued notices). So a pane's refusals are reported
//! at most once per interval: the first on its own (its result file named by its id),
//! the rest folded into one summary when the interval is over. The reporter is pure and
//! takes the time as an argument.

use fugue_protocol::CommandError;
use std::time::{Duration, Instant};

/// Ids listed in a summary; the rest are counted.
const IDS_LISTED: usize = 32;

/// A refused tag.
#[derive(Debug)]
pub struct Refusal {
    /// The result file's name: the tag's id, or `tag-N`.
    pub stem: String,
    /// The tag's name.
    pub command: String,
    pub error: CommandError,
    /// Why, in a few words, for summaries ("rate limit").
    pub reason: String,
    /// The tag ran through the pane's worker, which writes its result file anyway.
    pub has_file: bool,
}

/// Complete tags shown as text because they lacked the pane's key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Untrusted {
    pub no_key: u64,
    pub wrong_key: u64,
}

impl Untrusted {
    pub fn is_empty(&self) -> bool {
        self.no_key == 0 && self.wrong_key == 0
    }

    pub fn add(&mut self, other: Untrusted) {
        self.no_key = self.no_key.saturating_add(other.no_key);
        self.wrong_key = self.wrong_key.saturating_add(other.wrong_key);
    }

    /// "3 tags without the pane's key (2 with none, 1 with a wrong one)".
    pub fn describe(&self) -> String {
        let n = self.no_key.saturating_add(self.wrong_key);
        let plural = if n == 1 { "tag" } else { "tags" };
        format!(
            "{n} {plural} without the pane's key ({} with none, {} with a wrong one)",
            self.no_key, self.wrong_key
        )
    }
}

/// Refusals and overflows folded together.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub count: u64,
    /// How many of each reason, in the order first seen.
    pub reasons: Vec<(String, u64)>,
    /// The error code of each reason, in the same order.
    pub codes: Vec<&'static str>,
    /// Result names of the first refused tags.
    pub ids: Vec<String>,
    /// Possible tags that grew past the size bound.
    pub overflows: u64,
    /// Tags shown as text for want of the pane's key.
    pub untrusted: Untrusted,
    /// Refusals reported so far for the pane, this summary included.
    pub total: u64,
}

impl Summary {
    /// Whether anything waits to be reported in it.
    fn waiting(&self) -> bool {
        self.count > 0 || self.overflows > 0 || !self.untrusted.is_empty()
    }

    fn add(&mut self, r: &Refusal) {
        self.count += 1;
        match self.reasons.iter_mut().find(|(why, _)| *why == r.reason) {
            Some((_, n)) => *n += 1,
            None => {
                self.reasons.push((r.reason.clone(), 1));
                self.codes.push(r.error.code.as_str());
            }
        }
        if self.ids.len() < IDS_LISTED {
            self.ids.push(r.stem.clone());
        }
    }

    /// "37 tags refused: 35 rate limit, 2 limit_exceeded".
    pub fn describe(&self) -> String {
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(why, n)| format!("{n} {why}"))
            .collect();
        let plural = if self.count == 1 { "tag" } else { "tags" };
        format!("{} {plural} refused: {}", self.count, reasons.join(", "))
    }

    /// The code of the most frequent reason.
    pub fn code(&self) -> &'static str {
        self.reasons
            .iter()
            .zip(&self.codes)
            .max_by_key(|((_, n), _)| *n)
            .map(|(_, code)| *code)
            .unwrap_or("limit_exceeded")
    }
}

/// What is due for reporting now.
#[derive(Debug, Default)]
pub struct Due {
    /// A refusal to report on its own.
    pub refusal: Option<Refusal>,
    /// Overflows to log on their own.
    pub overflows: u64,
    /// Tags without the key to log on their own.
    pub untrusted: Untrusted,
    pub summary: Option<Summary>,
}

pub struct Reporter {
    every: Duration,
    /// When something was last reported.
    last: Option<Instant>,
    first: Option<Refusal>,
    first_overflows: u64,
    first_untrusted: Untrusted,
    pending: Summary,
    total: u64,
}

impl Reporter {
    pub fn new(every: Duration) -> Reporter {
        Reporter {
            every,
            last: None,
            first: None,
            first_overflows: 0,
            first_untrusted: Untrusted::default(),
            pending: Summary::default(),
            total: 0,
        }
    }

    /// Whether nothing was reported within the interval, nor waits to be.
    fn quiet(&self, now: Instant) -> bool {
        self.first.is_none()
            && self.first_overflows == 0
            && self.first_untrusted.is_empty()
            && !self.pending.waiting()
            && self
                .last
                .is_none_or(|t| now.saturating_duration_since(t) >= self.every)
    }

    pub fn refused(&mut self, r: Refusal, now: Instant) {
        self.total += 1;
        if self.quiet(now) {
            self.last = Some(now);
            self.first = Some(r);
        } else {
            self.pending.add(&r);
        }
    }

    pub fn overflowed(&mut self, n: u32, now: Instant) {
        if self.quiet(now) {
            self.last = Some(now);
            self.first_overflows = u64::from(n);
        } else {
            self.pending.overflows += u64::from(n);
        }
    }

    /// Tags shown as text for want of the pane's key.
    pub fn untrusted(&mut self, n: Untrusted, now: Instant) {
        if self.quiet(now) {
            self.last = Some(now);
            self.first_untrusted = n;
        } else {
            self.pending.untrusted.add(n);
        }
    }

    /// When the next report is due, if anything waits.
    pub fn due(&self) -> Option<Instant> {
        if self.first.is_some() || self.first_overflows > 0 || !self.first_untrusted.is_empty() {
            return self.last;
        }
        if self.pending.waiting() {
            return self.last.map(|t| t + self.every);
        }
        None
    }

    /// What is due at `now`.
    pub fn take(&mut self, now: Instant) -> Due {
        let mut due = Due {
            refusal: self.first.take(),
            overflows: std::mem::take(&mut self.first_overflows),
            untrusted: std::mem::take(&mut self.first_untrusted),
            summary: None,
        };
        let interval_over = self
            .last
            .is_none_or(|t| now.saturating_duration_since(t) >= self.every);
        if interval_over && self.pending.waiting() {
            let mut summary = std::mem::take(&mut self.pending);
            summary.total = self.total;
            due.summary = Some(summary);
            self.last = Some(now);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fugue_protocol::ErrorCode;

    fn refusal(i: u32, reason: &str) -> Refusal {
        Refusal {
            stem: format!("n{i}"),
            command: "notify".into(),
            error: CommandError::new(ErrorCode::LimitExceeded, "too fast"),
            reason: reason.into(),
            has_file: false,
        }
    }

    #[test]
    fn a_flood_is_one_report_on_its_own_then_one_summary_per_interval() {
        let t0 = Instant::now();
        let second = Duration::from_secs(1);
        let mut r = Reporter::new(second);
        assert_eq!(r.due(), None);
        for i in 0..10_000 {
            r.refused(
                refusal(i, "rate limit"),
                t0 + Duration::from_micros(u64::from(i)),
            );
        }
        r.overflowed(2, t0);
        assert_eq!(r.due(), Some(t0));
        let now = r.take(t0);
        assert_eq!(now.refusal.map(|r| r.stem), Some("n0".to_string()));
        assert!(now.summary.is_none(), "the rest waits for the interval");
        assert_eq!(r.due(), Some(t0 + second));
        assert!(r.take(t0 + second / 2).summary.is_none());
        let summary = r.take(t0 + second).summary.unwrap();
        assert_eq!(summary.count, 9_999);
        assert_eq!(summary.total, 10_000);
        assert_eq!(summary.overflows, 2);
        assert_eq!(summary.ids.len(), IDS_LISTED);
        assert_eq!(summary.describe(), "9999 tags refused: 9999 rate limit");
        assert_eq!(summary.code(), "limit_exceeded");
        assert_eq!(r.due(), None);
        // Within the next interval refusals are folded again...
        r.refused(refusal(1, "invalid_argument"), t0 + second + second / 2);
        assert!(r.take(t0 + second + second / 2).refusal.is_none());
        // ...and after a quiet interval the next one is reported on its own.
        let later = t0 + 5 * second;
        let summary = r.take(later).summary.unwrap();
        assert_eq!(summary.describe(), "1 tag refused: 1 invalid_argument");
        r.refused(refusal(2, "rate limit"), later + 2 * second);
        assert!(r.take(later + 2 * second).refusal.is_some());
    }
}
