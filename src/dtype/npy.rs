//! The dict of a NumPy `.npy` header (`numpy/lib/format.py`): `{'descr': ...,
//! 'fortran_order': ..., 'shape': (...)}`, read as `read_array_header` and
//! `descr_to_dtype` read it: a `descr` is a type string, a `(descr, shape)` subarray,
//! or a list of fields whose unnamed void fields are gaps (the padding `np.save` writes
//! for aligned and offset structs).

use alloc::string::String;
use alloc::vec::Vec;

use super::build::{dtype_from_lit, make_subarray, shape_from_lit, text_of};
use super::error::{error_at, invalid, nesting_error, DtypeError};
use super::kind::Kind;
use super::layout::{finish_struct, PendingField};
use super::limits::MAX_NESTING;
use super::literal::{skip_ws, Lexer, Lit};
use super::model::Dtype;

/// What a `.npy` header's dict says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NpyDict {
    pub(crate) dtype: Dtype,
    pub(crate) fortran_order: bool,
    pub(crate) shape: Vec<u64>,
}

/// Parses the dict `text` (offsets in errors are into `text`). Its keys must be exactly
/// `descr`, `fortran_order` and `shape`, as numpy requires.
pub(crate) fn parse_npy_dict(text: &str) -> Result<NpyDict, DtypeError> {
    let mut lexer = Lexer {
        src: text,
        pos: skip_ws(text, 0),
    };
    let lit = lexer.value(0)?;
    let end = skip_ws(text, lexer.pos);
    if end < text.len() {
        return Err(error_at(text, end, "the end of the header's dict"));
    }
    let Lit::Dict(entries, pos) = &lit else {
        return Err(invalid(lit.pos(), "a dict", lit.describe()));
    };
    let get = |key: &str| {
        entries
            .iter()
            .find(|(k, _)| text_of(k).as_deref() == Some(key))
            .map(|(_, v)| v)
    };
    let keys: Vec<String> = entries.iter().filter_map(|(k, _)| text_of(k)).collect();
    let (Some(descr), Some(order), Some(shape), 3) = (
        get("descr"),
        get("fortran_order"),
        get("shape"),
        entries.len(),
    ) else {
        return Err(invalid(
            *pos,
            "the keys 'descr', 'fortran_order' and 'shape'",
            alloc::format!("{keys:?}"),
        ));
    };
    let fortran_order = match order {
        Lit::Bool(b, _) => *b,
        other => return Err(invalid(other.pos(), "True or False", other.describe())),
    };
    let shape = match shape {
        Lit::Tuple(..) => shape_from_lit(shape)?,
        other => {
            return Err(invalid(
                other.pos(),
                "a tuple of integers",
                other.describe(),
            ));
        }
    };
    Ok(NpyDict {
        dtype: descr_to_dtype(descr, 0)?,
        fortran_order,
        shape,
    })
}

/// numpy's `descr_to_dtype`.
fn descr_to_dtype(lit: &Lit<'_>, depth: usize) -> Result<Dtype, DtypeError> {
    if depth > MAX_NESTING {
        return Err(nesting_error(lit.pos()));
    }
    match lit {
        Lit::Str { .. } => dtype_from_lit(lit, false, depth),
        Lit::Tuple(items, pos) => match items.as_slice() {
            [base, shape] => {
                let base_dt = descr_to_dtype(base, depth + 1)?;
                make_subarray(base_dt, shape_from_lit(shape)?, base.pos(), shape.pos())
            }
            _ => Err(invalid(*pos, "a (descr, shape) tuple", lit.describe())),
        },
        Lit::List(items, pos) => fields(items, *pos, depth),
        other => Err(invalid(
            other.pos(),
            "a type string, a list of fields or a (descr, shape) tuple",
            other.describe(),
        )),
    }
}

/// The fields of a struct descr at their offsets; unnamed void fields are gaps.
fn fields(items: &[Lit<'_>], pos: usize, depth: usize) -> Result<Dtype, DtypeError> {
    let mut pending = Vec::new();
    let mut offsets = Vec::new();
    let mut offset = 0u64;
    for item in items {
        let Lit::Tuple(parts, _) = item else {
            return Err(invalid(item.pos(), "a field tuple", item.describe()));
        };
        let (name_lit, format_lit, shape) = match parts.as_slice() {
            [n, f] => (n, f, None),
            [n, f, s] => (n, f, Some(s)),
            _ => return Err(invalid(item.pos(), "a field tuple", item.describe())),
        };
        let mut dtype = descr_to_dtype(format_lit, depth + 1)?;
        if let Some(s) = shape {
            dtype = make_subarray(dtype, shape_from_lit(s)?, format_lit.pos(), s.pos())?;
        }
        let size = dtype.itemsize();
        let (title, name) = match name_lit {
            Lit::Tuple(pair, _) if pair.len() == 2 => (text_of(&pair[0]), text_of(&pair[1])),
            _ => (None, text_of(name_lit)),
        };
        let Some(name) = name else {
            return Err(invalid(name_lit.pos(), "a field name", name_lit.describe()));
        };
        let padding = name.is_empty()
            && dtype.kind() == Kind::Void
            && dtype.fields().is_none()
            && dtype.subarray().is_none();
        if !padding {
            pending.push(PendingField {
                name,
                name_pos: name_lit.pos(),
                title,
                title_pos: name_lit.pos(),
                dtype,
                pos: format_lit.pos(),
            });
            offsets.push((offset, item.pos()));
        }
        offset = offset.saturating_add(size);
    }
    finish_struct(pending, Some(offsets), Some((offset, pos)), false)
}

#[cfg(test)]
mod tests {
    use super::parse_npy_dict;
    use alloc::string::ToString;

    #[test]
    fn numpy_headers_as_np_save_writes_them() {
        // (dict, dtype as python-blosc2 stores it, fortran order, shape): np.save's.
        for (dict, dtype, fortran, shape) in [
            ("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", "<f8", false, &[3, 4][..]),
            ("{'descr': '|b1', 'fortran_order': True, 'shape': (2, 5), }", "|b1", true, &[2, 5]),
            ("{'descr': '>i4', 'fortran_order': False, 'shape': (), }", ">i4", false, &[]),
            ("{'descr': '<U3', 'fortran_order': False, 'shape': (7,), }", "<U3", false, &[7]),
            ("{'descr': [('a', '<i4'), ('', '|V4'), ('b', '<f8', (2,))], 'fortran_order': False, 'shape': (1,), }",
             "{'names': ['a', 'b'], 'formats': ['<i4', ('<f8', (2,))], 'offsets': [0, 8], 'itemsize': 24}", false, &[1]),
        ] {
            let got = parse_npy_dict(dict).unwrap();
            assert_eq!(got.dtype.to_string(), dtype, "{dict}");
            assert_eq!((got.fortran_order, &got.shape[..]), (fortran, shape), "{dict}");
        }
        for (dict, offset) in [
            ("{'descr': '<f8', 'shape': (3,), }", Some(0)),
            (
                "{'descr': '<f8', 'fortran_order': 0, 'shape': (3,), }",
                Some(34),
            ),
            (
                "{'descr': '<i3', 'fortran_order': False, 'shape': (3,), }",
                Some(13),
            ),
            (
                "{'descr': '<f8', 'fortran_order': False, 'shape': 3, }",
                Some(50),
            ),
        ] {
            assert_eq!(parse_npy_dict(dict).unwrap_err().offset(), offset, "{dict}");
        }
    }
}
