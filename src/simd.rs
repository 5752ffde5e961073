//! Which vector unit the chunk filters and the codecs run on: the widest this CPU has
//! (AVX-512 with VBMI, AVX2, SSE4.2 or NEON), detected once at run time by
//! `fearless_simd`, which keeps the `unsafe` of detection and of entering code compiled
//! for those features out of this crate; or the plain loops, without the `simd`
//! feature (and so without `std`). It imports nothing of the crate: `chunk` and `codec`
//! both use it.
//!
//! A [`Kernel`] is written once, generic over `fearless_simd::Simd` (its vectors are as
//! wide as the unit's registers), and once as plain loops; [`Unit::run`] picks.

#[cfg(feature = "simd")]
use fearless_simd::{Level, Simd};

/// A vector unit, or none.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Unit {
    #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
    Avx512(fearless_simd::Avx512),
    #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
    Avx2(fearless_simd::Avx2),
    #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
    Sse4_2(fearless_simd::Sse4_2),
    #[cfg(all(feature = "simd", target_arch = "aarch64"))]
    Neon(fearless_simd::Neon),
    /// The plain loops.
    Plain,
}

/// Work done either with vectors of a unit or with plain loops, the same bytes out.
pub(crate) trait Kernel {
    type Output;
    /// With the unit's vectors. Called inside code compiled for the unit's features:
    /// what it calls must be `#[inline(always)]` to be compiled for them too.
    #[cfg(feature = "simd")]
    fn wide<S: Simd>(self, simd: S) -> Self::Output;
    /// With plain loops.
    fn plain(self) -> Self::Output;
}

/// Work written once for every unit, scalar code: a [`Kernel`] whose body, run on
/// [`Unit::scalar`], is compiled for the unit's features (BMI2's shifts by a register:
/// one instruction where x86-64's take three). `run` must be `#[inline(always)]`.
pub(crate) trait ScalarKernel {
    type Output;
    fn run(self) -> Self::Output;
}

impl<K: ScalarKernel> Kernel for K {
    type Output = K::Output;

    #[cfg(feature = "simd")]
    #[inline(always)]
    fn wide<S: Simd>(self, _: S) -> K::Output {
        self.run()
    }

    fn plain(self) -> K::Output {
        self.run()
    }
}

impl Unit {
    /// The widest unit of this CPU (detected once per process by `fearless_simd`).
    #[inline]
    pub(crate) fn detected() -> Unit {
        #[cfg(feature = "simd")]
        {
            let level = Level::new();
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            {
                if let Some(t) = level.as_avx512() {
                    return Unit::Avx512(t);
                }
                if let Some(t) = level.as_avx2() {
                    return Unit::Avx2(t);
                }
                if let Some(t) = level.as_sse4_2() {
                    return Unit::Sse4_2(t);
                }
            }
            #[cfg(target_arch = "aarch64")]
            if let Some(t) = level.as_neon() {
                return Unit::Neon(t);
            }
        }
        Unit::Plain
    }

    /// The unit for scalar code: AVX2's level where the CPU has it (BMI2's shifts and
    /// bit counts), never AVX-512's, whose wide registers LLVM packs independent scalar
    /// lanes into (slower there).
    #[inline]
    pub(crate) fn scalar() -> Unit {
        match Unit::detected() {
            #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
            Unit::Avx512(_) => Level::new().as_avx2().map_or(Unit::Plain, Unit::Avx2),
            unit => unit,
        }
    }

    /// `kernel` on this unit.
    #[inline]
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> K::Output {
        match self {
            #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
            Unit::Avx512(t) => t.vectorize(
                #[inline(always)]
                || kernel.wide(t),
            ),
            #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
            Unit::Avx2(t) => t.vectorize(
                #[inline(always)]
                || kernel.wide(t),
            ),
            #[cfg(all(feature = "simd", any(target_arch = "x86", target_arch = "x86_64")))]
            Unit::Sse4_2(t) => t.vectorize(
                #[inline(always)]
                || kernel.wide(t),
            ),
            #[cfg(all(feature = "simd", target_arch = "aarch64"))]
            Unit::Neon(t) => t.vectorize(
                #[inline(always)]
                || kernel.wide(t),
            ),
            Unit::Plain => kernel.plain(),
        }
    }

    /// The plain loops, then every unit this CPU runs: the tests run each.
    #[cfg(test)]
    pub(crate) fn all() -> alloc::vec::Vec<Unit> {
        #[cfg_attr(not(feature = "simd"), allow(unused_mut))]
        let mut units = alloc::vec![Unit::Plain];
        #[cfg(feature = "simd")]
        {
            let level = Level::new();
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            {
                units.extend(level.as_avx512().map(Unit::Avx512));
                units.extend(level.as_avx2().map(Unit::Avx2));
                units.extend(level.as_sse4_2().map(Unit::Sse4_2));
            }
            #[cfg(target_arch = "aarch64")]
            units.extend(level.as_neon().map(Unit::Neon));
        }
        units
    }
}
