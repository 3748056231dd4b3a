//! Paste buffers, as tmux keeps them: named and automatic (`buffer0`, `buffer1`, ...),
//! most recent first, at most `server.buffer_limit` automatic ones (the oldest goes),
//! and at most [`MAX_BUFFER_BYTES`] each and [`MAX_BUFFERS_BYTES`] in all (refused
//! past that: named buffers are never evicted, so the total has to be a refusal).
//!
//! The store holds text only; it never logs it. Commands reach it through
//! `dispatch/buffers.rs`.

use fugue_protocol::buffers::{
    BUFFER_OVERHEAD, BufferInfo, MAX_BUFFER_BYTES, MAX_BUFFER_NAME, MAX_BUFFERS_BYTES,
    PREVIEW_BYTES,
};
use fugue_protocol::{CommandError, ErrorCode};

/// One buffer.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub name: String,
    pub data: String,
    /// Seconds since the Unix epoch.
    pub created: u64,
    pub automatic: bool,
    /// The agent that made it, when agents see only their own things (`[policy]
    /// mcp_scope`/`sideband_scope` = "own"); None: made by someone who sees everything.
    pub owner: Option<String>,
}

impl Buffer {
    fn cost(&self) -> usize {
        cost(&self.name, self.data.len())
    }

    pub fn info(&self) -> BufferInfo {
        BufferInfo {
            name: self.name.clone(),
            size: self.data.len() as u64,
            created: self.created,
            automatic: self.automatic,
            sample: fugue_protocol::buffers::sample(&self.data),
            head: fugue_protocol::buffers::head(&self.data, PREVIEW_BYTES).to_string(),
        }
    }
}

fn cost(name: &str, len: usize) -> usize {
    len.saturating_add(name.len())
        .saturating_add(BUFFER_OVERHEAD)
}

/// Who is asking: what they may see, and what their new buffers are marked with.
#[derive(Clone, Debug, Default)]
pub struct Viewer {
    /// None: sees every buffer. Some: sees only buffers with this owner.
    pub only: Option<String>,
}

impl Viewer {
    fn sees(&self, b: &Buffer) -> bool {
        match &self.only {
            None => true,
            Some(o) => b.owner.as_deref() == Some(o.as_str()),
        }
    }
}

/// The buffers, oldest first (the most recent is last).
#[derive(Debug, Default)]
pub struct Buffers {
    list: Vec<Buffer>,
    /// The number of the next automatic buffer (tmux's `paste_next_index`).
    next_index: u64,
    /// Bytes held, as [`Buffer::cost`] counts them.
    total: usize,
    /// Goes up with every change, so the journal copies the buffers only when they
    /// changed (`persist.rs`).
    version: u64,
}

