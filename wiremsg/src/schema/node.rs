//! `Node<T>`: a child of a schema value, borrowed from a `'static` descriptor, owned,
//! or shared.

use alloc::boxed::Box;
use alloc::sync::Arc;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;

/// A child of a schema value (an element type, an enum's descriptor): a `'static`
/// reference in the descriptors the derive writes, a box or a shared pointer in a
/// schema read at run time. It compares, hashes and prints as the value it points to.
///
/// A schema read from bytes ([`SchemaSet::from_bytes`](crate::SchemaSet::from_bytes))
/// shares each enum and union among the fields that name it: the encoding lists it
/// once, and its copies in the model cost one pointer each, so that a small schema
/// cannot decode to a large model.
///
/// [`Cow`](alloc::borrow::Cow) cannot hold a recursive type by value; this is the
/// same idea with a box.
///
/// # Examples
///
/// ```
/// use wiremsg::{Field, Node, TypeSchema};
///
/// let derived = Node::Static(<u32 as Field>::TYPE);
/// let read: Node<TypeSchema> = TypeSchema::U32.into();
/// assert_eq!(derived, read);
/// assert_eq!(*read, TypeSchema::U32);
/// let shared = Node::Shared(std::sync::Arc::new(TypeSchema::U32));
/// assert_eq!(shared.clone(), derived);
/// ```
#[derive(Clone)]
pub enum Node<T: 'static> {
    /// Borrowed from a `'static` descriptor.
    Static(&'static T),
    /// Owned.
    Owned(Box<T>),
    /// Shared with other nodes: cloning it copies a pointer.
    Shared(Arc<T>),
}

impl<T> Deref for Node<T> {
    type Target = T;

    fn deref(&self) -> &T {
        match self {
            Node::Static(value) => value,
            Node::Owned(value) => value,
            Node::Shared(value) => value,
        }
    }
}

impl<T: PartialEq> PartialEq for Node<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Eq> Eq for Node<T> {}

impl<T: Hash> Hash for Node<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: fmt::Debug> fmt::Debug for Node<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
    }
}
