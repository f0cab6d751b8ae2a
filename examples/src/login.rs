//! The `login` example: reference.md R1, LoginRequest and LoginResponse.
//!
//! A client encodes the request with its header, the server views it in place and
//! answers, and the client views the answer. Both messages are printed byte by byte,
//! annotated from the schema descriptor, and the request's size is set next to JSON
//! (serde_json, compact) and Protobuf (the proto3 wire format, written out by hand
//! below: `benches` measures the same 31 bytes with prost).

use crate::annotate::{annotate_with_header, render};
use std::fmt;
use wiremsg::{Template, WireEnum, WireMsg};

/// The login request of R1.
#[derive(WireMsg, Debug, Clone, PartialEq, Eq)]
#[wire(template_id = 1, schema_id = 3)]
pub struct LoginRequest {
    /// Account name.
    pub username: String,
    /// Password (sent in the clear in R1's sample, as in the article).
    pub password: String,
    /// One-time code, when the account has one.
    pub mfa_token: Option<String>,
}

/// The outcome of a login.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum LoginStatus {
    /// Logged in.
    Success = 0,
    /// Unknown user or wrong password.
    InvalidCredentials = 1,
    /// The account needs a one-time code.
    MfaRequired = 2,
    /// Too many failures.
    AccountLocked = 3,
}

/// The login response of R1.
#[derive(WireMsg, Debug, Clone, PartialEq, Eq)]
#[wire(template_id = 2, schema_id = 3)]
pub struct LoginResponse {
    /// Outcome.
    pub status: LoginStatus,
    /// Session token (empty unless `Success`).
    pub access_token: String,
    /// When the token expires, Unix seconds.
    pub expires_at: i64,
    /// Why the login failed (empty on success).
    pub error_message: String,
}

/// R1's sample request.
pub fn sample_request() -> LoginRequest {
    LoginRequest {
        username: "hpn_user".into(),
        password: "secure_password_123".into(),
        mfa_token: None,
    }
}

/// The server's side: checks the request in place, without decoding it.
pub fn answer(request: &[u8]) -> Result<LoginResponse, wiremsg::Error> {
    let (_, view) = LoginRequest::view_with_header(request)?;
    let known = view.username() == "hpn_user" && view.password() == "secure_password_123";
    Ok(if !known {
        LoginResponse {
            status: LoginStatus::InvalidCredentials,
            access_token: String::new(),
            expires_at: 0,
            error_message: "unknown user or wrong password".into(),
        }
    } else {
        LoginResponse {
            status: LoginStatus::Success,
            access_token: "tok_5f2c9a1e7b".into(),
            expires_at: 1_764_003_600,
            error_message: String::new(),
        }
    })
}

/// Appends a varint (Protobuf base-128, little-endian groups of 7 bits).
fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// The proto3 encoding of the request (`string username = 1; string password = 2;
/// optional string mfa_token = 3;`): each present field is a tag byte, a length
/// varint and the UTF-8 bytes.
pub fn protobuf_request(request: &LoginRequest) -> Vec<u8> {
    let mut out = Vec::new();
    let fields = [
        (1, Some(&request.username)),
        (2, Some(&request.password)),
        (3, request.mfa_token.as_ref()),
    ];
    for (number, value) in fields {
        // proto3 omits empty strings (but sends an `optional` one that is set).
        if let Some(value) = value.filter(|v| number == 3 || !v.is_empty()) {
            varint(&mut out, (number << 3) | 2);
            varint(&mut out, value.len() as u64);
            out.extend_from_slice(value.as_bytes());
        }
    }
    out
}

/// Compact JSON of the request, in field order, as serde would write the struct
/// (`mfa_token` skipped when absent, as in the article's sample); serde_json writes
/// and escapes each string.
pub fn json_request(request: &LoginRequest) -> String {
    let string = |s: &str| serde_json::Value::from(s).to_string();
    let mut json = format!(
        "{{\"username\":{},\"password\":{}",
        string(&request.username),
        string(&request.password)
    );
    if let Some(token) = &request.mfa_token {
        json.push_str(&format!(",\"mfa_token\":{}", string(token)));
    }
    json.push('}');
    json
}

/// What one login exchange produced.
#[derive(Debug, Clone)]
pub struct Login {
    /// Header and request, as sent.
    pub request: Vec<u8>,
    /// Header and response, as sent.
    pub response: Vec<u8>,
    /// The request's compact JSON.
    pub json: String,
    /// The request's Protobuf bytes.
    pub protobuf: Vec<u8>,
}

/// Runs the exchange.
///
/// # Errors
///
/// Any encoding or validation error (none with the sample).
pub fn run() -> Result<Login, wiremsg::Error> {
    let sample = sample_request();
    let mut request = Vec::new();
    sample.encode_with_header(&mut request)?;
    let mut response = Vec::new();
    answer(&request)?.encode_with_header(&mut response)?;
    // The client reads the answer in place.
    let (_, view) = LoginResponse::view_with_header(&response)?;
    debug_assert_eq!(view.status(), LoginStatus::Success);
    Ok(Login {
        request,
        response,
        json: json_request(&sample),
        protobuf: protobuf_request(&sample),
    })
}

impl Login {
    /// Bytes of the request message without its header.
    pub fn request_len(&self) -> usize {
        self.request.len() - wiremsg::MessageHeader::LEN
    }
}

impl fmt::Display for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (_, request) = LoginRequest::view_with_header(&self.request).map_err(|_| fmt::Error)?;
        let (_, response) =
            LoginResponse::view_with_header(&self.response).map_err(|_| fmt::Error)?;
        writeln!(
            f,
            "LoginRequest: {} bytes + 8-byte header ({} fields, block length {})",
            self.request_len(),
            LoginRequest::SCHEMA.fields.len(),
            LoginRequest::BLOCK_LENGTH
        )?;
        writeln!(f, "  {:>4}  {:<48} {:<22} meaning", "off", "hex", "field")?;
        write!(
            f,
            "{}",
            render(
                &annotate_with_header(LoginRequest::SCHEMA, &self.request),
                &self.request
            )
        )?;
        writeln!(
            f,
            "server viewed it in place: username {:?}, password of {} bytes, mfa_token {:?}",
            request.username(),
            request.password().len(),
            request.mfa_token()
        )?;
        writeln!(
            f,
            "\nLoginResponse: {} bytes + 8-byte header",
            self.response.len() - wiremsg::MessageHeader::LEN
        )?;
        writeln!(f, "  {:>4}  {:<48} {:<22} meaning", "off", "hex", "field")?;
        write!(
            f,
            "{}",
            render(
                &annotate_with_header(LoginResponse::SCHEMA, &self.response),
                &self.response
            )
        )?;
        writeln!(
            f,
            "client viewed it in place: {:?}, token {:?}, expires at {}",
            response.status(),
            response.access_token(),
            response.expires_at()
        )?;
        writeln!(f, "\nsize of the request:")?;
        writeln!(
            f,
            "  wiremsg   {:>3} B  (+8 with the header)",
            self.request_len()
        )?;
        writeln!(f, "  JSON      {:>3} B  {}", self.json.len(), self.json)?;
        writeln!(
            f,
            "  Protobuf  {:>3} B  {}",
            self.protobuf.len(),
            crate::annotate::hex(&self.protobuf)
        )?;
        write!(
            f,
            "  (the article published JSON 54 B and Protobuf 35 B; these two fields cannot \
             encode to those sizes. JSON by serde_json, Protobuf's proto3 bytes written \
             here by hand; the benches measure the same 56 and 31 with serde_json and prost.)"
        )
    }
}
