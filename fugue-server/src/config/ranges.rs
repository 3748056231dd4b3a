//! Range-checked numbers in the config file.
//!
//! A value out of range is refused while it is being read, so the error carries the
//! file, line and column like any other mistake in the file (checking after parsing
//! would lose the position). The bounds are the documented limits of
//! docs/reliability.md.

use serde::de::{Deserialize, Deserializer, Error};
use std::fmt::Display;

/// Reads a number and refuses it unless `MIN <= n <= MAX`.
pub fn within<'de, D, T, const MIN: u64, const MAX: u64>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Display + TryInto<u64>,
{
    let v = T::deserialize(d)?;
    match v.try_into() {
        Ok(n) if (MIN..=MAX).contains(&n) => Ok(v),
        _ => Err(D::Error::custom(format!(
            "{v} is out of range: expected {MIN} to {MAX}"
        ))),
    }
}

/// Reads a list and refuses it when it holds more than `MAX` entries.
pub fn at_most<'de, D, const MAX: usize>(d: D) -> Result<Vec<String>, D::Error>
where
    D: Deserializer<'de>,
{
    let v = Vec::<String>::deserialize(d)?;
    if v.len() > MAX {
        return Err(D::Error::custom(format!(
            "{} entries is too many: at most {MAX}",
            v.len()
        )));
    }
    Ok(v)
}
