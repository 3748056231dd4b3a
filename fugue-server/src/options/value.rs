//! Option values: parsing a caller's text by the option's type, and printing a value
//! as tmux's `show-options -v` does. Errors start with tmux's own words (`bad value:`,
//! `value is too large:`...) and go on to name what the option takes.

use super::table::{Kind, OptionDef};
use fugue_protocol::Key;

/// The most bytes a string value or an array element may hold, and the most elements
/// an array may have: options are settings, and every client is sent some of them.
pub const MAX_VALUE_BYTES: usize = 16 * 1024;
pub const MAX_ARRAY_ITEMS: usize = 1024;

/// A value as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Flag(bool),
    Number(i64),
    /// Strings, styles, colours, keys, choices, sizes: checked text.
    Text(String),
    Array(Vec<String>),
}

impl Value {
    /// The text `show-options -v` prints (one element of an array each).
    pub fn show(&self) -> String {
        match self {
            Value::Flag(b) => if *b { "on" } else { "off" }.into(),
            Value::Number(n) => n.to_string(),
            Value::Text(t) => t.clone(),
            Value::Array(items) => items.join("\n"),
        }
    }

    /// The value as a format sees it (`#{synchronize-panes}`): a flag is `1` or `0`,
    /// as tmux's formats give it (`#{?synchronize-panes,...}` tests it, and tools
    /// compare against it); anything else as `show-options -v` prints it.
    pub fn in_format(&self) -> String {
        match self {
            Value::Flag(b) => if *b { "1" } else { "0" }.into(),
            other => other.show(),
        }
    }

    pub fn flag(&self) -> bool {
        match self {
            Value::Flag(b) => *b,
            Value::Number(n) => *n != 0,
            Value::Text(t) => t != "off",
            Value::Array(a) => !a.is_empty(),
        }
    }

    pub fn number(&self) -> i64 {
        match self {
            Value::Number(n) => *n,
            Value::Flag(b) => i64::from(*b),
            Value::Text(t) => t.parse().unwrap_or(0),
            Value::Array(_) => 0,
        }
    }

    pub fn text(&self) -> String {
        self.show()
    }
}

/// What the option takes, for an error's second half.
pub fn expected(o: &OptionDef) -> String {
    match o.kind {
        Kind::Flag => format!("{} takes on or off", o.name),
        Kind::Number { min, max } => format!("{} takes a number from {min} to {max}", o.name),
        Kind::Choice(c) => format!("{} takes one of: {}", o.name, c.join(", ")),
        Kind::Style => format!(
            "{} takes a style such as `fg=red,bg=default,bold` (attributes: {})",
            o.name,
            ATTRIBUTES.join(", ")
        ),
        Kind::Colour => format!(
            "{} takes a colour: default, black, red, green, yellow, blue, magenta, cyan, white, brightred..., colour0 to colour255, #rrggbb",
            o.name
        ),
        Kind::Key => format!("{} takes a key such as C-b, M-a, F1 or None", o.name),
        Kind::Size => format!("{} takes a size such as 80x24", o.name),
        Kind::CellsOrPercent => format!("{} takes cells (80) or a percentage (50%)", o.name),
        Kind::Str | Kind::Array => format!("{} takes text", o.name),
    }
}

/// Parses `text` as a value of `o` (an array's one element).
pub fn parse(o: &OptionDef, text: &str) -> Result<Value, String> {
    if text.len() > MAX_VALUE_BYTES {
        return Err(format!(
            "value is too long: {} bytes (at most {MAX_VALUE_BYTES})",
            text.len()
        ));
    }
    match o.kind {
        Kind::Flag => parse_flag(text)
            .map(Value::Flag)
            .ok_or_else(|| format!("bad value: {text}")),
        Kind::Number { min, max } => {
            let n: i64 = text
                .parse()
                .map_err(|_| format!("value is invalid: {text}"))?;
            if n < min {
                Err(format!("value is too small: {text}"))
            } else if n > max {
                Err(format!("value is too large: {text}"))
            } else {
                Ok(Value::Number(n))
            }
        }
        Kind::Choice(choices) => choices
            .iter()
            .find(|c| **c == text)
            .map(|c| Value::Text((*c).into()))
            .ok_or_else(|| format!("unknown value: {text}")),
        Kind::Str => Ok(Value::Text(text.into())),
        Kind::Array => Ok(Value::Array(if text.is_empty() {
            Vec::new()
        } else {
            vec![text.into()]
        })),
        Kind::Style => {
            if text.contains("#{") || valid_style(text) {
                Ok(Value::Text(text.into()))
            } else {
                Err(format!("invalid style: {text}"))
            }
        }
        Kind::Colour => {
            if valid_colour(text) || text == "none" {
                Ok(Value::Text(text.into()))
            } else {
                Err(format!("bad colour: {text}"))
            }
        }
        Kind::Key => {
            if text.eq_ignore_ascii_case("none") {
                Ok(Value::Text("None".into()))
            } else {
                Key::parse(text)
                    .map(|k| Value::Text(k.binding_form().to_string()))
                    .ok_or_else(|| format!("bad key: {text}"))
            }
        }
        Kind::Size => {
            let ok = text.split_once('x').is_some_and(|(w, h)| {
                matches!((w.parse::<u32>(), h.parse::<u32>()), (Ok(w), Ok(h)) if w >= 1 && h >= 1 && w <= 10000 && h <= 10000)
            });
            if ok {
                Ok(Value::Text(text.into()))
            } else {
                Err(format!("value is invalid: {text}"))
            }
        }
        Kind::CellsOrPercent => {
            let digits = text.strip_suffix('%').unwrap_or(text);
            if !digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit())
            {
                Ok(Value::Text(text.into()))
            } else {
                Err(format!("value is invalid: {text}"))
            }
        }
    }
}

