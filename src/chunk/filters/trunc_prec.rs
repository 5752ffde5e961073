//! Truncation of precision: the low mantissa bits of 4- or 8-byte floats zeroed
//! (`truncate_precision`, `blosc/trunc-prec.c`). Applied by the compressor only: it
//! needs no undoing.

/// Why the truncation of precision refuses its parameters (C's `truncate_precision`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TruncError {
    /// Only 4- and 8-byte floats are truncated.
    Typesize,
    /// The meta byte (an `i8`) keeps or drops too many mantissa bits.
    Bits,
}

/// Zeroes the low mantissa bits of 4- or 8-byte floats: `prec_bits` (the meta byte as
/// an `i8`) kept when positive, `-prec_bits` dropped when negative.
pub(crate) fn trunc_prec(
    prec_bits: u8,
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
) -> Result<(), TruncError> {
    let prec = i32::from(prec_bits as i8);
    let mantissa = match typesize {
        4 => 23,
        8 => 52,
        _ => return Err(TruncError::Typesize),
    };
    if prec.abs() > mantissa {
        return Err(TruncError::Bits);
    }
    let zeroed = if prec >= 0 { mantissa - prec } else { -prec };
    if zeroed >= mantissa {
        return Err(TruncError::Bits);
    }
    let mask = !((1u64 << zeroed) - 1);
    let whole = src.len() - src.len() % typesize;
    for (d, s) in dst[..whole]
        .chunks_exact_mut(typesize)
        .zip(src.chunks_exact(typesize))
    {
        let mut v = [0u8; 8];
        v[..typesize].copy_from_slice(s);
        let masked = (u64::from_le_bytes(v) & mask).to_le_bytes();
        d.copy_from_slice(&masked[..typesize]);
    }
    dst[whole..].copy_from_slice(&src[whole..]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trunc_prec_keeps_the_asked_bits() {
        let x = 1.0f64 + f64::EPSILON * 3.0;
        let mut out = [0u8; 8];
        trunc_prec(10, 8, &x.to_le_bytes(), &mut out).unwrap();
        assert_eq!(f64::from_le_bytes(out), 1.0);
        trunc_prec(-2i8 as u8, 8, &x.to_le_bytes(), &mut out).unwrap();
        assert_eq!(f64::from_le_bytes(out), 1.0);
        trunc_prec(-1i8 as u8, 8, &x.to_le_bytes(), &mut out).unwrap();
        assert_eq!(f64::from_le_bytes(out), 1.0 + f64::EPSILON * 2.0);
        assert_eq!(trunc_prec(53, 8, &[0; 8], &mut out), Err(TruncError::Bits));
        assert_eq!(trunc_prec(0, 8, &[0; 8], &mut out), Err(TruncError::Bits));
        assert_eq!(
            trunc_prec(3, 2, &[0; 8], &mut out),
            Err(TruncError::Typesize)
        );
    }
}
