//! Branch-free scans of byte runs, for the checks that most often meet a few bytes
//! (a list of flags, a short name): no loop over single bytes, no branch on their
//! values, so the cost is a handful of loads whatever the bytes hold.

/// True if no byte of `bytes` has a bit outside `bits`: the bytes ORed together a
/// word at a time, short lists by two overlapping loads, with no loop over bytes and
/// no branch on their values (most such lists are a few flags).
#[inline]
pub(crate) fn bytes_within(bytes: &[u8], bits: u8) -> bool {
    let len = bytes.len();
    let seen = if len >= 8 {
        let mut words = bytes.chunks_exact(8);
        let mut seen = 0u64;
        for word in &mut words {
            seen |= u64::from_ne_bytes(word.try_into().unwrap_or([0; 8]));
        }
        // The last eight bytes again cover the remainder.
        seen | u64::from_ne_bytes(bytes[len - 8..].try_into().unwrap_or([0; 8]))
    } else if len >= 4 {
        let first = u32::from_ne_bytes(bytes[..4].try_into().unwrap_or([0; 4]));
        let last = u32::from_ne_bytes(bytes[len - 4..].try_into().unwrap_or([0; 4]));
        u64::from(first | last)
    } else if len > 0 {
        u64::from(bytes[0] | bytes[len / 2] | bytes[len - 1])
    } else {
        0
    };
    seen & u64::from_ne_bytes([!bits; 8]) == 0
}

#[cfg(test)]
mod tests {
    use super::bytes_within;
    use alloc::vec;

    #[test]
    fn every_length_and_position_is_seen() {
        for len in 0..=70 {
            let zeros = vec![0u8; len];
            assert!(bytes_within(&zeros, 0), "{len}");
            for at in 0..len {
                for (byte, bits, within) in [
                    (1, 1, true),
                    (2, 1, false),
                    (0x7f, 0x7f, true),
                    (0x80, 0x7f, false),
                ] {
                    let mut bytes = zeros.clone();
                    bytes[at] = byte;
                    assert_eq!(bytes_within(&bytes, bits), within, "{len} {at} {byte:#x}");
                }
            }
        }
    }
}
