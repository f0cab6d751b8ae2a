//! `mir_inline_barrier!`: keeps rustc's MIR inliner from copying the runtime's
//! functions into the methods a derive generates, and leaves their inlining to LLVM.
//!
//! Why. In a release build rustc inlines small callees into every function body of a
//! crate at the MIR level, before LLVM runs, and it does so in the crate that
//! declares the body, whether or not any program calls it. A crate of derived
//! messages is thousands of small `#[inline]` methods (an accessor per field on each
//! view, a setter and an updater per field, encoding, checking and decoding), each a
//! call into this crate: the inliner instantiated the callee's MIR for the message's
//! types in every one of them, and that was about a sixth of the release build of the
//! 40-message crate of `benches/compile-time` (`benches/README.md`, "Derive cost").
//! LLVM inlines the same calls again where a program uses the methods, so the work
//! bought nothing at run time.
//!
//! How. The inliner weighs a callee's MIR before it instantiates it, and gives up on
//! a callee above its threshold (rustc's `Inliner::check_callee_mir_body`,
//! `check_mir_body` in older releases: a call costs 25; the threshold is 100 for an
//! `#[inline]` callee, 50 for others, 30 inside a forwarder, a quarter more for a
//! body of three blocks or fewer). The barrier is a branch that
//! adds five calls to a cold function that is never inlined: its condition, that a
//! type is `usize::MAX` bytes long, is unknown to the generic MIR and false for every
//! type (rustc refuses a type larger than `isize::MAX` bytes: "values of the type ..
//! are too big for the target architecture"). Once the function is instantiated the
//! condition is a constant: an optimized build removes the branch and inlines the
//! function as before; a debug build keeps a compare and a jump that is never taken
//! at each call (and the five calls behind it), about the cost of one more
//! instruction per call. `benches/README.md`, "Derive cost", gives the compile times
//! and the instructions per operation before and after.
//!
//! Where. At the top of the runtime's functions that derived code calls: the reads
//! and writes of `Validated`, `ValidatedMut` and `LazyMsg`, the helpers of
//! `__private` (`Gate`, `Probe`, `Held`, the encoding and checking of fields), and
//! the list impls and `String`'s decoding in `kinds`. Not in functions that only the
//! runtime calls.

/// A never-taken branch that puts the function it starts above the MIR inliner's
/// threshold (see the module docs). `$t` is any type the function is generic over,
/// so that the condition is not a constant until the function is instantiated.
macro_rules! mir_inline_barrier {
    ($t:ty) => {
        if ::core::mem::size_of::<$t>() == usize::MAX {
            $crate::inline_barrier::never();
            $crate::inline_barrier::never();
            $crate::inline_barrier::never();
            $crate::inline_barrier::never();
            $crate::inline_barrier::never();
        }
    };
}

/// The barrier's calls: never made (see the module docs), and never inlined, so
/// that each counts as a call.
#[cold]
#[inline(never)]
pub(crate) fn never() {}
