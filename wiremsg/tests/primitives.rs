//! Numbers, `bool` and options of these in every generated item that the derive
//! writes for them without a bound (it knows the runtime's impls by their names, to
//! save the compiler's trait solving; see `gen::guards`): setters, `update_<field>`,
//! the mutable view's getters (through the view's), the views' equality and
//! decoding, against values of every width and their extremes.

use wiremsg::WireMsg;

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(version = 2)]
struct Every {
    a: u8,
    b: u16,
    c: u32,
    d: u64,
    e: u128,
    f: i8,
    g: i16,
    h: i32,
    i: i64,
    j: i128,
    k: f32,
    l: f64,
    m: bool,
    n: Option<u8>,
    o: Option<i64>,
    p: Option<u128>,
    q: Option<f64>,
    r: Option<bool>,
    #[wire(null = u32::MAX)]
    s: Option<u32>,
    name: String,
    #[wire(since = 2)]
    t: u32,
    #[wire(since = 2)]
    u: Option<i16>,
}

fn sample() -> Every {
    Every {
        a: u8::MAX,
        b: 2,
        c: u32::MAX - 1,
        d: 1 << 40,
        e: u128::MAX / 3,
        f: i8::MIN,
        g: -2,
        h: i32::MIN + 1,
        i: i64::MIN,
        j: i128::MIN / 5,
        k: -0.5,
        l: f64::MAX,
        m: true,
        n: Some(0),
        o: None,
        p: Some(u128::MAX),
        q: Some(-1.25),
        r: Some(false),
        s: Some(7),
        name: "x".into(),
        t: 9,
        u: None,
    }
}

#[test]
fn views_compare_and_decode_numbers_as_themselves() {
    let value = sample();
    let bytes = value.to_bytes().unwrap();
    let view = Every::view(&bytes).unwrap();
    assert_eq!(view.decode(), value);
    assert_eq!(Every::decode(&bytes).unwrap(), value);
    assert_eq!(view, Every::view(&bytes).unwrap());
    assert_eq!(value, view);
    let mut other = value.clone();
    other.q = Some(1.25);
    let other_bytes = other.to_bytes().unwrap();
    assert_ne!(view, Every::view(&other_bytes).unwrap());
    assert_ne!(other, view);
    // A NaN is not equal to itself, in the view as in the value.
    let mut nan = value;
    nan.l = f64::NAN;
    let nan_bytes = nan.to_bytes().unwrap();
    assert_ne!(
        Every::view(&nan_bytes).unwrap(),
        Every::view(&nan_bytes).unwrap()
    );
}

#[test]
fn mutable_views_set_update_and_read_every_number() {
    let mut bytes = sample().to_bytes().unwrap();
    let mut m = Every::view_mut(&mut bytes).unwrap();
    m.set_a(1);
    m.update_b(|b| b * 3);
    m.set_e(5);
    m.update_j(|j| j + 1);
    m.set_k(2.5);
    m.update_m(|m| !m);
    m.set_n(None);
    m.update_o(|o| o.or(Some(-4)));
    m.update_q(|q| q.map(|q| q * 2.0));
    m.set_r(Some(true));
    m.set_s(None).unwrap();
    assert!(m.set_t(10));
    assert!(m.update_u(|u| u.or(Some(-3))));
    assert_eq!(
        (m.a(), m.b(), m.e(), m.j(), m.k(), m.m(), m.n(), m.o()),
        (1, 6, 5, i128::MIN / 5 + 1, 2.5, false, None, Some(-4))
    );
    assert_eq!(
        (m.q(), m.r(), m.s(), m.name()),
        (Some(-2.5), Some(true), None, "x")
    );
    assert_eq!(
        (m.t(), m.try_t(), m.has_u(), m.u()),
        (10, Some(10), true, Some(-3))
    );
    let expected = Every {
        a: 1,
        b: 6,
        e: 5,
        j: i128::MIN / 5 + 1,
        k: 2.5,
        m: false,
        n: None,
        o: Some(-4),
        q: Some(-2.5),
        r: Some(true),
        s: None,
        t: 10,
        u: Some(-3),
        ..sample()
    };
    assert_eq!(Every::decode(&bytes).unwrap(), expected);
}

/// Packed lists of every width: the iterator (which steps through the rest of the
/// region by the element's size) returns each element once, in order, and its
/// `len()` counts what is left at every step, down to an empty list.
#[test]
fn a_packed_lists_iterator_returns_each_element_and_counts_what_is_left() {
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    struct Lists {
        signed: Vec<i8>,
        shorts: Vec<i16>,
        floats: Vec<f32>,
        wide: Vec<u128>,
        flags: Vec<bool>,
    }
    for n in [0usize, 1, 3, 4, 5, 8, 9, 17] {
        let value = Lists {
            signed: (0..n).map(|i| (i as i8).wrapping_mul(37)).collect(),
            shorts: (0..n).map(|i| -(i as i16) * 300).collect(),
            floats: (0..n).map(|i| i as f32 * 0.5).collect(),
            wide: (0..n).map(|i| u128::MAX - i as u128).collect(),
            flags: (0..n).map(|i| i % 3 == 0).collect(),
        };
        let bytes = value.to_bytes().unwrap();
        let view = Lists::view(&bytes).unwrap();
        let mut shorts = view.shorts().iter();
        for (k, want) in value.shorts.iter().enumerate() {
            assert_eq!(shorts.len(), n - k);
            assert_eq!(shorts.next(), Some(*want));
        }
        assert_eq!((shorts.len(), shorts.next()), (0, None));
        assert_eq!(view.signed().iter().collect::<Vec<_>>(), value.signed);
        assert_eq!(view.floats().iter().collect::<Vec<_>>(), value.floats);
        assert_eq!(view.wide().iter().collect::<Vec<_>>(), value.wide);
        assert_eq!(view.flags().iter().collect::<Vec<_>>(), value.flags);
        assert_eq!(view.wide().iter().size_hint(), (n, Some(n)));
    }
    // The iterator holds its bytes as pointers: still `Send` and `Sync`, as a `&[u8]`.
    fn send_sync<T: Send + Sync + std::panic::UnwindSafe + std::panic::RefUnwindSafe + Unpin>() {}
    send_sync::<wiremsg::ListIter<'static, u16>>();
    send_sync::<wiremsg::ListIter<'static, String>>();
}
