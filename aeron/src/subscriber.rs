//! Receiving wiremsg messages from an Aeron subscription, viewed in place.
//!
//! [`WireSubscriber::poll`] hands each message to the caller's handler as the bytes
//! Aeron delivered: a fragment of the term buffer (for IPC, the publisher's own
//! shared memory), which the handler views in place, usually through a
//! `#[derive(WireDispatch)]` enum (`Feed::view(bytes)`). Nothing is copied for a
//! message that fits one frame. A message longer than one frame arrives in
//! fragments, which Aeron's fragment assembler joins in one buffer that it reuses
//! (it grows to the longest message once) before calling the handler.
//!
//! A handler returns the [`wiremsg::Error`] of a message it cannot view: the
//! subscriber counts it as a bad message, keeps the first such error (with its field
//! path and byte offset) for the report, and goes on with the next message.

use crate::Error;
use rusteron_client::{AeronFragmentClosureAssembler, AeronHeader, AeronSubscription};

/// What a [`WireSubscriber`] received.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReceiveStats {
    /// Messages handed to the handler (reassembled ones count once).
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Messages the handler could not view (counted in `messages` too).
    pub bad: u64,
}

/// Receives whole messages (reassembled when longer than one frame) and hands each to
/// a handler that views it in place.
///
/// # Examples
///
/// ```no_run
/// use wiremsg::{Template, WireMsg};
/// use wiremsg_aeron::Node;
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Tick { price: i64, size: u32 }
///
/// let node = Node::embedded("doc")?;
/// let mut subscriber = node.subscriber("aeron:ipc", 7)?;
/// let mut total = 0u64;
/// subscriber.poll(16, |bytes, _frame| {
///     let (_header, tick) = Tick::view_with_header(bytes)?; // validated, no copy
///     total += u64::from(tick.size());
///     Ok(())
/// })?;
/// # Ok::<(), wiremsg_aeron::Error>(())
/// ```
pub struct WireSubscriber {
    subscription: AeronSubscription,
    assembler: AeronFragmentClosureAssembler,
    stats: ReceiveStats,
    first_bad: Option<wiremsg::Error>,
}

impl std::fmt::Debug for WireSubscriber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WireSubscriber")
            .field("stats", &self.stats)
            .field("first_bad", &self.first_bad)
            .finish_non_exhaustive()
    }
}

/// The state one poll lends to the assembler's callback.
struct Poll<'p, F> {
    handler: &'p mut F,
    stats: &'p mut ReceiveStats,
    first_bad: &'p mut Option<wiremsg::Error>,
}

fn on_message<F>(poll: &mut Poll<'_, F>, bytes: &[u8], frame: AeronHeader)
where
    F: FnMut(&[u8], &AeronHeader) -> Result<(), wiremsg::Error>,
{
    poll.stats.messages += 1;
    poll.stats.bytes += bytes.len() as u64;
    if let Err(e) = (poll.handler)(bytes, &frame) {
        poll.stats.bad += 1;
        if poll.first_bad.is_none() {
            *poll.first_bad = Some(e);
        }
    }
}

impl WireSubscriber {
    /// A subscriber on `subscription`, with its own fragment assembler.
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the assembler cannot be made.
    pub fn new(subscription: AeronSubscription) -> Result<Self, Error> {
        Ok(WireSubscriber {
            subscription,
            assembler: AeronFragmentClosureAssembler::new()?,
            stats: ReceiveStats::default(),
            first_bad: None,
        })
    }

    /// Hands each message received, up to `fragment_limit` fragments, to `handler`
    /// with Aeron's frame header (session, position, reserved value); returns the
    /// fragments read (0: nothing arrived, so the caller may idle).
    ///
    /// A message the handler refuses (`Err`) is counted in [`ReceiveStats::bad`]; the
    /// first refusal is kept ([`first_bad`](Self::first_bad)).
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the subscription is closed or the client has failed.
    #[inline]
    pub fn poll<F>(&mut self, fragment_limit: usize, mut handler: F) -> Result<usize, Error>
    where
        F: FnMut(&[u8], &AeronHeader) -> Result<(), wiremsg::Error>,
    {
        let mut poll = Poll {
            handler: &mut handler,
            stats: &mut self.stats,
            first_bad: &mut self.first_bad,
        };
        let fragments = self.assembler.poll(
            &self.subscription,
            &mut poll,
            on_message::<F>,
            fragment_limit,
        )?;
        Ok(usize::try_from(fragments).unwrap_or(0))
    }

    /// What this subscriber received so far.
    pub fn stats(&self) -> &ReceiveStats {
        &self.stats
    }

    /// The error of the first message the handler refused, if any.
    pub fn first_bad(&self) -> Option<&wiremsg::Error> {
        self.first_bad.as_ref()
    }

    /// True once at least one publication is connected (an image is available).
    pub fn is_connected(&self) -> bool {
        self.subscription.is_connected()
    }

    /// The Aeron subscription.
    pub fn subscription(&self) -> &AeronSubscription {
        &self.subscription
    }
}
