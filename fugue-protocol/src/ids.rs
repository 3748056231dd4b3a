//! Identifiers of panes, windows and sessions.
//!
//! They print the way tmux prints them (`%3`, `@2`, `$1`) so that scripts written for
//! tmux keep reading naturally, and they are never reused while a server lives.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident, $sigil:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        // Ids travel as their printed form ("%3"), so JSON read by people and agents
        // shows what they would type.
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $sigil, self.0)
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.strip_prefix($sigil)
                    .and_then(|n| n.parse::<u32>().ok())
                    .map($name)
                    .ok_or_else(|| format!("`{s}` is not a {} id (expected {}N, for example {}1)", stringify!($name), $sigil, $sigil))
            }
        }
    };
}

id_type!(
    /// A pane, written `%N`.
    PaneId,
    '%'
);
id_type!(
    /// A window, written `@N`.
    WindowId,
    '@'
);
id_type!(
    /// A session, written `$N`.
    SessionId,
    '$'
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_print_and_parse_like_tmux() {
        assert_eq!(PaneId(3).to_string(), "%3");
        assert_eq!("%12".parse::<PaneId>(), Ok(PaneId(12)));
        assert!("12".parse::<PaneId>().is_err());
        assert!("%x".parse::<PaneId>().is_err());
        assert_eq!("@4".parse::<WindowId>(), Ok(WindowId(4)));
        assert_eq!("$0".parse::<SessionId>(), Ok(SessionId(0)));
    }
}
