//! Branch-free scans of byte runs, for the checks that most often meet a few bytes
//! (a list of flags, a short name): no loop over single bytes, no branch on their
//! values, so the cost is a handful of loads whatever the bytes hold.

/// True if no byte of `bytes` has a bit outside `bits`: the bytes ORed together 16
/// at a time (two SSE2 loads on x86-64), the remainder and short runs by two
/// overlapping loads, with no loop over bytes and no branch on their values (most
/// such runs are a few flags or a short name).
#[inline]
pub(crate) fn bytes_within(bytes: &[u8], bits: u8) -> bool {
    let len = bytes.len();
    let seen = if len >= 16 {
        let mut chunks = bytes.chunks_exact(16);
        let mut seen = 0u128;
        for chunk in &mut chunks {
            seen |= u128::from_ne_bytes(chunk.try_into().unwrap_or([0; 16]));
        }
        // The last sixteen bytes again cover the remainder.
        seen |= u128::from_ne_bytes(bytes[len - 16..].try_into().unwrap_or([0; 16]));
        (seen as u64) | ((seen >> 64) as u64)
    } else if len >= 8 {
        let first = u64::from_ne_bytes(bytes[..8].try_into().unwrap_or([0; 8]));
        first | u64::from_ne_bytes(bytes[len - 8..].try_into().unwrap_or([0; 8]))
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

/// [`bytes_within`] of the last `len` bytes of `window` (`len` at most 16): one load,
/// the bytes before them masked off, with no branch on `len`.
#[inline(always)]
pub(crate) fn last_within(window: &[u8; 16], len: usize, bits: u8) -> bool {
    // Little-endian, so that byte `i` is bits `8 i..8 i + 8` on every host.
    let word = u128::from_le_bytes(*window);
    let keep = u128::MAX
        .checked_shl(8 * 16usize.saturating_sub(len) as u32)
        .unwrap_or(0);
    word & keep & u128::from_ne_bytes([!bits; 16]) == 0
}

#[cfg(test)]
mod tests {
    use super::{bytes_within, last_within};

    #[test]
    fn only_the_last_len_bytes_of_the_window_count() {
        for len in 0..=16 {
            let mut window = [0xFFu8; 16];
            window[16 - len..].fill(1);
            assert!(last_within(&window, len, 1), "{len}");
            for at in 16 - len..16 {
                let mut bad = window;
                bad[at] = 2;
                assert!(!last_within(&bad, len, 1), "{len} {at}");
            }
        }
    }
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
