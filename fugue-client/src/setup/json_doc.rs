//! A JSON document that keeps its keys in the order the file had them, so that
//! `fugue setup` changes only what it sets in a person's settings file (serde_json's
//! map sorts its keys unless the whole workspace turns on `preserve_order`, which
//! would change the order of every answer fugue prints).

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// Null, booleans, numbers and strings, as serde_json has them.
    Scalar(serde_json::Value),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn obj() -> Json {
        Json::Obj(Vec::new())
    }

    pub fn str(s: &str) -> Json {
        Json::Scalar(serde_json::Value::String(s.to_string()))
    }

    /// Parses `text`; an empty file is an empty object.
    pub fn parse(text: &str) -> serde_json::Result<Json> {
        if text.trim().is_empty() {
            return Ok(Json::obj());
        }
        serde_json::from_str(text)
    }

    /// Two-space pretty JSON with a final newline, as the agents' CLIs write theirs.
    pub fn render(&self) -> String {
        let mut out = serde_json::to_string_pretty(self).unwrap_or_default();
        out.push('\n');
        out
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Scalar(serde_json::Value::String(s)) => Some(s),
            _ => None,
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The object under `key`, made empty if missing; an error names the key when
    /// something other than an object is there (fugue then changes nothing).
    pub fn obj_at(&mut self, key: &str) -> Result<&mut Json, String> {
        let Json::Obj(pairs) = self else {
            return Err(format!("the value holding `{key}` is not an object"));
        };
        let at = match pairs.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                pairs.push((key.to_string(), Json::obj()));
                pairs.len() - 1
            }
        };
        match &mut pairs[at].1 {
            v @ Json::Obj(_) => Ok(v),
            _ => Err(format!("`{key}` is not an object")),
        }
    }

    /// The array under `key`, made empty if missing.
    pub fn arr_at(&mut self, key: &str) -> Result<&mut Vec<Json>, String> {
        let Json::Obj(pairs) = self else {
            return Err(format!("the value holding `{key}` is not an object"));
        };
        let at = match pairs.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                pairs.push((key.to_string(), Json::Arr(Vec::new())));
                pairs.len() - 1
            }
        };
        match &mut pairs[at].1 {
            Json::Arr(items) => Ok(items),
            _ => Err(format!("`{key}` is not an array")),
        }
    }

    /// Sets `key`, in place if it is there (keeping its position), else at the end.
    pub fn set(&mut self, key: &str, value: Json) {
        if let Json::Obj(pairs) = self {
            match pairs.iter_mut().find(|(k, _)| k == key) {
                Some(pair) => pair.1 = value,
                None => pairs.push((key.to_string(), value)),
            }
        }
    }

    pub fn remove(&mut self, key: &str) {
        if let Json::Obj(pairs) = self {
            pairs.retain(|(k, _)| k != key);
        }
    }

    /// Removes `key` if it holds an empty object or array.
    pub fn remove_if_empty(&mut self, key: &str) {
        let empty = match self.get(key) {
            Some(Json::Obj(p)) => p.is_empty(),
            Some(Json::Arr(a)) => a.is_empty(),
            _ => false,
        };
        if empty {
            self.remove(key);
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Scalar(v) => v.serialize(s),
            Json::Arr(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Obj(pairs) => {
                let mut map = s.serialize_map(Some(pairs.len()))?;
                for (k, v) in pairs {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Scalar(serde_json::Value::Null))
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Scalar(v.into()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Scalar(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Scalar(v.into()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Scalar(v.into()))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut pairs: Vec<(String, Json)> = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            // A repeated key: the last one counts, as in serde_json and JavaScript.
            pairs.retain(|(old, _)| *old != k);
            pairs.push((k, v));
        }
        Ok(Json::Obj(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_order_and_values_round_trip() {
        let text = "{\n  \"zeta\": 1,\n  \"alpha\": {\n    \"b\": [\n      true,\n      null,\n      2.5,\n      \"s\"\n    ],\n    \"a\": -3\n  }\n}\n";
        let doc = Json::parse(text).unwrap();
        assert_eq!(doc.render(), text);
    }

    #[test]
    fn edits_keep_positions_and_refuse_wrong_types() {
        let mut doc = Json::parse(r#"{"b": 1, "a": {"x": 2}, "n": 3}"#).unwrap();
        doc.set("b", Json::str("new"));
        doc.obj_at("a").unwrap().set("y", Json::str("z"));
        doc.obj_at("c").unwrap();
        assert_eq!(
            serde_json::to_string(&doc).unwrap(),
            r#"{"b":"new","a":{"x":2,"y":"z"},"n":3,"c":{}}"#
        );
        doc.remove_if_empty("c");
        assert!(doc.get("c").is_none());
        assert!(doc.obj_at("n").is_err());
        assert!(doc.arr_at("a").is_err());
        assert_eq!(Json::parse("  ").unwrap(), Json::obj());
    }
}
