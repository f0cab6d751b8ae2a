//! Bytes built by hand from FORMAT.md, for values the encoder refuses to write
//! (nesting past the depth limit, which hostile writers do not respect).
#![allow(dead_code)]

/// A part of a message's block, in field order: fixed-size bytes, or a field whose
/// data is in the tail (its slot in the block is the end offset of `data`).
pub(crate) enum Part<'a> {
    Fixed(&'a [u8]),
    Tail(&'a [u8]),
}

/// A message with a tail (FORMAT.md §3): the `u16` block length, the block (each
/// tail field's slot its end offset, from the message's start), then the tail.
pub(crate) fn message(parts: &[Part<'_>]) -> Vec<u8> {
    let block = 2 + parts
        .iter()
        .map(|p| match p {
            Part::Fixed(bytes) => bytes.len(),
            Part::Tail(_) => 4,
        })
        .sum::<usize>();
    let mut out = Vec::from((block as u16).to_le_bytes());
    let mut end = block;
    for part in parts {
        match part {
            Part::Fixed(bytes) => out.extend_from_slice(bytes),
            Part::Tail(data) => {
                end += data.len();
                out.extend((end as u32).to_le_bytes());
            }
        }
    }
    for part in parts {
        if let Part::Tail(data) = part {
            out.extend_from_slice(data);
        }
    }
    out
}

/// A split list (FORMAT.md §6.3) of the given messages or tuples with a tail, each
/// given as its own encoding (block length, block, tail): every element's tail start
/// and block at the stride, then the tails. An element's end offsets need no change:
/// they count from its tail start minus its block length, as if the block were
/// right before the tail.
pub(crate) fn split(elements: &[&[u8]]) -> Vec<u8> {
    let block_of = |e: &[u8]| usize::from(u16::from_le_bytes([e[0], e[1]]));
    let block = elements.first().map_or(0, |e| block_of(e));
    let mut out = Vec::new();
    let mut start = (4 + block) * elements.len();
    for element in elements {
        assert_eq!(
            block_of(element),
            block,
            "a split list's elements share a block length"
        );
        out.extend((start as u32).to_le_bytes());
        out.extend_from_slice(&element[..block]);
        start += element.len() - block;
    }
    for element in elements {
        out.extend_from_slice(&element[block..]);
    }
    out
}

/// A table list (FORMAT.md §6.4) of the given elements' bytes.
pub(crate) fn table(elements: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut start = 4 * elements.len();
    for element in elements {
        out.extend((start as u32).to_le_bytes());
        start += element.len();
    }
    for element in elements {
        out.extend_from_slice(element);
    }
    out
}

/// A union (FORMAT.md §4.10): a `u8` tag, then the payload.
pub(crate) fn union(tag: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend_from_slice(payload);
    out
}
