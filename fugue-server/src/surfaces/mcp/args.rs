//! Tool arguments (issue 26): each tool's arguments are one struct deriving
//! `Deserialize` and `JsonSchema`. Its input schema is generated from the struct (once,
//! see `tools::ToolDef::input`); a call's arguments are checked against that schema, so
//! an error names the argument and what it takes, and then deserialized into the
//! struct, which makes the command. There is no second list of arguments to keep in
//! step.

use fugue_protocol::{Command, CommandError, Target};
use schemars::generate::SchemaSettings;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// A tool's argument struct: what a call may pass, and the command it makes.
pub trait ToolArgs: DeserializeOwned + schemars::JsonSchema {
    fn command(self) -> Result<Command, CommandError>;
}

/// The input schema of `T` as `tools/list` shows it: subschemas inlined, no
/// meta-schema, title or number formats, and an optional argument's type without
/// `null` (absent is how a call leaves it out; a null is taken as absent all the same).
/// Every byte here is read by every model on every session (issue 18).
pub fn schema<T: schemars::JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.meta_schema = None;
    settings.inline_subschemas = true;
    let mut schema = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Some(root) = schema.as_object_mut() {
        root.remove("title");
        root.remove("description");
        if let Some(Value::Object(props)) = root.get_mut("properties") {
            props.values_mut().for_each(tidy);
        }
    }
    schema
}

/// One property's schema, as small as it says the same.
fn tidy(p: &mut Value) {
    let Some(p) = p.as_object_mut() else {
        return;
    };
    p.remove("format");
    if let Some(Value::Array(types)) = p.get_mut("type") {
        types.retain(|t| t != "null");
        if let [one] = types.as_slice() {
            let one = one.clone();
            p.insert("type".into(), one);
        }
    }
    if let Some(Value::Array(choices)) = p.get_mut("enum") {
        choices.retain(|c| !c.is_null());
    }
    if let Some(items) = p.get_mut("items") {
        tidy(items);
    }
    if let Some(values) = p.get_mut("additionalProperties") {
        tidy(values);
    }
}

/// A call of the tool whose arguments are `T`: checked against `schema`, deserialized,
/// made into its command.
pub fn build<T: ToolArgs>(
    args: &Map<String, Value>,
    schema: &Value,
) -> Result<Command, CommandError> {
    decode::<T>(args, schema)?.command()
}

/// A call's arguments as the struct `T`, once they are what `schema` says.
pub fn decode<T: DeserializeOwned>(
    args: &Map<String, Value>,
    schema: &Value,
) -> Result<T, CommandError> {
    let args = check(args, schema)?;
    serde_json::from_value(Value::Object(args)).map_err(|e| {
        // The schema check passed, so the schema and the struct disagree: a bug here,
        // said plainly rather than hidden (the tools' tests look for it).
        CommandError::invalid_argument("arguments", e.to_string())
            .with_suggestion("check the arguments against the tool's input schema (tools/list)")
    })
}

/// The arguments with nulls left out, once each is what the schema says: refuses names
/// the tool does not take, missing required ones, wrong types, choices and bounds.
fn check(args: &Map<String, Value>, schema: &Value) -> Result<Map<String, Value>, CommandError> {
    let empty = Map::new();
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut out = Map::new();
    for (name, value) in args {
        let Some(p) = props.get(name) else {
            let list: Vec<&str> = props.keys().map(String::as_str).collect();
            return Err(
                CommandError::invalid_argument(name, "this tool has no such argument")
                    .with_suggestion(format!("its arguments are: {}", list.join(", "))),
            );
        };
        if value.is_null() {
            continue;
        }
        check_value(name, value, p)?;
        out.insert(name.clone(), value.clone());
    }
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if !out.contains_key(name) {
            let expected = props.get(name).map_or("a value", expected);
            return Err(CommandError::invalid_argument(name, "it is required")
                .with_suggestion(format!("pass `{name}` as {expected}")));
        }
    }
    Ok(out)
}

/// What a schema takes, in words for an error.
fn expected(p: &Value) -> &'static str {
    let types: Vec<&str> = match p.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    match types.as_slice() {
        ["string"] => "a string",
        ["boolean"] => "true or false",
        ["integer"] => "a whole number",
        ["array"] => "an array of strings",
        ["object"] => "an object of string values",
        ["boolean", "string"] | ["string", "boolean"] => "true, false or a string",
        _ => "a value",
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "integer" => v.is_i64() || v.is_u64(),
        "number" => v.is_number(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => false,
    }
}

