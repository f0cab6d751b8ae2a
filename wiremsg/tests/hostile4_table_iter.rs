//! Hostile tests of `LazyList` iteration over table lists (FORMAT.md §6.4), which
//! passes each entry it read on to the next element (`LazyListIter::next`,
//! `LazyList::table_element`): every element an iteration reads is what `get(i)`
//! reads (the value, or the same error: kind, offset, path), whatever the entries
//! (backwards, equal, past the end, `u32::MAX`), after an earlier element's error,
//! through `skip`, `nth`, `zip`, `take` and iterations resumed part way; and the
//! first element whose read (checked whole) fails fails with `view`'s error.

use std::collections::BTreeMap;
use wiremsg::{Error, WireMsg, WireUnion};

type Key = (String, usize, String);

fn key(e: &Error) -> Key {
    (format!("{:?}", e.kind()), e.offset(), e.path())
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Fx {
    a: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Tx {
    s: String,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum U {
    F(Fx) = b'F',
    T(Tx) = b'T',
    N = b'N',
}

/// Every kind of table list, and a last field after them.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Lists {
    us: Vec<U>,
    ss: Vec<String>,
    bs: Vec<Vec<u8>>,
    ls: Vec<Vec<String>>,
    ms: Vec<BTreeMap<u8, String>>,
    last: String,
}

fn sample() -> Lists {
    Lists {
        us: vec![
            U::N,
            U::F(Fx { a: 1 }),
            U::T(Tx { s: "t".into() }),
            U::N,
            U::T(Tx { s: "".into() }),
        ],
        ss: vec!["a".into(), "".into(), "ccc".into(), "dd".into()],
        bs: vec![vec![1, 2], vec![], vec![3]],
        ls: vec![vec!["x".into()], vec![], vec!["y".into(), "zz".into()]],
        ms: vec![
            [(1, "one".into())].into_iter().collect(),
            BTreeMap::new(),
            [(2, "b".into()), (9, "c".into())].into_iter().collect(),
        ],
        last: "end".into(),
    }
}

/// An element read checked whole, as a comparable value.
trait Whole<'v>: Sized {
    fn whole(self) -> Result<String, Error>;
}

impl<'v> Whole<'v> for ULazy<'v> {
    fn whole(self) -> Result<String, Error> {
        Ok(match self {
            ULazy::F(f) => format!("F({})", f.a()?),
            ULazy::T(t) => format!("T({:?})", t.s()?),
            ULazy::N => "N".into(),
        })
    }
}

impl<'v> Whole<'v> for &'v str {
    fn whole(self) -> Result<String, Error> {
        Ok(format!("{self:?}"))
    }
}

impl<'v> Whole<'v> for wiremsg::LazyList<'v, u8> {
    fn whole(self) -> Result<String, Error> {
        let v: Vec<u8> = self.iter().collect::<Result<_, _>>()?;
        let view = self.to_view()?;
        assert_eq!(v, view.to_vec());
        Ok(format!("{v:?}"))
    }
}

impl<'v> Whole<'v> for wiremsg::LazyList<'v, String> {
    fn whole(self) -> Result<String, Error> {
        let by_iter = self
            .iter()
            .map(|x| x.map(str::to_owned))
            .collect::<Result<Vec<_>, _>>();
        let by_get = (0..self.len())
            .map(|i| self.get(i).unwrap().map(str::to_owned))
            .collect::<Result<Vec<_>, _>>();
        assert_eq!(
            by_iter.as_ref().map_err(key).cloned(),
            by_get.map_err(|e| key(&e))
        );
        Ok(format!("{:?}", by_iter?))
    }
}

impl<'v> Whole<'v> for wiremsg::LazyMap<'v, u8, String> {
    fn whole(self) -> Result<String, Error> {
        let mut out = Vec::new();
        for e in self.iter() {
            let (k, v) = e?;
            out.push((k, v.to_owned()));
        }
        self.to_view()?;
        Ok(format!("{out:?}"))
    }
}

