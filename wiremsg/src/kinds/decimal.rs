//! `Decimal<M, SCALE>`: fixed-point decimals, an integer mantissa with a decimal
//! exponent fixed at compile time (FORMAT.md §4.8).

use crate::field::{DecodeField, Element, Field, ViewOf};
use crate::mode::sealed::Sealed;
use crate::{Node, TypeSchema};
use core::fmt;
use core::str::FromStr;

/// The largest `SCALE`: `10^18` fits every mantissa's arithmetic here exactly.
pub const MAX_SCALE: u32 = 18;

/// `10^k` for `k <= MAX_SCALE`, as integers and as `f64`s (exact: `10^k < 2^53 * 2^k`).
const POW10: [u64; 19] = {
    let mut table = [1u64; 19];
    let mut k = 1;
    while k < 19 {
        table[k] = table[k - 1] * 10;
        k += 1;
    }
    table
};

/// A fixed-point decimal number: the integer `mantissa` times `10^-SCALE`, written on
/// the wire as the mantissa alone (`M`'s little-endian bytes); the exponent is part
/// of the type, not of the message.
///
/// This is SBE's `decimal` composite with a constant exponent (the schema names the
/// exponent, the message carries only the mantissa; SBE 1.0 "Decimal encoding"), and
/// Nasdaq TotalView-ITCH 5.0's `Price (4)` (a `u32` with 4 implied decimal places,
/// `Decimal<u32, 4>`) and `Price (8)` (`Decimal<u64, 8>`). `M` is an integer of 8 to
/// 64 bits; `SCALE` is 0 to [`MAX_SCALE`] (a compile error otherwise).
///
/// Every conversion is exact or says how it rounds: text ([`FromStr`], [`Display`](fmt::Display))
/// goes digit by digit with no float in between; [`try_from_f64`](Self::try_from_f64)
/// rounds the exact binary value of the `f64` by the [`Rounding`] asked for;
/// [`to_f64`](Self::to_f64) is the nearest `f64` (for mantissas up to `2^53`).
///
/// # Examples
///
/// ```
/// use wiremsg::{Decimal, Rounding, WireMsg};
///
/// type Price = Decimal<i64, 4>;
///
/// let px: Price = "234.56".parse().unwrap();
/// assert_eq!(px.mantissa(), 2_345_600);
/// assert_eq!(px.to_string(), "234.5600");
/// assert_eq!(Price::try_from_f64(0.1, Rounding::HalfEven).unwrap().mantissa(), 1_000);
/// assert!(Price::try_from_f64(0.000_05, Rounding::Exact).is_err());
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Trade {
///     px: Price,
///     qty: u32,
/// }
///
/// let bytes = Trade { px, qty: 100 }.to_bytes().unwrap();
/// assert_eq!(bytes[..8], 2_345_600i64.to_le_bytes()); // the mantissa, nothing else
/// assert_eq!(Trade::view(&bytes).unwrap().px(), px);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Decimal<M, const SCALE: u32> {
    mantissa: M,
}

