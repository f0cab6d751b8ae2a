//! The `Debug` and `PartialEq` of derived views: one generic walk of the message's
//! layout here, compiled where a program formats or compares a view, rather than one
//! body per message that every crate deriving messages compiles, with every field's
//! read inlined into it (in `benches/compile-time`, those bodies were 0.35 s of a
//! debug build and 0.84 s of a release build of 40 messages).

use crate::field::{Field, Kind};
use crate::layout::{FieldPos, Layout, Visit, visit_fields};
use crate::lazy::LazyMsg;
use crate::mode::sealed::INTERNAL;
use crate::validated::{Validated, validate};
use crate::{Error, LazyOf, WireMsg};
use core::fmt;

/// Formats the fields of `view` as a struct named `name`, as its accessors read
/// them: a field added in a later version as its `try_` accessor (`None` where the
/// writer did not have it). Fields whose index is in `reserved` are left out.
#[inline(never)]
pub fn fmt_view<L: Layout>(
    view: Validated<'_, L>,
    name: &str,
    reserved: &[usize],
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    fmt_fields::<L, _>(view, name, reserved, f)
}

/// Formats the fields of the on-demand view `view` as a struct named `name`, each as
/// its accessor reads it: `Ok(value)` or `Err(error)`, a field added in a later
/// version as its `try_` accessor. Fields whose index is in `reserved` are left out.
#[inline(never)]
pub fn fmt_lazy<L: Layout>(
    view: &LazyMsg<'_, L>,
    name: &str,
    reserved: &[usize],
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    fmt_fields::<L, _>(view, name, reserved, f)
}

/// [`fmt_view`] and [`fmt_lazy`]: each field as `read` reads it.
fn fmt_fields<L: Layout, R>(
    read: R,
    name: &str,
    reserved: &[usize],
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result
where
    for<'a, 'b, 'r> Fields<'a, 'b, 'r, R>: Visit<L>,
{
    let mut fields = Fields {
        out: f.debug_struct(name),
        names: L::FIELD_NAMES,
        reserved,
        read,
    };
    visit_fields::<L, _>(&mut fields);
    fields.out.finish()
}

/// True if every field of `a` and `b` reads the same (the kinds' own equality: numbers
/// and text by value, lists and nested messages element by element); a field added
/// in a later version is equal where both writers had it with one value, or neither
/// did. Fields whose index is in `reserved` are left out.
#[inline(never)]
pub fn eq_views<L: Layout>(a: Validated<'_, L>, b: Validated<'_, L>, reserved: &[usize]) -> bool {
    let mut fields = EqFields {
        a,
        b,
        reserved,
        equal: true,
    };
    visit_fields::<L, _>(&mut fields);
    fields.equal
}

/// True if the view of `value`'s encoding equals `other` ([`eq_views`]); false if
/// `value` does not encode (the owned message's `PartialEq` with its view).
#[inline(never)]
pub fn eq_encoded<M: WireMsg>(
    value: &M,
    other: Validated<'_, M::Layout>,
    reserved: &[usize],
) -> bool {
    let Ok(bytes) = value.to_bytes() else {
        return false;
    };
    match validate::<M::Layout>(&bytes) {
        Ok(mine) => eq_views(mine, other, reserved),
        Err(_) => false,
    }
}

/// A walk that formats each field as `read` reads it ([`fmt_view`], [`fmt_lazy`]).
struct Fields<'a, 'b, 'r, R> {
    out: fmt::DebugStruct<'a, 'b>,
    names: &'static [&'static str],
    reserved: &'r [usize],
    read: R,
}

impl<'v, L: Layout> Visit<L> for Fields<'_, '_, '_, Validated<'v, L>> {
    fn field<F: Field + 'static>(&mut self, pos: FieldPos<L, F>) {
        let (index, since) = (pos.index(), pos.since());
        if self.reserved.contains(&index) {
            return;
        }
        let name = self.names.get(index).copied().unwrap_or("?");
        match self.read.field(pos) {
            // A field of version 1 is in every valid message.
            Some(view) if since <= 1 => self.out.field(name, &view),
            view => self.out.field(name, &view),
        };
    }
}

impl<L: Layout> Visit<L> for Fields<'_, '_, '_, &LazyMsg<'_, L>> {
    fn field<F: Field + 'static>(&mut self, pos: FieldPos<L, F>) {
        let (index, since) = (pos.index(), pos.since());
        if self.reserved.contains(&index) {
            return;
        }
        let name = self.names.get(index).copied().unwrap_or("?");
        let read = self.read.field(pos);
        if since > 1 {
            self.out.field(name, &read);
            return;
        }
        // A field of version 1, as its accessor (`LazyMsg::get`) reads it.
        let read: Result<LazyOf<'_, F>, Error> = match read {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(self.read.cut_block()),
            Err(err) => Err(err),
        };
        self.out.field(name, &read);
    }
}

/// [`eq_views`]' walk.
struct EqFields<'v, 'r, L> {
    a: Validated<'v, L>,
    b: Validated<'v, L>,
    reserved: &'r [usize],
    equal: bool,
}

impl<L: Layout> Visit<L> for EqFields<'_, '_, L> {
    fn field<F: Field + 'static>(&mut self, pos: FieldPos<L, F>) {
        if !self.equal || self.reserved.contains(&pos.index()) {
            return;
        }
        self.equal = match (self.a.field(pos), self.b.field(pos)) {
            (Some(a), Some(b)) => <F::Kind as Kind>::view_eq(INTERNAL, a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
    }
}