/// `list`: each element by an iteration and by `get(i)`, alone, the same; `skip`,
/// `nth`, `zip`, `take` and a resumed iteration too. Returns the reads checked whole.
fn agree<'v, T>(list: &wiremsg::LazyList<'v, T>) -> Vec<Result<String, Key>>
where
    T: wiremsg::__private::Element,
    wiremsg::LazyOf<'v, T>: Whole<'v>,
{
    let whole =
        |r: Result<wiremsg::LazyOf<'v, T>, Error>| r.and_then(Whole::whole).map_err(|e| key(&e));
    let by_get: Vec<_> = (0..list.len())
        .map(|i| whole(list.get(i).unwrap()))
        .collect();
    assert!(list.get(list.len()).is_none());
    let by_iter: Vec<_> = list.iter().map(whole).collect();
    assert_eq!(by_iter, by_get);
    assert_eq!(list.iter().len(), list.len());
    for k in 0..=list.len() + 1 {
        let skipped: Vec<_> = list.iter().skip(k).map(whole).collect();
        assert_eq!(skipped, by_get[k.min(by_get.len())..], "skip {k}");
        let nth = list.iter().nth(k).map(whole);
        assert_eq!(nth, by_get.get(k).cloned(), "nth {k}");
        let taken: Vec<_> = list.iter().take(k).map(whole).collect();
        assert_eq!(taken, by_get[..k.min(by_get.len())], "take {k}");
        // Part way, then resumed.
        let mut it = list.iter();
        let first: Vec<_> = it.by_ref().take(k).map(whole).collect();
        assert_eq!(it.len(), list.len() - first.len());
        let rest: Vec<_> = it.map(whole).collect();
        assert_eq!([first, rest].concat(), by_get);
    }
    // Two iterations side by side, one a step ahead.
    let zipped: Vec<_> = list
        .iter()
        .zip(list.iter().skip(1))
        .map(|(a, b)| (whole(a), whole(b)))
        .collect();
    for (i, (a, b)) in zipped.into_iter().enumerate() {
        assert_eq!(a, by_get[i]);
        assert_eq!(b, by_get[i + 1]);
    }
    // `into_iter` and a stepped iteration.
    let stepped: Vec<_> = list.into_iter().step_by(2).map(whole).collect();
    let expected: Vec<_> = by_get.iter().step_by(2).cloned().collect();
    assert_eq!(stepped, expected);
    by_get
}

/// Reads `bytes` on demand field by field, each list through [`agree`], and compares
/// with `view`: the same value, or the first failing read fails with `view`'s error.
fn check(bytes: &[u8]) -> bool {
    let upfront = Lists::view(bytes).map(|_| Lists::decode(bytes).unwrap());
    let lazy = match Lists::view_lazy(bytes) {
        Ok(l) => l,
        Err(e) => {
            assert_eq!(key(&e), key(&upfront.unwrap_err()));
            return false;
        }
    };
    // In field order: the first error of the whole read.
    let mut reads: Vec<Result<String, Key>> = Vec::new();
    let mut push_list = |r: Result<Vec<Result<String, Key>>, Error>| match r {
        Ok(v) => reads.extend(v),
        Err(e) => reads.push(Err(key(&e))),
    };
    push_list(lazy.us().map(|l| agree(&l)));
    push_list(lazy.ss().map(|l| agree(&l)));
    push_list(lazy.bs().map(|l| agree(&l)));
    push_list(lazy.ls().map(|l| agree(&l)));
    push_list(lazy.ms().map(|l| agree(&l)));
    push_list(lazy.last().map(|s| vec![Ok(s.to_owned())]));
    let first_error = reads.iter().find_map(|r| r.clone().err());
    match upfront {
        Ok(value) => {
            assert_eq!(first_error, None, "{bytes:02x?}");
            let got = Lists::view_lazy(bytes).unwrap();
            assert_eq!(got.last().unwrap(), value.last);
            assert_eq!(got.ss().unwrap().len(), value.ss.len());
            true
        }
        Err(e) => {
            assert_eq!(first_error, Some(key(&e)), "{bytes:02x?}");
            false
        }
    }
}