/// An integer type that can be the mantissa of a [`Decimal`]: `i8` to `i64`, `u8` to
/// `u64`. Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the mantissa of a `Decimal`",
    note = "a decimal's mantissa is an integer of 8 to 64 bits: `Decimal<i64, 4>`, `Decimal<u32, 4>`"
)]
pub trait Mantissa: Field + Copy + Ord + Default + Sealed {
    /// The value, widened.
    #[doc(hidden)]
    fn to_i128(self) -> i128;
    /// The value, if it fits.
    #[doc(hidden)]
    fn from_i128(value: i128) -> Option<Self>;
    /// The view of the integer is the integer.
    #[doc(hidden)]
    fn from_view(view: ViewOf<'_, Self>) -> Self;
}

macro_rules! mantissa {
    ($($ty:ty),*) => {$(
        impl Mantissa for $ty {
            #[inline(always)]
            fn to_i128(self) -> i128 {
                i128::from(self)
            }

            #[inline(always)]
            fn from_i128(value: i128) -> Option<$ty> {
                <$ty>::try_from(value).ok()
            }

            #[inline(always)]
            fn from_view(view: $ty) -> $ty {
                view
            }
        }
    )*};
}

mantissa!(i8, i16, i32, i64, u8, u16, u32, u64);

/// How [`Decimal::try_from_f64`] rounds a value that falls between two decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// Refuse it: [`DecimalError::Inexact`].
    Exact,
    /// Toward zero (truncate).
    TowardZero,
    /// Toward negative infinity.
    Floor,
    /// Toward positive infinity.
    Ceiling,
    /// To the nearest; a tie to the even mantissa (IEEE 754's default, "banker's").
    HalfEven,
    /// To the nearest; a tie away from zero (school rounding).
    HalfAwayFromZero,
}

/// Why a value cannot be a [`Decimal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecimalError {
    /// The value does not fit the mantissa's type.
    Overflow,
    /// An `f64` that is NaN or infinite.
    NotFinite,
    /// An `f64` between two decimals, with [`Rounding::Exact`].
    Inexact,
    /// Text with more decimal places than `SCALE` (other than trailing zeros).
    TooPrecise {
        /// Byte offset of the first digit that does not fit.
        at: usize,
    },
    /// Text that is not a decimal number (`[+-]digits[.digits]`).
    Invalid {
        /// Byte offset of the first byte that is wrong (the length for empty text).
        at: usize,
    },
}

/// A [`DecimalError`] as an [`Error`](crate::Error) (`ErrorKind::Decimal`), so that `?`
/// works in functions that return `wiremsg::Error`; the offset is the byte of the
/// text at fault, or 0.
///
/// ```
/// use wiremsg::{Decimal, DecimalError, ErrorKind};
///
/// fn price(text: &str) -> Result<Decimal<i64, 2>, wiremsg::Error> {
///     Ok(text.parse()?)
/// }
/// assert_eq!(price("12.50")?.to_string(), "12.50");
/// let err = price("12.505").unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::Decimal(DecimalError::TooPrecise { at: 5 }));
/// assert_eq!(err.offset(), 5);
/// # Ok::<(), wiremsg::Error>(())
/// ```
impl From<DecimalError> for crate::Error {
    fn from(err: DecimalError) -> crate::Error {
        let at = match err {
            DecimalError::TooPrecise { at } | DecimalError::Invalid { at } => at,
            _ => 0,
        };
        crate::Error::new(crate::ErrorKind::Decimal(err), at)
    }
}

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecimalError::Overflow => f.write_str("decimal out of the mantissa's range"),
            DecimalError::NotFinite => f.write_str("NaN or infinity is not a decimal"),
            DecimalError::Inexact => {
                f.write_str("value is not exactly a decimal of this scale (Rounding::Exact)")
            }
            DecimalError::TooPrecise { at } => {
                write!(f, "more decimal places than the scale allows, at byte {at}")
            }
            DecimalError::Invalid { at } => write!(f, "not a decimal number, at byte {at}"),
        }
    }
}

impl core::error::Error for DecimalError {}

impl<M: Mantissa, const SCALE: u32> Decimal<M, SCALE> {
    /// Refuses a scale whose power of ten the arithmetic here cannot hold.
    pub(crate) const SCALE_OK: () = assert!(
        SCALE <= MAX_SCALE,
        "wiremsg: a Decimal's SCALE is at most 18 decimal places"
    );

    /// Decimal places: the value is `mantissa * 10^-SCALE`.
    pub const SCALE: u32 = SCALE;

