//! Little-endian reads and writes of the format's own `u16`/`u32` fields (block
//! lengths, end offsets, strides, counts). Out-of-range positions read `None` and
//! write nothing: callers check ranges once, up front.

#[inline(always)]
pub(crate) fn read_u16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..)?.first_chunk::<2>()?;
    Some(u16::from_le_bytes(*b))
}

#[inline(always)]
pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..)?.first_chunk::<4>()?;
    Some(u32::from_le_bytes(*b))
}

#[inline(always)]
pub(crate) fn write_u16(bytes: &mut [u8], at: usize, value: u16) {
    if let Some(b) = bytes.get_mut(at..).and_then(|b| b.first_chunk_mut::<2>()) {
        *b = value.to_le_bytes();
    }
}

#[inline(always)]
pub(crate) fn write_u32(bytes: &mut [u8], at: usize, value: u32) {
    if let Some(b) = bytes.get_mut(at..).and_then(|b| b.first_chunk_mut::<4>()) {
        *b = value.to_le_bytes();
    }
}
