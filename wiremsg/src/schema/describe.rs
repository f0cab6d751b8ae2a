//! What a schema frame (FORMAT.md §12) says of one message type: its description
//! (name, ids, version, fingerprint), and the rule by which a reader that knows the
//! type compares that description with its own.

use super::{Fingerprint, MessageSchema, Name, SchemaSet};
use crate::{Error, ErrorKind};
use core::fmt;

/// One message type as a schema set describes it: the ids of the header it is sent
/// with, its schema version, and the fingerprint of its closure (the message and every
/// message it nests; [`SchemaSet::closure`]), which is what two descriptions of a type
/// are compared by (FORMAT.md §12).
///
/// Prints as `Order t1 s0 v1 fingerprint 0123456789abcdef`, the form of the `wiremsg
/// cat` line of a schema frame.
///
/// # Examples
///
/// ```
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Ping { seq: u32 }
///
/// let set = SchemaSet::of::<Ping>()?;
/// let ping = set.describe(0, 1).expect("template 1 in schema 0");
/// assert_eq!((ping.name.as_ref(), ping.template_id, ping.version), ("Ping", 1, 1));
/// assert_eq!(ping.fingerprint, set.fingerprint()); // Ping nests nothing
/// assert_eq!(ping.to_string(), "Ping t1 s0 v1 fingerprint ba99f373cf3947a7");
/// assert!(set.describe(0, 2).is_none());
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Description {
    /// The message's name in the set.
    pub name: Name,
    /// The template id of its header.
    pub template_id: u16,
    /// The schema id of its header.
    pub schema_id: u16,
    /// Its schema version.
    pub version: u16,
    /// The fingerprint of its closure in the set (FORMAT.md §11, §12).
    pub fingerprint: Fingerprint,
}

impl fmt::Display for Description {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} t{} s{} v{} fingerprint {}",
            self.name, self.template_id, self.schema_id, self.version, self.fingerprint
        )
    }
}

impl SchemaSet {
    /// The description of the message that a header with `schema_id` and
    /// `template_id` announces, if the set has one. Its fingerprint costs one
    /// canonical encoding of the message's closure.
    ///
    /// # Examples
    ///
    /// See [`Description`].
    pub fn describe(&self, schema_id: u16, template_id: u16) -> Option<Description> {
        let message = self.by_template(schema_id, template_id)?;
        let fingerprint = self.closure(&message.name)?.fingerprint();
        Some(Description {
            name: message.name.clone(),
            template_id,
            schema_id,
            version: message.version,
            fingerprint,
        })
    }

    /// Checks the descriptions of `described` (the set of a schema frame) against this
    /// set, the reader's own, by the rule of FORMAT.md §12: for every message of
    /// `described` with a template id that this set also has (same template id and
    /// schema id), **when the two describe the same versions** — the message at this
    /// set's version, and every message the two closures both name at equal versions
    /// — the fingerprints of the two closures must be equal. A description of another
    /// version is not an error: whether the versions read each other is the question of
    /// [`compat`](super::compat), not of the stream. Types this set does not have are
    /// not checked.
    ///
    /// This is the check of
    /// [`FrameReader::check_schema_frames`](crate::FrameReader::check_schema_frames).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{ErrorKind, SchemaSet, WireMsg};
    ///
    /// mod theirs {
    ///     #[derive(wiremsg::WireMsg)]
    ///     #[wire(template_id = 1)]
    ///     pub struct Order { pub id: u64, pub qty: u16 } // qty: u16, not u32
    /// }
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Order { id: u64, qty: u32 }
    ///
    /// let ours = SchemaSet::of::<Order>()?;
    /// assert!(ours.check_descriptions(&ours).is_ok());
    /// let err = ours.check_descriptions(&SchemaSet::of::<theirs::Order>()?).unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::SchemaFrameMismatch { .. }));
    /// assert!(err.to_string().starts_with("a schema frame describes `Order` (template id 1, schema 0, version 1) with fingerprint "));
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::SchemaFrameMismatch`] for the first message (by name) whose
    /// descriptions differ, naming both messages and both fingerprints.
    pub fn check_descriptions(&self, described: &SchemaSet) -> Result<(), Error> {
        for theirs in described.messages() {
            let Some(template_id) = theirs.template_id else {
                continue;
            };
            let Some(ours) = self.by_template(theirs.schema_id, template_id) else {
                continue;
            };
            let (Some(our_closure), Some(their_closure)) =
                (self.closure(&ours.name), described.closure(&theirs.name))
            else {
                continue;
            };
            if !same_versions(ours, &our_closure, theirs, &their_closure) {
                continue;
            }
            let (expected, found) = (our_closure.fingerprint(), their_closure.fingerprint());
            if expected != found {
                return Err(Error::new(
                    ErrorKind::SchemaFrameMismatch {
                        message: ours.name.clone(),
                        described: theirs.name.clone(),
                        template_id,
                        schema_id: theirs.schema_id,
                        version: theirs.version,
                        expected,
                        found,
                    },
                    0,
                ));
            }
        }
        Ok(())
    }
}

/// Whether two descriptions of one type are of the same versions, so that any
/// difference between them is a mismatch (FORMAT.md §12): the root at one version,
/// and every message both closures name at one version. A nested message may evolve
/// on its own (a list's stride carries its size), so its version counts too.
fn same_versions(
    ours: &MessageSchema,
    our_closure: &SchemaSet,
    theirs: &MessageSchema,
    their_closure: &SchemaSet,
) -> bool {
    ours.version == theirs.version
        && our_closure.messages().iter().all(|m| {
            their_closure
                .message(&m.name)
                .is_none_or(|t| t.version == m.version)
        })
}
