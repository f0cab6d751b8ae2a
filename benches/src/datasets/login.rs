//! `login`: R1 `LoginRequest` (`benches/reference.md`), the model's sample.
//!
//! Two short strings and an absent optional one: the smallest variable-size
//! message. It has no fixed-size field, so `update` (and `update_unchecked`)
//! is n/a for every format, and one message of strings has no sparse read
//! (`read_some`, nor `read_some_lazy`). `read_lazy` reads the three strings
//! through the on-demand view.

use super::{Codec, CodecVisitor, Dataset, ids, reference_codecs, visit_formats};
use crate::checksum::Fold;
use crate::format::Valid;
use crate::formats::capnp::{Capnp, capnp_methods, message as capnp_message, text};
use crate::formats::peers_capnp as pc;
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

/// capnp's `read`: the three texts, each pointer and its UTF-8 checked as it
/// is read (`mfa_token` absent: a null pointer).
#[inline]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let m = message.get_root::<pc::login_request::Reader<'_>>()?;
    let mut f = Fold::new();
    f.str(text(m.get_username()?)?);
    f.str(text(m.get_password()?)?);
    f.opt_str(if m.has_mfa_token() {
        Some(text(m.get_mfa_token()?)?)
    } else {
        None
    });
    Ok(f.finish())
}

impl Codec<LoginRequest> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &LoginRequest) -> &[u8] {
        self.encode_root::<pc::login_request::Owned>(|mut root| {
            root.set_username(&data.username);
            root.set_password(&data.password);
            if let Some(token) = &data.mfa_token {
                root.set_mfa_token(token);
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> LoginRequest {
        let decode = || -> capnp::Result<LoginRequest> {
            let message = capnp_message(bytes)?;
            let m = message.get_root::<pc::login_request::Reader<'_>>()?;
            Ok(LoginRequest {
                username: text(m.get_username()?)?.to_owned(),
                password: text(m.get_password()?)?.to_owned(),
                mfa_token: if m.has_mfa_token() {
                    Some(text(m.get_mfa_token()?)?.to_owned())
                } else {
                    None
                },
            })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::login_request::Reader<'_>, read: read_capnp);
}

reference_codecs!(
    LoginRequest,
    ArchivedLoginRequest,
    fb::LoginRequest<'_>,
    read_lazy: read_lazy_wiremsg,
);