    /// The decimal `mantissa * 10^-SCALE` (`from_mantissa(2_345_600)` is 234.56 at
    /// scale 4).
    ///
    /// # Examples
    ///
    /// ```
    /// let px = wiremsg::Decimal::<u32, 4>::from_mantissa(2_345_600);
    /// assert_eq!(px.to_string(), "234.5600");
    /// ```
    #[inline(always)]
    pub const fn from_mantissa(mantissa: M) -> Self {
        let () = Self::SCALE_OK;
        Decimal { mantissa }
    }

    /// The integer mantissa: the value times `10^SCALE`.
    #[inline(always)]
    pub fn mantissa(self) -> M {
        self.mantissa
    }

    /// The decimal nearest to the exact value of `value` in the direction `rounding`
    /// says. No float arithmetic is involved: the `f64`'s binary value is scaled and
    /// rounded in integers, so `0.1` at scale 4 is 1,000 units whatever the rounding
    /// (its binary value is a hair above 0.1), and `2.675` at scale 2 with
    /// [`Rounding::HalfEven`] is 2.67 (its binary value is below 2.675).
    ///
    /// # Errors
    ///
    /// [`DecimalError::NotFinite`] for NaN and infinities; [`DecimalError::Overflow`]
    /// if the rounded value does not fit `M`; [`DecimalError::Inexact`] with
    /// [`Rounding::Exact`] if `value` is not exactly a decimal of this scale.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{Decimal, DecimalError, Rounding};
    ///
    /// type Px = Decimal<i32, 2>;
    /// assert_eq!(Px::try_from_f64(-1.005, Rounding::HalfAwayFromZero).unwrap().mantissa(), -100);
    /// assert_eq!(Px::try_from_f64(1.25, Rounding::Exact).unwrap().mantissa(), 125);
    /// assert_eq!(Px::try_from_f64(0.125, Rounding::HalfEven).unwrap().mantissa(), 12);
    /// assert_eq!(Px::try_from_f64(0.125, Rounding::Ceiling).unwrap().mantissa(), 13);
    /// assert_eq!(Px::try_from_f64(f64::NAN, Rounding::Floor), Err(DecimalError::NotFinite));
    /// assert_eq!(Px::try_from_f64(3e7, Rounding::Floor), Err(DecimalError::Overflow));
    /// ```
    pub fn try_from_f64(value: f64, rounding: Rounding) -> Result<Self, DecimalError> {
        let () = Self::SCALE_OK;
        let units = scale_f64(value, SCALE, rounding)?;
        M::from_i128(units)
            .map(Self::from_mantissa)
            .ok_or(DecimalError::Overflow)
    }

    /// The `f64` nearest to the decimal (exactly that when `|mantissa| <= 2^53`: both
    /// the mantissa and `10^SCALE` are then exact `f64`s, and one division rounds once).
    ///
    /// # Examples
    ///
    /// ```
    /// let px = wiremsg::Decimal::<i64, 4>::from_mantissa(2_345_600);
    /// assert_eq!(px.to_f64(), 234.56);
    /// ```
    pub fn to_f64(self) -> f64 {
        self.mantissa.to_i128() as f64 / POW10[SCALE as usize] as f64
    }

    /// `self + other`, or `None` if the sum does not fit `M`.
    pub fn checked_add(self, other: Self) -> Option<Self> {
        M::from_i128(self.mantissa.to_i128() + other.mantissa.to_i128()).map(Self::from_mantissa)
    }

    /// `self - other`, or `None` if the difference does not fit `M`.
    pub fn checked_sub(self, other: Self) -> Option<Self> {
        M::from_i128(self.mantissa.to_i128() - other.mantissa.to_i128()).map(Self::from_mantissa)
    }
}

