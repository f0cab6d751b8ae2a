//! Validation of recursive messages uses bounded stack: a wide recursive message
//! nested to the depth limit validates on a 2 MiB thread, in debug builds too, and
//! one level more is `DepthLimitExceeded` (FORMAT.md §4.7).

use wiremsg::{ErrorKind, MAX_DEPTH, WireMsg};

macro_rules! wide {
    ($($f:ident)*) => {
        /// 90 fields: 89 lists of itself and a number.
        #[derive(WireMsg, Debug, Default, PartialEq)]
        struct Wide {
            id: u32,
            $($f: Vec<Wide>,)*
        }

        fn with_child(id: u32, child: Option<Wide>) -> Wide {
            let mut w = Wide { id, ..Wide::default() };
            if let Some(c) = child {
                w.f88.push(c);
            }
            w
        }
    };
}

wide! {
    f00 f01 f02 f03 f04 f05 f06 f07 f08 f09 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19
    f20 f21 f22 f23 f24 f25 f26 f27 f28 f29 f30 f31 f32 f33 f34 f35 f36 f37 f38 f39
    f40 f41 f42 f43 f44 f45 f46 f47 f48 f49 f50 f51 f52 f53 f54 f55 f56 f57 f58 f59
    f60 f61 f62 f63 f64 f65 f66 f67 f68 f69 f70 f71 f72 f73 f74 f75 f76 f77 f78 f79
    f80 f81 f82 f83 f84 f85 f86 f87 f88
}

/// `levels` nested messages (the root is level 0).
fn nested(levels: u32) -> Vec<u8> {
    let mut value = with_child(levels, None);
    for id in (0..levels).rev() {
        value = with_child(id, Some(value));
    }
    value.to_bytes().unwrap()
}

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn the_depth_limit_fits_a_2_mib_stack() {
    let at_limit = nested(MAX_DEPTH);
    let over = nested(MAX_DEPTH + 1);
    let (ok, err) = on_small_stack(move || {
        let ok = Wide::view(&at_limit)
            .map(|v| v.f88().len())
            .map_err(|e| e.to_string());
        let err = Wide::view(&over).unwrap_err();
        (ok, err)
    });
    assert_eq!(ok, Ok(1));
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    // 65 levels of `f88[0]` (130 segments): the path shows the first and last four
    // segments and counts the 122 between.
    assert_eq!(
        err.path(),
        "f88[0].f88[0] \u{2026} 122 segments \u{2026} f88[0].f88[0]"
    );
    assert!(
        err.to_string()
            .ends_with(" in `f88[0].f88[0] \u{2026} 122 segments \u{2026} f88[0].f88[0]`"),
        "{err}"
    );
}