/// Where each list's region starts, from the block: the end offsets.
fn regions(bytes: &[u8]) -> Vec<(usize, usize)> {
    let block = usize::from(u16::from_le_bytes([bytes[0], bytes[1]]));
    let mut start = block;
    let mut out = Vec::new();
    for slot in (2..block).step_by(4) {
        let end = u32::from_le_bytes(bytes[slot..slot + 4].try_into().unwrap()) as usize;
        out.push((start, end));
        start = end;
    }
    out
}

#[test]
fn the_sample_reads_as_view_does() {
    let bytes = sample().to_bytes().unwrap();
    assert!(check(&bytes));
    let l = Lists::view_lazy(&bytes).unwrap();
    let us: Vec<_> = l
        .us()
        .unwrap()
        .iter()
        .map(|u| u.unwrap().whole().unwrap())
        .collect();
    assert_eq!(us, ["N", "F(1)", "T(\"t\")", "N", "T(\"\")"]);
}

/// Every table entry of every list (not the first: that is the count) set to every
/// value around the region's boundaries and its neighbours' entries.
#[test]
fn every_table_entry_set_to_every_hostile_value() {
    let bytes = sample().to_bytes().unwrap();
    let (mut ok, mut err) = (0, 0);
    for (index, (start, end)) in regions(&bytes).into_iter().enumerate().take(5) {
        let first = u32::from_le_bytes(bytes[start..start + 4].try_into().unwrap()) as usize;
        let count = first / 4;
        let len = end - start;
        for entry in 0..count {
            let at = start + 4 * entry;
            let mut values: Vec<u32> = (0..=len as u32 + 2).collect();
            values.extend([u32::MAX, u32::MAX - 1, 0x8000_0000, 0x1_0000]);
            for v in values {
                let mut b = bytes.clone();
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                if check(&b) {
                    ok += 1;
                } else {
                    err += 1;
                }
            }
        }
        assert!(count > 0, "list {index}");
    }
    assert!(ok > 5 && err > 100, "{ok} {err}");
}

/// Two entries changed at once: an error in an earlier element, then one the
/// iteration reaches with the entry it passed on.
#[test]
fn pairs_of_entries_changed() {
    let bytes = sample().to_bytes().unwrap();
    let (start, end) = regions(&bytes)[0];
    let len = end - start;
    let count = 5;
    for i in 1..count {
        for j in i + 1..count {
            for vi in [
                0u32,
                4,
                19,
                20,
                21,
                25,
                len as u32,
                len as u32 + 1,
                u32::MAX,
            ] {
                for vj in [0u32, 20, 21, 22, 23, 26, len as u32, len as u32 + 1] {
                    let mut b = bytes.clone();
                    b[start + 4 * i..start + 4 * i + 4].copy_from_slice(&vi.to_le_bytes());
                    b[start + 4 * j..start + 4 * j + 4].copy_from_slice(&vj.to_le_bytes());
                    check(&b);
                }
            }
        }
    }
}

/// Every byte changed to a few values, every cut: empty lists, lists of one, tags.
#[test]
fn every_byte_changed() {
    for value in [
        sample(),
        Lists {
            us: vec![],
            ss: vec![],
            bs: vec![],
            ls: vec![],
            ms: vec![],
            last: String::new(),
        },
        Lists {
            us: vec![U::N],
            ss: vec!["x".into()],
            bs: vec![vec![]],
            ls: vec![vec![]],
            ms: vec![BTreeMap::new()],
            last: "l".into(),
        },
    ] {
        let bytes = value.to_bytes().unwrap();
        assert!(check(&bytes));
        for at in 0..bytes.len() {
            for v in [0u8, 1, 3, 4, 8, 0x4E, 0x46, 0x54, 0xFF, bytes[at] ^ 0x80] {
                let mut b = bytes.clone();
                b[at] = v;
                check(&b);
            }
        }
        for cut in 0..bytes.len() {
            check(&bytes[..cut]);
        }
    }
}