/// `|value| * 10^scale` rounded, with its sign: the exact binary value of the `f64`,
/// scaled in integers (`m * 2^e * 10^scale`, `m < 2^53`, `10^scale < 2^60`).
fn scale_f64(value: f64, scale: u32, rounding: Rounding) -> Result<i128, DecimalError> {
    if !value.is_finite() {
        return Err(DecimalError::NotFinite);
    }
    let bits = value.to_bits();
    let negative = bits >> 63 == 1;
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | 1 << 52, exponent - 1075)
    };
    let n = u128::from(m) * u128::from(POW10[scale as usize]); // < 2^113
    // The quotient, and where the remainder lies against one half.
    let (q, rest) = if n == 0 {
        (0, Rest::Zero)
    } else if e >= 0 {
        // A mantissa has at most 64 bits: a shift past the free high bits overflows.
        if e as u32 >= n.leading_zeros() {
            return Err(DecimalError::Overflow);
        }
        (n << e, Rest::Zero)
    } else if e <= -114 {
        // n < 2^113 <= 2^(-e-1): below one half.
        (0, Rest::BelowHalf)
    } else {
        let shift = (-e) as u32;
        let rem = n & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let rest = match rem.cmp(&half) {
            _ if rem == 0 => Rest::Zero,
            core::cmp::Ordering::Less => Rest::BelowHalf,
            core::cmp::Ordering::Equal => Rest::Half,
            core::cmp::Ordering::Greater => Rest::AboveHalf,
        };
        (n >> shift, rest)
    };
    let up = match (rounding, rest) {
        (_, Rest::Zero) => false,
        (Rounding::Exact, _) => return Err(DecimalError::Inexact),
        (Rounding::TowardZero, _) => false,
        (Rounding::Floor, _) => negative,
        (Rounding::Ceiling, _) => !negative,
        (Rounding::HalfEven, Rest::Half) => q & 1 == 1,
        (Rounding::HalfEven | Rounding::HalfAwayFromZero, Rest::AboveHalf) => true,
        (Rounding::HalfAwayFromZero, Rest::Half) => true,
        (Rounding::HalfEven | Rounding::HalfAwayFromZero, Rest::BelowHalf) => false,
    };
    let magnitude = i128::try_from(q + u128::from(up)).map_err(|_| DecimalError::Overflow)?;
    Ok(if negative { -magnitude } else { magnitude })
}

/// Where a remainder lies against one half of the divisor.
#[derive(Clone, Copy)]
enum Rest {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

/// Text: `[+-]digits[.digits]`, no exponent, no spaces; at most `SCALE` decimal
/// places, besides trailing zeros. Exact: no float is involved.
///
/// # Examples
///
/// ```
/// use wiremsg::{Decimal, DecimalError};
///
/// type Px = Decimal<u32, 4>;
/// assert_eq!("12.5".parse::<Px>().unwrap().mantissa(), 125_000);
/// assert_eq!(".5".parse::<Px>().unwrap().mantissa(), 5_000);
/// assert_eq!("1.000000".parse::<Px>().unwrap().mantissa(), 10_000);
/// assert_eq!("1.00001".parse::<Px>(), Err(DecimalError::TooPrecise { at: 6 }));
/// assert_eq!("-1".parse::<Px>(), Err(DecimalError::Overflow));
/// assert_eq!("1e3".parse::<Px>(), Err(DecimalError::Invalid { at: 1 }));
/// ```
impl<M: Mantissa, const SCALE: u32> FromStr for Decimal<M, SCALE> {
    type Err = DecimalError;

