//! A tag's attributes as a struct (issue 26): serde reads the attribute map into the
//! tag's struct, so the attributes a tag takes are the struct's fields and nothing
//! else keeps a list of them. Errors name the attribute, as the result file shows it.

use crate::pane::tags::Tag;
use fugue_protocol::{CommandError, Direction};
use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::fmt;

/// The tag's attributes (every tag's `id` aside) as `T`; an attribute `T` has no field
/// for is refused, naming the ones it has.
pub fn read<T: DeserializeOwned>(tag: &Tag) -> Result<T, CommandError> {
    let fields = crate::surfaces::fields::of::<T>();
    if let Some((k, _)) = tag
        .attrs
        .iter()
        .find(|(k, _)| k != "id" && !fields.contains(&k.as_str()))
    {
        let mut known = vec!["id"];
        known.extend_from_slice(fields);
        return Err(CommandError::invalid_argument(
            k,
            format!("<fugue:{}> has no such attribute", tag.name),
        )
        .with_suggestion(format!("its attributes are: {}", known.join(", "))));
    }
    T::deserialize(Attrs { tag, at: 0 }).map_err(|e| match e.attr {
        Some(attr) => CommandError::invalid_argument(&attr, e.message),
        None => CommandError::invalid_argument("tag", e.message),
    })
}

/// An error reading an attribute, and which one.
#[derive(Debug)]
pub struct Error {
    attr: Option<String>,
    message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error {
            attr: None,
            message: msg.to_string(),
        }
    }

    fn missing_field(field: &'static str) -> Self {
        Error {
            attr: Some(field.to_string()),
            message: "it is required".into(),
        }
    }

    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        let list = match expected {
            [rest @ .., last] if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => expected.join(""),
        };
        Error::custom(format!("`{variant}`: expected {list}"))
    }
}

/// The attribute map. A repeated attribute counts once, first as given (as
/// `Tag::attr` reads it).
struct Attrs<'a> {
    tag: &'a Tag,
    at: usize,
}

impl<'a> Attrs<'a> {
    fn current(&self) -> Option<&'a (String, String)> {
        self.tag.attrs.get(self.at.checked_sub(1)?)
    }
}

impl<'de, 'a> Deserializer<'de> for Attrs<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_map(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map struct
        enum identifier ignored_any
    }
}

impl<'de, 'a> MapAccess<'de> for Attrs<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let attrs = &self.tag.attrs;
        while let Some((k, _)) = attrs.get(self.at) {
            self.at += 1;
            let first = attrs.iter().position(|(o, _)| o == k) == Some(self.at - 1);
            if k != "id" && first {
                return seed.deserialize(StrDeserializer::<Error>::new(k)).map(Some);
            }
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let Some((k, v)) = self.current() else {
            return Err(de::Error::custom("an attribute value without its name"));
        };
        seed.deserialize(Value(v)).map_err(|mut e| {
            e.attr.get_or_insert_with(|| k.clone());
            e
        })
    }
}

/// One attribute's value: a string, or true/false, or one of an enum's names.
struct Value<'a>(&'a str);

impl<'de, 'a> Deserializer<'de> for Value<'a> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_str(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            "true" | "yes" | "1" => visitor.visit_bool(true),
            "false" | "no" | "0" => visitor.visit_bool(false),
            v => Err(de::Error::custom(format!("`{v}`: expected true or false"))),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_enum(IntoDeserializer::<Error>::into_deserializer(self.0))
    }

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf unit unit_struct newtype_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// A number up to `MAX` (a trailing `%` is allowed: `size="30%"`).
#[derive(Clone, Copy, Debug)]
pub struct UpTo<const MAX: u32>(pub u32);

impl<'de, const MAX: u32> Deserialize<'de> for UpTo<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = String::deserialize(d)?;
        v.trim_end_matches('%')
            .parse::<u32>()
            .ok()
            .filter(|n| *n <= MAX)
            .map(UpTo)
            .ok_or_else(|| de::Error::custom(format!("`{v}`: expected a number up to {MAX}")))
    }
}

/// A direction: left, right, up or down.
#[derive(Clone, Copy, Debug)]
pub struct Dir(pub Direction);

impl<'de> Deserialize<'de> for Dir {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = String::deserialize(d)?;
        Direction::parse(&v)
            .map(Dir)
            .ok_or_else(|| de::Error::custom(format!("`{v}`: expected left, right, up or down")))
    }
}

/// A list: values separated by commas or spaces.
#[derive(Clone, Debug, Default)]
pub struct List(pub Vec<String>);

impl<'de> Deserialize<'de> for List {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = String::deserialize(d)?;
        Ok(List(
            v.split(|c: char| c == ',' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        ))
    }
}