/// Whether `v` is what schema `p` says, for the schemas the tools' structs make.
fn check_value(name: &str, v: &Value, p: &Value) -> Result<(), CommandError> {
    let fits = match p.get("type") {
        Some(Value::String(t)) => is_type(v, t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).any(|t| is_type(v, t)),
        _ => true,
    };
    let integer = p.get("type") == Some(&Value::from("integer"));
    // A number with a fraction where a whole number goes is refused as its bounds say.
    let fraction = integer && v.is_number();
    if !fits && !fraction {
        let expected = expected(p);
        return Err(CommandError::invalid_argument(
            name,
            format!("expected {expected}, got {}", kind(v)),
        )
        .with_suggestion(format!("pass `{name}` as {expected}, or leave it out")));
    }
    if let Some(Value::Array(choices)) = p.get("enum")
        && !choices.contains(v)
    {
        // No suggestion: the handler adds the choices from the schema.
        let shown = v.as_str().map_or_else(|| v.to_string(), String::from);
        let list: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
        return Err(CommandError::invalid_argument(
            name,
            format!("`{shown}`: expected {}", one_of(&list)),
        ));
    }
    if let Value::Number(n) = v
        && integer
    {
        bounds(name, n, p)?;
    }
    match v {
        Value::Array(items) => match p.get("items") {
            Some(s) => items.iter().try_for_each(|i| check_value(name, i, s)),
            None => Ok(()),
        },
        Value::Object(values) => match p.get("additionalProperties") {
            Some(s) if s.is_object() => values.values().try_for_each(|i| check_value(name, i, s)),
            _ => Ok(()),
        },
        _ => Ok(()),
    }
}

/// "a", "a or b", "a, b or c".
fn one_of(list: &[&str]) -> String {
    match list {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// A whole number within the schema's `minimum` and `maximum`.
fn bounds(name: &str, n: &serde_json::Number, p: &Value) -> Result<(), CommandError> {
    let whole = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from));
    let bound = |k: &str| p.get(k).and_then(Value::as_i64).map(i128::from);
    let (lo, hi) = (bound("minimum"), bound("maximum"));
    let inside = whole.is_some_and(|w| lo.is_none_or(|lo| w >= lo) && hi.is_none_or(|hi| w <= hi));
    if inside {
        return Ok(());
    }
    // Timeouts take any positive number (the server caps waits at `[waits]
    // max_timeout_ms`): the refusal says what is realistic rather than a bound.
    if name.ends_with("_ms") && hi.is_none() {
        return Err(CommandError::invalid_argument(
            name,
            format!(
                "expected milliseconds, a whole number of at least {}, got {n}",
                lo.unwrap_or(0)
            ),
        )
        .with_suggestion(format!(
            "pass milliseconds such as 30000 (30 s); waits are capped by the server ([waits] max_timeout_ms, 300000 by default), or leave `{name}` out for the default"
        )));
    }
    let range = match (lo, hi) {
        (Some(lo), Some(hi)) => format!("from {lo} to {hi}"),
        (Some(lo), None) => format!("of at least {lo}"),
        (None, Some(hi)) => format!("up to {hi}"),
        (None, None) => String::new(),
    };
    Err(
        CommandError::invalid_argument(name, format!("expected a whole number {range}, got {n}"))
            .with_suggestion(format!(
                "pass a number in that range, or leave `{name}` out for the default"
            )),
    )
}

/// A target argument, parsed; an error names the argument.
pub fn target(name: &str, t: Option<String>) -> Result<Option<Target>, CommandError> {
    t.map(|s| {
        s.parse::<Target>()
            .map_err(|e| CommandError::invalid_argument(name, e))
    })
    .transpose()
}

/// Several target arguments.
pub fn targets(name: &str, ts: Vec<String>) -> Result<Vec<Target>, CommandError> {
    ts.into_iter()
        .map(|s| {
            s.parse::<Target>()
                .map_err(|e| CommandError::invalid_argument(name, e))
        })
        .collect()
}