    fn from_str(text: &str) -> Result<Self, DecimalError> {
        let () = Self::SCALE_OK;
        let bytes = text.as_bytes();
        let (negative, mut at) = match bytes.first() {
            Some(b'-') => (true, 1),
            Some(b'+') => (false, 1),
            _ => (false, 0),
        };
        let mut units: i128 = 0;
        let mut digits = 0;
        let mut places: Option<u32> = None;
        while let Some(&byte) = bytes.get(at) {
            match (byte, places) {
                (b'.', None) => places = Some(0),
                (b'0'..=b'9', _) => {
                    let digit = i128::from(byte - b'0');
                    digits += 1;
                    match places {
                        Some(p) if p >= SCALE => {
                            if digit != 0 {
                                return Err(DecimalError::TooPrecise { at });
                            }
                        }
                        _ => {
                            units = units
                                .checked_mul(10)
                                .and_then(|u| u.checked_add(digit))
                                .ok_or(DecimalError::Overflow)?;
                            if let Some(p) = &mut places {
                                *p += 1;
                            }
                        }
                    }
                }
                _ => return Err(DecimalError::Invalid { at }),
            }
            at += 1;
        }
        if digits == 0 {
            return Err(DecimalError::Invalid {
                at: bytes.len().min(at),
            });
        }
        let places = places.unwrap_or(0);
        let units = units
            .checked_mul(i128::from(POW10[(SCALE - places) as usize]))
            .ok_or(DecimalError::Overflow)?;
        let units = if negative { -units } else { units };
        M::from_i128(units)
            .map(Self::from_mantissa)
            .ok_or(DecimalError::Overflow)
    }
}

/// Exactly `SCALE` decimal places (`234.5600` at scale 4), with the formatter's width,
/// fill and alignment; no float is involved.
impl<M: Mantissa, const SCALE: u32> fmt::Display for Decimal<M, SCALE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units = self.mantissa.to_i128();
        let pow = u128::from(POW10[SCALE as usize]);
        let (int, frac) = (units.unsigned_abs() / pow, units.unsigned_abs() % pow);
        // At most a sign, 20 digits, a point and 18 digits.
        let mut buf = Buffer::default();
        let sign = if units < 0 { "-" } else { "" };
        let written = if SCALE == 0 {
            fmt::write(&mut buf, format_args!("{sign}{int}"))
        } else {
            let width = SCALE as usize;
            fmt::write(&mut buf, format_args!("{sign}{int}.{frac:0width$}"))
        };
        written?;
        f.pad(buf.as_str())
    }
}

impl<M: Mantissa, const SCALE: u32> fmt::Debug for Decimal<M, SCALE> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A small stack buffer for `Display`.
struct Buffer {
    bytes: [u8; 48],
    len: usize,
}

impl Default for Buffer {
    fn default() -> Self {
        Buffer {
            bytes: [0; 48],
            len: 0,
        }
    }
}

impl Buffer {
    fn as_str(&self) -> &str {
        // Only `str`s are written into it (`write_str`).
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

impl fmt::Write for Buffer {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let out = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        out.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

impl<M: Mantissa, const SCALE: u32> Field for Decimal<M, SCALE> {
    type Kind = Self;
    const TYPE: &'static TypeSchema = &TypeSchema::Decimal {
        mantissa: Node::Static(M::TYPE),
        scale: SCALE,
    };

    #[inline(always)]
    fn tail_len(&self) -> usize {
        0
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]) {
        self.mantissa.write(block, tail);
    }
}

crate::field::list_element!([impl<M: Mantissa, const SCALE: u32> Element for Decimal<M, SCALE>]);

impl<'v, M: Mantissa, const SCALE: u32> DecodeField<'v> for Decimal<M, SCALE> {
    #[inline(always)]
    fn decode_view(view: Self) -> Self {
        view
    }
}

/// A decimal's null sentinel is a mantissa: `#[wire(null = i64::MIN)]` on an
/// `Option<Decimal<i64, 4>>` (SBE's optional decimal: a null mantissa).
impl<M: Mantissa + crate::null::NullRepr, const SCALE: u32> crate::null::NullRepr
    for Decimal<M, SCALE>
{
    type Raw = M;

    #[inline(always)]
    fn raw(self) -> i128 {
        self.mantissa.to_i128()
    }

    #[inline(always)]
    fn from_raw(raw: i128) -> Self {
        Decimal::from_mantissa(M::from_i128(raw).unwrap_or_default())
    }

    #[inline(always)]
    fn raw_of_view(view: Self) -> i128 {
        view.mantissa.to_i128()
    }
}