/// tmux's flag words (`options_from_string_flag`).
pub fn parse_flag(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "1" | "on" | "yes" | "true" => Some(true),
        "0" | "off" | "no" | "false" => Some(false),
        _ => None,
    }
}

const ATTRIBUTES: &[&str] = &[
    "none",
    "bright",
    "bold",
    "dim",
    "underscore",
    "blink",
    "reverse",
    "hidden",
    "italics",
    "overline",
    "strikethrough",
    "double-underscore",
    "curly-underscore",
    "dotted-underscore",
    "dashed-underscore",
];

/// tmux's `style_parse`, as far as checking goes: items separated by commas or spaces.
fn valid_style(text: &str) -> bool {
    text.split([',', ' '])
        .filter(|i| !i.is_empty())
        .all(|item| {
            let lower = item.to_ascii_lowercase();
            if let Some((key, value)) = lower.split_once('=') {
                return match key {
                    "fg" | "bg" | "us" | "fill" => valid_colour(value),
                    "align" => matches!(value, "left" | "centre" | "right" | "absolute-centre"),
                    "list" => matches!(value, "on" | "focus" | "left-marker" | "right-marker"),
                    "range" => true,
                    _ => false,
                };
            }
            let attr = lower.strip_prefix("no").unwrap_or(&lower);
            matches!(
                lower.as_str(),
                "default"
                    | "push-default"
                    | "pop-default"
                    | "nolist"
                    | "norange"
                    | "noalign"
                    | "ignore"
                    | "noignore"
            ) || ATTRIBUTES.contains(&lower.as_str())
                || ATTRIBUTES.contains(&attr)
                || matches!(attr, "underline" | "italic")
        })
}

const COLOURS: &[&str] = &[
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
];

/// tmux's `colour_fromstring` for the forms people write (X11 names beyond the basic
/// eight are not known).
fn valid_colour(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    if matches!(t.as_str(), "default" | "terminal") || COLOURS.contains(&t.as_str()) {
        return true;
    }
    if let Some(base) = t.strip_prefix("bright")
        && COLOURS.contains(&base)
    {
        return true;
    }
    if let Some(hex) = t.strip_prefix('#') {
        return hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    for prefix in ["colour", "color"] {
        if let Some(n) = t.strip_prefix(prefix) {
            return n.parse::<u8>().is_ok();
        }
    }
    // Digits alone: a 256-colour index; `grey0`..`grey100`, as X11.
    if let Some(n) = t.strip_prefix("grey").or_else(|| t.strip_prefix("gray")) {
        return n.is_empty() || n.parse::<u8>().is_ok_and(|n| n <= 100);
    }
    t.parse::<u8>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::table::find;

    fn p(name: &str, text: &str) -> Result<Value, String> {
        parse(find(name).unwrap(), text)
    }

    /// The errors tmux 3.3a gives for the same values.
    #[test]
    fn errors_start_as_tmux() {
        assert_eq!(p("mouse", "maybe").unwrap_err(), "bad value: maybe");
        assert_eq!(
            p("history-limit", "abc").unwrap_err(),
            "value is invalid: abc"
        );
        assert_eq!(
            p("history-limit", "-5").unwrap_err(),
            "value is too small: -5"
        );
        assert_eq!(
            p("status-position", "middle").unwrap_err(),
            "unknown value: middle"
        );
        assert_eq!(p("prefix", "xyz").unwrap_err(), "bad key: xyz");
        assert_eq!(
            p("status-style", "fg=nonsense").unwrap_err(),
            "invalid style: fg=nonsense"
        );
        assert_eq!(p("default-size", "1x").unwrap_err(), "value is invalid: 1x");
    }

    #[test]
    fn values_parse() {
        assert_eq!(p("mouse", "yes"), Ok(Value::Flag(true)));
        assert_eq!(p("prefix", "C-a"), Ok(Value::Text("C-a".into())));
        assert_eq!(p("prefix2", "none"), Ok(Value::Text("None".into())));
        assert!(p("status-style", "bg=colour235,fg=#ffaa00,bold,noitalics").is_ok());
        assert!(
            p(
                "pane-active-border-style",
                "#{?pane_in_mode,fg=yellow,fg=green}"
            )
            .is_ok()
        );
        assert!(p("main-pane-width", "50%").is_ok());
        assert_eq!(
            p("remain-on-exit", "failed"),
            Ok(Value::Text("failed".into()))
        );
    }
}
