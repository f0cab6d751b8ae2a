//! Publishing wiremsg messages on an Aeron publication without a copy.
//!
//! A message whose encoded length (with its 8-byte [`MessageHeader`](wiremsg::MessageHeader))
//! fits one frame is written straight into the publication's term buffer:
//! `try_claim` a slot of exactly that length, `encode_with_header_into` the claimed
//! slice, commit. Aeron's claim limit is one frame's payload (the MTU less Aeron's
//! 32-byte data header, [`WirePublisher::max_claim`]); a longer message is encoded
//! into one reused buffer and `offer`ed, and Aeron fragments it (up to
//! [`WirePublisher::max_message`]; a subscriber reassembles it, see
//! [`WireSubscriber`](crate::WireSubscriber)).
//!
//! A publication that cannot take a message now says why: back-pressure (the
//! subscribers or the term buffer are full), not connected (no subscriber yet), or an
//! admin action (a term rotation). Each is counted in [`PublishStats`], and the
//! publisher idles (Aeron's back-off strategy: spin, yield, then park from 1 µs to
//! 1 ms) and tries again, until [`WirePublisher::set_timeout`]'s deadline.

use crate::Error;
use rusteron_client::{
    Aeron, AeronExclusivePublication, AeronOfferError, BackoffIdleStrategy, IdleStrategy,
};
use std::time::{Duration, Instant};
use wiremsg::Template;

/// What a [`WirePublisher`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PublishStats {
    /// Messages published.
    pub messages: u64,
    /// Bytes published (headers and messages; not Aeron's frame headers).
    pub bytes: u64,
    /// Messages written in place into a claimed slot.
    pub claimed: u64,
    /// Messages longer than a claim, encoded into the reused buffer and offered.
    pub offered: u64,
    /// Attempts refused by back-pressure.
    pub back_pressured: u64,
    /// Attempts refused because no subscriber was connected.
    pub not_connected: u64,
    /// Attempts refused by an admin action (term rotation).
    pub admin_action: u64,
}

impl PublishStats {
    /// All refused attempts.
    pub fn refused(&self) -> u64 {
        self.back_pressured + self.not_connected + self.admin_action
    }
}

/// How often the retry loop reads the clock to check its deadline.
const CLOCK_EVERY: u32 = 256;

/// Publishes wiremsg messages, each with its header, on one exclusive publication.
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
/// let mut publisher = node.publisher("aeron:ipc", 7)?;
/// publisher.wait_connected()?;
/// publisher.send(&Tick { price: 2_345_600, size: 300 })?; // claimed, encoded in place
/// # let _ = &mut subscriber;
/// # Ok::<(), wiremsg_aeron::Error>(())
/// ```
pub struct WirePublisher<I: IdleStrategy = BackoffIdleStrategy> {
    publication: AeronExclusivePublication,
    /// Bytes of the offer fallback's encoding; grows to the longest message once.
    scratch: Vec<u8>,
    idle: I,
    timeout: Duration,
    stats: PublishStats,
    max_claim: usize,
    max_message: usize,
    /// `channel` stream `id`, for errors.
    name: String,
}

impl<I: IdleStrategy> std::fmt::Debug for WirePublisher<I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WirePublisher")
            .field("max_claim", &self.max_claim())
            .field("timeout", &self.timeout)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

impl WirePublisher {
    /// A publisher on `publication` with Aeron's back-off idle strategy and a
    /// 10-second deadline per message.
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the publication's constants cannot be read (it is closed).
    pub fn new(publication: AeronExclusivePublication) -> Result<Self, Error> {
        WirePublisher::with_idle(publication, BackoffIdleStrategy::new())
    }
}

impl<I: IdleStrategy> WirePublisher<I> {
    /// A publisher on `publication` that idles with `idle` between refused attempts.
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the publication's constants cannot be read (it is closed).
    pub fn with_idle(publication: AeronExclusivePublication, idle: I) -> Result<Self, Error> {
        let constants = publication.get_constants()?;
        Ok(WirePublisher {
            scratch: Vec::new(),
            idle,
            timeout: Duration::from_secs(10),
            stats: PublishStats::default(),
            max_claim: constants.max_payload_length(),
            max_message: constants.max_message_length(),
            name: format!("{} stream {}", constants.channel(), constants.stream_id()),
            publication,
        })
    }

