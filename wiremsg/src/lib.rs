//! wiremsg
