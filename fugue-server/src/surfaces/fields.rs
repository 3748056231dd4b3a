//! The field names serde's derive gives a struct, read off its `Deserialize` (issue 26):
//! the sideband's allowed attributes and the MCP tools' tests come from the argument
//! structs themselves, so no list is kept beside them.

use serde::de::{self, DeserializeOwned, Visitor};
use std::cell::Cell;

/// The names `T` deserializes from (after `rename`s), in declaration order; empty for
/// a type that is not a struct.
pub fn of<T: DeserializeOwned>() -> &'static [&'static str] {
    let seen = Cell::new(&[][..]);
    // The capture always ends the deserialization with an error: only the names matter.
    let _ = T::deserialize(Capture(&seen));
    seen.get()
}

/// A deserializer that records the fields a struct asks for and gives nothing.
struct Capture<'a>(&'a Cell<&'static [&'static str]>);

impl<'de> de::Deserializer<'de> for Capture<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("not a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.set(fields);
        Err(de::Error::custom("fields captured"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
        identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Two {
        a: u8,
        #[serde(rename = "bee")]
        b: Option<String>,
    }

    #[test]
    fn a_structs_fields_as_serde_names_them() {
        assert_eq!(super::of::<Two>(), ["a", "bee"]);
        assert!(super::of::<u8>().is_empty());
    }
}
