//! [`DynLazy`]: a message read by its schema on demand, each field checked when read.

use super::value::Value;
use super::view::DynView;
use super::walk::Walk;
use crate::Error;
use crate::schema::{MessageSchema, SchemaSet};
use core::fmt;

/// A message of a schema set whose block length alone was checked
/// ([`view_lazy`](super::view_lazy)): each [`get`](Self::get) checks the field it
/// reads, as the typed on-demand view's accessor does
/// ([`WireMsg::view_lazy`](crate::WireMsg::view_lazy)), and fails with the error
/// [`view`](super::view) gives for that field's bytes (kind, byte offset, field
/// path).
///
/// A field is checked whole when read: a nested message, list, map or union field
/// of the root is validated as [`view`](super::view) validates it, and its
/// [`Value`] reads like a [`DynView`]'s. The cost of a read is the field's bytes,
/// not the message's. [`to_view`](Self::to_view) validates the rest. As a typed
/// on-demand view, it is `==` and (feature `serde`) `Serialize` through `to_view()`:
/// bytes that fail validation equal nothing and serialize as the serializer's error.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Note { id: u32, text: String, tags: Vec<String> }
///
/// let mut bytes = Note { id: 7, text: "hi".into(), tags: vec!["a".into()] }.to_bytes()?;
/// bytes[14] = 0xFF; // the text's first byte: not UTF-8
/// let set = SchemaSet::of::<Note>()?;
/// let note = dynamic::view_lazy(&set, "Note", &bytes)?; // the block length alone
/// assert_eq!(note.get("id")?, Some(Value::Unsigned(7)));
/// let err = note.get("text").unwrap_err();
/// assert_eq!((err.offset(), err.path().as_str()), (14, "text"));
/// assert_eq!(err.to_string(), Note::view(&bytes).unwrap_err().to_string());
/// // The list after the text starts at the text's end offset, checked, not read.
/// assert_eq!(note.get("tags")?.unwrap().as_list().unwrap().len(), 1);
/// assert_eq!(note.get("nope")?, None);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Memory
///
/// As [`DynView`]'s reads: none on the heap per input byte, but an error's kind and
/// path and an `Option` value's box.
#[derive(Clone, Copy)]
pub struct DynLazy<'a> {
    view: DynView<'a>,
    /// The block length, checked by [`view_lazy`](super::view_lazy).
    declared: usize,
}

impl<'a> DynLazy<'a> {
    /// The on-demand view of `bytes`, message `schema` of `set`, whose block length
    /// `declared` was checked.
    pub(super) fn new(
        set: &'a SchemaSet,
        schema: &'a MessageSchema,
        bytes: &'a [u8],
        declared: usize,
    ) -> Self {
        DynLazy {
            view: DynView::over(set, schema, bytes),
            declared,
        }
    }

    /// The message's schema.
    pub fn schema(&self) -> &'a MessageSchema {
        self.view.schema()
    }

    /// The message's name.
    pub fn name(&self) -> &'a str {
        self.view.name()
    }

    /// The bytes the view was made over.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.view.as_bytes()
    }

    /// True if the writer's version had field `name` (false for a name the message
    /// does not have): the block length says it, nothing more is read.
    pub fn has(&self, name: &str) -> bool {
        self.view.has(name)
    }

    /// The newest schema version, up to the schema's, whose fields the block holds.
    pub fn version(&self) -> u16 {
        self.view.version()
    }

    /// Field `name`, checked: its value, or for a field the writer's version did not
    /// have, what [`DynView::get`] returns for it; `Ok(None)` if the message has no
    /// readable field `name`.
    ///
    /// # Errors
    ///
    /// The error [`view`](super::view) gives for the field's bytes: its block bytes,
    /// its tail region (from the end offset of the tail field before it, which must
    /// be inside the tail, to its own) and everything in it. A block that ends inside
    /// the field is [`ErrorKind::BlockLengthTooSmall`](crate::ErrorKind).
    pub fn get(&self, name: &str) -> Result<Option<Value<'a>>, Error> {
        match self.view.readable(name) {
            Some(at) => self.value_at(at).map(Some),
            None => Ok(None),
        }
    }

    /// Field `at` (an index into the schema's fields), checked, as [`get`](Self::get).
    fn value_at(&self, at: usize) -> Result<Value<'a>, Error> {
        let (schema, bytes) = (self.view.schema(), self.view.as_bytes());
        Walk::new(self.view.set()).root_field(schema, bytes, self.declared, at)?;
        Ok(self.view.value_at(at))
    }

    /// Validates the whole message, as [`view`](super::view) does, and returns its
    /// view.
    ///
    /// # Errors
    ///
    /// Any error of [`view`](super::view) for the bytes.
    pub fn to_view(&self) -> Result<DynView<'a>, Error> {
        let (set, schema, bytes) = (self.view.set(), self.view.schema(), self.view.as_bytes());
        Walk::new(set).message(schema, bytes, 0, 0, 0)?;
        Ok(self.view)
    }
}

/// The messages' up-front views compared (`to_view()` of both), as typed on-demand
/// views compare: bytes that fail validation equal nothing, themselves included.
impl PartialEq for DynLazy<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self.to_view(), other.to_view()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}

/// `Name { field: Ok(value) | Err(error), .. }`, each field read on demand, as a
/// typed on-demand view's `Debug` writes it.
impl fmt::Debug for DynLazy<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct(self.name());
        for (at, field) in self.schema().fields.iter().enumerate() {
            if !field.reserved {
                s.field(&field.name, &self.value_at(at));
            }
        }
        s.finish()
    }
}
