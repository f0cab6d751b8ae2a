//! `SchemaSet`: the messages one or more root types reach, by name, with a
//! fingerprint.

use super::{MessageSchema, TypeSchema};
use crate::{Error, ErrorKind, WireMsg};
use alloc::vec::Vec;
use core::fmt;

/// A set of message schemas closed under nesting: every message a field names is in
/// the set, once, by name. Messages are kept sorted by name, so two sets with the
/// same messages are equal and encode to the same bytes.
///
/// # Examples
///
/// ```
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Leg {
///     qty: u32,
/// }
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Order {
///     id: u64,
///     legs: Vec<Leg>,
/// }
///
/// let set = SchemaSet::of::<Order>().unwrap();
/// let names: Vec<&str> = set.messages().iter().map(|m| m.name.as_ref()).collect();
/// assert_eq!(names, ["Leg", "Order"]);
/// assert_eq!(set.by_template(0, 1).unwrap().name, "Order");
///
/// // The canonical encoding reads back equal, with the same fingerprint.
/// let bytes = set.to_bytes().unwrap();
/// let back = SchemaSet::from_bytes(&bytes).unwrap();
/// assert_eq!(back, set);
/// assert_eq!(back.fingerprint(), set.fingerprint());
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct SchemaSet {
    messages: Vec<MessageSchema>,
}

impl SchemaSet {
    /// An empty set.
    pub fn new() -> Self {
        SchemaSet::default()
    }

    /// How a list of `element` is laid out (FORMAT.md §6), by the rules the typed
    /// lists follow (`Kind::LIST_ENCODING`): for tools that read or describe lists
    /// from a schema alone. The unions and messages `element` names are looked up in
    /// this set; a union whose payload names no message of the set is not
    /// fixed-size (a table list).
    ///
    /// ```
    /// use wiremsg::{ListEncoding, SchemaSet, TypeSchema, WireMsg, WireUnion};
    ///
    /// #[derive(WireMsg)]
    /// struct Fill { qty: u32 }
    /// #[derive(WireUnion)]
    /// #[repr(u8)]
    /// enum Event { Heartbeat = 0, Fill(Fill) = 1 }
    /// #[derive(WireMsg)]
    /// struct Batch { events: Vec<Event>, notes: Vec<String> }
    ///
    /// let set = SchemaSet::of::<Batch>().unwrap();
    /// let fields = &set.message("Batch").unwrap().fields;
    /// let element = |i: usize| match &*fields[i].ty {
    ///     TypeSchema::List(element) => (**element).clone(),
    ///     other => panic!("{other:?}"),
    /// };
    /// assert_eq!(set.list_encoding(&element(0)), ListEncoding::Dense);
    /// assert_eq!(set.list_encoding(&element(1)), ListEncoding::Table);
    /// ```
    pub fn list_encoding(&self, element: &TypeSchema) -> crate::ListEncoding {
        super::shape::encoding(self, element)
    }

    /// The set of `T` and every message it nests.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidSchema`] if two different messages, enums or unions reached
    /// from `T` have the same name (two types of one name in different modules), or
    /// if its types nest deeper than [`MAX_DEPTH`](crate::MAX_DEPTH) (`Vec<Vec<..>>`
    /// 65 deep: a reader of the set's encoding would refuse it).
    pub fn of<T: WireMsg>() -> Result<Self, Error> {
        let mut set = SchemaSet::new();
        set.add::<T>()?;
        Ok(set)
    }

    /// Adds `T` and every message it nests.
    ///
    /// # Errors
    ///
    /// As [`of`](Self::of); a name already in the set for a different message is an
    /// error too.
    pub fn add<T: WireMsg>(&mut self) -> Result<(), Error> {
        self.add_static(T::SCHEMA)
    }

    /// The set of the message `schema` and every message it nests: what
    /// [`of`](Self::of) makes, for a schema known only as a `'static` descriptor
    /// (as [`WithHeader::message_schema`](crate::WithHeader::message_schema) gives it).
    #[cfg(feature = "std")]
    pub(crate) fn of_static(schema: &'static MessageSchema) -> Result<Self, Error> {
        let mut set = SchemaSet::new();
        set.add_static(schema)?;
        Ok(set)
    }

    fn add_static(&mut self, schema: &'static MessageSchema) -> Result<(), Error> {
        self.add_reached(schema)?;
        self.check_named_types()?;
        // What a reader of the set's encoding refuses, its writer refuses too (types
        // nested past the limit: lists of lists of lists .. 65 deep).
        super::shape::check_set(self)
    }

    fn add_reached(&mut self, schema: &'static MessageSchema) -> Result<(), Error> {
        // An explicit stack: a deep chain of nested types must not recurse.
        let mut pending = alloc::vec![schema];
        while let Some(schema) = pending.pop() {
            if !self.insert_one(schema.clone())? {
                continue;
            }
            for field in schema.fields.iter() {
                super::shape::each_reached_message(&field.ty, &mut |m, _| {
                    if let Some(nested) = m.resolve() {
                        pending.push(nested);
                    }
                });
            }
        }
        Ok(())
    }

    /// Every enum and every union of one name in the set is the same type: a schema
    /// file, its JSON, the compatibility checker and the exports know them by name,
    /// and would otherwise read one's values through the other's variants. Checked in
    /// n log n (a map of the names seen).
    fn check_named_types(&self) -> Result<(), Error> {
        use super::shape::Named;
        let mut enums = alloc::collections::BTreeMap::new();
        let mut unions = alloc::collections::BTreeMap::new();
        for message in &self.messages {
            for field in message.fields.iter() {
                let mut clash = None;
                super::shape::each_named(&field.ty, &mut |named| match named {
                    // The same (shared) enum or union: equal without a walk of its
                    // variants (a schema read from bytes shares each).
                    Named::Enum(e) => {
                        let seen = *enums.entry(e.name.as_ref()).or_insert(e);
                        if !core::ptr::eq(seen, e) && *seen != *e {
                            clash = Some("two different enums have the same name");
                        }
                    }
                    Named::Union(u) => {
                        let seen = *unions.entry(u.name.as_ref()).or_insert(u);
                        if !core::ptr::eq(seen, u) && *seen != *u {
                            clash = Some("two different unions have the same name");
                        }
                    }
                });
                if let Some(reason) = clash {
                    return Err(invalid(reason)
                        .in_field_named(&field.name)
                        .in_field_named(&message.name));
                }
            }
        }
        Ok(())
    }

    /// Adds one message; `Ok(false)` if an equal one is already there.
    fn insert_one(&mut self, schema: MessageSchema) -> Result<bool, Error> {
        match self
            .messages
            .binary_search_by(|m| m.name.as_ref().cmp(&schema.name))
        {
            Ok(at) if self.messages[at] == schema => Ok(false),
            Ok(_) => {
                Err(invalid("two different messages have the same name")
                    .in_field_named(&schema.name))
            }
            Err(at) => {
                self.messages.insert(at, schema);
                Ok(true)
            }
        }
    }

    /// Makes a set of `messages`, checking that it is closed (every message a field
    /// names is in it) and that it is a schema the derive could have written: names
    /// that are identifiers, fields back to back with the sizes of their types, block
    /// lengths and flags that agree with the fields, `since` versions within the
    /// message's version, well-formed enums and null sentinels, inline nesting without
    /// cycles and within [`MAX_DEPTH`](crate::MAX_DEPTH), distinct template ids, one
    /// enum or union for each name. What
    /// a schema file or its JSON form states can then be trusted by every reader.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidSchema`] naming the rule broken; the path names the message
    /// and field.
    pub fn from_messages(messages: impl IntoIterator<Item = MessageSchema>) -> Result<Self, Error> {
        let mut set = SchemaSet::new();
        for message in messages {
            // Only the name is kept for the error: a copy of the message would double
            // the peak of reading a schema.
            let name = message.name.clone();
            if !set.insert_one(message)? {
                return Err(invalid("a message appears twice").in_field_named(&name));
            }
        }
        for message in &set.messages {
            for field in message.fields.iter() {
                let mut missing = false;
                super::shape::each_message(&field.ty, &mut |m, _| {
                    missing |= set.message(&m.name).is_none();
                });
                if missing {
                    return Err(
                        invalid("the field's type names a message not in the schema")
                            .in_field_named(&field.name)
                            .in_field_named(&message.name),
                    );
                }
            }
        }
        // The pairs of ids seen: a set, so that many thousands of messages (a hostile
        // schema frame) cost n log n, not n².
        super::shape::check_set(&set)?;
        let mut pairs = alloc::collections::BTreeSet::new();
        for message in set.messages.iter() {
            let ids = |m: &MessageSchema| m.template_id.map(|t| (m.schema_id, t));
            if ids(message).is_some_and(|pair| !pairs.insert(pair)) {
                return Err(
                    invalid("two messages have the same template id and schema id")
                        .in_field_named(&message.name),
                );
            }
            // The schema message's own pair (FORMAT.md §11), on a schema file's schema.
            let reserved = Some((super::SCHEMA_SCHEMA_ID, super::SCHEMA_TEMPLATE_ID));
            if ids(message) == reserved && *message != super::canonical::schema_message() {
                return Err(invalid(
                    "template id 0xFFFF in schema 0xFFFF is reserved for schema messages",
                )
                .in_field_named(&message.name));
            }
        }
        set.check_named_types()?;
        Ok(set)
    }

    /// Writes the canonical encoding ([`to_bytes`](Self::to_bytes)) to the file at
    /// `path`, replacing it: a schema file (`.wms` by convention) for the `wiremsg`
    /// tool, or a snapshot to commit (feature `std`).
    ///
    /// # Errors
    ///
    /// As [`to_bytes`](Self::to_bytes); the file's I/O error as
    /// [`ErrorKind::Io`].
    #[cfg(feature = "std")]
    pub fn write_file(&self, path: impl AsRef<std::path::Path>) -> Result<(), Error> {
        let bytes = self.to_bytes()?;
        std::fs::write(path, bytes).map_err(|e| Error::from_io(e, 0))
    }

    /// Reads a schema file written by [`write_file`](Self::write_file) (feature
    /// `std`).
    ///
    /// # Errors
    ///
    /// As [`from_bytes`](Self::from_bytes); the file's I/O error as [`ErrorKind::Io`].
    #[cfg(feature = "std")]
    pub fn read_file(path: impl AsRef<std::path::Path>) -> Result<Self, Error> {
        let bytes = std::fs::read(path).map_err(|e| Error::from_io(e, 0))?;
        SchemaSet::from_bytes(&bytes)
    }

    /// Every message, sorted by name.
    pub fn messages(&self) -> &[MessageSchema] {
        &self.messages
    }

    /// The message named `name`.
    pub fn message(&self, name: &str) -> Option<&MessageSchema> {
        self.messages
            .binary_search_by(|m| m.name.as_ref().cmp(name))
            .ok()
            .map(|at| &self.messages[at])
    }

    /// The **closure** of message `name` in this set: the set of that message and
    /// every message its fields name (directly or through arrays, options and lists),
    /// transitively, as this set describes them. `None` if the set has no message
    /// `name`. Its [`fingerprint`](Self::fingerprint) is the message's fingerprint
    /// in a schema frame (FORMAT.md §12); for a derived type `T` the closure of `T` in
    /// any set made from the same types equals [`SchemaSet::of::<T>()`](Self::of).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{SchemaSet, WireMsg};
    ///
    /// #[derive(WireMsg)]
    /// struct Leg { qty: u32 }
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Order { id: u64, legs: Vec<Leg> }
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 2)]
    /// struct Cancel { id: u64 }
    ///
    /// let mut both = SchemaSet::of::<Order>()?;
    /// both.add::<Cancel>()?;
    /// let order = both.closure("Order").expect("a message of the set");
    /// assert_eq!(order, SchemaSet::of::<Order>()?); // Order and Leg, not Cancel
    /// assert_eq!(order.fingerprint(), SchemaSet::of::<Order>()?.fingerprint());
    /// assert!(both.closure("Quote").is_none());
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn closure(&self, name: &str) -> Option<SchemaSet> {
        let root = self.message(name)?;
        let mut closure = SchemaSet::new();
        // An explicit stack: a deep chain of nested types must not recurse.
        let mut pending = alloc::vec![root];
        while let Some(message) = pending.pop() {
            // `self` has one message per name, so "already there" means "seen".
            if closure.message(&message.name).is_some() {
                continue;
            }
            closure.insert_one(message.clone()).ok()?;
            for field in message.fields.iter() {
                pending.extend(
                    nested_messages(&field.ty)
                        .into_iter()
                        .filter_map(|n| self.message(n)),
                );
            }
        }
        Some(closure)
    }

    /// The message a header with `schema_id` and `template_id` announces.
    pub fn by_template(&self, schema_id: u16, template_id: u16) -> Option<&MessageSchema> {
        self.messages
            .iter()
            .find(|m| m.template_id == Some(template_id) && m.schema_id == schema_id)
    }

    /// A 64-bit fingerprint of the set: FNV-1a (64-bit; offset basis
    /// `0xcbf29ce484222325`, prime `0x100000001b3`, as published by Fowler, Noll and
    /// Vo) over the canonical encoding's message bytes ([`to_bytes`](Self::to_bytes)
    /// without its 8-byte header). Equal sets have equal fingerprints; a change to any
    /// name, id, offset, type or default changes it (barring a 2⁻⁶⁴ collision).
    pub fn fingerprint(&self) -> Fingerprint {
        let bytes = self.to_bytes().unwrap_or_default();
        let body = bytes.get(crate::MessageHeader::LEN..).unwrap_or(&[]);
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in body {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Fingerprint(hash)
    }
}

/// The names of the messages a field of type `ty` reaches directly: through arrays,
/// lists, options and tuples, and the payload messages of unions.
pub(crate) fn nested_messages(ty: &TypeSchema) -> Vec<&str> {
    let mut names = Vec::new();
    super::shape::each_reached_message(ty, &mut |m, _| names.push(m.name.as_ref()));
    names
}

/// The first message a type names (through arrays, options, lists and tuples).
pub(crate) fn named_message(ty: &TypeSchema) -> Option<&str> {
    let mut first = None;
    super::shape::each_message(ty, &mut |m, _| {
        first.get_or_insert(m.name.as_ref());
    });
    first
}

pub(crate) fn invalid(reason: &'static str) -> Error {
    Error::new(ErrorKind::InvalidSchema { reason }, 0)
}

impl fmt::Debug for SchemaSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.messages).finish()
    }
}

/// A schema set's fingerprint (see [`SchemaSet::fingerprint`]); prints as 16 hex
/// digits.
///
/// # Examples
///
/// ```
/// use wiremsg::Fingerprint;
///
/// assert_eq!(Fingerprint(0x0f0f_3d1d_7d51_b784).to_string(), "0f0f3d1d7d51b784");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fingerprint(pub u64);

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({self})")
    }
}
