//! Reading tool arguments, with errors that name the argument and what was expected.

use fugue_protocol::keys::Key;
use fugue_protocol::{CommandError, Direction, Target};
use serde_json::{Map, Value};

/// A tool call's arguments.
pub struct Args<'a> {
    map: &'a Map<String, Value>,
}

fn wrong(name: &str, expected: &str, got: &Value) -> CommandError {
    let kind = match got {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    CommandError::invalid_argument(name, format!("expected {expected}, got {kind}"))
        .with_suggestion(format!("pass `{name}` as {expected}, or leave it out"))
}

impl<'a> Args<'a> {
    /// Wraps the arguments, refusing names the tool does not take.
    pub fn new(map: &'a Map<String, Value>, schema: &Value) -> Result<Args<'a>, CommandError> {
        let known = schema.get("properties").and_then(Value::as_object);
        for name in map.keys() {
            if !known.is_some_and(|k| k.contains_key(name)) {
                let list: Vec<&str> = known
                    .map(|k| k.keys().map(String::as_str).collect())
                    .unwrap_or_default();
                return Err(
                    CommandError::invalid_argument(name, "this tool has no such argument")
                        .with_suggestion(format!("its arguments are: {}", list.join(", "))),
                );
            }
        }
        Ok(Args { map })
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn string(&self, name: &str) -> Result<Option<String>, CommandError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(wrong(name, "a string", v)),
        }
    }

    pub fn required_string(&self, name: &str) -> Result<String, CommandError> {
        self.string(name)?.ok_or_else(|| {
            CommandError::invalid_argument(name, "it is required")
                .with_suggestion(format!("pass `{name}` as a string"))
        })
    }

    pub fn bool(&self, name: &str) -> Result<Option<bool>, CommandError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(wrong(name, "true or false", v)),
        }
    }

    pub fn uint(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<u64>,
    ) -> Result<Option<u64>, CommandError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(v) if range.contains(&v) => Ok(Some(v)),
                _ => Err(out_of_range(name, range.start(), range.end(), n)),
            },
            Some(v) => Err(wrong(name, "a whole number", v)),
        }
    }

    /// A timeout in milliseconds. Any positive number is taken (the server caps waits
    /// at its `[waits] max_timeout_ms`); a refusal says what is realistic rather than
    /// quoting `u64::MAX`.
    pub fn millis(&self, name: &str) -> Result<Option<u64>, CommandError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(v) if v >= 1 => Ok(Some(v)),
                _ => Err(CommandError::invalid_argument(
                    name,
                    format!("expected milliseconds, a whole number of at least 1, got {n}"),
                )
                .with_suggestion(format!(
                    "pass milliseconds such as 30000 (30 s); waits are capped by the server ([waits] max_timeout_ms, 300000 by default), or leave `{name}` out for the default"
                ))),
            },
            Some(v) => Err(wrong(name, "a whole number of milliseconds", v)),
        }
    }

    /// A whole number that may be negative (line numbers: history is negative).
    pub fn int(
        &self,
        name: &str,
        range: std::ops::RangeInclusive<i64>,
    ) -> Result<Option<i64>, CommandError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_i64() {
                Some(v) if range.contains(&v) => Ok(Some(v)),
                _ => Err(out_of_range(name, range.start(), range.end(), n)),
            },
            Some(v) => Err(wrong(name, "a whole number", v)),
        }
    }

    pub fn target(&self, name: &str) -> Result<Option<Target>, CommandError> {
        self.string(name)?
            .map(|s| {
                s.parse::<Target>()
                    .map_err(|e| CommandError::invalid_argument(name, e))
            })
            .transpose()
    }

    pub fn required_target(&self, name: &str) -> Result<Target, CommandError> {
        self.target(name)?.ok_or_else(|| {
            CommandError::invalid_argument(name, "it is required")
                .with_suggestion(format!("pass `{name}`; list_panes shows the ids"))
        })
    }

    pub fn targets(&self, name: &str) -> Result<Vec<Target>, CommandError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s
                        .parse::<Target>()
                        .map_err(|e| CommandError::invalid_argument(name, e)),
                    other => Err(wrong(name, "an array of strings", other)),
                })
                .collect(),
            Some(v) => Err(wrong(name, "an array of strings", v)),
        }
    }

    pub fn strings(&self, name: &str) -> Result<Vec<String>, CommandError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(wrong(name, "an array of strings", other)),
                })
                .collect(),
            Some(v) => Err(wrong(name, "an array of strings", v)),
        }
    }

    pub fn direction(&self, name: &str) -> Result<Option<Direction>, CommandError> {
        self.string(name)?
            .map(|s| {
                Direction::parse(&s).ok_or_else(|| {
                    CommandError::invalid_argument(
                        name,
                        format!("`{s}`: expected left, right, up or down"),
                    )
                })
            })
            .transpose()
    }

    pub fn keys(&self, name: &str) -> Result<Vec<Key>, CommandError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Key::parse(s).ok_or_else(|| {
                        CommandError::invalid_argument(name, format!("`{s}` is not a key name"))
                            .with_suggestion("key names look like Enter, Escape, Tab, C-c, M-x, Up, F5, or a single character; put text in `text`")
                    }),
                    other => Err(wrong(name, "an array of key names", other)),
                })
                .collect(),
            Some(v) => Err(wrong(name, "an array of key names", v)),
        }
    }

    pub fn env(&self, name: &str) -> Result<Vec<(String, String)>, CommandError> {
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    other => Err(wrong(name, "an object of string values", other)),
                })
                .collect(),
            Some(v) => Err(wrong(name, "an object of string values", v)),
        }
    }
}

/// A number outside what `name` takes, with the bounds and what to do.
fn out_of_range(
    name: &str,
    start: &dyn std::fmt::Display,
    end: &dyn std::fmt::Display,
    n: &serde_json::Number,
) -> CommandError {
    CommandError::invalid_argument(
        name,
        format!("expected a whole number from {start} to {end}, got {n}"),
    )
    .with_suggestion(format!(
        "pass a number in that range, or leave `{name}` out for the default"
    ))
}