    /// How long one message may be refused (back-pressure, no subscriber) before
    /// [`send`](Self::send) gives up with [`Error::Timeout`].
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The longest message, header included, that is written in place (one frame's
    /// payload: the MTU less Aeron's 32-byte data header; 1,376 bytes at the default
    /// 1,408-byte MTU).
    pub fn max_claim(&self) -> usize {
        self.max_claim
    }

    /// The longest message, header included, the publication takes (an eighth of the
    /// term length, at most 16 MiB).
    pub fn max_message(&self) -> usize {
        self.max_message
    }

    /// What this publisher did so far.
    pub fn stats(&self) -> &PublishStats {
        &self.stats
    }

    /// True once a subscriber is connected.
    pub fn is_connected(&self) -> bool {
        self.publication.is_connected()
    }

    /// The Aeron publication.
    pub fn publication(&self) -> &AeronExclusivePublication {
        &self.publication
    }

    /// Waits until a subscriber is connected.
    ///
    /// # Errors
    ///
    /// [`Error::Timeout`] after the publisher's timeout.
    pub fn wait_connected(&mut self) -> Result<(), Error> {
        let deadline = Instant::now() + self.timeout;
        while !self.publication.is_connected() {
            if Instant::now() > deadline {
                return Err(Error::Timeout(format!(
                    "no subscriber connected to {} in {:?}",
                    self.name, self.timeout
                )));
            }
            self.idle.idle(0);
        }
        self.idle.reset();
        Ok(())
    }

    /// Publishes `message` with its header; returns the stream position after it.
    ///
    /// # Errors
    ///
    /// [`Error::Wire`] if the message cannot be encoded (it is then not published);
    /// [`Error::Timeout`] if the publication refused it for the whole timeout;
    /// [`Error::Offer`] if the publication is closed, its maximum position was
    /// reached, or the message is longer than [`max_message`](Self::max_message).
    #[inline]
    pub fn send<T: Template>(&mut self, message: &T) -> Result<i64, Error> {
        self.send_with(message.encoded_len_with_header(), None, |out| {
            message.encode_with_header_into(out)
        })
    }

    /// Publishes the `len` bytes that `encode` writes (a message with its header, of
    /// exactly that length: `encoded_len_with_header`), and stamps `reserved_value`
    /// (for example a send time, [`Aeron::nano_clock`]) into Aeron's frame header,
    /// where a subscriber reads it with `AeronHeader::reserved_value`. Without
    /// `reserved_value`, a claimed message is stamped with the clock at commit; an
    /// offered one is not stamped.
    ///
    /// `encode` writes into the claimed slot (or the fallback buffer) and is called
    /// once.
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send); [`Error::Offer`] also if `encode` wrote fewer bytes
    /// than `len` (a claim is then aborted, and subscribers skip it as padding).
    pub fn send_with(
        &mut self,
        len: usize,
        reserved_value: Option<i64>,
        encode: impl FnOnce(&mut [u8]) -> Result<usize, wiremsg::Error>,
    ) -> Result<i64, Error> {
        let position = if len <= self.max_claim() {
            let mut claim = self.retry(|publication| publication.try_claim_owned(len))?;
            let written = encode(claim.data())?; // an error drops the claim: aborted
            if written != len {
                return Err(short_write(len, written));
            }
            claim.set_reserved_value(reserved_value.unwrap_or_else(Aeron::nano_clock));
            self.stats.claimed += 1;
            claim.commit()?
        } else {
            if len > self.max_message() {
                return Err(Error::Offer(format!(
                    "{len} bytes is longer than the publication's {}-byte maximum message",
                    self.max_message()
                )));
            }
            let mut scratch = std::mem::take(&mut self.scratch);
            scratch.resize(len, 0);
            let written = encode(&mut scratch);
            let result = match written {
                Ok(written) if written == len => {
                    self.retry(|publication| publication.offer(&scratch))
                }
                Ok(written) => Err(short_write(len, written)),
                Err(e) => Err(Error::Wire(e)),
            };
            self.scratch = scratch;
            self.stats.offered += 1;
            result?
        };
        self.stats.messages += 1;
        self.stats.bytes += len as u64;
        Ok(position)
    }

    /// Calls `attempt` until it succeeds, counting and idling on each refusal.
    #[inline]
    fn retry<R>(
        &mut self,
        mut attempt: impl FnMut(&AeronExclusivePublication) -> Result<R, AeronOfferError>,
    ) -> Result<R, Error> {
        let mut tries = 0u32;
        let mut deadline = None;
        loop {
            match attempt(&self.publication) {
                Ok(done) => {
                    if tries > 0 {
                        self.idle.reset();
                    }
                    return Ok(done);
                }
                Err(refused) => {
                    match refused {
                        AeronOfferError::BackPressured => self.stats.back_pressured += 1,
                        AeronOfferError::NotConnected => self.stats.not_connected += 1,
                        AeronOfferError::AdminAction => self.stats.admin_action += 1,
                        fatal => return Err(Error::Offer(format!("{fatal:?}"))),
                    }
                    if tries.is_multiple_of(CLOCK_EVERY) {
                        let now = Instant::now();
                        let deadline = *deadline.get_or_insert(now + self.timeout);
                        if now > deadline {
                            return Err(Error::Timeout(format!(
                                "{} refused a message for {:?} (last: {refused:?})",
                                self.name, self.timeout
                            )));
                        }
                    }
                    tries = tries.wrapping_add(1);
                    self.idle.idle(0);
                }
            }
        }
    }
}

#[cold]
fn short_write(len: usize, written: usize) -> Error {
    Error::Offer(format!(
        "the encoder wrote {written} bytes of the {len} announced (not published)"
    ))
}
