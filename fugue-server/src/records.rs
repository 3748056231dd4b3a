//! What the server remembers for people rather than for sessions: tmux's message log
//! (`show-messages`: the commands run and the messages shown) and the command
//! prompt's history (`show-prompt-history`, Up/Down at `C-b :`). Both are bounded by
//! tmux's options, `message-limit` and `prompt-history-limit`, read as each entry
//! is added; both are lost with the server, as tmux's are.

use fugue_protocol::admin::{PromptHistory, PromptType};
use std::collections::{HashMap, VecDeque};

/// Longest entry kept, in bytes: a megabyte-long command line is logged cut, not whole
/// (a thousand of them would otherwise hold a gigabyte).
pub const MAX_ENTRY: usize = 1024;

/// One line of the message log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub number: u64,
    /// Seconds since the Unix epoch.
    pub time: u64,
    pub text: String,
}

/// tmux's message log: the newest last, at most `message-limit` entries.
#[derive(Debug, Default)]
pub struct MessageLog {
    entries: VecDeque<LogEntry>,
    next: u64,
}

impl MessageLog {
    pub fn add(&mut self, text: &str, limit: usize) {
        let entry = LogEntry {
            number: self.next,
            time: crate::attached::unix_now(),
            text: bounded(text),
        };
        self.next = self.next.saturating_add(1);
        self.entries.push_back(entry);
        while self.entries.len() > limit {
            self.entries.pop_front();
        }
    }

    /// The entries, newest first (as `show-messages` prints them).
    pub fn newest_first(&self) -> impl Iterator<Item = &LogEntry> {
        self.entries.iter().rev()
    }
}

/// The prompt histories, one per prompt type, oldest line first.
#[derive(Debug, Default)]
pub struct PromptHistories {
    lines: HashMap<PromptType, VecDeque<String>>,
}

impl PromptHistories {
    /// Adds a line unless it is empty or repeats the newest (tmux's rule).
    pub fn add(&mut self, kind: PromptType, line: &str, limit: usize) {
        let lines = self.lines.entry(kind).or_default();
        if line.is_empty() || lines.back().is_some_and(|l| l == line) {
            return;
        }
        lines.push_back(bounded(line));
        while lines.len() > limit {
            lines.pop_front();
        }
    }

    /// One type's history, or every type's in tmux's order.
    pub fn show(&self, kind: Option<PromptType>) -> PromptHistory {
        let kinds = match kind {
            Some(k) => vec![k],
            None => PromptType::ALL.to_vec(),
        };
        kinds
            .into_iter()
            .map(|k| {
                let lines = self.lines.get(&k).map(|l| l.iter().cloned().collect());
                (k, lines.unwrap_or_default())
            })
            .collect()
    }

    pub fn clear(&mut self, kind: Option<PromptType>) {
        match kind {
            Some(k) => {
                self.lines.remove(&k);
            }
            None => self.lines.clear(),
        }
    }
}

fn bounded(text: &str) -> String {
    if text.len() <= MAX_ENTRY {
        return text.to_string();
    }
    let mut end = MAX_ENTRY;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_its_limit_and_lists_newest_first() {
        let mut log = MessageLog::default();
        for i in 0..5 {
            log.add(&format!("m{i}"), 3);
        }
        let texts: Vec<&str> = log.newest_first().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["m4", "m3", "m2"]);
        log.add(&"x".repeat(MAX_ENTRY * 4), 3);
        assert_eq!(
            log.newest_first().next().map(|e| e.text.len()),
            Some(MAX_ENTRY + 3)
        );
        log.add("gone", 0);
        assert_eq!(log.newest_first().count(), 0, "a limit of 0 keeps nothing");
    }

    #[test]
    fn histories_are_per_type_bounded_and_skip_repeats() {
        let mut h = PromptHistories::default();
        for line in ["a", "b", "b", "", "c"] {
            h.add(PromptType::Command, line, 2);
        }
        h.add(PromptType::Search, "s", 2);
        assert_eq!(
            h.show(Some(PromptType::Command)),
            vec![(PromptType::Command, vec!["b".to_string(), "c".to_string()])]
        );
        h.clear(Some(PromptType::Command));
        let all = h.show(None);
        assert_eq!(all.len(), 4);
        assert_eq!(all[0], (PromptType::Command, vec![]));
        assert_eq!(all[1], (PromptType::Search, vec!["s".to_string()]));
    }
}
