//! The per-pane sideband key: proof that a tag comes from the agent, not from text the
//! agent shows.
//!
//! An agent displays README files, tool output and web pages; any of them may hold
//! `<fugue:spawn .../>`. So a pane that may be scanned gets a secret in its environment
//! (`FUGUE_SIDEBAND_KEY`), and a tag runs only if it carries it (`key="..."`): text the
//! agent merely shows cannot know it. The key is compared in constant time, taken off
//! the tag before anything else sees it, and hidden (as `*`) wherever it would otherwise
//! reach the screen inside text released as not-a-tag.

use super::Tag;
use std::sync::Arc;

/// The environment variable that holds a pane's key.
pub const KEY_ENV: &str = "FUGUE_SIDEBAND_KEY";

/// Random bytes in a key: 128 bits, printed as 32 hex digits.
const KEY_BYTES: usize = 16;

/// The shortest start of the key that is hidden when released text ends with it (a tag
/// cut short by the size bound, a quiet moment or a stray `<` in its value). Shorter
/// starts are too common in text to hide, and tell an attacker less than 32 bits.
const MIN_PREFIX: usize = 8;

/// The shortest key [`SidebandKey::new`] takes.
pub const MIN_KEY_LEN: usize = 16;

/// A pane's sideband key. Its `Debug` never shows it.
#[derive(Clone)]
pub struct SidebandKey(Arc<str>);

impl std::fmt::Debug for SidebandKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SidebandKey(hidden)")
    }
}

/// Why a new key could not be made.
#[derive(Debug, thiserror::Error)]
#[error("no random bytes from the operating system for a sideband key: {0}")]
pub struct KeyError(String);

impl SidebandKey {
    /// A new random key, from the operating system's CSPRNG (getrandom).
    pub fn generate() -> Result<SidebandKey, KeyError> {
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| KeyError(e.to_string()))?;
        let mut hex = String::with_capacity(KEY_BYTES * 2);
        for b in bytes {
            hex.push(char::from(HEX[usize::from(b >> 4)]));
            hex.push(char::from(HEX[usize::from(b & 0xf)]));
        }
        Ok(SidebandKey(Arc::from(hex)))
    }

    /// A given key (tests and benchmarks): at least [`MIN_KEY_LEN`] characters, none
    /// that a tag's value could not hold or that would need escaping.
    pub fn new(key: &str) -> Option<SidebandKey> {
        (key.len() >= MIN_KEY_LEN && key.bytes().all(|b| b.is_ascii_alphanumeric()))
            .then(|| SidebandKey(Arc::from(key)))
    }

    /// The key itself: for the pane's environment, and nothing else.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether `given` is the key, in time that does not depend on where they differ.
    pub fn matches(&self, given: &str) -> bool {
        constant_time_eq(self.0.as_bytes(), given.as_bytes())
    }

    /// Whether `text` holds the key.
    pub fn found_in(&self, text: &[u8]) -> bool {
        memchr::memmem::find(text, self.0.as_bytes()).is_some()
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Compares without an early exit. Only the length (which is no secret: every key has
/// the same) is compared first.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// Why a complete tag was shown as text rather than run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Untrusted {
    /// It carried no `key`.
    NoKey,
    /// It carried a key that is not the pane's (or more than one).
    WrongKey,
}

/// Which complete tags a scanner lets run.
#[derive(Clone)]
pub(super) enum Trust {
    /// None: a pane without a key (its key could not be made, or it is not meant to be
    /// scanned) runs nothing, whatever it prints.
    Nothing,
    /// Boxed: the finder is large next to the other variants.
    Key(Box<Keyed>),
    /// Every well-formed tag, unkeyed (the grammar's own tests).
    #[cfg(test)]
    Everything,
}

/// A key and its prepared searcher.
#[derive(Clone)]
pub(super) struct Keyed {
    key: SidebandKey,
    finder: memchr::memmem::Finder<'static>,
}

impl Trust {
    pub(super) fn key(key: SidebandKey) -> Trust {
        let finder = memchr::memmem::Finder::new(key.expose().as_bytes()).into_owned();
        Trust::Key(Box::new(Keyed { key, finder }))
    }

    /// Takes the key off a tag that carries the right one; says why not otherwise.
    pub(super) fn admit(&self, tag: &mut Tag) -> Result<(), Untrusted> {
        let key = match self {
            #[cfg(test)]
            Trust::Everything => return Ok(()),
            Trust::Nothing => None,
            Trust::Key(k) => Some(&k.key),
        };
        let mut given = tag.attrs.iter().filter(|(k, _)| k == "key");
        let (Some((_, value)), None) = (given.next(), given.next()) else {
            return Err(if tag.attr("key").is_none() {
                Untrusted::NoKey
            } else {
                Untrusted::WrongKey
            });
        };
        match key {
            Some(key) if key.matches(value) => {
                tag.attrs.retain(|(k, _)| k != "key");
                Ok(())
            }
            _ => Err(Untrusted::WrongKey),
        }
    }

    /// Whether this scanner has a key that released text might hold.
    pub(super) fn has_key(&self) -> bool {
        matches!(self, Trust::Key(_))
    }

    /// Hides the key in text about to be shown: every whole copy of it, and a start of
    /// it (at least [`MIN_PREFIX`] long) at the very end.
    pub(super) fn redact(&self, text: &mut [u8]) {
        let Trust::Key(k) = self else {
            return;
        };
        let Keyed { key, finder } = &**k;
        let key = key.expose().as_bytes();
        let mut from = 0;
        while let Some(at) = finder.find(&text[from..]) {
            let at = from + at;
            text[at..at + key.len()].fill(b'*');
            from = at + key.len();
        }
        // Only the last key.len()-1 bytes can hold a start of it that is cut short.
        let tail_start = text.len().saturating_sub(key.len() - 1);
        let tail = &text[tail_start..];
        let cut = memchr::memmem::find_iter(tail, &key[..MIN_PREFIX])
            .find(|&at| key.starts_with(&tail[at..]))
            .map(|at| tail_start + at);
        if let Some(at) = cut {
            text[at..].fill(b'*');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_random_hex_and_never_debug_printed() {
        let a = SidebandKey::generate().unwrap();
        let b = SidebandKey::generate().unwrap();
        assert_eq!(a.expose().len(), 32);
        assert!(a.expose().bytes().all(|c| HEX.contains(&c)));
        assert_ne!(a.expose(), b.expose());
        assert!(!format!("{a:?}").contains(a.expose()));
        assert!(a.matches(a.expose()));
        assert!(!a.matches(b.expose()));
        assert!(!a.matches(&a.expose()[..31]));
        assert!(!a.matches(""));
    }

    #[test]
    fn redaction_hides_whole_keys_and_a_cut_start_at_the_end() {
        let trust = Trust::key(SidebandKey::new("0123456789abcdef0123456789abcdef").unwrap());
        let mut t =
            b"a 0123456789abcdef0123456789abcdef b 0123456789abcdef0123456789abcdef".to_vec();
        trust.redact(&mut t);
        assert_eq!(
            t,
            format!("a {} b {}", "*".repeat(32), "*".repeat(32)).as_bytes()
        );
        let mut t = b"<fugue:spawn key=\"0123456789ab".to_vec();
        trust.redact(&mut t);
        assert_eq!(t, b"<fugue:spawn key=\"************");
        // A short start is text like any other.
        let mut t = b"x=\"0123456".to_vec();
        trust.redact(&mut t);
        assert_eq!(t, b"x=\"0123456");
        let mut t = b"01234567".to_vec();
        trust.redact(&mut t);
        assert_eq!(t, b"********");
    }
}
