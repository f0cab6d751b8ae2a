//! A process's place on Aeron: a media driver (embedded, or one already running) and
//! a client connected to it.
//!
//! An Aeron client talks to a media driver through shared memory in the driver's
//! directory. [`Node::embedded`] starts a driver on a thread of this process, in a
//! fresh directory under the system's temp dir that the driver deletes when it stops,
//! so nothing has to be started by hand; [`Node::connect`] joins a driver that runs
//! elsewhere on the host (standalone, or embedded in another process: that is how the
//! examples' processes share one driver for `aeron:ipc`, which is shared memory of one
//! driver).

use crate::Error;
use crate::publisher::WirePublisher;
use crate::subscriber::WireSubscriber;
use rusteron_client::{Aeron, AeronContext, Handlers, IntoCString};
use rusteron_media_driver::bindings::aeron_threading_mode_enum;
use rusteron_media_driver::{AeronDriver, AeronDriverContext, EmbeddedMediaDriver};
use std::path::PathBuf;
use std::time::Duration;

/// How long adding a publication or subscription may take (the driver answers in
/// milliseconds; the slack is for a loaded machine).
pub const ADD_TIMEOUT: Duration = Duration::from_secs(10);

/// A media driver (when embedded) and a client of it.
///
/// Drop the publishers and subscribers made from a node before the node: the client
/// closes first, then the embedded driver stops and deletes its directory.
///
/// # Examples
///
/// ```no_run
/// use wiremsg_aeron::Node;
///
/// let node = Node::embedded("doc")?;
/// let mut publisher = node.publisher("aeron:ipc", 1)?;
/// let mut subscriber = node.subscriber("aeron:ipc", 1)?;
/// # let _ = (&mut publisher, &mut subscriber);
/// # Ok::<(), wiremsg_aeron::Error>(())
/// ```
pub struct Node {
    // Field order is drop order: the client closes before the driver stops.
    aeron: Aeron,
    driver: Option<EmbeddedMediaDriver>,
    dir: String,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("dir", &self.dir)
            .field("embedded", &self.driver.is_some())
            .finish()
    }
}

/// A fresh Aeron directory under the system's temp dir: `wiremsg-aeron-<label>-<pid>-<ns>`.
pub fn temp_aeron_dir(label: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    std::env::temp_dir().join(format!(
        "wiremsg-aeron-{label}-{}-{nanos}",
        std::process::id()
    ))
}

fn driver_error(e: impl std::fmt::Debug) -> Error {
    Error::Aeron(format!("media driver: {e:?}"))
}

impl Node {
    /// Starts a media driver on a thread of this process, in a fresh directory under
    /// the temp dir ([`temp_aeron_dir`]), and connects a client to it.
    ///
    /// The driver runs its agents as one thread (Aeron's `SHARED` threading mode):
    /// the examples start several drivers on a small machine.
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the driver or the client cannot start.
    pub fn embedded(label: &str) -> Result<Node, Error> {
        let dir = temp_aeron_dir(label).to_string_lossy().into_owned();
        let context = AeronDriverContext::new().map_err(driver_error)?;
        context
            .set_dir(&dir.as_str().into_c_string())
            .map_err(driver_error)?;
        context
            .set_dir_delete_on_start(true)
            .map_err(driver_error)?;
        context
            .set_dir_delete_on_shutdown(true)
            .map_err(driver_error)?;
        context
            .set_threading_mode(aeron_threading_mode_enum::AERON_THREADING_MODE_SHARED)
            .map_err(driver_error)?;
        let driver = AeronDriver::launch_embedded_guard(context, false);
        let aeron = Self::client(&dir)?;
        Ok(Node {
            aeron,
            driver: Some(driver),
            dir,
        })
    }

    /// Connects a client to the media driver whose directory is `dir` (a standalone
    /// driver, or another process's embedded one).
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if no driver answers in `dir`.
    pub fn connect(dir: &str) -> Result<Node, Error> {
        Ok(Node {
            aeron: Self::client(dir)?,
            driver: None,
            dir: dir.to_string(),
        })
    }

    fn client(dir: &str) -> Result<Aeron, Error> {
        let context = AeronContext::new()?;
        context.set_dir(&dir.into_c_string())?;
        context.set_error_handler(Some(|code: i32, message: &str| {
            eprintln!("aeron client error {code}: {message}");
        }))?;
        let aeron = Aeron::new(&context)?;
        aeron.start()?;
        Ok(aeron)
    }

    /// The driver's directory.
    pub fn dir(&self) -> &str {
        &self.dir
    }

    /// True if this node started its own driver.
    pub fn is_embedded(&self) -> bool {
        self.driver.is_some()
    }

    /// The Aeron client.
    pub fn aeron(&self) -> &Aeron {
        &self.aeron
    }

    /// An exclusive publication (one writing thread) on `channel` and `stream`, as a
    /// [`WirePublisher`].
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the driver refuses the channel or does not answer within
    /// [`ADD_TIMEOUT`].
    pub fn publisher(&self, channel: &str, stream: i32) -> Result<WirePublisher, Error> {
        let publication = self
            .aeron
            .async_add_exclusive_publication(&channel.into_c_string(), stream)?
            .poll_blocking(ADD_TIMEOUT)
            .map_err(|e| Error::Aeron(format!("publication {channel} stream {stream}: {e:?}")))?;
        WirePublisher::new(publication)
    }

    /// A subscription on `channel` and `stream`, as a [`WireSubscriber`].
    ///
    /// # Errors
    ///
    /// [`Error::Aeron`] if the driver refuses the channel or does not answer within
    /// [`ADD_TIMEOUT`].
    pub fn subscriber(&self, channel: &str, stream: i32) -> Result<WireSubscriber, Error> {
        let subscription = self
            .aeron
            .async_add_subscription(
                &channel.into_c_string(),
                stream,
                Handlers::NONE,
                Handlers::NONE,
            )?
            .poll_blocking(ADD_TIMEOUT)
            .map_err(|e| Error::Aeron(format!("subscription {channel} stream {stream}: {e:?}")))?;
        WireSubscriber::new(subscription)
    }
}
