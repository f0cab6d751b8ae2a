//! Names of the instantiations of generic messages (`Batch<Tick>`): the schema names a
//! message by an identifier (schema names reach generated files and terminals), so an
//! instantiation is named by the message's name and its type arguments' names, each
//! after a `_`: `Batch_Tick`, `Pair_u64_String`, `Batch_Vec_Tick` (FORMAT.md §11).
//! Two instantiations have two names, so a [`SchemaSet`](crate::SchemaSet) holds both.
//!
//! The name is computed at compile time (a `const` of the instantiation) into a
//! buffer of 256 bytes.

use crate::schema::{Node, TypeSchema};
use alloc::borrow::Cow;

/// The longest name of an instantiation, in bytes; a longer one fails to compile.
pub(crate) const NAME_CAPACITY: usize = 256;

/// A name being built: its bytes and length.
#[derive(Debug)]
pub struct NameBuf {
    bytes: [u8; NAME_CAPACITY],
    len: usize,
}

impl NameBuf {
    const fn push(mut self, text: &str) -> Self {
        let text = text.as_bytes();
        let mut i = 0;
        while i < text.len() {
            assert!(
                self.len < NAME_CAPACITY,
                "wiremsg: the name of a generic message's instantiation is longer than 256 bytes"
            );
            self.bytes[self.len] = text[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn push_number(self, mut n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        let (_, digits) = digits.split_at(at);
        match core::str::from_utf8(digits) {
            Ok(text) => self.push(text),
            Err(_) => self,
        }
    }

    const fn push_type(self, ty: &TypeSchema) -> Self {
        match ty {
            TypeSchema::Bool => self.push("bool"),
            TypeSchema::U8 => self.push("u8"),
            TypeSchema::U16 => self.push("u16"),
            TypeSchema::U32 => self.push("u32"),
            TypeSchema::U64 => self.push("u64"),
            TypeSchema::U128 => self.push("u128"),
            TypeSchema::I8 => self.push("i8"),
            TypeSchema::I16 => self.push("i16"),
            TypeSchema::I32 => self.push("i32"),
            TypeSchema::I64 => self.push("i64"),
            TypeSchema::I128 => self.push("i128"),
            TypeSchema::F32 => self.push("f32"),
            TypeSchema::F64 => self.push("f64"),
            TypeSchema::Str => self.push("String"),
            TypeSchema::FixedStr { len } | TypeSchema::FixedStrPadded { len, .. } => {
                self.push("FixedStr").push_number(*len)
            }
            TypeSchema::Array { element, len } => self
                .push("Array_")
                .push_node(element)
                .push("_")
                .push_number(*len),
            TypeSchema::Option(inner) => self.push("Option_").push_node(inner),
            TypeSchema::List(element) | TypeSchema::BoundedList { element, .. } => {
                self.push("Vec_").push_node(element)
            }
            TypeSchema::Nullable { value, .. } => self.push_node(value),
            TypeSchema::Decimal { mantissa, scale } => self
                .push("Decimal_")
                .push_node(mantissa)
                .push("_")
                .push_number(*scale as usize),
            TypeSchema::Enum(e) => match node(e) {
                Some(e) => self.push_name(&e.name),
                None => self.push("_"),
            },
            TypeSchema::Message(m) => self.push_name(&m.name),
            TypeSchema::Union(u) => match node(u) {
                Some(u) => self.push_name(&u.name),
                None => self.push("_"),
            },
            TypeSchema::Tuple(elements) => {
                let mut out = self.push("Tuple");
                if let Cow::Borrowed(elements) = elements {
                    let mut i = 0;
                    while i < elements.len() {
                        out = out.push("_").push_node(&elements[i]);
                        i += 1;
                    }
                }
                out
            }
            // `Map_K_V`: the key's and the value's names, not the entry tuple's.
            TypeSchema::Map(entry) => match node(entry) {
                Some(TypeSchema::Tuple(Cow::Borrowed(kv))) => {
                    let mut out = self.push("Map");
                    let mut i = 0;
                    while i < kv.len() {
                        out = out.push("_").push_node(&kv[i]);
                        i += 1;
                    }
                    out
                }
                _ => self.push("Map_").push_node(entry),
            },
        }
    }

    const fn push_node(self, ty: &Node<TypeSchema>) -> Self {
        match node(ty) {
            Some(ty) => self.push_type(ty),
            None => self.push("_"),
        }
    }

    /// A name the derive wrote (borrowed); `&str` would need `Deref`, not `const`.
    #[allow(clippy::ptr_arg)]
    const fn push_name(self, name: &Cow<'static, str>) -> Self {
        match name {
            Cow::Borrowed(name) => self.push(name),
            Cow::Owned(_) => self.push("_"),
        }
    }
}

/// A descriptor the derive made (always `Node::Static`).
const fn node<T>(node: &Node<T>) -> Option<&'static T> {
    match node {
        Node::Static(t) => Some(*t),
        Node::Owned(_) | Node::Shared(_) => None,
    }
}

/// The name of generic message `base` instantiated with types `args`.
#[doc(hidden)]
pub const fn generic_name(base: &str, args: &[&TypeSchema]) -> NameBuf {
    let mut out = NameBuf {
        bytes: [0; NAME_CAPACITY],
        len: 0,
    }
    .push(base);
    let mut i = 0;
    while i < args.len() {
        out = out.push("_").push_type(args[i]);
        i += 1;
    }
    out
}

/// The name in `buf`.
#[doc(hidden)]
pub const fn name_str(buf: &'static NameBuf) -> &'static str {
    let (name, _) = buf.bytes.split_at(buf.len);
    match core::str::from_utf8(name) {
        Ok(name) => name,
        Err(_) => "_",
    }
}
