//! `Serialize`/`Deserialize` for the parts of the schema model that are not plain
//! data (feature `serde`): a [`Node`] is its value, a [`MessageRef`] its name, a
//! [`DefaultValue`] its bytes (`null` when it has none), a [`SchemaSet`]
//! `{"messages": [...]}`, checked on the way in as [`SchemaSet::from_messages`] does.

use super::{DefaultValue, MessageRef, MessageSchema, Name, Node, SchemaSet};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::vec::Vec;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl<T: Serialize> Serialize for Node<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Node<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|value| Node::Owned(Box::new(value)))
    }
}

impl Serialize for MessageRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

impl<'de> Deserialize<'de> for MessageRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Name::deserialize(d).map(MessageRef::named)
    }
}

impl Serialize for DefaultValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.bytes().serialize(s)
    }
}

impl<'de> Deserialize<'de> for DefaultValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<Vec<u8>>::deserialize(d)? {
            Some(bytes) => DefaultValue::Bytes(Cow::Owned(bytes)),
            None => DefaultValue::Opaque,
        })
    }
}

#[derive(Serialize, Deserialize)]
struct SetForm<'a> {
    messages: Cow<'a, [MessageSchema]>,
}

impl Serialize for SchemaSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        SetForm {
            messages: Cow::Borrowed(self.messages()),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for SchemaSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let form = SetForm::deserialize(d)?;
        SchemaSet::from_messages(form.messages.into_owned()).map_err(D::Error::custom)
    }
}
