//! `login`: R1 `LoginRequest` (`benches/reference.md`), the model's sample.
//!
//! Two short strings and an absent optional one: the smallest variable-size
//! message. It has no fixed-size field, so `update` (and `update_unchecked`)
//! is n/a for every format, and one message of strings has no sparse read
//! (`read_some`, nor `read_some_lazy`). `read_lazy` reads the three strings
//! through the on-demand view.

use super::{CodecVisitor, Dataset, reference_codecs, visit_formats};
use crate::checksum::Fold;
use crate::format::Valid;
use crate::formats::peers_generated::peers as fb;
use crate::model::{ArchivedLoginRequest, LoginRequest, Message};

impl Dataset for LoginRequest {
    const NAME: &'static str = "login";
    const LEN: usize = 1;

    fn generate(_len: usize) -> Self {
        <Self as Message>::sample()
    }

    fn checksum(&self) -> u64 {
        <Self as Message>::checksum(self)
    }

    fn apply_update(&mut self, _round: u64) {}

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor);
    }
}

/// `read_lazy`: the fold of `read` (`FoldView for LoginRequest`), every string
/// checked as it is read.
#[inline]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let m = <LoginRequest as wiremsg::WireMsg>::view_lazy(bytes)?;
    let mut f = Fold::new();
    f.str(m.username()?);
    f.str(m.password()?);
    f.opt_str(m.mfa_token()?);
    Ok(f.finish())
}

reference_codecs!(
    LoginRequest,
    ArchivedLoginRequest,
    fb::LoginRequest<'_>,
    read_lazy: read_lazy_wiremsg,
);