/// Checks a buffer name given by a caller.
pub fn validate_name(name: &str) -> Result<(), CommandError> {
    if name.is_empty() {
        return Err(CommandError::invalid_argument(
            "buffer",
            "the name is empty",
        ));
    }
    if name.len() > MAX_BUFFER_NAME {
        return Err(CommandError::invalid_argument(
            "buffer",
            format!("the name is longer than {MAX_BUFFER_NAME} bytes"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(CommandError::invalid_argument(
            "buffer",
            "names may not contain control characters",
        ));
    }
    Ok(())
}

fn no_buffer(name: Option<&str>) -> CommandError {
    match name {
        // tmux's words.
        Some(n) => CommandError::unknown_target(format!("no buffer {n}"))
            .with_suggestion("list-buffers shows the buffers there are"),
        None => CommandError::unknown_target("no buffers")
            .with_suggestion("copy something first (copy mode, or set-buffer)"),
    }
}

fn too_big(len: usize) -> CommandError {
    CommandError::new(
        ErrorCode::LimitExceeded,
        format!("a buffer of {len} bytes is over the limit of {MAX_BUFFER_BYTES} bytes per buffer"),
    )
    .with_suggestion("copy less, or have the program read the file itself")
}

impl Buffers {
    /// Bytes held (data, names and overhead).
    pub fn total(&self) -> usize {
        self.total
    }

    /// A number that changes whenever a buffer is added, changed or removed.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Every buffer, oldest first, whoever owns it (for the journal).
    pub fn all(&self) -> &[Buffer] {
        &self.list
    }

    /// Puts back a buffer from the journal, as it was (name, owner, time), within the
    /// same limits as `set`: one that does not fit is left out and logged.
    pub fn restore(&mut self, b: Buffer) {
        let cost = b.cost();
        if b.data.len() > MAX_BUFFER_BYTES
            || self.total.saturating_add(cost) > MAX_BUFFERS_BYTES
            || self.list.iter().any(|x| x.name == b.name)
        {
            tracing::warn!(
                "journal: buffer {} not restored: over the limits or taken",
                b.name
            );
            return;
        }
        if b.automatic
            && let Some(n) = b
                .name
                .strip_prefix("buffer")
                .and_then(|n| n.parse::<u64>().ok())
        {
            self.next_index = self.next_index.max(n.saturating_add(1));
        }
        self.total += cost;
        self.version += 1;
        self.list.push(b);
    }

    fn position(&self, name: Option<&str>, viewer: &Viewer) -> Option<usize> {
        match name {
            Some(n) => self
                .list
                .iter()
                .position(|b| b.name == n)
                .filter(|i| viewer.sees(&self.list[*i])),
            None => self.list.iter().rposition(|b| viewer.sees(b)),
        }
    }

    /// The buffer called `name`, or the most recent one the viewer sees.
    pub fn get(&self, name: Option<&str>, viewer: &Viewer) -> Result<&Buffer, CommandError> {
        self.position(name, viewer)
            .map(|i| &self.list[i])
            .ok_or_else(|| no_buffer(name))
    }

    /// The buffers the viewer sees, most recent first.
    pub fn list(&self, viewer: &Viewer) -> impl Iterator<Item = &Buffer> {
        self.list.iter().rev().filter(|b| viewer.sees(b))
    }

    /// Removes a buffer; returns it.
    pub fn delete(&mut self, name: Option<&str>, viewer: &Viewer) -> Result<Buffer, CommandError> {
        self.version += 1;
        let Some(i) = self.position(name, viewer) else {
            return Err(match name {
                Some(n) => CommandError::unknown_target(format!("unknown buffer: {n}"))
                    .with_suggestion("list-buffers shows the buffers there are"),
                None => no_buffer(None),
            });
        };
        let b = self.list.remove(i);
        self.total = self.total.saturating_sub(b.cost());
        Ok(b)
    }

    /// Renames a buffer (`set-buffer -n`); a renamed buffer is no longer automatic, as
    /// in tmux. A buffer already called `to` is replaced.
    pub fn rename(
        &mut self,
        from: Option<&str>,
        to: &str,
        viewer: &Viewer,
    ) -> Result<String, CommandError> {
        self.version += 1;
        validate_name(to)?;
        let i = self.position(from, viewer).ok_or_else(|| no_buffer(from))?;
        if self.list[i].name == to {
            return Ok(to.to_string());
        }
        self.refuse_hidden(to, viewer)?;
        let mut b = self.list.remove(i);
        self.total = self.total.saturating_sub(b.cost());
        if let Some(j) = self.list.iter().position(|x| x.name == to) {
            let old = self.list.remove(j);
            self.total = self.total.saturating_sub(old.cost());
        }
        b.name = to.to_string();
        b.automatic = false;
        self.total = self.total.saturating_add(b.cost());
        // Keeps its place in the order (tmux keeps the order on rename).
        let at = i.min(self.list.len());
        self.list.insert(at, b);
        Ok(to.to_string())
    }

    /// A buffer of that name the viewer may not see must not be replaced by them.
    fn refuse_hidden(&self, name: &str, viewer: &Viewer) -> Result<(), CommandError> {
        if self.list.iter().any(|b| b.name == name && !viewer.sees(b)) {
            return Err(
                CommandError::forbidden(format!("buffer {name} belongs to someone else"))
                    .with_suggestion("use another name"),
            );
        }
        Ok(())
    }

    /// Stores `data` (`set-buffer`): in a new automatic buffer when `name` is None
    /// (or, appending, in the most recent buffer), else in the named one, which
    /// becomes the most recent. Returns the buffer's name, or None when there was
    /// nothing to store (empty data makes no buffer, as in tmux).
    pub fn set(
        &mut self,
        name: Option<&str>,
        data: &str,
        append: bool,
        limit: usize,
        viewer: &Viewer,
        now: u64,
    ) -> Result<Option<String>, CommandError> {
        self.version += 1;
        if let Some(n) = name {
            validate_name(n)?;
            self.refuse_hidden(n, viewer)?;
        }
        let existing = match (name, append) {
            (Some(_), _) | (None, true) => self.position(name, viewer),
            (None, false) => None,
        };
        let old_len = existing.map_or(0, |i| self.list[i].data.len());
        let new_len = if append {
            old_len.saturating_add(data.len())
        } else {
            data.len()
        };
        if new_len > MAX_BUFFER_BYTES {
            return Err(too_big(new_len));
        }
        if new_len == 0 {
            return Ok(existing.map(|i| self.list[i].name.clone()));
        }
        let (new_name, automatic) = match (existing, name) {
            (Some(i), _) => {
                let b = &self.list[i];
                (b.name.clone(), b.automatic && name.is_none())
            }
            (None, Some(n)) => (n.to_string(), false),
            (None, None) => (format!("buffer{}", self.next_index), true),
        };
        // What the store would hold: the old copy goes, the new one comes, and the
        // oldest automatic buffers past the limit go.
        let replaced = existing.map_or(0, |i| self.list[i].cost());
        let mut after = self
            .total
            .saturating_sub(replaced)
            .saturating_add(cost(&new_name, new_len));
        let automatics = self
            .list
            .iter()
            .enumerate()
            .filter(|(i, b)| b.automatic && Some(*i) != existing)
            .count()
            + usize::from(automatic);
        let evict = automatics.saturating_sub(limit.max(1));
        let mut evicted = self
            .list
            .iter()
            .enumerate()
            .filter(|(i, b)| b.automatic && Some(*i) != existing);
        for _ in 0..evict {
            if let Some((_, b)) = evicted.next() {
                after = after.saturating_sub(b.cost());
            }
        }
        if after > MAX_BUFFERS_BYTES {
            return Err(CommandError::new(
                ErrorCode::LimitExceeded,
                format!(
                    "the paste buffers would hold {after} bytes, over the limit of {MAX_BUFFERS_BYTES} bytes in all"
                ),
            )
            .with_suggestion("delete buffers you no longer need (list-buffers, delete-buffer -b NAME)"));
        }
        let mut buffer = match existing {
            Some(i) => {
                let b = self.list.remove(i);
                self.total = self.total.saturating_sub(b.cost());
                b
            }
            None => {
                if automatic {
                    self.next_index = self.next_index.saturating_add(1);
                }
                Buffer {
                    name: new_name.clone(),
                    data: String::new(),
                    created: now,
                    automatic,
                    owner: viewer.only.clone(),
                }
            }
        };
        if append {
            buffer.data.push_str(data);
        } else {
            buffer.data = data.to_string();
        }
        buffer.automatic = automatic;
        buffer.created = now;
        self.total = self.total.saturating_add(buffer.cost());
        self.list.push(buffer);
        self.evict(limit.max(1));
        Ok(Some(new_name))
    }

    /// Drops the oldest automatic buffers past `limit`.
    fn evict(&mut self, limit: usize) {
        let mut automatic = self.list.iter().filter(|b| b.automatic).count();
        while automatic > limit {
            let Some(i) = self.list.iter().position(|b| b.automatic) else {
                break;
            };
            let b = self.list.remove(i);
            self.total = self.total.saturating_sub(b.cost());
            automatic -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: &Buffers) -> Vec<String> {
        b.list(&Viewer::default()).map(|b| b.name.clone()).collect()
    }

    #[test]
    fn automatic_buffers_are_numbered_and_evicted_past_the_limit() {
        let mut b = Buffers::default();
        let all = Viewer::default();
        for d in ["a", "b", "c"] {
            b.set(None, d, false, 2, &all, 0).unwrap();
        }
        b.set(Some("keep"), "k", false, 2, &all, 0).unwrap();
        assert_eq!(names(&b), ["keep", "buffer2", "buffer1"]);
        b.rename(Some("buffer1"), "mine", &all).unwrap();
        b.set(None, "d", false, 2, &all, 0).unwrap();
        b.set(None, "e", false, 2, &all, 0).unwrap();
        assert_eq!(names(&b), ["buffer4", "buffer3", "keep", "mine"]);
    }

    #[test]
    fn empty_data_makes_no_buffer_and_append_goes_to_the_latest() {
        let mut b = Buffers::default();
        let all = Viewer::default();
        assert_eq!(b.set(None, "", false, 50, &all, 0).unwrap(), None);
        b.set(None, "ab", false, 50, &all, 0).unwrap();
        b.set(None, "cd", true, 50, &all, 0).unwrap();
        assert_eq!(b.get(None, &all).unwrap().data, "abcd");
        assert_eq!(names(&b), ["buffer0"]);
    }

    #[test]
    fn sizes_are_bounded_per_buffer_and_in_all() {
        let mut b = Buffers::default();
        let all = Viewer::default();
        let big = "x".repeat(MAX_BUFFER_BYTES);
        b.set(Some("one"), &big, false, 50, &all, 0).unwrap();
        let e = b.set(Some("one"), "y", true, 50, &all, 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        for i in 1..(MAX_BUFFERS_BYTES / MAX_BUFFER_BYTES) - 1 {
            b.set(Some(&format!("n{i}")), &big, false, 50, &all, 0)
                .unwrap();
        }
        let e = b.set(Some("last"), &big, false, 50, &all, 0).unwrap_err();
        assert_eq!(e.code, ErrorCode::LimitExceeded);
        assert!(b.total() <= MAX_BUFFERS_BYTES);
        // Replacing one frees its room first.
        b.set(Some("one"), &big, false, 50, &all, 0).unwrap();
    }

    #[test]
    fn scoped_agents_see_only_their_own_buffers() {
        let mut b = Buffers::default();
        let all = Viewer::default();
        let agent = Viewer {
            only: Some("mcp 1".into()),
        };
        b.set(Some("secret"), "pw", false, 50, &all, 0).unwrap();
        assert!(b.get(None, &agent).is_err());
        assert!(b.get(Some("secret"), &agent).is_err());
        assert_eq!(
            b.set(Some("secret"), "x", false, 50, &agent, 0)
                .unwrap_err()
                .code,
            ErrorCode::Forbidden
        );
        b.set(None, "mine", false, 50, &agent, 0).unwrap();
        assert_eq!(b.list(&agent).count(), 1);
        assert_eq!(b.list(&all).count(), 2);
    }
}
